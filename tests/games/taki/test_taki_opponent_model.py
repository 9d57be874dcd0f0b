"""The TAKI opponent model of the hard search bot (issue 16): `deal_weight` asks how likely the
other seats' recent public actions are in a deal if they play as the heuristic bot, from
their hands then (hand now plus the cards played since their last draw).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.games.engine import RulesError, get_game
from referee.games.search import SearchBot, load_level
from referee.games.taki import TakiState, from_setup, new_game
from referee.games.taki.bots import MISMATCH, HeuristicBot, deal_weight, pick

from .play import heuristic_position


def _after_green_5(seat1: list[str]) -> TakiState:
    """Seat 0 plays R5 on R1; seat 1, holding `seat1`, plays G5."""
    s = from_setup({"hands": [["R5", "B3", "B4"], seat1],
                    "deck": ["Y1", "Y3", "Y4", "Y5"], "discard": ["R1"]})
    s.apply_text("play R5")
    s.apply_text("play G5")
    return s


def test_a_play_fits_the_hands_where_the_heuristic_would_make_it():
    # Holding more green than red, the heuristic plays G5 (a number of its main colour) ...
    fits = _after_green_5(["G5", "G6", "G8", "R7"])
    assert deal_weight(fits, 0) == 1.0
    # ... but with more red than green it would have played R7, and with a Stop it the Stop.
    assert deal_weight(_after_green_5(["G5", "R7", "R8", "R9"]), 0) == MISMATCH
    assert deal_weight(_after_green_5(["G5", "G6", "RSTOP"]), 0) == MISMATCH
    assert deal_weight(fits, 1) == 1.0  # seat 0's own play is not weighed for seat 0 ...
    assert [a for *_, a in fits.recent(1)] == [fits.game.parse_action("play G5")]
    fits.apply_text("draw")  # ... and a seat's draw forgets what its earlier plays said
    assert fits.recent(0) == () and deal_weight(fits, 1) == 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_the_true_hands_of_heuristic_seats_always_fit_and_deals_often_do_not(players):
    bot = HeuristicBot()
    unlikely = deals = 0
    for seed in range(6):
        s = new_game(players, seed=seed)
        rng = random.Random(seed)
        deal_rng = random.Random(seed)
        while not s.is_terminal():
            me = s.current_player()
            assert deal_weight(s, me) == 1.0, (seed, me)
            unlikely += deal_weight(s.determinize(me, deal_rng), me) < 1.0
            deals += 1
            s.apply_action(bot.choose(s, rng))
    assert unlikely > deals // 5  # the model says something about most hands


def test_recent_actions_survive_a_round_trip_through_to_dict():
    s = heuristic_position(3, seed=2, moves=25)
    back = TakiState.from_dict(s.to_dict())
    assert any(s.recent(q) for q in range(3))
    assert [back.recent(q) for q in range(3)] == [s.recent(q) for q in range(3)]


def test_a_level_with_a_model_needs_a_game_that_has_one():
    level = dataclasses.replace(load_level("tukki", "hard"), model=True)
    with pytest.raises(RulesError, match="no opponent model"):
        SearchBot(get_game("tukki"), level)
    assert load_level("taki", "hard").model



@pytest.mark.parametrize("seed", range(4))
def test_play_on_plays_as_the_heuristic_bot_by_apply_action(seed):
    """The fast rollout of the hard search (`TakiState.play_on` with `pick`) reaches the same
    positions as the heuristic bot choosing every move through `apply_action`."""
    bot = HeuristicBot()
    for players in (2, 3):
        s = new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(7):  # a few moves in, so that refills and runs come up later
            s.apply_action(bot.choose(s, rng))
        for limit in (5, 40, -1):
            slow, fast = s.clone(), s.clone()
            left = limit
            while left and not slow.is_terminal():
                slow.apply_action(bot.choose(slow, rng))
                left -= 1
            fast.play_on(pick, limit)
            assert fast.facts() == slow.facts(), (players, limit)
            assert fast.legal_actions() == slow.legal_actions()
            assert fast.is_terminal() or limit != -1
