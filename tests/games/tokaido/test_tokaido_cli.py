"""`referee play tokaido`, `referee bench tokaido` and the rich rendering."""

from __future__ import annotations

import io
import json
import random

from rich.console import Console
from typer.testing import CliRunner

from referee.cli import app
from referee.games.engine import RandomBot, play_out
from referee.games.tokaido import GAME


def test_render_shows_road_players_and_the_end() -> None:
    s = GAME.new_game(3, seed=2, options={"characters": ["merchant", "gourmet", "priest"]})
    out = io.StringIO()
    Console(file=out, width=140).print(GAME.render(s, 0))
    text = out.getvalue()
    assert "0:KYO" in text and "34:EDO" in text and "Merchant" in text and "(you)" in text
    assert "seat 0 moves" in text
    play_out(s, [RandomBot()] * 3, random.Random(0), 1000)
    out = io.StringIO()
    Console(file=out, width=140).print(GAME.render(s, None))
    assert f"Winner: seat {s.winner()}" in out.getvalue()


def test_bench_json() -> None:
    r = CliRunner().invoke(app, ["bench", "tokaido", "--games", "20", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 20 and out["actions_per_s"] > 0


def test_play_takes_numbers_and_notation_and_quits() -> None:
    r = CliRunner().invoke(app, ["play", "tokaido", "--players", "2", "--bots", "random"],
                           input="move 99\n0\nq\n")
    assert r.exit_code == 0, r.output
    assert "move 99" in r.output and "the inn at 11 comes first" in r.output
