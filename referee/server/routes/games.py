"""The card-game tables' API, live feed and pages (referee.server.cardtables).

Who may do what (docs/server.md "Card games at the table"): the table key (`X-Table-Secret`)
manages seats, bots, rematch and ending, and never reads a hand; a seat key (`X-Seat-Key`)
reads and plays its own seat only; the view link (or any key of the table) reads the public
view; the box's admin key lists every card table, archives and deletes them. Routes only
parse, check keys and call the service.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field, field_validator

from referee.errors import RefereeError
from referee.server.cardtables import BOT_LEVELS, CardTableService
from referee.server.errors import UnknownSeatError
from referee.server.keys import Access, Credentials
from referee.server.net import public_base
from referee.server.routes.deps import (
    KEY_MAX,
    AdminHeader,
    AdminOnly,
    SeatHeader,
    ServiceDep,
    TableHeader,
    ViewQuery,
    credentials,
    view_cookie,
)
from referee.server.routes.live import serve_feed
from referee.server.routes.pages import (
    game_title,
    messages_json,
    page,
    phone_language,
    refused_page,
)
from referee.server.schemas import STRICT_IN, Language, TableSummary, errors
from referee.server.text import Name, Text

router = APIRouter(prefix="/api/games", tags=["card games"])
pages = APIRouter(tags=["pages"], include_in_schema=False)

if TYPE_CHECKING:
    Character = str
    TableName = str
    ActionText = str
else:
    Character = Text(20)
    TableName = Text(60)
    ActionText = Text(80)  # no control characters nor direction overrides

GameId = Annotated[str, Path(max_length=40, description="the card table's id")]
Seat = Annotated[int, Path(ge=0, le=9, description="a seat, 0 to 9 in seat order")]
BotLevel = Literal["random", "heuristic", "easy", "medium", "hard"]
SeatNumber = Annotated[str, Field(pattern="^[0-9]$")]
READ = errors(401, 403, 404, 409, 422)
ACT = errors(401, 403, 404, 409, 422, 429, 503)


def get_cards(request: Request) -> CardTableService:
    return request.app.state.cards


CardsDep = Annotated[CardTableService, Depends(get_cards)]


def game_access(request: Request, game_id: GameId, cards: CardsDep, v: ViewQuery = None,
                x_admin_key: AdminHeader = None, x_table_secret: TableHeader = None,
                x_seat_key: SeatHeader = None) -> Access:
    """What the request may do at this card table (as `deps.table_access` at a Tuki table)."""
    return cards.access(game_id, credentials(request, game_id, v, x_admin_key,
                                             x_table_secret, x_seat_key))


GameAccess = Annotated[Access, Depends(game_access)]


class GameOptions(BaseModel):
    """The game's options (each only for its own game): TAKI `tournament`; Tukki Tukki
    `rounds`; Tokaido `characters` (one code per seat, chosen; default drawn)."""

    model_config = STRICT_IN
    tournament: bool | None = Field(None, description="TAKI: the 8-stage tournament")
    rounds: int | None = Field(None, ge=1, le=20, description="Tukki Tukki: rounds to play")
    characters: list[Character] | None = Field(None, min_length=2, max_length=5,
                                               description="Tokaido: a character per seat")


class GameCreate(BaseModel):
    """A new card table: every seat in order (a name; null for an open seat that people claim
    with the room code, or for a bot seat the server names), which seats bots play, the
    game's options."""

    model_config = STRICT_IN
    game: Literal["taki", "tukki", "tokaido"]
    players: list[Name | None] = Field(..., min_length=2, max_length=10)
    bots: dict[SeatNumber, BotLevel] = Field(default_factory=dict, max_length=10,
                                              description="seat (as text) -> bot level")
    options: GameOptions = Field(default_factory=lambda: GameOptions.model_validate({}))
    name: TableName | None = None
    language: Language = "en"
    listed: bool = Field(False, description="shown in the box's public list of tables")

    @field_validator("bots")
    @classmethod
    def _known(cls, bots: dict[str, str]) -> dict[str, str]:
        for level in bots.values():
            if level not in BOT_LEVELS:  # pragma: no cover  (the Literal refuses it first)
                raise ValueError(f"unknown bot {level!r}")
        return bots


class SeatOut(BaseModel):
    """A seat as its owner sees it: a person's seat that nobody has taken yet has its
    invitation key and link; a seat its player took (`joined`), a bot's and an open seat's
    have none."""

    seat: int
    name: str | None
    bot: str | None = None
    open: bool = False
    joined: bool = Field(default=False, description="taken by its player: its key is the "
                                                    "phone's alone")
    key: str | None = None
    link: str | None = None


class GameCreated(BaseModel):
    """The answer to a creation: the table key (`secret`) is shown here once."""

    id: str
    code: str | None = Field(None, description="the room code, when seats are open")
    secret: str
    view: str = Field(..., description="the view link (read only)")
    control: str = Field(..., description="the owner's control link (the key in its fragment)")
    seats: list[SeatOut]


class JoinIn(BaseModel):
    model_config = STRICT_IN
    # any printable text: a code typed on another keyboard (Hebrew, Cyrillic letters) is a
    # room code no table has (404 `table.code-unknown`), not a form said to be wrong
    code: str = Field(..., min_length=1, max_length=12, pattern="^[^\x00-\x1f\x7f]+$")
    name: Name


class JoinOut(BaseModel):
    """The claimed seat: its key (only here) and its private link."""

    id: str
    seat: int
    name: str
    key: str
    link: str


class BotIn(BaseModel):
    model_config = STRICT_IN
    bot: BotLevel | None = Field(..., description="a bot level, or null: back to a person")


class ActIn(BaseModel):
    model_config = STRICT_IN
    # (a refusal quoted a direction override back raw: such text is refused up front)
    action: ActionText = Field(..., min_length=1, description="one of the seat's legal "
                               "actions, in the game's notation")
    plays: int | None = Field(None, ge=0, le=1_000_000_000, description=(
        "the view's `plays` (moves, new games and ends so far) the move was chosen on: once "
        "another has come, 409 `table.moved-on` (a late retry of a tap plays nothing; a "
        "seat taken meanwhile changes nothing)"))


class SeatState(BaseModel):
    """A seat's own view (its observation under `view.me`), its legal actions, the turn."""

    view: dict[str, Any]
    seat: int
    legal: list[str]
    costs: dict[str, int] = Field(default_factory=dict,
                                  description="coins each legal action costs (Tokaido), if any")
    calls: list[str] = Field(default_factory=list,
                             description="TAKI: the legal actions with which the 'last card' "
                                         "call counts (they end the turn with one card in "
                                         "hand); the call is the action followed by ' last'")
    current_player: int | None
    over: bool
    returns: list[float] | None


class Accepted(BaseModel):
    seq: int


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


def _link(game_id: str, token: str, key: str | None, frag: str = "s") -> str | None:
    return None if key is None else f"/g/{game_id}?v={token}#{frag}={key}"


def _seat_links(cards: CardTableService, game_id: str, table_key: str | None
                ) -> list[SeatOut]:
    token = cards.get(game_id).view_token
    return [SeatOut(seat=s["seat"], name=s["name"], bot=s["bot"], open=s["open"],
                    joined=s["joined"], key=s["key"], link=_link(game_id, token, s["key"]))
            for s in cards.seats(game_id, table_key)]


@router.post("", status_code=201, responses=errors(401, 403, 422, 429, 503))
def create_game(body: GameCreate, cards: CardsDep, request: Request,
                response: Response) -> GameCreated:
    """Create a TAKI, Tukki Tukki or Tokaido table. The answer holds the table key
    (`secret`, shown only here), the view link, the room code when seats are open, and each
    person's seat with its key and private link; it sets the table's view cookie."""
    table, secret = cards.create(body.game, list(body.players),
                                 {int(k): v for k, v in body.bots.items()},
                                 body.options.model_dump(), body.name, body.language,
                                 body.listed, _client(request))
    token = table.view_token
    response.set_cookie(view_cookie(table.id), token, httponly=True, samesite="strict",
                        max_age=60 * 60 * 24 * 30, path="/")
    return GameCreated(id=table.id, code=table.code or None, secret=secret,
                       view=f"/g/{table.id}?v={token}",
                       control=f"/g/{table.id}?v={token}#k={secret}",
                       seats=_seat_links(cards, table.id, secret))


@router.get("", responses=errors(403, 422))
def list_games(cards: CardsDep, service: ServiceDep,
               x_admin_key: AdminHeader = None) -> list[TableSummary]:
    """The card tables that chose to be listed, with their view links, but for those archived
    or ended by their owner. With the box's admin key, every card table (also archived and
    ended ones, and those set aside as damaged)."""
    if x_admin_key:
        service.check_admin(x_admin_key)
        return [TableSummary.model_validate(x) for x in cards.summaries(everything=True)]
    return [TableSummary.model_validate(x) for x in cards.summaries()]


@router.post("/join", responses=errors(404, 409, 422, 429, 503))
def join(body: JoinIn, cards: CardsDep, request: Request, response: Response) -> JoinOut:
    """Claim an open seat with the table's room code and a name: the seat's key and link
    (a named seat is claimed only through its own link)."""
    out = cards.join(body.code, body.name, _client(request))
    token = cards.get(out["id"]).view_token
    response.set_cookie(view_cookie(out["id"]), token, httponly=True, samesite="strict",
                        max_age=60 * 60 * 24 * 30, path="/")
    return JoinOut(**out)


@router.post("/{game_id}/claim", responses=errors(401, 403, 404, 409, 422, 503))
def claim(game_id: GameId, cards: CardsDep, response: Response,
          x_seat_key: SeatHeader = None) -> JoinOut:
    """A phone takes its seat with the invitation in its link (`X-Seat-Key`): the seat's
    own new key (only here) and link; the invitation opens nothing more. A taken seat's key
    comes back unchanged. 403: neither (a link already opened on another phone, or
    replaced)."""
    out = cards.claim(game_id, x_seat_key)
    response.set_cookie(view_cookie(game_id), cards.get(game_id).view_token, httponly=True,
                        samesite="strict", max_age=60 * 60 * 24 * 30, path="/")
    return JoinOut(**out)


@router.get("/{game_id}", responses=READ)
def get_game_view(game_id: GameId, who: GameAccess, cards: CardsDep) -> dict[str, Any]:
    """The public view (the view link, or any key of the table): no hidden card."""
    return cards.view(game_id)


@router.get("/{game_id}/seats", responses=READ)
def list_seats(game_id: GameId, cards: CardsDep,
               x_table_secret: TableHeader = None) -> list[SeatOut]:
    """Each seat (the table key only), with the invitation key and link of a person's seat
    that its player has not taken yet; a taken seat (`joined`) shows none."""
    return _seat_links(cards, game_id, x_table_secret)


@router.get("/{game_id}/seats/{seat}", responses=READ)
def seat_state(game_id: GameId, seat: Seat, cards: CardsDep,
               x_seat_key: SeatHeader = None) -> SeatState:
    """A seat's own view and legal actions (that seat's key only)."""
    return SeatState(**cards.seat_view(game_id, seat, x_seat_key))


@router.post("/{game_id}/seats/{seat}/act", responses=ACT)
def act(game_id: GameId, seat: Seat, body: ActIn, cards: CardsDep,
        x_seat_key: SeatHeader = None) -> SeatState:
    """The seat plays one of its legal actions (that seat's key only): 409 when it is not
    its turn, 422 for an action the rules refuse now (the engine's reason in words, with its
    `code` and `params` for the phone's language)."""
    return SeatState(**cards.act(game_id, seat, x_seat_key, body.action, body.plays))


@router.post("/{game_id}/seats/{seat}/bot", responses=ACT)
def set_bot(game_id: GameId, seat: Seat, body: BotIn, cards: CardsDep,
            x_table_secret: TableHeader = None) -> SeatOut:
    """The owner hands a seat to a bot, or back to a person (a new key and link); either
    way the seat's old key opens nothing more."""
    out = cards.set_bot(game_id, seat, body.bot, x_table_secret)
    return SeatOut(seat=out["seat"], name=out["name"], bot=out["bot"], key=out["key"],
                   link=out["link"])


@router.post("/{game_id}/rematch", responses=ACT)
def rematch(game_id: GameId, who: GameAccess, cards: CardsDep,
            after: Annotated[int | None, Query(ge=1, le=1_000_000, description=(
                "the game number the caller saw: once another game has started, 409 "
                "`table.rematch-started` (two taps deal one game)"))] = None) -> Accepted:
    """A new game at the same seats: the owner any time, a seat once the game is over by
    its rules (409 after the owner ended it: `table.ended-by-owner`)."""
    return Accepted(seq=cards.rematch(game_id, who, after))


@router.post("/{game_id}/end", responses=ACT)
def end(game_id: GameId, cards: CardsDep, x_table_secret: TableHeader = None) -> Accepted:
    """The owner ends the game."""
    return Accepted(seq=cards.end(game_id, x_table_secret))


@router.post("/{game_id}/archive", dependencies=[AdminOnly], responses=ACT)
def archive(game_id: GameId, cards: CardsDep) -> Accepted:
    """The box's admin archives a card table: kept to read, never played again, no longer
    counted against the box's limits."""
    return Accepted(seq=cards.archive(game_id))


@router.delete("/{game_id}", status_code=204, dependencies=[AdminOnly],
               responses=errors(401, 403, 404, 422, 503))
def delete_game(game_id: GameId, cards: CardsDep) -> Response:
    """The box's admin deletes a card table: its events and keys; its links open nothing
    more."""
    cards.delete(game_id)
    return Response(status_code=204)


SVG = {"content": {"image/svg+xml": {}}, "description": "a QR code (SVG)"}


@router.get("/{game_id}/seats/{seat}/qr.svg", response_class=Response,
            responses={200: SVG, **READ})
def seat_qr(game_id: GameId, seat: Seat, cards: CardsDep, request: Request,
            x_table_secret: TableHeader = None) -> Response:
    """A QR code of a person's seat link (the table key only)."""
    from referee.server.routes.tables import _qr

    links = cards.seats(game_id, x_table_secret)
    if seat >= len(links) or links[seat]["key"] is None:
        raise UnknownSeatError(f"table {game_id!r} has no seat {seat} with a link")
    token = cards.get(game_id).view_token
    return _qr(public_base(request) + f"/g/{game_id}?v={token}#s={links[seat]['key']}")


@router.get("/{game_id}/qr.svg", response_class=Response, responses={200: SVG, **READ})
def view_qr(game_id: GameId, who: GameAccess, cards: CardsDep, request: Request) -> Response:
    """A QR code of the table's view link (joining with the room code starts there too)."""
    from referee.server.routes.tables import _qr

    return _qr(public_base(request) + f"/g/{game_id}?v={cards.get(game_id).view_token}")


@router.get("/{game_id}/join.svg", response_class=Response, responses={200: SVG, **READ})
def join_qr(game_id: GameId, who: GameAccess, cards: CardsDep, request: Request) -> Response:
    """A QR code of the join page with the room code filled in (the table screen shows it
    while seats are open); 409 when no seat is open."""
    from referee.server.errors import ConflictError
    from referee.server.routes.tables import _qr

    code = cards.view(game_id)["code"]
    if not code:
        raise ConflictError("this table has no open seat")
    return _qr(public_base(request) + f"/games/join?code={code}")


# ---- the live feed -------------------------------------------------------------------------


live = APIRouter(tags=["live"])


@live.websocket("/ws/games/{game_id}")
async def game_feed(ws: WebSocket, game_id: str) -> None:
    """As /ws/tables: hello first ({"type": "hello", "key": KEY or null}); a seat key gets
    `{"type": "seat", "view", "legal", ...}` (its own view only), anyone else `{"type":
    "view", "view"}` (the public view), at once and after every change."""
    cards: CardTableService = ws.app.state.cards
    await serve_feed(ws, game_id, cards.get, cards.access,
                     lambda who: cards.feed_view(game_id, who), 5.0)


# ---- pages ---------------------------------------------------------------------------------


@pages.get("/games/new", response_class=HTMLResponse)
def new_game_page(request: Request) -> HTMLResponse:
    code = phone_language(request)
    return page(request, "game_new.html", code, messages_json=messages_json(code))


@pages.get("/games/join", response_class=HTMLResponse)
def join_page(request: Request) -> HTMLResponse:
    code = phone_language(request)
    return page(request, "game_join.html", code, messages_json=messages_json(code))


@pages.get("/g/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: str, cards: CardsDep) -> HTMLResponse:
    """A card table's page: the table screen (the view link), a seat's phone (`#s=KEY`) or
    the owner's controls (`#k=KEY`); the page itself holds no hidden card, the live feed
    brings what its key may see."""
    v = request.query_params.get("v", "")[:KEY_MAX] or None
    try:
        table = cards.get(game_id)
        cards.access(game_id, Credentials(view=v or request.cookies.get(view_cookie(game_id))))
    except RefereeError as e:
        return refused_page(request, e, phone_language(request))
    code = phone_language(request, str(table.config.get("language", "en")))
    title = game_title(table.game.name, code)
    name = str(table.config.get("name"))
    response = page(request, "game.html", code, game_id=game_id, game=table.game.name,
                    game_title=title, table_name=title if name == table.game.title else name,
                    messages_json=messages_json(code))
    if v:
        response.set_cookie(view_cookie(game_id), v, httponly=True, samesite="strict",
                            max_age=60 * 60 * 24 * 30, path="/")
    return response
