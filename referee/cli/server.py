"""`referee serve`: the referee at the table (FastAPI on uvicorn), with demo stations."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option(None, help="Address to listen on (REFEREE_HOST, 0.0.0.0)."),
        port: int = typer.Option(None, help="Port (REFEREE_PORT, 8000)."),
        data: Path = typer.Option(None, help="Data folder for the database and photos "
                                             "(REFEREE_DATA, ./data)."),
        demo: bool = typer.Option(None, "--demo/--no-demo",
                                  help="Create the demo table on a fresh data folder "
                                       "(REFEREE_DEMO, on)."),
    ) -> None:
        """Run the referee server: tables, cameras, live phone dashboard, API docs at /docs."""
        import uvicorn
        from rich.console import Console

        from referee.server.app import create_app
        from referee.server.settings import Settings
        from referee.server.tables import TableService

        settings = Settings.from_env(host=host, port=port, data_dir=data, demo=demo)
        console = Console()

        def _tell(service: TableService) -> None:  # once the service has opened
            shown = "localhost" if settings.host in ("0.0.0.0", "::") else settings.host
            base = f"http://{shown}:{settings.port}"
            console.print(f"referee: data in {settings.data_dir}; open {base}/", highlight=False)
            for table_id, secret in service.demo_links():
                console.print(f"demo table: viewer {base}/t/{table_id}  "
                              f"control {base}/t/{table_id}#k={secret}", highlight=False)

        app = create_app(settings, on_ready=_tell)
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="info")
