"""The tables API: create a table, read its view and events, and the controls of a round.

Controls need the table's secret (deps.AdminTable). Routes only parse and call the service.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Query, Request, UploadFile
from fastapi.responses import FileResponse, Response

from referee.server.routes.deps import AdminTable, ServiceDep
from referee.server.schemas import Accepted, Decision, RoundStart, TableCreate, TableCreated

router = APIRouter(prefix="/api", tags=["tables"])

MAX_SEQ = 2**62  # event numbers are SQLite integers (at most 2**63 - 1)


@router.get("/stations")
def list_stations(service: ServiceDep) -> list[dict[str, Any]]:
    """The station profiles a build place can use: id, level and where it comes from."""
    return service.stations()


@router.post("/tables", status_code=201)
def create_table(body: TableCreate, service: ServiceDep) -> TableCreated:
    """Create a table. The answer holds its secret; it is shown only here."""
    table_id, secret = service.create(body)
    return TableCreated(id=table_id, secret=secret, viewer_path=f"/t/{table_id}",
                        control_path=f"/t/{table_id}#k={secret}")


@router.get("/tables")
def list_tables(service: ServiceDep) -> list[dict[str, Any]]:
    """Every table: id, name, players (no secrets)."""
    return service.summaries()


@router.get("/tables/{table_id}")
def get_table(table_id: str, service: ServiceDep) -> dict[str, Any]:
    """The table's whole view: players, penalties, lookout, round, builders, verdicts."""
    return service.view(table_id)


@router.get("/tables/{table_id}/events")
def get_events(table_id: str, service: ServiceDep,
               after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0) -> list[dict[str, Any]]:
    """The stored events after number `after` (for catching up and for audits)."""
    return service.events(table_id, after)


@router.post("/tables/{table_id}/rounds")
def start_round(table_id: AdminTable, body: RoundStart, service: ServiceDep) -> Accepted:
    """Start a round with a card (deck id or typed grid) and the rolled die face."""
    return Accepted(seq=service.start_round(table_id, body.card_id, body.grid, body.die))


@router.post("/tables/{table_id}/rounds/demo")
def demo_round(table_id: AdminTable, service: ServiceDep) -> Accepted:
    """Demo tables: start the next scripted round (card, die and camera photos from a scene)."""
    return Accepted(seq=service.demo_round(table_id))


@router.post("/tables/{table_id}/done/{seat}")
async def done(table_id: AdminTable, seat: int, service: ServiceDep, request: Request,
               photo: Annotated[UploadFile | None, File()] = None) -> Accepted:
    """A builder says "done": the frame of this moment (or the uploaded photo) is frozen and
    judged in the background; the verdict follows on the live feed."""
    data = await photo.read() if photo is not None else None
    name = photo.filename if photo is not None else None
    from starlette.concurrency import run_in_threadpool

    seq = await run_in_threadpool(service.done, table_id, seat, data, name or "upload")
    return Accepted(seq=seq)


@router.post("/tables/{table_id}/decide")
def decide(table_id: AdminTable, body: Decision, service: ServiceDep) -> Accepted:
    """The lookout's decision on an unsure build (or the others', for the lookout's own)."""
    return Accepted(seq=service.decide(table_id, body.seat, body.correct, body.by))


@router.post("/tables/{table_id}/end")
def end_round(table_id: AdminTable, service: ServiceDep) -> Accepted:
    """The lookout ends the round by hand: it is void, the card goes under the deck."""
    return Accepted(seq=service.end_round(table_id))


@router.get("/tables/{table_id}/photos/{name}")
def get_photo(table_id: str, name: str, service: ServiceDep) -> FileResponse:
    """A frozen photo or its overlay (JPEG)."""
    return FileResponse(service.photo_path(table_id, name), media_type="image/jpeg")


@router.get("/tables/{table_id}/places/{place}/preview.jpg")
def preview(table_id: str, place: int, service: ServiceDep) -> Response:
    """The newest frame of a place's camera, small (to aim the camera); 409 when none."""
    return Response(service.preview(table_id, place), media_type="image/jpeg",
                    headers={"Cache-Control": "no-store"})


@router.get("/tables/{table_id}/qr.svg")
def qr(table_id: str, service: ServiceDep, request: Request) -> Response:
    """A QR code of the table's viewer link, as this phone reached the server."""
    import io

    import segno

    service.get(table_id)
    url = str(request.base_url).rstrip("/") + f"/t/{table_id}"
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=6, border=2)
    return Response(buf.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
