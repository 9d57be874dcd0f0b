"""Each command's line in `referee ... --help` is one sentence on one line: its docstring's
first paragraph is the summary that the command lists show, with its line breaks kept (a new
user's trial read `calibrate --help` broken after "that level: when")."""

from __future__ import annotations

import typer.main

from referee.cli import app


def _commands(cmd=None, path: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(the command's words, its help) for every command and group under `referee`."""
    cmd = cmd or typer.main.get_command(app)
    found = [(" ".join(path), cmd.help or "")]
    for name, sub in getattr(cmd, "commands", {}).items():
        found += _commands(sub, path + (name,))
    return found


def test_every_command_summary_is_one_line():
    commands = dict(_commands())
    assert {"calibrate level", "judge", "bench bots", "serve"} <= set(commands)
    long = [name for name, doc in commands.items()
            if not doc.strip() or "\n" in doc.strip().split("\n\n")[0]]
    assert long == []


def test_calibrate_help_lists_each_command_on_one_line(capsys, monkeypatch):
    from typer.testing import CliRunner

    out = CliRunner().invoke(app, ["calibrate", "--help"], env={"COLUMNS": "100"}).output
    assert "level    Set a station's level: normal or advanced." in out
    assert "that level: when" not in out
