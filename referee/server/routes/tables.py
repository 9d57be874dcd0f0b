"""The tables API: create a table, read its view and events, and the controls of a round.

Who may do what (referee.server.keys, docs/server.md): reading needs the table's view link
(or any of its keys); the round's controls need the table's key or the lookout's seat key; a
builder's "done" the table's key or that seat's key; archiving and deleting the box's admin
key. Routes only parse, check keys and call the service.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, File, Path, Query, Request, UploadFile
from fastapi.responses import FileResponse, Response

from referee.server.net import public_base
from referee.server.routes.deps import (
    AdminHeader,
    AdminOnly,
    ServiceDep,
    TableAccess,
    TableHeader,
    WholeForm,
    credentials,
    view_cookie,
)
from referee.server.schemas import (
    Accepted,
    CardOut,
    ColourCalibrationIn,
    ColourCalibrationOut,
    Confirm,
    Decision,
    Dispute,
    EventView,
    RoundStart,
    SeatLink,
    StationSummary,
    TableCreate,
    TableCreated,
    TableSummary,
    TableView,
    errors,
)

router = APIRouter(prefix="/api", tags=["tables"])

MAX_SEQ = 2**62  # event numbers are SQLite integers (at most 2**63 - 1)
TableId = Annotated[str, Path(max_length=40, description="the table's id")]
Seat = Annotated[int, Path(ge=0, le=3, description="a seat, 0 to 3 in seat order")]
READ = errors(401, 403, 404, 409, 422)
ACT = errors(401, 403, 404, 409, 422, 503)
IMAGE = {"content": {"image/jpeg": {}}, "description": "a JPEG"}


def _set_view_cookie(response: Response, table_id: str, token: str) -> None:
    """The view token as an HttpOnly, SameSite=Strict cookie, so that images and the live
    feed of the table's page carry it."""
    response.set_cookie(view_cookie(table_id), token, httponly=True, samesite="strict",
                        max_age=60 * 60 * 24 * 30, path="/")


@router.get("/stations")
def list_stations(service: ServiceDep) -> list[StationSummary]:
    """The station profiles a build place can use: id, level and where it comes from."""
    return [StationSummary.model_validate(x) for x in service.stations()]


@router.get("/cards/{level}", responses=errors(422))
def list_cards(level: Literal["normal", "advanced"]) -> list[CardOut]:
    """A level's deck: each card's id and grid as printed, for the lookout to tap."""
    from referee.tuki.cards import Deck

    return [CardOut(id=c.id, grid=list(c.grid)) for c in Deck.load(level).cards]


@router.post("/stations/{station_id}/colours", dependencies=[AdminOnly],
             responses=errors(401, 403, 404, 409, 422, 503))
def calibrate_colours(station_id: Annotated[str, Path(max_length=64)],
                      body: ColourCalibrationIn, service: ServiceDep) -> ColourCalibrationOut:
    """The admin calibrates a station's colours from the newest frame of a table's place
    camera (the stones stacked on the build line); the profile keeps the camera's kind and
    pixel format, and the mat's pose."""
    return ColourCalibrationOut(**service.calibrate_colours(station_id, body.table,
                                                            body.place, body.order))


@router.post("/tables", status_code=201, responses=errors(401, 403, 422, 429, 503))
def create_table(body: TableCreate, service: ServiceDep, request: Request, response: Response,
                 x_admin_key: AdminHeader = None) -> TableCreated:
    """Create a table. The answer holds its key (`secret`), shown only here, and sets the
    table's view cookie. Places with a `capture`, `picamera` or `folder` camera need the
    box's admin key; phone places need none."""
    client = request.client.host if request.client else ""
    table_id, secret, view = service.create(body, credentials(request, x_admin_key=x_admin_key),
                                            client)
    _set_view_cookie(response, table_id, view)
    return TableCreated(id=table_id, secret=secret, view_token=view,
                        viewer_path=f"/t/{table_id}?v={view}",
                        control_path=f"/t/{table_id}?v={view}#k={secret}")


@router.get("/tables", responses=errors(403, 422))
def list_tables(service: ServiceDep, x_admin_key: AdminHeader = None) -> list[TableSummary]:
    """The tables that chose to be listed: id, name, players, view link. With the admin key,
    every table (also archived and damaged ones)."""
    if x_admin_key:
        service.check_admin(x_admin_key)
        return [TableSummary.model_validate(x) for x in service.summaries(everything=True)]
    return [TableSummary.model_validate(x) for x in service.summaries()]


@router.get("/tables/{table_id}", responses=READ)
def get_table(table_id: TableId, who: TableAccess, service: ServiceDep) -> TableView:
    """The table's whole view: players, penalties, lookout, round, builders, verdicts."""
    return TableView.model_validate(service.view(table_id))


@router.get("/tables/{table_id}/events", responses=READ)
def get_events(table_id: TableId, who: TableAccess, service: ServiceDep,
               after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0) -> list[EventView]:
    """The stored events after number `after` (for catching up and for audits)."""
    return [EventView.model_validate(x) for x in service.events(table_id, after)]


@router.get("/tables/{table_id}/seats", responses=READ)
def list_seats(table_id: TableId, service: ServiceDep,
               x_table_secret: TableHeader = None) -> list[SeatLink]:
    """Each seat's private key and link (the table's key only), to hand to its player."""
    token = service.get(table_id).view_token
    return [SeatLink(**s, path=f"/t/{table_id}?v={token}#s={s['key']}")
            for s in service.seats(table_id, x_table_secret or "")]


@router.post("/tables/{table_id}/seats/{seat}/key", responses=ACT)
def new_seat_key(table_id: TableId, seat: Seat, service: ServiceDep,
                 x_table_secret: TableHeader = None) -> SeatLink:
    """A new key for a seat whose phone changed hands: its old link opens nothing more."""
    s = service.new_seat_key(table_id, seat, x_table_secret or "")
    token = service.get(table_id).view_token
    return SeatLink(**s, path=f"/t/{table_id}?v={token}#s={s['key']}")


@router.post("/tables/{table_id}/rounds", responses=ACT)
def start_round(table_id: TableId, who: TableAccess, body: RoundStart,
                service: ServiceDep) -> Accepted:
    """Start a round with a card (deck id or typed grid) and the rolled die face (the
    table's key, or the lookout's seat)."""
    return Accepted(seq=service.start_round(table_id, body.card_id, body.grid, body.die, who,
                                            body.draw))


@router.post("/tables/{table_id}/rounds/demo", responses=ACT)
def demo_round(table_id: TableId, who: TableAccess, service: ServiceDep) -> Accepted:
    """Demo tables: start the next scripted round (card, die and camera photos from a scene)."""
    return Accepted(seq=service.demo_round(table_id, who))


@router.post("/tables/{table_id}/done/{seat}", dependencies=[WholeForm],
             responses=errors(400, 401, 403, 404, 409, 413, 415, 422, 503))
async def done(table_id: TableId, seat: Seat, who: TableAccess, service: ServiceDep,
               photo: Annotated[UploadFile | None, File()] = None) -> Accepted:
    """A builder says "done" (the table's key, or that seat's): the frame of this moment (or
    the uploaded photo) is frozen and judged in the background; the verdict follows on the
    live feed."""
    data = await photo.read() if photo is not None else None
    name = photo.filename if photo is not None else None
    if not data and not name:  # a form's file field left empty: no photo
        data = None
    from starlette.concurrency import run_in_threadpool

    seq = await run_in_threadpool(service.done, table_id, seat, data, who, name or "upload")
    return Accepted(seq=seq)


@router.post("/tables/{table_id}/decide", responses=ACT)
def decide(table_id: TableId, who: TableAccess, body: Decision,
           service: ServiceDep) -> Accepted:
    """The lookout's decision on an unsure build (or the others' votes, for the lookout's
    own). With a seat's key, the decider is that seat."""
    return Accepted(seq=service.decide(table_id, body.seat, body.correct, body.by, who))


@router.post("/tables/{table_id}/rematch", responses=ACT)
def rematch(table_id: TableId, who: TableAccess, service: ServiceDep) -> Accepted:
    """Once the game has ended: a new game at the same table, same players and places."""
    return Accepted(seq=service.rematch(table_id, who))


@router.post("/tables/{table_id}/dispute", responses=ACT)
def dispute(table_id: TableId, who: TableAccess, body: Dispute,
            service: ServiceDep) -> Accepted:
    """A player questions a verdict of the current round ("this verdict is wrong")."""
    return Accepted(seq=service.dispute(table_id, body.seat, who))


@router.post("/tables/{table_id}/confirm", responses=ACT)
def confirm(table_id: TableId, who: TableAccess, body: Confirm,
            service: ServiceDep) -> Accepted:
    """The lookout answers a questioned verdict: counts as the lookout's decision while the
    penalty is not given yet, else labels the photo."""
    return Accepted(seq=service.confirm(table_id, body.seat, body.correct, who))


@router.post("/tables/{table_id}/end", responses=ACT)
def end_round(table_id: TableId, who: TableAccess, service: ServiceDep) -> Accepted:
    """The lookout ends the round by hand: it is void, the card goes under the deck."""
    return Accepted(seq=service.end_round(table_id, who))


@router.post("/tables/{table_id}/end-game", responses=ACT)
def end_game(table_id: TableId, who: TableAccess, service: ServiceDep) -> Accepted:
    """The table's owner ends the game before its rules do: no winner; a rematch may
    follow."""
    return Accepted(seq=service.end_game(table_id, who))


@router.post("/tables/{table_id}/archive", dependencies=[AdminOnly], responses=ACT)
def archive(table_id: TableId, service: ServiceDep) -> Accepted:
    """The admin archives a table: kept to read, never played again, cameras stopped."""
    return Accepted(seq=service.archive(table_id))


@router.delete("/tables/{table_id}", status_code=204, dependencies=[AdminOnly],
               responses=errors(401, 403, 404, 422, 503))
def delete_table(table_id: TableId, service: ServiceDep) -> Response:
    """The admin deletes a table: its events, keys and photos."""
    service.delete(table_id)
    return Response(status_code=204)


@router.get("/tables/{table_id}/photos/{name}", response_class=FileResponse,
            responses={200: IMAGE, **READ})
def get_photo(table_id: TableId, who: TableAccess, service: ServiceDep,
              name: Annotated[str, Path(max_length=80)]) -> FileResponse:
    """A frozen photo or its overlay (JPEG)."""
    return FileResponse(service.photo_path(table_id, name), media_type="image/jpeg")


@router.get("/tables/{table_id}/places/{place}/preview.jpg", response_class=Response,
            responses={200: IMAGE, **READ})
def preview(table_id: TableId, who: TableAccess, service: ServiceDep,
            place: Annotated[int, Path(ge=0, le=2)]) -> Response:
    """The newest frame of a place's camera, small (to aim the camera); 409 when none."""
    return Response(service.preview(table_id, place), media_type="image/jpeg",
                    headers={"Cache-Control": "no-store"})


def _qr(url: str) -> Response:
    import io

    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=6, border=2)
    return Response(buf.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


SVG = {"content": {"image/svg+xml": {}}, "description": "a QR code (SVG)"}


@router.get("/tables/{table_id}/qr.svg", response_class=Response, responses={200: SVG, **READ})
def qr(table_id: TableId, who: TableAccess, service: ServiceDep, request: Request) -> Response:
    """A QR code of the table's view link, at the address phones reach the box by (its LAN
    address when the page was opened on the box itself)."""
    token = service.get(table_id).view_token
    return _qr(public_base(request) + f"/t/{table_id}?v={token}")


@router.get("/tables/{table_id}/seats/{seat}/qr.svg", response_class=Response,
            responses={200: SVG, **READ})
def seat_qr(table_id: TableId, seat: Seat, service: ServiceDep, request: Request,
            x_table_secret: TableHeader = None) -> Response:
    """A QR code of a seat's private link (the table's key only)."""
    links = service.seats(table_id, x_table_secret or "")
    if seat >= len(links):
        from referee.server.errors import UnknownSeatError

        raise UnknownSeatError(f"table {table_id!r} has no seat {seat}")
    token = service.get(table_id).view_token
    return _qr(public_base(request) + f"/t/{table_id}?v={token}#s={links[seat]['key']}")
