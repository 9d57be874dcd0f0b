"""The `referee` command: one typer group per area, each in its own module.

Every area module has `register(app, bench_app)`; commands stay thin (parse, call, print) and
import heavy libraries lazily so that `referee --help` is quick. User errors (`RefereeError`)
are printed in plain words with exit code 2, never as a traceback.
"""

from __future__ import annotations

import importlib
import sys

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="Camera referee for Tuki, and rules for TAKI, Tukki Tukki and Tokaido.")
bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks: vision stages and game engines.")
app.add_typer(bench_app, name="bench")

AREAS = ("tuki", "vision", "games", "server")
for _area in AREAS:
    importlib.import_module(f"referee.cli.{_area}").register(app, bench_app)


def main() -> None:
    """Entry point of the `referee` script."""
    from referee.errors import RefereeError

    try:
        app()
    except RefereeError as e:
        from rich.console import Console

        Console(stderr=True).print(f"[bold red]error:[/] {e}", highlight=False)
        sys.exit(2)
    except (FileNotFoundError, IsADirectoryError, PermissionError) as e:
        from rich.console import Console

        Console(stderr=True).print(f"[bold red]error:[/] cannot open {e.filename}: {e.strerror}",
                                   highlight=False)
        sys.exit(2)
