"""Health: the database answers and the cameras' states, for a box's watchdog."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from referee.server.routes.deps import AdminHeader, ServiceDep
from referee.server.schemas import errors

router = APIRouter(tags=["health"])


@router.get("/healthz", responses=errors(403, 422, 503))
def healthz(service: ServiceDep, x_admin_key: AdminHeader = None) -> dict[str, Any]:
    """{"status": "ok", "tables": n, "damaged": n, "camera_states": {state: n}}; with the
    admin key also the damaged tables' ids and each table's camera states (`cameras`)."""
    if x_admin_key:
        service.check_admin(x_admin_key)
        return service.health(everything=True)
    return service.health()
