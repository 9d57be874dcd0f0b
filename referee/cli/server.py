"""`referee serve`: the referee at the table (FastAPI on uvicorn), with demo stations."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add `referee serve` and `referee bench server` to the `referee` app."""

    @app.command("serve")
    def serve(
        host: str = typer.Option(None, help="Address to listen on (REFEREE_HOST, 0.0.0.0)."),
        port: int = typer.Option(None, help="Port, 1 to 65535 (REFEREE_PORT, 8000)."),
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
        from referee.server.storage import EventStore, StorageError
        from referee.server.tables import TableService

        settings = Settings.from_env(host=host, port=port, data_dir=data, demo=demo)
        console = Console()

        def _tell(service: TableService) -> None:  # once the service has opened
            wild = settings.host in ("0.0.0.0", "::")
            base = f"http://{'localhost' if wild else settings.host}:{settings.port}"
            def say(text: str) -> None:
                console.print(text, highlight=False, soft_wrap=True)

            say(f"referee: data in {settings.data_dir}; open {base}/")
            lan = _lan_address() if wild else None
            if lan:
                say(f"phones on this network: http://{lan}:{settings.port}/")
            for table_id, secret in service.demo_links():
                say(f"demo table viewer:  {base}/t/{table_id}")
                say(f"demo table control: {base}/t/{table_id}#k={secret}")

        # fail here, in plain words, rather than in the server's start-up
        try:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot make the data folder {str(settings.data_dir)!r}: "
                               f"{e.strerror}; choose another with --data") from None
        EventStore(settings.db_path).close()
        app = create_app(settings, on_ready=_tell)
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="info")

    bench_app.command("server")(_bench)


def _bench(rounds: int = typer.Option(10, help="Demo rounds to play (1 or more)."),
           as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Time the demo table as a phone sees it: "done" → every verdict on the live feed."""
    import json

    from referee.server.bench import run

    result = run(rounds)  # BenchError (plain words, exit code 2) for fewer than 1 round
    if as_json:
        print(json.dumps(result))
        return
    from rich.console import Console

    c = Console()
    c.print(f"{result['rounds']} demo rounds (2 builders, real referee)", highlight=False)
    for key in ("done_request_ms", "done_to_all_verdicts_on_feed_ms"):
        st = result[key]
        c.print(f"  {key}: median {st['median']}  p95 {st['p95']}  max {st['max']}",
                highlight=False)


def _lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") else addr
