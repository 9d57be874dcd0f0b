"""The information-set MCTS bot (referee.games.ismcts, issue 16): it decides from the seat's
view only, the same view gives the same move, it plays whole own turns through its tree, and
a level selects it with `search: ismcts`. Levels run here without their time cap, so nothing
depends on the machine's speed.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.games import search
from referee.games.engine import GAMES, RulesError, get_game, make_bot
from referee.games.ismcts import IsmctsBot
from referee.games.search import SearchBot, load_level
from referee.games.taki import from_setup
from tests.games.test_search_bots import _decisions, _redeal

ITERATIONS = {"taki": 60, "tukki": 30, "tokaido": 8}  # small budgets: a fast test
READ_LEVELS = search._raw_levels  # models/bots.yaml as read, before any test replaces it
EVERY = {"taki": 5, "tukki": 15, "tokaido": 10}  # checked decisions: about 10 a game


def _bot(name: str, iterations: int | None = None, opponents: str = "tree") -> IsmctsBot:
    lv = dataclasses.replace(load_level(name, "hard"), search="ismcts", time_ms=None,
                             iterations=iterations or ITERATIONS[name], opponents=opponents)
    if lv.depth is not None:
        lv = dataclasses.replace(lv, depth=min(lv.depth, 3))
    return IsmctsBot(get_game(name), lv)


@pytest.mark.parametrize("opponents", ["tree", "policy"])
@pytest.mark.parametrize("name", GAMES)
def test_the_move_does_not_change_when_hidden_cards_are_dealt_anew(name, opponents):
    """Issue 16: the bot uses only the seat's observation, never the true hidden cards."""
    bot = _bot(name, opponents=opponents)
    rng = random.Random(1)
    checked = 0
    for players, seed in ((2, 3), (3, 4)):
        for state in _decisions(name, players, seed, every=EVERY[name]):
            me = state.current_player()
            twin = _redeal(state, me, rng)
            assert twin.observation(me) == state.observation(me)
            assert twin.to_dict() != state.to_dict()  # the re-deal did move hidden cards
            assert bot.choose(twin, rng) == bot.choose(state, rng), f"{name} seat {me}"
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("opponents", ["tree", "policy"])
@pytest.mark.parametrize("name", GAMES)
def test_the_same_view_gives_the_same_move_and_leaves_the_state_alone(name, opponents):
    bot = _bot(name, opponents=opponents)
    state = next(_decisions(name, 2, seed=5, every=1))
    before = state.to_dict()
    first = bot.search(state)
    again = _bot(name, opponents=opponents).search(state.clone())
    assert state.to_dict() == before
    assert first.action == again.action and first.visits == again.visits
    assert first.means == again.means and first.action in state.legal_actions()
    # every iteration passes through one root action: its visits add up to the budget
    assert sum(first.visits) == first.iterations == ITERATIONS[name]
    assert all(0.0 <= m <= 1.0 for m in first.means)


def _levels_with(monkeypatch, **taki_hard) -> None:
    """models/bots.yaml as read, with TAKI hard's values replaced by `taki_hard`."""
    raw = READ_LEVELS()
    games = {**raw["games"], "taki": {**raw["games"]["taki"],
                                      "hard": {**raw["games"]["taki"]["hard"], **taki_hard}}}
    monkeypatch.setattr(search, "_raw_levels", lambda: {**raw, "games": games})


def test_a_level_selects_it_by_data(monkeypatch):
    game = get_game("taki")
    _levels_with(monkeypatch, search="ismcts", exploration=0.5)
    bot = make_bot(game, "hard")
    assert isinstance(bot, IsmctsBot) and bot.level.exploration == 0.5
    _levels_with(monkeypatch, search="pimc")
    assert isinstance(make_bot(game, "hard"), SearchBot)
    _levels_with(monkeypatch, search="alphabeta")
    with pytest.raises(RulesError, match="search must be pimc or ismcts"):
        load_level("taki", "hard")
    _levels_with(monkeypatch, search="ismcts", exploration=-1)
    with pytest.raises(RulesError, match="exploration must be a number"):
        load_level("taki", "hard")
    _levels_with(monkeypatch, search="ismcts", opponents="everyone")
    with pytest.raises(RulesError, match="opponents must be tree or policy"):
        load_level("taki", "hard")


def _run_position():
    """Seat 0 to play on R1 (red) with a red TAKI, a red Change Direction, a red Stop and a
    blue Stop; seat 1 holds one card, from a pool that is mostly red, so it likely goes out
    whenever it gets a turn. The sure win is a run that ends on the red Stop: TAKI,
    Change Direction, Stop, `close last`; the Stop skips seat 1 and the blue Stop (a Stop on
    a Stop) empties the hand. The heuristic runs the other way (the Stop first on a tie, by
    card order), so its run ends on the Change Direction and seat 1 plays: PIMC, whose
    rollouts play the rest of the seat's turn by the heuristic, prefers another move."""
    return from_setup({"hands": [["RTAKI", "RDIR", "RSTOP", "BSTOP"], ["G3"]],
                       "deck": ["R3", "R4", "R5", "R6", "R7", "R8", "Y1"], "discard": ["R1"]})


def test_it_plays_a_whole_winning_turn_through_its_tree():
    state = _run_position()
    bot = _bot("taki", iterations=400)
    rng = random.Random(0)
    moves = []
    while state.current_player() == 0 and not state.is_terminal():
        action = bot.choose(state, rng)
        moves.append(str(action))
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, 0.0], moves
    assert moves[:3] == ["play RTAKI", "play RDIR", "play RSTOP last"], moves


def test_the_heuristic_and_pimc_miss_that_turn():
    """The position above is no win in the heuristic's own order, which PIMC's rollouts
    assume for the rest of the seat's turn: PIMC does not start the run."""
    state = _run_position()
    lv = dataclasses.replace(load_level("taki", "hard"), search="pimc", time_ms=None,
                             iterations=400)
    assert str(SearchBot(get_game("taki"), lv).choose(state, random.Random(0))) != "play RTAKI"
    heuristic = make_bot(get_game("taki"), "heuristic")
    rng = random.Random(0)
    while state.current_player() == 0 and not state.is_terminal():
        state.apply_action(heuristic.choose(state, rng))
    assert not state.is_terminal()
