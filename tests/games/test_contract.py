"""The shared engine contract (ENGINES.md "State and actions"), checked for every game in
`referee.games.engine.GAMES` through its `GameInfo` only: seeded random playouts end within a
bound; every legal action's text parses back equal; `clone()` is independent; `to_dict()` and
`observation()` are JSON; illegal actions raise `RulesError` and change nothing; `returns()`
has one value per seat. A game not written yet fails here, on purpose.
"""

from __future__ import annotations

import json
import random

import pytest

from referee.games.engine import GAMES, TERMINAL, RandomBot, RulesError, get_game

SEEDS = range(12)
MAX_ACTIONS = 100_000
GARBAGE = ("", "xyzzy", "play", "take", "move", "42", "play play", "draw draw draw")


def _players(game, seed: int) -> int:
    return game.min_players + seed % (game.max_players - game.min_players + 1)


@pytest.fixture(params=GAMES)
def game(request):
    return get_game(request.param)


def test_game_info_is_complete(game):
    assert game.min_players >= 1 and game.max_players >= game.min_players
    assert callable(game.new_game) and callable(game.from_setup) and callable(game.parse_action)
    assert "random" not in game.bots and "heuristic" in game.bots


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_the_contract(game, seed):
    rng = random.Random(seed)
    players = _players(game, seed)
    state = game.new_game(players, seed=seed)
    assert state.num_players == players
    assert len(state.returns()) == players
    seen: dict[str, object] = {}
    bot = RandomBot()
    n = 0
    while not state.is_terminal():
        assert n < MAX_ACTIONS, f"{game.name}: no end after {MAX_ACTIONS} actions"
        p = state.current_player()
        assert 0 <= p < players
        legal = state.legal_actions()
        assert legal, f"{game.name}: a live state without legal actions"
        texts = [str(a) for a in legal]
        assert len(set(texts)) == len(texts), f"two legal actions share a text: {texts}"
        for a in legal:
            assert game.parse_action(str(a)) == a
            seen[str(a)] = a
        if n % 10 == 0:
            before = state.to_dict()
            json.dumps(before)
            json.dumps(state.observation(p))
            wrong = [a for t, a in seen.items() if t not in texts]
            for a in rng.sample(wrong, min(3, len(wrong))):
                with pytest.raises(RulesError):
                    state.apply_action(a)
                assert state.to_dict() == before, f"refused {a} but the state changed"
            for text in GARBAGE:
                with pytest.raises(RulesError):
                    state.apply_text(text)
                assert state.to_dict() == before
        state.apply_action(bot.choose(state, rng))
        n += 1
    assert state.current_player() == TERMINAL
    returns = state.returns()
    assert len(returns) == players and max(returns) == 1.0
    assert len(state.scores()) == players
    json.dumps(state.to_dict())
    for text in list(seen)[:5]:
        with pytest.raises(RulesError):
            state.apply_text(text)


def test_clone_is_independent(game):
    rng = random.Random(7)
    state = game.new_game(game.min_players, seed=7)
    for _ in range(20):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.to_dict()
    twin = state.clone()
    assert twin.to_dict() == before
    n = 0
    while not twin.is_terminal() and n < MAX_ACTIONS:
        twin.apply_action(rng.choice(twin.legal_actions()))
        n += 1
    assert state.to_dict() == before
    if not state.is_terminal():
        assert state.legal_actions()


def test_same_seed_same_game(game):
    a = game.new_game(game.min_players, seed=3)
    b = game.new_game(game.min_players, seed=3)
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("seat", [-1, -2, "n", None, 1.0, True, "max"])
def test_observation_refuses_a_seat_out_of_range(game, seat):
    """`observation(-1)` is no seat: a negative index must not show the last seat's hand."""
    state = game.new_game(game.min_players, seed=1)
    seat = game.min_players if seat == "max" else seat
    with pytest.raises(RulesError, match="no player"):
        state.observation(seat)
    for p in range(game.min_players):
        assert state.observation(p)["player"] == p


@pytest.mark.parametrize("args, words", [
    (["--games", "-5"], "at least 1, not -5"),
    (["--games", "0"], "at least 1, not 0"),
    (["--players", "1"], "players, not 1"),
    (["--players", "99"], "players, not 99"),
])
def test_bench_refuses_a_bad_count(game, args, words):
    """`referee bench GAME --games -5` printed a negative rate; now a plain error, exit 2."""
    from typer.testing import CliRunner

    from referee.cli import app
    from referee.games.bench import bench_random_playouts

    res = CliRunner().invoke(app, ["bench", game.name, "--games", "2", *args])
    assert isinstance(res.exception, RulesError) and words in str(res.exception)
    with pytest.raises(RulesError, match="at least 1"):
        bench_random_playouts(game.name, 0)
    assert bench_random_playouts(game.name, 1, players=game.max_players).games == 1


def test_bench_compare_prints_plain_lines_and_the_whole_install_hint():
    """A new-user trial: `--compare` without the baselines printed "pip install -e '.'" (rich
    took `[bench]` for markup) and a raw dict for our own engine's other policy."""
    from typer.testing import CliRunner

    from referee.cli import app
    from referee.cli.games import _compare_line
    from referee.games.baselines import NOT_INSTALLED

    assert _compare_line(NOT_INSTALLED) == NOT_INSTALLED
    row = {"games": 4, "games_per_s": 812.3, "actions_per_s": 70_000.0,
           "actions_per_game": 86.2, "ratio_games_per_s_vs_uno": 5.45}
    assert _compare_line(row) == "812 games/s, 86 actions a game; ours 5.45x in games/s " \
                                 "against uno"
    res = CliRunner().invoke(app, ["bench", "taki", "--games", "2", "--compare"])
    assert res.exit_code == 0, res.output
    lines = [x for x in res.output.splitlines() if x.strip().startswith("vs ")]
    assert len(lines) == 3 and not any("{" in x for x in lines)
    assert all("'.[bench]'" in x or "games/s" in x for x in lines)


def test_play_explains_the_moves_and_leaves_in_plain_words():
    """A new-user trial: card codes were never explained, `q` quit without a word, end of
    input printed "Aborted." with exit 1, and Tukki Tukki's final scores did not say that the
    lowest wins."""
    from typer.testing import CliRunner

    from referee.cli import app
    from referee.cli.games import _which_way

    r = CliRunner().invoke(app, ["play", "taki", "--players", "2", "--seed", "3"],
                           input="help\nq\n")
    assert r.exit_code == 0 and r.output.count("DIR change direction") == 2
    assert "bad action" not in r.output
    assert "game left; play this deal again with --seed 3" in r.output
    r = CliRunner().invoke(app, ["play", "tukki", "--players", "2", "--seed", "3"], input="")
    assert r.exit_code == 0 and "Aborted" not in r.output and "game left" in r.output
    assert _which_way([197, 252, 51], [2]) == " (the lowest wins)"
    assert _which_way([3, 9], [1]) == " (the highest wins)"
    assert _which_way([5, 5], [0, 1]) == ""


def test_play_lists_the_last_card_call_only_where_it_counts():
    """A new user was offered "draw last" with two cards in hand: `referee play` lists
    TAKI's "last card" call with the moves where it counts, as a phone does, and every
    other legal move; other games list every legal move."""
    from referee.cli.games import listed_moves
    from referee.games.engine import get_game

    taki = get_game("taki")
    rng = random.Random(5)
    hidden = 0
    for seed in range(12):
        st = taki.new_game(2, seed=seed)
        while not st.is_terminal():
            legal, shown = st.legal_actions(), listed_moves(taki, st)
            assert [a for a in legal if not a.last] == [a for a in shown if not a.last]
            for a in shown:
                if a.last:
                    base = next(b for b in legal if f"{b} last" == str(a))
                    assert taki.call_counts(st, base)
            hidden += len(legal) - len(shown)
            st.apply_action(rng.choice(legal))
    assert hidden > 100  # many calls that change nothing were left out
    tok = get_game("tokaido").new_game(2, seed=1)
    assert listed_moves(get_game("tokaido"), tok) == list(tok.legal_actions())
