"""The FastAPI factory: it wires settings, storage, cameras, the live hub and the routers.

`create_app(settings)` builds an app whose start-up opens the database, replays every table,
starts the cameras and (by default) creates the demo table; shutdown stops the cameras.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from referee.server import errors
from referee.server.cardtables import CardTableService
from referee.server.guard import Guard
from referee.server.live import LiveHub
from referee.server.routes import games, health, live, pages, tables
from referee.server.settings import Settings
from referee.server.tables import TableService
from referee.server.uploads import BodyLimit, FormEnd

STATIC = Path(__file__).resolve().parent / "static"


def create_app(settings: Settings | None = None,
               on_ready: Callable[[TableService], None] | None = None) -> FastAPI:
    """A ready app; nothing is opened until it starts (lifespan), then `on_ready(service)`."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = LiveHub()
        hub.bind(asyncio.get_running_loop())
        service = TableService(settings, hub)
        service.open()
        assert service.store is not None
        cards = CardTableService(settings, hub, service.store, service.admin_key,
                                 others=service.live_clients)
        service.other_clients = cards.live_clients
        cards.creating = service._creating  # one creation at a time on the whole box
        cards.new_tables = service.new_tables  # and one count of new tables per client
        cards.open()
        app.state.hub, app.state.service, app.state.cards = hub, service, cards
        if on_ready is not None:
            on_ready(service)
        try:
            yield
        finally:
            cards.close()
            service.close()

    app = FastAPI(title="Tuki referee", version="0.1.0", lifespan=lifespan, docs_url=None,
                  redoc_url=None,
                  description="The camera referee at the table: tables, rounds, verdicts, "
                              "live updates for phones (docs/server.md).")
    app.state.settings = settings
    errors.install(app)
    app.include_router(tables.router)
    app.include_router(live.router)
    app.include_router(games.router)
    app.include_router(games.live)
    app.include_router(games.pages)
    app.include_router(health.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _offline_docs(app)
    app.add_middleware(FormEnd)
    app.add_middleware(BodyLimit, max_bytes=settings.max_upload_bytes,
                       max_other_bytes=settings.max_body_bytes)
    app.add_middleware(Guard, extra_hosts=settings.allowed_hosts)  # the outermost
    return app


def _offline_docs(app: FastAPI) -> None:
    """/docs with Swagger UI served from the box (fastapi-offline's files), not from a CDN."""
    import fastapi_offline
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import HTMLResponse

    files = Path(fastapi_offline.__file__).resolve().parent / "static"
    app.mount("/static-docs", StaticFiles(directory=files), name="static-docs")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title="Tuki referee API",
                                   swagger_js_url="/static-docs/swagger-ui-bundle.js",
                                   swagger_css_url="/static-docs/swagger-ui.css",
                                   swagger_favicon_url="/static/die-bear.svg")
