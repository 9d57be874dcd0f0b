"""Property tests of ENGINES.md over seeded random games (hypothesis, derandomized).

Every card is in exactly one place after every action (deck, bin, every box, a drawn card;
a floating parrot lands in the same action that lifts it), illegal actions are refused and
change nothing, games end within a bound, clones and to_dict behave.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.engine import IllegalActionError
from referee.games.tukki import new_game
from referee.games.tukki.actions import ALL_ACTIONS
from referee.games.tukki.cards import load_rules
from referee.games.tukki.state import PLACE_PHASE, TAKE

FULL = Counter(load_rules().deck)
MAX_ACTIONS = 20_000  # 5 rounds; a round cannot outlast the deck's refills forever in practice

GAMES = settings(max_examples=500, derandomize=True, deadline=None, database=None)


@GAMES
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_random_games_keep_every_card_and_end(seed, players):
    """Card conservation after every action, and every game ends within MAX_ACTIONS."""
    s = new_game(players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal, "a live state always has a legal action"
        assert 0 <= s.current_player() < players
        s.apply_action(rng.choice(legal))
        n += 1
        assert Counter(s.all_cards()) == FULL
        assert n < MAX_ACTIONS
    assert s.legal_actions() == []
    assert sum(s.returns()) >= 1 and len(s.scores()) == players


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_everything_not_legal_is_refused_and_changes_nothing(seed, players):
    """Illegal actions are refused with IllegalActionError and leave the state unchanged; every
    legal action is accepted."""
    s = new_game(players, seed=seed, options={"rounds": 2})
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        if k % 7 == 0:
            before = s.to_dict()
            for a in ALL_ACTIONS:
                if a in legal:
                    continue
                with pytest.raises(IllegalActionError):
                    s.apply_action(a)  # not legal now: refused, and nothing changes
                assert s.to_dict() == before
            for a in legal:
                t = s.clone()
                t.apply_action(a)
        s.apply_action(rng.choice(legal))
        k += 1


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), cut=st.integers(0, 300))
def test_clone_is_independent_and_replays_the_same(seed, players, cut):
    """A clone plays on exactly like the original (same RNG, same choices) and shares no
    mutable state with it; to_dict is JSON-ready."""
    s = new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    snap = json.dumps(s.to_dict())
    r1, r2 = random.Random(1), random.Random(1)
    while not c.is_terminal():
        c.apply_action(r1.choice(c.legal_actions()))
    assert json.dumps(s.to_dict()) == snap  # the original did not move
    while not s.is_terminal():
        s.apply_action(r2.choice(s.legal_actions()))
    assert s.to_dict() == c.to_dict()


def stalling_choice(s, legal, rng):
    """Draw from the deck and swap a face-up card, never revealing: it empties the deck."""
    if s.phase == TAKE:
        return next((a for a in legal if str(a) == "take deck"), legal[0])
    if s.phase == PLACE_PHASE:
        up = s.up[s.current]
        keep = [a for a in legal if a.kind == "place" and up[a.place] and a.land < 0]
        return rng.choice(keep or legal)
    return rng.choice(legal)


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_refills_keep_every_card(seed, players):
    """An empty draw pile is refilled from the bin under its top card: with players who never
    reveal, the deck runs out and is refilled, and no card is lost or doubled."""
    s = new_game(players, seed=seed, options={"rounds": 1})
    rng = random.Random(seed)
    refills = 0
    for _ in range(1500):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        a = stalling_choice(s, legal, rng)
        if str(a) == "take deck" and not s.deck:
            top = s.bin[-1]
            refills += 1
            s.apply_action(a)
            assert s.bin == [top]
        else:
            s.apply_action(a)
        assert Counter(s.all_cards()) == FULL
    assert refills >= 1
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
