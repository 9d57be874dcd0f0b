"""Health: the database answers and the cameras' states, for a box's watchdog."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from referee.server.routes.deps import AdminHeader, ServiceDep
from referee.server.schemas import errors

router = APIRouter(tags=["health"])


@router.get("/healthz", responses=errors(403, 422, 503))
def healthz(service: ServiceDep, request: Request,
            x_admin_key: AdminHeader = None) -> dict[str, Any]:
    """{"status": "ok", "tables": n, "card_tables": n, "damaged": n, "camera_states":
    {state: n}}: `tables` and `damaged` count both kinds of table (Tuki's and the card
    games'), `card_tables` the card games' share; with the admin key `damaged` is the damaged
    tables' ids (both kinds) and `cameras` each Tuki table's camera states."""
    everything = bool(x_admin_key)
    if everything:
        service.check_admin(x_admin_key)
    out = service.health(everything=everything)
    cards = getattr(request.app.state, "cards", None)
    card = cards.health(everything=everything) if cards is not None else \
        {"tables": 0, "damaged": [] if everything else 0}
    out["tables"] += card["tables"]
    out["card_tables"] = card["tables"]
    out["damaged"] = (sorted(out["damaged"] + card["damaged"]) if everything
                      else out["damaged"] + card["damaged"])
    return out
