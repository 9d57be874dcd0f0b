"""The API's input and output models (separate, as in FastAPI's template)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.server.text import Name, Text, name_key

Language = Literal["en", "fa", "he", "ar"]

# Every request body is strict: a number is a JSON number, a yes/no a JSON true/false (never
# "3" for 3 or "yes" for true), and no field that the API does not have; anything else is a
# clear 422 naming the field.
STRICT_IN = ConfigDict(extra="forbid", strict=True)

# every text field is one of these: well-formed, NFC, visible, no controls (referee.server.text)
if TYPE_CHECKING:  # to a type checker each is a str; at run time, a validated one
    TableName = str
    StationId = str
    CameraText = str
    CameraFormat = str
    CardId = str
    Grid = str
    DieText = str
else:
    TableName = Text(60)
    StationId = Text(100)
    CameraText = Text(500)
    CameraFormat = Text(16)
    CardId = Text(40)
    Grid = Text(400, multiline=True)
    DieText = Text(20)


class CameraIn(BaseModel):
    """A build place's camera: a phone upload, OpenCV capture (index, file, RTSP/HTTP URL),
    a folder of photos, or the Raspberry Pi camera (picamera2 format, e.g. RGB888)."""

    model_config = STRICT_IN
    kind: Literal["upload", "capture", "folder", "picamera"] = "upload"
    device: CameraText | None = None
    path: CameraText | None = None
    format: CameraFormat | None = None

    @model_validator(mode="after")
    def _fields_of_its_kind(self) -> CameraIn:
        """A field another kind of camera reads is refused, not stored unread (`device` is a
        capture's, `path` a folder's, `format` the Pi camera's)."""
        own = {"upload": set(), "capture": {"device"}, "folder": {"path"},
               "picamera": {"format"}}[self.kind]
        extra = [k for k in ("device", "path", "format")
                 if getattr(self, k) is not None and k not in own]
        if extra:
            raise ValueError(f"a {self.kind} camera takes no {' or '.join(extra)}")
        return self


class PlaceIn(BaseModel):
    """A build place: its station profile (an id from GET /api/stations) and its camera."""

    model_config = STRICT_IN
    station: StationId
    camera: CameraIn = CameraIn()


class TableCreate(BaseModel):
    """A new table: 2–4 players (seat order), a level, one place per builder (players, at most
    3), the table's language, and who is lookout in round 1 (a seat, default 0)."""

    model_config = STRICT_IN
    name: TableName = "Tuki"
    players: list[Name] = Field(..., min_length=2, max_length=4)
    level: Literal["normal", "advanced"] = "normal"
    language: Language = "en"
    places: list[PlaceIn] = Field(..., min_length=1, max_length=3)
    first_lookout: int = Field(0, ge=0, le=3)
    listed: bool = Field(False, description="shown (name and view link) in the box's public "
                         "list of tables")

    @field_validator("players")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        """Names differ after normalising: "Ava" and "ava", or "é" typed two ways, are one."""
        seen: dict[str, int] = {}
        for i, n in enumerate(names):
            if name_key(n) in seen:
                raise ValueError(f"player names must differ: names {seen[name_key(n)] + 1} "
                                 f"and {i + 1} are the same name")
            seen[name_key(n)] = i
        return names


class TableCreated(BaseModel):
    """The answer to a creation: the table's key (`secret`) is shown here once and nowhere
    else; the view token opens the table's view (referee.server.keys)."""

    id: str
    secret: str
    view_token: str
    viewer_path: str
    control_path: str


class RoundStart(BaseModel):
    """A round's card (a deck id, or a grid typed as rows) and the rolled die face; or
    `draw`: the app draws a card not yet played and rolls the die (a table that plays without
    the physical deck)."""

    model_config = STRICT_IN
    card_id: CardId | None = None
    grid: Grid | None = None
    die: DieText | None = Field(None, examples=["fish+white"])
    draw: bool = False


class CardOut(BaseModel):
    """A card of a level's deck: its id and its grid as printed (rows, top first)."""

    id: str
    grid: list[str]


class Decision(BaseModel):
    """The lookout's (or the table's) decision on an unsure build."""

    model_config = STRICT_IN
    seat: int = Field(..., ge=0, le=3, description="the builder whose build is decided")
    correct: bool
    by: int | None = Field(None, ge=0, le=3, description="who decides: default the lookout; "
                           "for the lookout's own build, each other player votes")


class Dispute(BaseModel):
    """"This verdict is wrong": the builder whose verdict is questioned."""

    model_config = STRICT_IN
    seat: int = Field(..., ge=0, le=3, description="the builder whose verdict is questioned")


class Confirm(BaseModel):
    """The lookout's answer to a questioned verdict: is the build correct?"""

    model_config = STRICT_IN
    seat: int = Field(..., ge=0, le=3)
    correct: bool


class Accepted(BaseModel):
    """A command was stored: the table's event number after it."""

    seq: int


class Problem(BaseModel):
    """One problem of a request that is not valid: where, and what (never the input)."""

    loc: list[str | int]
    msg: str


class ErrorOut(BaseModel):
    """Every error answer: plain words, the error's kind, and for a 422 the problems."""

    detail: str
    error: str
    problems: list[Problem] | None = None
    code: str | None = Field(None, description="a refusal's machine code, e.g. taki.no-match "
                             "(i18n key refusal.<code>)")
    params: dict[str, Any] | None = Field(None, description="the refusal's parameters: cards "
                                          "and actions in notation, seats as ints")


class SeatLink(BaseModel):
    """A seat's private key (the table key's holder hands it over as a link or QR code)."""

    seat: int
    name: str
    key: str
    path: str


def errors(*codes: int) -> dict[int | str, dict[str, object]]:
    """OpenAPI `responses` for error answers (all of the ErrorOut shape)."""
    words = {400: "a request the box does not take (an unknown host name, an upload cut short)",
             401: "a key is needed", 403: "the key does not open this",
             404: "no such table, seat or photo", 409: "not now (the table's state)",
             413: "too large", 415: "not a photo the referee reads",
             422: "not valid (the problems say where)", 429: "too many tables",
             503: "the database cannot be written"}
    return {c: {"model": ErrorOut, "description": words[c]} for c in codes}


class ColourCalibrationIn(BaseModel):
    """Learn a station's colours from the newest frame of a table's place camera: the stones
    lie on the build line, stacked bottom to top in `order` (WORLD.md §6)."""

    model_config = STRICT_IN
    table: str = Field(..., max_length=40, description="a table whose place films the stack")
    place: int = Field(..., ge=0, le=2, description="the place (0–2) of that table")
    order: str | None = Field(None, pattern="^[GBPOgbpo]{3,4}$",
                              description="the stack bottom to top, e.g. GBP (default: the "
                                          "level's stones)")


class ColourCalibrationOut(BaseModel):
    """The new colour model (Lab centres per stone) and where the photo came from."""

    station: str
    colours: dict[str, list[float]]
    source: dict[str, str]
    profile: str


# ---- what the GET routes answer (docs/server.md; referee.server.table.table_view) ----------


class PlayerView(BaseModel):
    seat: int
    name: str
    penalties: int


class CameraView(BaseModel):
    """A place's camera now: kind, state (live, stalled, dead, idle...), plain English words
    (`detail`, for logs), and why in any language: `code` (i18n `refusal.<code>`, e.g.
    `camera.cannot-open`) and its `params` (e.g. the device as phones may see it), or null."""

    kind: str
    state: str
    detail: str
    code: str | None = None
    params: dict[str, Any] = {}
    last_frame_at: float | None
    retry_in_s: float | None


class PlaceView(BaseModel):
    index: int
    station: str
    camera: CameraView


class BuilderView(BaseModel):
    """One builder of the round: where, what state, the verdict (WORLD.md §4) and its photo."""

    seat: int
    place: int
    state: str
    status: str
    verdict: dict[str, Any] | None
    decided: Literal["correct", "wrong"] | None
    deciders: list[int]
    voted: list[int]
    photo: str | None
    overlay: str | None
    error: str | None
    reason: str | None
    timings_ms: dict[str, float]
    disputed_by: list[int | None]
    confirmed: Literal["correct", "wrong"] | None
    card_stays: bool = False


class RoundView(BaseModel):
    number: int
    final: bool
    status: str
    lookout: int
    card: dict[str, str | None]
    target: list[str]
    die: dict[str, Any] | None
    builders: list[BuilderView]
    done_order: list[int]
    taker: int | None
    why: str
    replay: bool


class TableView(BaseModel):
    """A Tuki table as every phone of it sees it (no key, no hidden data)."""

    id: str
    name: str
    level: str
    language: str
    seq: int
    demo: bool
    phase: str
    archived: bool
    lookout: int
    final: bool
    over: bool
    winners: list[int]
    end_reason: str
    ended_by_table: bool  # the owner ended it (EndGame): only the table key starts another
    void: bool
    players: list[PlayerView]
    places: list[PlaceView]
    round: RoundView | None


class EventView(BaseModel):
    """One stored event of a table: its number, Unix time, kind and data."""

    seq: int
    at: float
    kind: str
    data: dict[str, Any]


class TableSummary(BaseModel):
    """A table in a list: the public list (listed tables) or the admin's (every table)."""

    id: str
    name: str
    players: list[str]
    phase: str
    demo: bool
    damaged: str | None
    archived: bool
    view_path: str | None


class StationSummary(BaseModel):
    id: str
    level: str
    source: str
    # "calibrated": its colours were learned (a photo of its stones); "default": it runs on
    # the default colours (verdicts are unsure more often)
    colours: str = "default"
    # false: its profile does not load (fix it or calibrate it again); a table refuses it
    usable: bool = True
