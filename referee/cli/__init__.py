"""The `referee` command: one typer group per area, each in its own module.

Every area module has `register(app, bench_app)`; commands stay thin (parse, call, print) and
import heavy libraries lazily so that `referee --help` is quick. User errors (`RefereeError`)
are printed in plain words with exit code 2, never as a traceback; every value typed on the
command line that an error says back (click's own errors too) is clipped to 60 characters
on the way out, in one place (echo.py), never in each message.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any, NoReturn

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="Camera referee for Tuki, and rules for TAKI, Tukki Tukki and Tokaido.")
bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks: vision stages and game engines.")
app.add_typer(bench_app, name="bench")

AREAS = ("tuki", "vision", "games", "server")
for _area in AREAS:
    importlib.import_module(f"referee.cli.{_area}").register(app, bench_app)


# click's usage errors' class, whose messages repeat what was typed ("No such command 'x'");
# typer carries its own copy of click (typer._click) in newer versions, click's in older
CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__
                                    if c.__name__ == "ClickException")


def main() -> None:
    """Entry point of the `referee` script. Every error it prints repeats a value typed on
    the command line at most 60 characters long (`echo.clip_echoes`): an unknown card, die
    face, command or path of 5000 characters made an error line of 5000."""
    from referee.errors import RefereeError

    try:
        # not standalone: click's own errors (an unknown command, a number that is none)
        # come here to be clipped, then are shown as typer shows them
        code = app(standalone_mode=False)
    except CLICK_ERROR as e:
        _click_fail(e)
    except typer.Abort:
        from typer import rich_utils

        rich_utils.rich_abort_error()
        sys.exit(1)
    except RefereeError as e:
        _fail(str(e))
    except UnicodeDecodeError:
        _fail("a file given is not UTF-8 text (card grids, build grids and scenarios are "
              "plain text)")
    except OSError as e:  # missing file, a folder instead of a file, a name too long...
        _fail(f"cannot use {e.filename or 'a file'}: {e.strerror or e}")
    # what a standalone click command exits with: a typer.Exit's code (returned when not
    # standalone), else 0
    sys.exit(code if isinstance(code, int) else 0)


def _click_fail(e: Any) -> NoReturn:
    """A usage error of click's, its echo of the command line clipped, shown as typer
    shows it (the usage line, a framed message), with its exit code (2)."""
    from typer import rich_utils

    from referee.cli.echo import clip_echoes

    e.message = clip_echoes(e.message, sys.argv[1:])
    rich_utils.rich_format_error(e)
    sys.exit(e.exit_code)


def _fail(text: str) -> NoReturn:
    """One plain sentence on stderr, exit code 2, the values it repeats from the command
    line clipped (`echo.clip_echoes`). Brackets in it are text, not markup. A
    command asked for `--json` also prints one JSON object on stdout, `{"error": text}`, so
    that a script reading it gets JSON either way (a new user's trial)."""
    from rich.console import Console
    from rich.markup import escape

    from referee.cli.echo import clip_echoes

    text = clip_echoes(text, sys.argv[1:])
    if "--json" in sys.argv[1:]:
        print(json.dumps({"error": text}))
    # soft_wrap: one line in a pipe or a log (rich wrapped it at 80 columns there), the
    # terminal wraps it on screen
    Console(stderr=True, soft_wrap=True).print(f"[bold red]error:[/] {escape(text)}",
                                               highlight=False)
    sys.exit(2)
