"""Health: the database answers and the cameras' states, for a box's watchdog."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from referee.server.routes.deps import ServiceDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(service: ServiceDep) -> dict[str, Any]:
    """{"status": "ok", "tables": n, "cameras": {table: [state per place]}}."""
    return service.health()
