"""The API's input and output models (separate, as in FastAPI's template)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Language = Literal["en", "fa", "he", "ar"]


class CameraIn(BaseModel):
    """A build place's camera: a phone upload, OpenCV capture (index, file, RTSP/HTTP URL),
    a folder of photos, or the Raspberry Pi camera (picamera2 format, e.g. RGB888)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["upload", "capture", "folder", "picamera"] = "upload"
    device: str | None = Field(None, max_length=500)
    path: str | None = Field(None, max_length=500)
    format: str | None = Field(None, max_length=16)


class PlaceIn(BaseModel):
    """A build place: its station profile (an id from GET /api/stations) and its camera."""

    model_config = ConfigDict(extra="forbid")
    station: str = Field(..., min_length=1, max_length=100)
    camera: CameraIn = CameraIn()


class TableCreate(BaseModel):
    """A new table: 2–4 players (seat order), a level, one place per builder (players, at most
    3), the table's language, and who is lookout in round 1 (a seat, default 0)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("Tuki", min_length=1, max_length=60)
    players: list[str] = Field(..., min_length=2, max_length=4)
    level: Literal["normal", "advanced"] = "normal"
    language: Language = "en"
    places: list[PlaceIn] = Field(..., min_length=1, max_length=3)
    first_lookout: int = Field(0, ge=0, le=3)

    @field_validator("players")
    @classmethod
    def _names(cls, v: list[str]) -> list[str]:
        names = [n.strip() for n in v]
        if any(not n or len(n) > 30 for n in names):
            raise ValueError("each player needs a name of 1 to 30 characters")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ: {names}")
        return names


class TableCreated(BaseModel):
    """The answer to a creation: the secret is shown here once and nowhere else."""

    id: str
    secret: str
    viewer_path: str
    control_path: str


class RoundStart(BaseModel):
    """A round's card (a deck id, or a grid typed as rows) and the rolled die face."""

    model_config = ConfigDict(extra="forbid")
    card_id: str | None = Field(None, max_length=40)
    grid: str | None = Field(None, max_length=400)
    die: str = Field(..., max_length=20, examples=["fish+white"])


class Decision(BaseModel):
    """The lookout's (or the table's) decision on an unsure build."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(..., ge=0, le=3, description="the builder whose build is decided")
    correct: bool
    by: int | None = Field(None, ge=0, le=3, description="who decides: default the lookout; "
                           "for the lookout's own build, each other player votes")


class Accepted(BaseModel):
    """A command was stored: the table's event number after it."""

    seq: int
