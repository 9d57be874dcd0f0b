"""The search bots of issue 16 (referee.games.search): they decide from the seat's view only,
the same view gives the same move, levels load from models/bots.yaml, and `referee bench bots`
prints its JSON object. Levels here run without their time cap, so nothing depends on the
machine's speed; the big win-rate benches are in the README and docs/measurements.md, not here.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.games.duel import duel
from referee.games.engine import BOT_LEVELS, GAMES, RulesError, get_game, make_bot
from referee.games.search import SearchBot, load_level, observation_seed
from tests.games.taki.test_taki_properties import _permute_hidden
from tests.games.tukki.test_tukki_hidden import shuffled_unseen

ITERATIONS = {"taki": 24, "tukki": 24, "tokaido": 6}  # small budgets: a fast test
EVERY = {"taki": 5, "tukki": 15, "tokaido": 10}  # checked decisions: about 10 a game


def _bot(name: str, level: str = "hard") -> SearchBot:
    lv = dataclasses.replace(load_level(name, level), time_ms=None, iterations=ITERATIONS[name])
    if lv.depth is not None:
        lv = dataclasses.replace(lv, depth=min(lv.depth, 3))
    return SearchBot(get_game(name), lv)


def _redeal(state, seat: int, rng: random.Random):
    """A copy where all that `seat` cannot see is dealt anew, written apart from the engines'
    `determinize` so that the test does not trust the code it checks; the RNG too."""
    name = state.game.name
    if name == "taki":
        c = _permute_hidden(state, seat, rng)  # the TAKI property tests' own re-deal
        c._rng = random.Random(rng.random())
    elif name == "tukki":
        c = shuffled_unseen(state, seat, rng)
        c._rng = random.Random(rng.random())
    else:
        c = state.clone()
        rng.shuffle(c.enc_deck)
        rng.shuffle(c.story_deck)
        c.rng = random.Random(rng.random())
    return c


def _decisions(name: str, players: int, seed: int, every: int):
    """States of a seeded heuristic game, every `every`-th decision with 2+ legal actions."""
    game = get_game(name)
    state = game.new_game(players, seed=seed)
    heuristic = make_bot(game, "heuristic")
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if len(state.legal_actions()) > 1:
            if n % every == 0:
                yield state
            n += 1
        state.apply_action(heuristic.choose(state, rng))


@pytest.mark.parametrize("name", GAMES)
def test_the_move_does_not_change_when_hidden_cards_are_dealt_anew(name):
    """Issue 16: the bot uses only the seat's observation, never the true hidden cards."""
    bot = _bot(name)
    rng = random.Random(1)
    checked = differ = 0
    for players, seed in ((2, 3), (3, 4)):
        for state in _decisions(name, players, seed, every=EVERY[name]):
            me = state.current_player()
            twin = _redeal(state, me, rng)
            assert twin.observation(me) == state.observation(me)
            differ += twin.to_dict() != state.to_dict()
            assert bot.choose(twin, rng) == bot.choose(state, rng), f"{name} seat {me}"
            checked += 1
    assert checked >= 6 and differ == checked  # the re-deals did move hidden cards


@pytest.mark.parametrize("name", GAMES)
def test_the_same_view_gives_the_same_move_and_leaves_the_state_alone(name):
    bot = _bot(name)
    state = next(_decisions(name, 2, seed=5, every=1))
    before = state.to_dict()
    first = bot.search(state)
    again = _bot(name).search(state.clone())
    assert state.to_dict() == before
    assert first.action == again.action and first.visits == again.visits
    assert first.means == again.means and first.action in state.legal_actions()
    assert sum(first.visits) == first.iterations >= ITERATIONS[name] - len(first.visits)


@pytest.mark.parametrize("name", GAMES)
def test_determinize_keeps_the_view_and_every_card(name):
    """`State.determinize` (engine.py): a full state consistent with `observation(seat)`."""
    for players, seed in ((2, 0), (4, 1)):
        state = next(_decisions(name, players, seed, every=1))
        for seat in range(players):
            deal = state.determinize(seat, random.Random(seat))
            assert deal.observation(seat) == state.observation(seat)
            assert _cards(deal) == _cards(state)
            if seat == state.current_player():
                assert deal.legal_actions() == state.legal_actions()
        with pytest.raises(RulesError):
            state.determinize(players, random.Random(0))


def _cards(state) -> Counter:
    if state.game.name == "taki":
        return Counter([k for h in state._hands for k in h] + state._deck + state._discard)
    if state.game.name == "tukki":
        return Counter(state.all_cards())
    return Counter(state.enc_deck + state.story_deck)


def test_the_seed_is_a_stable_hash_of_the_view():
    view = {"b": [1, 2], "a": "R5"}
    assert observation_seed(view) == observation_seed({"a": "R5", "b": [1, 2]})
    assert observation_seed(view) == 15032923983026035765  # the same in every process
    assert observation_seed(view) != observation_seed({"a": "R5", "b": [2, 1]})


@pytest.mark.parametrize("name", GAMES)
def test_every_level_loads_and_is_a_bot_by_name(name):
    game = get_game(name)
    for level in BOT_LEVELS:
        bot = make_bot(game, level)
        assert isinstance(bot, SearchBot) and bot.level.name == level
        assert bot.level.iterations >= 1 and bot.level.time_ms > 0
    easy, hard = (load_level(name, lv) for lv in ("easy", "hard"))
    assert easy.iterations < hard.iterations
    with pytest.raises(RulesError, match="unknown level"):
        load_level(name, "expert")


@pytest.mark.parametrize("name", GAMES)
def test_search_beats_random(name):
    """A short, seeded check that the search plays the game: 3 of 4 games won against random
    (Tukki Tukki in 1 round); no time cap, so the same games on any machine."""
    game = get_game(name)
    bot = _bot(name, "medium")
    wins = 0.0
    for g in range(4):
        state = game.new_game(2, seed=100 + g, options={"rounds": 1} if name == "tukki" else None)
        seats = [make_bot(game, "random")] * 2
        seats[g % 2] = bot
        rng = random.Random(g)
        while not state.is_terminal():
            state.apply_action(seats[state.current_player()].choose(state, rng))
        r = state.returns()
        wins += r[g % 2] / sum(r)
    assert wins >= 3, wins


def test_play_seats_the_levels():
    """`referee play --bots easy,hard` fills the other seats with search bots."""
    r = CliRunner().invoke(app, ["play", "tokaido", "--players", "3", "--bots", "easy,hard",
                                 "--seed", "2"], input="0\n" * 4 + "q\n")
    assert r.exit_code == 0, r.output
    assert "seat 1 (easy)" in r.output and "seat 2 (hard)" in r.output


def test_duel_rotates_seats_and_counts_shared_wins():
    r = duel("tokaido", "heuristic", "random", players=2, games=4, seed=0)
    assert r.games == 4 and 0.0 <= r.win_rate <= 1.0 and len(r.move_ms) > 0
    assert r.ci95 == pytest.approx(1.96 * (r.win_rate * (1 - r.win_rate) / 4) ** 0.5)
    with pytest.raises(RulesError):
        duel("tokaido", "hard", "random", games=0)


def test_bench_bots_prints_one_json_object():
    runner = CliRunner()
    r = runner.invoke(app, ["bench", "bots", "tukki", "--bot", "heuristic", "--against",
                            "random", "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert list(out) == ["games", "bot", "against", "win_rate", "ci95", "ms_per_move_p95"]
    assert out["games"] == 2 and out["bot"] == "heuristic" and out["against"] == "random"
    assert 0 <= out["win_rate"] <= 1 and out["ci95"] >= 0 and out["ms_per_move_p95"] > 0


def test_bench_bots_refuses_an_unknown_bot_in_one_sentence():
    r = subprocess.run([sys.executable, "-m", "referee", "bench", "bots", "taki", "--bot",
                        "expert", "--against", "random"], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "unknown bot 'expert'" in r.stderr and "easy" in r.stderr


def test_play_refuses_an_unknown_bot_before_printing_the_deal():
    """A new user's trial: `referee play taki --bots superhard` printed the seed and the
    notation's legend, then the error; now the error alone."""
    r = subprocess.run([sys.executable, "-m", "referee", "play", "taki", "--bots",
                        "superhard"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "unknown bot 'superhard'" in r.stderr
    assert r.stdout == ""
