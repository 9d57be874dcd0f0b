"""The `referee` command: one typer group per area, each in its own module.

Every area module has `register(app, bench_app)`; commands stay thin (parse, call, print) and
import heavy libraries lazily so that `referee --help` is quick. User errors (`RefereeError`)
are printed in plain words with exit code 2, never as a traceback.
"""

from __future__ import annotations

import importlib
import json
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
        _fail(str(e))
    except UnicodeDecodeError:
        _fail("a file given is not UTF-8 text (card grids, build grids and scenarios are "
              "plain text)")
    except OSError as e:  # missing file, a folder instead of a file, a name too long...
        _fail(f"cannot use {e.filename or 'a file'}: {e.strerror or e}")


def _fail(text: str) -> None:
    """One plain sentence on stderr, exit code 2. Brackets in it are text, not markup. A
    command asked for `--json` also prints one JSON object on stdout, `{"error": text}`, so
    that a script reading it gets JSON either way (a new user's trial)."""
    from rich.console import Console
    from rich.markup import escape

    if "--json" in sys.argv[1:]:
        print(json.dumps({"error": text}))
    # soft_wrap: one line in a pipe or a log (rich wrapped it at 80 columns there), the
    # terminal wraps it on screen
    Console(stderr=True, soft_wrap=True).print(f"[bold red]error:[/] {escape(text)}",
                                               highlight=False)
    sys.exit(2)
