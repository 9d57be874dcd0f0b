"""`referee serve`: the referee at the table (FastAPI on uvicorn), with demo stations."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from referee.server.appliance import Announcer
    from referee.server.settings import Settings


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
        mdns: bool = typer.Option(True, "--mdns/--no-mdns",
                                  help="Announce the box on the network as referee.local."),
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

        def say(text: str) -> None:
            console.print(text, highlight=False, soft_wrap=True)

        def _tell(service: TableService) -> None:  # once the service has opened
            tell_started(settings, service.demo_links(), say,
                         announcer if mdns else None)

        # fail here, in plain words, rather than in the server's start-up; the port first, so
        # that a failed start leaves no data folder behind
        _check_port(settings.host, settings.port)
        try:
            import os

            from referee.server.files import private_folder

            # the seeds and photos are the box's user's only: the folder, and every file the
            # server writes (a re-trial: run by root on a folder of another user's, the
            # database was left readable by all)
            os.umask(0o077)
            private_folder(settings.data_dir)
        except OSError as e:
            raise StorageError(f"cannot make the data folder {str(settings.data_dir)!r}: "
                               f"{e.strerror}; choose another with --data") from None
        held = _hold_data_folder(settings.data_dir)  # kept open while the server runs
        store = EventStore(settings.db_path)
        try:
            store.check()
        finally:
            store.close()
        _record_port(settings.data_dir, settings.port)
        from referee.server.appliance import Announcer
        from referee.server.connections import configure

        announcer = Announcer(settings.port)
        app = create_app(settings, on_ready=_tell)
        try:
            # small limits for what strangers send: a request's head, a WebSocket message
            # (phones send only their hello); no X-Forwarded-For believed, even from the box
            # itself (uvicorn's default trusts it from 127.0.0.1), so that the limits per
            # phone count the phone that connected, not a header the caller wrote
            # and what one address may hold open (connections.py)
            _raise_open_files_limit()
            from referee.server.net import access_log_config

            uvicorn.run(app, host=settings.host, port=settings.port, log_level="info",
                        log_config=access_log_config(),
                        http=configure(settings.max_connections_per_client,
                                       settings.stall_s),
                        h11_max_incomplete_event_size=64 * 1024,
                        ws_max_size=64 * 1024, ws_per_message_deflate=False,
                        proxy_headers=False)
        finally:
            announcer.stop()
            if held is not None:
                held.close()

    @app.command("admin-key")
    def admin_key_cmd(
        data: Path = typer.Option(None, help="The server's data folder (REFEREE_DATA, ./data)."),
        port: int = typer.Option(None, help="The server's port, for the link (REFEREE_PORT)."),
    ) -> None:
        """Show the box's admin key and the admin page's link.

        The key is made at first use, in <data>/admin-key, readable only by you. A folder no
        server has used is refused: a key made there (a mistyped --data, the wrong
        directory) would open no box."""
        from referee.server.keys import admin_key
        from referee.server.settings import Settings
        from referee.server.storage import StorageError

        settings = Settings.from_env(port=port, data_dir=data)
        if not settings.db_path.is_file():
            raise StorageError(f"no referee server has used the data folder "
                               f"{str(settings.data_dir)!r} yet: run this where you run "
                               "`referee serve`, or give its folder with --data (start the "
                               "server once first)")
        served = _recorded_port(settings.data_dir)
        if port is None and served is not None:  # the port the box actually serves on
            settings = Settings.from_env(port=served, data_dir=data)
        try:
            key = admin_key(settings.data_dir)
        except OSError as e:
            raise StorageError(f"cannot read or make the admin key in "
                               f"{str(settings.data_dir)!r}: {e.strerror}") from None
        from referee.server.net import lan_address

        print(key)
        host = lan_address() or "localhost"  # a phone on the box's network can open it
        print(f"admin page: http://{host}:{settings.port}/admin#a={key}")
        if port is None and served is None:
            print(f"(port {settings.port} assumed: no server has run with this data folder "
                  "yet; if `referee serve` uses another port, give it: --port N)")

    service_app = typer.Typer(no_args_is_help=True,
                              help="The box as an appliance: start the server at boot.")
    app.add_typer(service_app, name="service")

    @service_app.command("install")
    def service_install(
        port: int = typer.Option(8000, help="The port phones will use."),
        data: Path = typer.Option(Path("data"), help="The data folder (made if missing)."),
        user: str = typer.Option(None, help="The user the server runs as (default: you)."),
        print_only: bool = typer.Option(False, "--print",
                                        help="Only print the systemd unit."),
    ) -> None:
        """Install a systemd service: the referee starts at boot and restarts if it fails.

        See docs/raspberry-pi.md; needs sudo to write /etc/systemd/system/."""
        import getpass
        import os
        import subprocess

        from referee.server.appliance import default_unit
        from referee.server.settings import SettingsError, _port

        _port(str(port), "--port")
        who = user or os.environ.get("SUDO_USER") or getpass.getuser()
        text = default_unit(port, data, who)
        if print_only:
            print(text, end="")
            return
        why = systemd_missing()
        if why:
            raise SettingsError(f"this machine does not run systemd ({why}), so `service "
                                "install` cannot start the referee at boot; run `referee "
                                "serve` from your own start-up script instead")
        target = UNIT_PATH
        before = target.read_text(encoding="utf-8") if target.is_file() else None
        try:
            target.write_text(text, encoding="utf-8")
        except PermissionError:
            raise SettingsError(f"writing {target} needs root: run `sudo {sys_argv0()} "
                                "service install`, or `--print` the unit and copy it there "
                                "yourself") from None
        print(f"wrote {target}")
        for cmd in (["systemctl", "daemon-reload"],
                    ["systemctl", "enable", "--now", "referee.service"]):
            try:
                r = subprocess.run(cmd, capture_output=True, text=True)
                failed = (" ".join((r.stderr or r.stdout).split())[:200]
                          if r.returncode != 0 else None)
            except OSError as e:
                failed = e.strerror or str(e)
            if failed is not None:
                _undo_unit(target, before)
                raise SettingsError(f"`{' '.join(cmd)}` failed ({failed}); "
                                    f"{'restored' if before is not None else 'removed'} "
                                    f"{target}")
        print(f"the referee starts at boot; now running on port {port} "
              "(`systemctl status referee` shows it, `journalctl -u referee` its log)")

    dataset_app = typer.Typer(no_args_is_help=True,
                              help="The labelled photos a table's play leaves behind.")
    app.add_typer(dataset_app, name="dataset")

    @dataset_app.command("export")
    def dataset_export(
        out: Path = typer.Argument(..., help="The folder to write the photo set to."),
        data: Path = typer.Option(None, help="The server's data folder (REFEREE_DATA, "
                                             "./data)."),
    ) -> None:
        """Write every decided build as a labelled photo set: `referee eval OUT` runs it.

        Decided: the lookout's decisions on unsure builds and the answers to questioned
        verdicts; the set's format is WORLD.md §6."""
        from referee.server.dataset import export
        from referee.server.settings import Settings

        settings = Settings.from_env(data_dir=data)
        summary = export(settings.data_dir, out)
        print(f"wrote {summary['scenes']} labelled photos to {out} (stations: "
              f"{', '.join(summary['stations']) or 'none'}); skipped {summary['skipped']}; "
              f"measure them with: referee eval {out}")

    bench_app.command("server")(_bench)
    bench_app.command("games-live")(_bench_games)


def banner(data_dir: Path, local: str, base: str, lan: str | None,
           demo: list[tuple[str, str, str]]) -> list[str]:
    """What `referee serve` prints once the tables are open: the demo table's control link
    first (the one that plays a demo round), then its viewer, the start page and the rest.

    `local` is the box's own address (localhost), `base` the one phones use (the LAN address
    when there is one), `demo` the demo table's (table id, table key, view token).
    """
    lines = []
    for table_id, secret, view in demo:
        lines.append(f"START HERE, the demo table's CONTROL link (press Demo round there): "
                     f"{base}/t/{table_id}?v={view}#k={secret}")
        lines.append(f"the demo table's viewer (watch only, for phones): "
                     f"{base}/t/{table_id}?v={view}")
    lines.append(f"start page (new tables, card games): {local}/")
    if lan:
        lines.append(f"phones on this network: {base}/")
    lines.append(f"data in {data_dir}; admin page (cameras of this box, archiving, "
                 "deleting): run `referee admin-key`")
    return lines


def tell_started(settings: Settings, demo: list[tuple[str, str, str]],
                 say: Callable[[str], None], announcer: Announcer | None) -> None:
    """Print the banner, and announce `referee.local` by mDNS in the background (it can take
    many seconds; the server answers meanwhile): a line follows when it is announced."""
    from referee.server.net import lan_address

    wild = settings.host in ("0.0.0.0", "::")
    lan = lan_address() if wild else None
    local = f"http://{'localhost' if wild else settings.host}:{settings.port}"
    # phones open the links: the box's LAN address, never localhost
    base = f"http://{lan}:{settings.port}" if lan else local
    for line in banner(settings.data_dir, local, base, lan, demo):
        say(line)
    if wild and announcer is not None:
        port = settings.port

        def announced(address: str | None) -> None:
            if address is not None:
                say(f"also reachable as http://referee.local:{port}/ (mDNS)")

        announcer.start_in_background(announced)


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
    for key in ("done_request_ms", "done_to_feed_ms", "done_to_all_verdicts_on_feed_ms"):
        st = result[key]
        c.print(f"  {key}: median {st['median']}  p95 {st['p95']}  max {st['max']}",
                highlight=False)


def _bench_games(
        tables: int = typer.Option(20, help="Card tables played at once (1 to 50)."),
        phones: int = typer.Option(4, help="Phones (people, no bots) at each table (2 to 5)."),
        moves: int = typer.Option(25, help="Timed moves per table (1 to 10000)."),
        game: str = typer.Option("mixed", help="taki, tukki, tokaido, or mixed (in turn)."),
        pause_ms: float = typer.Option(0, help="Each table's thinking time between moves, ms "
                                               "(0: tap as soon as every phone has the move)."),
        timeout: float = typer.Option(300, help="Give up after this many seconds."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object.")) -> None:
    """Time card tables as their phones see them: a seat's tap until every phone has it.

    From the tap (POST) until every phone of that table has the move on its live feed, all
    tables at once, against a real server started on a loopback port (its table limits
    raised to --tables for this run only)."""
    import json

    from referee.server.bench_games import run

    result = run(tables, phones, moves, game, timeout, pause_ms)  # BenchError: plain words, exit 2
    if as_json:
        print(json.dumps(result))
        return
    from rich.console import Console

    c = Console()
    lat, post = result["tap_to_every_phone_ms"], result["post_ms"]
    load = ", ".join(str(x) for x in result["load_average_before"])
    c.print(f"{result['moves']} moves on {result['tables']} {result['game']} tables of "
            f"{result['phones']} phones, {result['pause_ms']:g} ms between a table's moves "
            f"({result['wall_s']} s; load average {load} at the start, {result['cpus']} cores)",
            highlight=False)
    c.print(f"  tap -> every phone of the table: p50 {lat['p50']}  p95 [bold]{lat['p95']}"
            f"[/bold]  max {lat['max']} ms", highlight=False)
    c.print(f"  the tap's own answer: p50 {post['p50']}  p95 {post['p95']}  max {post['max']} ms",
            highlight=False)
    c.print(f"  seen by every phone: {result['seen_by_every_phone']} of {result['moves']}"
            f" (missed {result['missed']}, wrong {result['wrong']}; "
            f"{result['rematches']} rematches)", highlight=False)
    c.print(f"  CPU per move: server {result['server_cpu_ms_per_move']} ms, this bench "
            f"{result['bench_cpu_ms_per_move']} ms", highlight=False)


UNIT_PATH = Path("/etc/systemd/system/referee.service")
SYSTEMD_RUNNING = Path("/run/systemd/system")  # exists only while systemd is the init


def systemd_missing() -> str | None:
    """Why `service install` cannot work here (no systemctl, or systemd not running), or
    None; checked before anything is written."""
    import shutil

    if shutil.which("systemctl") is None:
        return "no systemctl command"
    if not SYSTEMD_RUNNING.is_dir():
        return f"no {SYSTEMD_RUNNING}"
    return None


def _undo_unit(target: Path, before: str | None) -> None:
    """Put back what `service install` found at `target`: the old unit, or nothing."""
    # the failure being reported is systemctl's; one here would add nothing to it
    with contextlib.suppress(OSError):
        if before is None:
            target.unlink(missing_ok=True)
        else:
            target.write_text(before, encoding="utf-8")


def sys_argv0() -> str:
    """How the user ran this command (for advice that repeats it)."""
    import sys
    from pathlib import Path as _P

    return _P(sys.argv[0]).name or "referee"


PORT_FILE = "served-port"  # in the data folder: the port the last `referee serve` used


LOCK_FILE = "server.lock"


def _hold_data_folder(data_dir: Path) -> Any:
    """The data folder's lock (an open file, `fcntl.flock`), held while the server runs: a
    second server on the same folder served stale tables, failed its writes and rewrote the
    first one's port (a break-it trial). None where the system has no such locks.

    :raises StorageError: another server holds it.
    """
    from referee.server.storage import StorageError

    try:
        import fcntl
    except ImportError:  # not on Linux, macOS or a Pi
        return None
    f = open(data_dir / LOCK_FILE, "a+b")  # noqa: SIM115 (held for the process's life)
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        port = _recorded_port(data_dir)
        on = f" on port {port}" if port else ""
        raise StorageError(f"another referee server is running{on} with the data folder "
                           f"{str(data_dir)!r}: stop it first, or choose another folder with "
                           "--data") from None
    return f


def _record_port(data_dir: Path, port: int) -> None:
    """Keep the port this server serves on in its data folder, for `referee admin-key`'s
    link (a link with 8000 did not open on a box serving on 8765)."""
    from referee.server.files import write_synced

    with contextlib.suppress(OSError):  # the link then says which port it assumed
        write_synced(data_dir / PORT_FILE, f"{int(port)}\n".encode())


def _recorded_port(data_dir: Path) -> int | None:
    """The port the last server on this data folder served on; None when none is recorded
    (or the file is not a port number)."""
    try:
        with open(data_dir / PORT_FILE, "rb") as f:
            text = f.read(16).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        return None
    return int(text)


def _check_port(host: str, port: int) -> None:
    """:raises SettingsError: the address cannot be listened on (a port in use, say)."""
    import errno
    import socket

    from referee.server.settings import SettingsError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise SettingsError(f"port {port} is already in use (another referee server, "
                                    f"or another program); stop it, or choose another port "
                                    f"with --port, e.g. --port {port + 1}") from None
            raise SettingsError(f"cannot listen on {host}:{port}: {e.strerror}; check "
                                "--host") from None


def _raise_open_files_limit(want: int = 8192) -> None:
    """Raise this process's soft limit of open files towards `want` (within the hard limit):
    every phone holds a WebSocket, and a Pi's default soft limit is 1024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
