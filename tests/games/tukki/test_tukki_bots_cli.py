"""Bots, the scenario files and the CLI commands of Tukki Tukki."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.games.engine import RandomBot, play_out
from referee.games.scenarios import run_file
from referee.games.tukki import GAME, HeuristicBot

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios" / "tukki").glob("*.json"))
runner = CliRunner()


def heuristic_wins(games: int, seed: int) -> float:
    """Share of 2-player games the heuristic bot wins outright against random (seats alternate)."""
    rng = random.Random(seed)
    wins = 0
    for g in range(games):
        h = g % 2
        bots = [RandomBot(), RandomBot()]
        bots[h] = HeuristicBot()
        s = GAME.new_game(2, seed=seed + g)
        play_out(s, bots, rng, 20_000)
        wins += s.returns()[h] == 1.0 and s.returns()[1 - h] == 0.0
    return wins / games


def test_heuristic_beats_random():
    """ENGINES.md: the heuristic bot beats random in more than 60 % of 2-player games."""
    assert heuristic_wins(100, seed=1) > 0.6


@pytest.mark.parametrize("players", [2, 4, 6])
def test_heuristic_plays_legal_moves(players):
    rng = random.Random(players)
    s = GAME.new_game(players, seed=players)
    bot = HeuristicBot()
    while not s.is_terminal():
        a = bot.choose(s, rng)
        assert a in s.legal_actions()
        s.apply_action(a)


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 15


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes(path):
    r = run_file(path)
    assert r.passed, f"{r.name}: {r.why}"


def test_rules_check_command():
    res = runner.invoke(app, ["rules", "check", *map(str, SCENARIOS)])
    assert res.exit_code == 0, res.output
    assert f"{len(SCENARIOS)} passed, 0 failed" in res.output


def test_rules_check_fails_on_a_wrong_expectation(tmp_path):
    sc = json.loads(SCENARIOS[0].read_text())
    sc["steps"].append({"expect": {"current_player": 0}})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sc))
    res = runner.invoke(app, ["rules", "check", str(bad)])
    assert res.exit_code == 1 and "FAIL" in res.output


def test_rules_score_text():
    res = runner.invoke(app, ["rules", "score", "tukki", "5 5 P 9 / 5 5 7 9"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("column 1: 5 over 5: a pair of 5s in a four of 5s")
    assert "parrot copies the 7" in lines[2]
    assert lines[-1] == "score: -10"


def test_rules_score_json():
    res = runner.invoke(app, ["rules", "score", "tukki", "1 2 3 4 / 5 6 7 8", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["score"] == 36 and [c["points"] for c in out["columns"]] == [6, 8, 10, 12]


@pytest.mark.parametrize("args, words", [
    (["tukki", "5 5 P / 5 5 7 9"], "4 cards in each row"),
    (["tukki", "5 5 X 9 / 5 5 7 9"], "unknown card 'X'"),
    (["taki", "5 5 P 9 / 5 5 7 9"], "only tukki"),
    (["tukki", "P P P P / P P P P"], "8 x P (the deck has 4)"),
])
def test_rules_score_errors_are_plain_words(args, words):
    from referee.errors import RefereeError

    res = runner.invoke(app, ["rules", "score", *args])
    assert isinstance(res.exception, RefereeError) and words in str(res.exception)


def test_bench_json():
    res = runner.invoke(app, ["bench", "tukki", "--games", "5", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["games"] == 5 and out["actions_per_s"] > 0


def test_play_against_bots_until_quit():
    res = runner.invoke(app, ["play", "tukki", "--players", "3", "--bots", "heuristic,random"],
                        input="0\nreveal b4\nplace a1\nq\n")
    assert res.exit_code == 0, res.output
    assert "Tukki Tukki, round 1/5" in res.output and "seat 0 (you)" in res.output
    assert "place a1 refused for player 0" in res.output  # told in words, no traceback
    assert "Traceback" not in res.output


def test_render_hides_face_down_cards():
    from rich.console import Console

    s = GAME.new_game(2, seed=0)
    console = Console(width=100, record=True)
    console.print(GAME.render(s, 0))
    assert "▒▒" in console.export_text()
    console = Console(width=100, record=True)
    console.print(GAME.render(s, None))
    assert "▒▒" not in console.export_text()
