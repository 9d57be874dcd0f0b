"""TAKI rules that scenario files cannot show: the deck, the seeded deal, notation, errors."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from referee.games.engine import IllegalActionError, NotationError, RulesError, SetupError
from referee.games.taki import GAME, from_setup, new_game, parse_action
from referee.games.taki.actions import ALL_ACTIONS
from referee.games.taki.bots import HeuristicBot
from referee.games.taki.cards import CARD_NAMES, FULL_DECK, HAND_SIZE, is_number, parse_card


def test_deck_has_116_cards():
    """[rule:deck] Per colour 1, 3-9, Stop, +2, DIR, Plus, TAKI x2; colourless x2; COLOR x4."""
    counts = Counter(CARD_NAMES[k] for k in FULL_DECK)
    assert len(FULL_DECK) == 116
    for c in "RGBY":
        for rank in ("1", "3", "4", "5", "6", "7", "8", "9", "STOP", "+2", "DIR", "PLUS", "TAKI"):
            assert counts[c + rank] == 2
        assert counts[c + "2"] == 0
    for name in ("SUPERTAKI", "KING", "+3", "BREAKER"):
        assert counts[name] == 2
    assert counts["COLOR"] == 4


@pytest.mark.parametrize("players", [2, 5, 10])
def test_deal_eight_each_and_flip_a_number_card(players):
    """[rule:setup-deal] [rule:players] [rule:first-player] 8 cards each, the rest face down,
    the leading card flipped; seat 0 starts, play passes left."""
    s = new_game(players, seed=players)
    f = s.facts()
    assert f["hand_size"] == [HAND_SIZE] * players
    assert f["deck_size"] == 116 - 8 * players - 1 and f["discard_size"] == 1
    assert f["current_player"] == 0 and f["direction"] == 1 and f["pending_draw"] == 0
    assert f["active_color"] == f["leading"][0]


@pytest.mark.parametrize("players", [1, 11, 0])
def test_player_count_outside_2_to_10_is_refused(players):
    """[rule:players]"""
    with pytest.raises(SetupError, match="2-10 players"):
        new_game(players)


def test_leading_card_is_always_a_number():
    """[rule:setup-lead] A non-number leading card is shuffled back and another flipped; over
    many seeds some first flips are action cards, and every leading card is a number."""
    leads = [new_game(2, seed=s)._lead for s in range(400)]
    assert all(is_number(k) for k in leads)
    # the first card off the shuffled deck is an action card for some seeds: the loop ran
    firsts = []
    for s in range(400):
        deck = list(FULL_DECK)
        random.Random(s).shuffle(deck)
        firsts.append(deck[-(2 * HAND_SIZE) - 1])
    assert not all(is_number(k) for k in firsts)


def test_bots_always_declare_last_card():
    """[rule:last-card-bots] The heuristic bot takes the call whenever it is offered."""
    s = from_setup({"hands": [["R5", "R6"], ["B3", "B4"]], "deck": ["Y1"], "discard": ["R1"]})
    a = HeuristicBot().choose(s, random.Random(0))
    assert a.last and str(a) in {"play R5 last", "play R6 last"}


def _calls(setup, steps=(), **options):
    """The actions with which the "last card" call counts, after `steps`; and the state."""
    s = from_setup({"deck": ["Y1", "Y3", "Y4", "Y5"], "discard": ["R1"], **setup},
                   options=options or None)
    for text in steps:
        s.apply_text(text)
    return {str(a) for a in s.legal_actions() if not a.last and s.call_counts(a)}, s


@pytest.mark.parametrize("setup, steps, options, counts", [
    # two cards: the card that ends the turn with one counts; drawing (3 cards) does not
    ({"hands": [["R5", "G7"], ["B3", "B4"]]}, (), {}, {"play R5"}),
    # one card: playing it wins, drawing leaves two: the call never counts
    ({"hands": [["R5"], ["B3", "B4"]]}, (), {}, set()),
    # three cards: the call is not offered at all
    ({"hands": [["R5", "R6", "G7"], ["B3", "B4"]]}, (), {}, set()),
    # a TAKI, a King and a Plus do not end the turn: the call comes with the move that does
    ({"hands": [["RTAKI", "R5"], ["B3", "B4"]]}, (), {}, {"play R5"}),
    ({"hands": [["RTAKI", "R5"], ["B3", "B4"]]}, ("play RTAKI",), {}, {"end"}),
    ({"hands": [["KING", "G7"], ["B3", "B4"]]}, ("play KING",), {}, {"end"}),
    ({"hands": [["RPLUS", "G7"], ["B3", "B4"]]}, (), {}, set()),
    # a +3 Breaker in one's own turn draws 3; a +3 ends the turn with one card
    ({"hands": [["BREAKER", "G7"], ["B3", "B4"]]}, (), {}, set()),
    ({"hands": [["+3", "G7"], ["B3", "B4"]]}, (), {}, {"play +3"}),
    # a Change Color names its colour with the move; each of the four counts
    ({"hands": [["COLOR", "G7"], ["B3", "B4"]]}, (), {},
     {"play COLOR R", "play COLOR G", "play COLOR B", "play COLOR Y"}),
    # the tournament: an emptied hand at stage 2 draws one card for stage 1, then the turn ends
    ({"hands": [["R5"], ["B3", "B4"]], "stages": [2, 8]}, (), {"tournament": True},
     {"play R5"}),
])
def test_the_last_card_call_counts_only_where_a_turn_ends_with_one_card(
        setup, steps, options, counts):
    """[rule:last-card] The call is due when a turn ends with one card in hand; the engine
    offers it with every move of a hand of 2 or fewer, and `call_counts` tells the moves
    where it can change anything (the phone offers the call with those only). Each counted
    move, played without the call, costs the 4-card penalty; every other move does not."""
    got, s = _calls(setup, steps, **options)
    assert got == counts
    p = s.current_player()
    for a in s.legal_actions():
        if a.last:
            continue
        t = s.clone()
        t.apply_action(a)
        penalised = not t.is_terminal() and len(t.hand(p)) == 5
        assert penalised == (str(a) in counts), str(a)
        assert not s.call_counts(a) or a in s.legal_actions()


def test_every_action_round_trips_through_its_notation():
    for a in ALL_ACTIONS:
        assert parse_action(str(a)) == a
    assert str(parse_action("play COLOR Y last")) == "play COLOR Y last"
    assert str(parse_action("play R+2")) == "play R+2"


@pytest.mark.parametrize("text, why", [
    ("play R2", "no 2 card"),
    ("play r5", "capitals"),
    ("play RX", "rank"),
    ("play COLOR", "names the next colour"),
    ("play COLOR P", "names the next colour"),
    ("play R5 Y", "only a Change Color takes a colour"),
    ("draw R5", "takes no argument"),
    ("jump", "not a TAKI action"),
    ("", "not a TAKI action"),
    ("play", "needs a card"),
    ("play  R5", "single spaces"),
])
def test_bad_notation_is_refused_with_a_reason(text, why):
    with pytest.raises(NotationError, match=why) as e:
        parse_action(text)
    assert isinstance(e.value, RulesError)


def test_card_notation():
    assert CARD_NAMES[parse_card("G+2")] == "G+2"
    with pytest.raises(NotationError, match="R G B Y"):
        parse_card("Q5")


def _state():
    return from_setup({"hands": [["R5", "R6", "G7"], ["B3", "B4"]], "deck": ["Y1"],
                       "discard": ["R1"]})


@pytest.mark.parametrize("text, rule", [
    ("play G7", "rule matching"),
    ("play B3", "holds no B3"),
    ("close", "rule a turn"),
    ("break", "answer a +3"),
    ("play R5 last", "rule last card"),
])
def test_illegal_actions_name_the_rule_and_change_nothing(text, rule):
    s = _state()
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=re.escape(rule)):
        s.apply_text(text)
    assert s.to_dict() == before


def test_a_non_action_is_refused():
    s = _state()
    with pytest.raises(IllegalActionError, match="expected a TAKI action"):
        s.apply_action("play R5")
    with pytest.raises(IllegalActionError, match="expected a TAKI action"):
        s.apply_action(tuple(parse_action("play R5")))  # equal as a tuple, yet no Action


def test_legal_actions_of_another_seat_are_empty():
    assert _state().legal_actions(1) == []


@pytest.mark.parametrize("setup, why", [
    ({"hands": [["R5", "R5", "R5"], ["B3"]], "discard": ["R1"]}, "more often than the deck"),
    ({"hands": [["R5"], ["B3"]], "discard": []}, "leading card"),
    ({"hands": [["R5"], ["B3"]], "discard": ["KING"]}, "active_color"),
    ({"hands": [["R5"], ["B3"]], "discard": ["R1"], "current": 2}, "seat 0..1"),
    ({"hands": [["R5"], ["B3"]], "discard": ["R1"], "direction": 2}, "1 or -1"),
    ({"hands": [["R5"], ["B3"]], "discard": ["R1"], "pending_draw": 3}, "even"),
    ({"hands": [["R5"], ["B3"]], "discard": ["R1"], "top": "R1"}, "unknown TAKI setup keys"),
    ({"hands": [["R5"]], "discard": ["R1"]}, "2-10 players"),
    ({"hands": [["R5"], [5]], "discard": ["R1"]}, "card notation"),
])
def test_bad_setups_are_refused(setup, why):
    with pytest.raises(SetupError, match=why):
        from_setup(setup)


def test_setup_players_must_agree():
    with pytest.raises(SetupError, match="3 players"):
        from_setup({"hands": [["R5"], ["B3"]], "discard": ["R1"]}, players=3)


def test_unknown_option_is_refused():
    with pytest.raises(SetupError, match="unknown TAKI option 'speed'"):
        new_game(2, options={"speed": 2})
    with pytest.raises(SetupError, match="expected a bool"):
        new_game(2, options={"tournament": 1})


def test_views_and_state_are_json():
    s = new_game(3, seed=1)
    json.dumps(s.to_dict())
    view = s.observation(1)
    json.dumps(view)
    assert len(view["hand"]) == 8 and "hands" not in view and "deck" not in view


def test_returns_and_scores():
    """[rule:winning] One winner scores 1, the others 0; scores count cards left to shed."""
    s = from_setup({"hands": [["R5"], ["B3", "B4"]], "deck": [], "discard": ["R1"]})
    assert s.returns() == [0.0, 0.0]
    s.apply_text("play R5")
    assert s.returns() == [1.0, 0.0] and s.scores() == [0, 2]
    t = from_setup({"hands": [["R5"], ["B3"]], "discard": ["R1"], "stages": [2, 3]},
                   options={"tournament": True})
    assert t.scores() == [1 + 1, 1 + 3]


def test_game_info():
    assert GAME.name == "taki" and (GAME.min_players, GAME.max_players) == (2, 10)
    assert "heuristic" in GAME.bots and GAME.render is not None


def _after(hands, discard, steps, **extra):
    s = from_setup({"hands": hands, "deck": ["Y1", "Y3", "Y4", "Y5", "Y6", "Y7"],
                    "discard": discard, **extra})
    for text in steps:
        s.apply_text(text)
    return s


@pytest.mark.parametrize("steps, text, rule", [
    (["play RTAKI"], "draw", "(rule TAKI)"),
    (["play RTAKI"], "close", "cannot be closed by its player"),
    (["play RTAKI"], "play G3", "only red cards"),
    (["play KING"], "draw", "(rule King)"),
    (["play KING"], "close", "(rule King)"),
    (["play RPLUS"], "end", "(rule Plus)"),
    (["play +3"], "play B3", "(rule +3"),
    (["play +3"], "break", "holds no BREAKER"),
    (["play +3"], "pass last", "one's own turn"),
    ([], "end", "(rule a turn)"),
])
def test_each_phase_names_its_rule(steps, text, rule):
    s = _after([["RTAKI", "R5", "KING", "RPLUS", "+3", "G3"], ["B3", "G4"]], ["R1"], steps)
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=re.escape(rule)):
        s.apply_text(text)
    assert s.to_dict() == before


def test_stack_and_plus3_refusals_name_their_rule():
    s = _after([["R5", "B+2"], ["B3"]], ["R1", "G+2"], [], pending_draw=2)
    with pytest.raises(IllegalActionError, match=re.escape("(rule +2)")):
        s.apply_text("play R5")
    s = _after([["COLOR", "SUPERTAKI", "R5"], ["B3"]], ["R1", "+3"], [], active_color="R")
    with pytest.raises(IllegalActionError, match=re.escape("(rule COLOR)")):
        s.apply_text("play COLOR G")
    with pytest.raises(IllegalActionError, match=re.escape("(rule SUPERTAKI)")):
        s.apply_text("play SUPERTAKI")


def test_game_over_refuses_everything():
    s = _after([["R5"], ["B3"]], ["R1"], ["play R5"])
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_text("draw")
    assert s.legal_actions() == []
