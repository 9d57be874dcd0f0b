"""The heuristic bot against random, and the CLI around the engine (play, rules check, bench)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app
from referee.games import baselines
from referee.games.bench import BenchResult
from referee.games.engine import RandomBot, play_out
from referee.games.search import SearchBot, load_level
from referee.games.taki import GAME, from_setup, new_game, render
from referee.games.taki.bots import HeuristicBot
from referee.games.taki.cards import COLOR_OF

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "taki"


def test_heuristic_beats_random_in_two_player_games():
    """ENGINES.md "Bots": > 60 % of 2-player games against random, seats alternating
    (measured 97.5 % over these 400 seeded games)."""
    wins = 0
    for g in range(400):
        me = g % 2
        seats = [HeuristicBot(), RandomBot()] if me == 0 else [RandomBot(), HeuristicBot()]
        state = new_game(2, seed=g)
        play_out(state, seats, random.Random(g), 100_000)
        wins += state.returns()[me] == 1.0
    assert wins / 400 > 0.9


def test_heuristic_plays_only_legal_moves_with_many_players():
    rng = random.Random(3)
    for seed in range(20):
        state = new_game(2 + seed % 9, seed=seed, options={"tournament": seed % 2 == 1})
        n = play_out(state, [HeuristicBot()] * state.num_players, rng, 100_000)
        assert n > 0 and state.is_terminal()


def test_the_fast_heuristic_choice_is_the_scored_one():
    """`HeuristicBot.choose` inlines `_score` for speed (it plays the search's rollouts): it
    plays what the plain rule plays, the best `_score` with "last card" calls first and ties
    to the earliest, over games of 2 to 5 seats with random detours for odd states."""
    bot, n = HeuristicBot(), 0
    for seed in range(60):
        state = new_game(2 + seed % 4, seed=seed, options={"tournament": seed % 5 == 0})
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            legal = [a for a in legal if a.last] or legal
            hand = state.hand(state.current_player())
            per_color = [sum(1 for k in hand if COLOR_OF[k] == c) for c in range(4)]
            want = max(legal, key=lambda a: bot._score(state, a, hand, per_color))
            got = bot.choose(state, rng)
            assert got == want, (seed, got, want)
            n += 1
            state.apply_action(rng.choice(state.legal_actions()) if rng.random() < 0.3 else got)
    assert n > 10_000


def test_the_search_bot_always_calls_last_card():
    """RULINGS.md TAKI: bots always declare; the search weighs only the called moves."""
    state = from_setup({"hands": [["R5", "G3"], ["B3", "G4", "Y7"]],
                        "deck": ["Y1", "Y3", "Y4", "Y5"], "discard": ["R1"]})
    level = dataclasses.replace(load_level("taki", "hard"), time_ms=None, iterations=40)
    result = SearchBot(GAME, level).search(state)
    called = [a for a in state.legal_actions() if a.last]
    assert called and len(result.visits) == len(called) and result.action in called


def test_render_hides_other_hands_until_the_end():
    from rich.console import Console

    state = new_game(3, seed=1)
    console = Console(width=120, record=True, color_system=None)
    console.print(render(state, 0))
    text = console.export_text()
    own = " ".join(state.observation(0)["hand"])
    assert own in text and "?" * 8 in text
    console = Console(width=120, record=True, color_system=None)
    console.print(render(state, None))
    text = console.export_text()
    assert all(" ".join(state.facts()["hands"][p]) in text for p in range(3))


def test_rules_check_passes_and_fails_files(tmp_path):
    runner = CliRunner()
    files = sorted(str(p) for p in SCENARIOS.glob("*.json"))
    r = runner.invoke(app, ["rules", "check", *files])
    assert r.exit_code == 0, r.output
    assert f"{len(files)} passed, 0 failed" in r.output
    bad = tmp_path / "bad.json"
    sc = json.loads((SCENARIOS / "stop.json").read_text())
    sc["steps"].append({"expect": {"current_player": 1}})
    bad.write_text(json.dumps(sc))
    r = runner.invoke(app, ["rules", "check", str(bad)])
    assert r.exit_code == 1 and "FAIL" in r.output and "current_player" in r.output


def test_play_taki_against_bots_to_the_end():
    """`referee play taki`: seat 0 types moves by number; the game runs to its end."""
    r = CliRunner().invoke(app, ["play", "taki", "--players", "2", "--bots", "heuristic",
                                 "--seed", "4"], input="0\n" * 400)
    assert r.exit_code == 0, r.output
    assert "game over" in r.output
    # it says who won: you, or the bot's seat
    assert "game over: you (seat 0) won" in r.output or \
        "game over: seat 1 (heuristic) won" in r.output or "share the win" in r.output


def test_each_game_has_a_new_deal_unless_seeded():
    """Without --seed each game deals anew and shows its seed, which replays it."""
    import re

    runs = [CliRunner().invoke(app, ["play", "taki", "--players", "2", "--bots", "heuristic"],
                               input="q\n") for _ in range(3)]
    seeds = [re.search(r"seed (\d+)", r.output).group(1) for r in runs]
    assert len(set(seeds)) > 1
    again = CliRunner().invoke(app, ["play", "taki", "--players", "2", "--bots", "heuristic",
                                     "--seed", seeds[0]], input="q\n")
    first = runs[0].output.split("\n", 1)[1]  # the same deal, less the seed line
    assert again.output.strip().startswith(first.strip()[:200])


def test_bench_json():
    r = CliRunner().invoke(app, ["bench", "taki", "--games", "20", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 20 and out["actions_per_s"] > 0


def test_compare_reports_missing_baselines(monkeypatch):
    def missing(games: int, seed: int) -> BenchResult:
        raise ImportError("no module named pyspiel")

    monkeypatch.setitem(baselines.BASELINES, "taki", {"crazy_eights": missing})
    out = baselines.compare("taki", BenchResult(10, 1000, 1.0), games=10, seed=0)
    assert out["crazy_eights"] == baselines.NOT_INSTALLED
    alt = out["taki_draw_only_when_stuck"]  # our engine under UNO's legal set, still timed
    assert alt["games"] == 10 and alt["actions_per_game"] > 0
    assert not any(k.startswith("ratio") for k in alt)
    assert baselines.compare("tukki", BenchResult(10, 1000, 1.0), games=10, seed=0) == {}


def test_compare_ratios():
    def fake(games: int, seed: int) -> BenchResult:
        return BenchResult(games, games * 50, 2.0)

    row = baselines._row(BenchResult(100, 10_000, 1.0), fake(100, 0))
    assert row["ratio_games_per_s"] == 2.0 and row["ratio_actions_per_s"] == 4.0
    assert row["actions_per_game"] == 50.0 and row["ours_actions_per_game"] == 100.0
