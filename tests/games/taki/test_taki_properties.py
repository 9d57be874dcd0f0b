"""Property tests over seeded random games (ENGINES.md "Tests"): every card is in exactly one
place after every action, illegal actions are refused and change nothing, games end within a
bound, and views leak nothing. Hypothesis runs derandomized, so every run plays the same games.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.engine import IllegalActionError, RandomBot
from referee.games.taki import new_game, parse_action
from referee.games.taki.actions import ALL_ACTIONS
from referee.games.taki.bots import HeuristicBot
from referee.games.taki.cards import FULL_DECK

MAX_ACTIONS = 50_000
ACTIONS = sorted(ALL_ACTIONS, key=str)


def _all_cards(state) -> Counter:
    return Counter(k for part in (*state._hands, state._deck, state._discard) for k in part)


def _bots(rng: random.Random, n: int, tournament: bool = False) -> list:
    """Mixed seats; a tournament of random seats only can run to 10^5 actions, so there one
    seat is random and the others heuristic."""
    if tournament:
        bots: list = [HeuristicBot() for _ in range(n)]
        bots[rng.randrange(n)] = RandomBot()
        return bots
    return [RandomBot() if rng.random() < 0.6 else HeuristicBot() for _ in range(n)]


@settings(max_examples=500, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 10), tournament=st.booleans())
def test_random_games_keep_every_card_in_one_place(seed, players, tournament):
    """[rule:deck] [rule:winning] [rule:turn-end] Cards are conserved, legal actions parse
    back, illegal ones are refused without a change, and every game ends with one winner."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed, options={"tournament": tournament})
    full = Counter(FULL_DECK)
    assert _all_cards(state) == full
    bots = _bots(rng, players, tournament)
    n = 0
    while not state.is_terminal():
        assert n < MAX_ACTIONS, "no end within the bound"
        p = state.current_player()
        assert 0 <= p < players
        legal = state.legal_actions()
        assert legal, "a live state always has an action"
        assert state.legal_actions(player=(p + 1) % players) == []
        if n % 37 == 0:
            for a in legal:
                assert parse_action(str(a)) == a
            wrong = rng.choice([a for a in ACTIONS if a not in legal])
            before = state.to_dict()
            try:
                state.apply_action(wrong)
            except IllegalActionError as e:
                assert str(wrong) in str(e)
            else:
                raise AssertionError(f"{wrong} was accepted; legal were {legal}")
            assert state.to_dict() == before
        state.apply_action(bots[p].choose(state, rng))
        n += 1
        if n % 10 == 0:
            assert _all_cards(state) == full
            assert [len(s) for s in state._slots] == [len(h) for h in state._hands]
    assert _all_cards(state) == full
    assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]
    winner = state.returns().index(1.0)
    assert len(state._hands[winner]) == 0
    if tournament:
        assert state._stages[winner] == 1


def _permute_hidden(state, seat: int, rng: random.Random):
    """A clone where the cards `seat` cannot see (other hands, draw pile) are reshuffled."""
    c = state.clone()
    others = [q for q in range(c.num_players) if q != seat]
    pool = [k for q in others for k in c._hands[q]] + c._deck
    rng.shuffle(pool)
    for q in others:
        size = len(c._hands[q])
        c._hands[q] = sorted(pool[:size])
        pool = pool[size:]
    c._deck = pool
    c._legal = None
    return c


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_views_leak_no_hidden_card(seed, players):
    """ENGINES.md "Hidden information": a view does not change when hidden cards move."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    bots = _bots(rng, players)
    n = 0
    while not state.is_terminal() and n < 400:
        seat = rng.randrange(players)
        view = state.observation(seat)
        assert view["hand_size"][seat] == len(view["hand"])
        twin = _permute_hidden(state, seat, rng)
        assert twin.observation(seat) == view
        if state.current_player() == seat:
            assert twin.legal_actions() == state.legal_actions()
        state.apply_action(bots[state.current_player()].choose(state, rng))
        n += 1


def test_clone_is_independent():
    """A clone plays on without touching its original, and replays the same with the same
    actions (its RNG included)."""
    state = new_game(3, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.to_dict()
    twin = state.clone()
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not twin.is_terminal():
        twin.apply_action(rng_a.choice(twin.legal_actions()))
    assert state.to_dict() == before
    while not state.is_terminal():
        state.apply_action(rng_b.choice(state.legal_actions()))
    assert state.to_dict() == twin.to_dict()


def test_same_seed_same_game():
    """ENGINES.md: same seed, same actions, same game."""
    a, b = new_game(4, seed=42), new_game(4, seed=42)
    assert a.to_dict() == b.to_dict()
    assert new_game(4, seed=43).to_dict() != a.to_dict()
