"""Property tests over random games (ENGINES.md): travellers never share a road space, never
pass an inn, never move back; coins never go negative; every card is in exactly one place;
illegal actions are refused and change nothing; views hide the pile orders; games end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.engine import IllegalActionError
from referee.games.tokaido import GAME, TokaidoState
from referee.games.tokaido.actions import Action

MAX_ACTIONS = 600  # 5 players x 34 spaces x (move + action) is well below


def card_places(s: TokaidoState) -> list[int]:
    """Per kind, how many cards lie anywhere: hands, rows, supply, face-up, piles."""
    out = [0] * len(s.rules.kinds)
    for counts in (*s.held, *s.meal_rows, *s.pano_rows, s.supply):
        for i, c in enumerate(counts):
            assert c >= 0
            out[i] += c
    for pile in (s.enc_face, s.enc_deck, s.story_face, s.story_deck):
        for i in pile:
            out[i] += 1
    return out


def check_invariants(s: TokaidoState, before: list[int]) -> None:
    rules = s.rules
    assert card_places(s) == [k.count for k in rules.kinds]
    assert all(c >= 0 for c in s.coins)
    road = [x for x in s.pos if rules.spaces[x] not in ("kyoto", "inn", "edo")]
    assert len(road) == len(set(road)), f"two travellers share a road space: {s.pos}"
    for a, b in zip(before, s.pos, strict=True):
        assert b >= a, "a traveller moved back"
        inn = rules.next_stop[a]
        if b > inn:  # one action may finish an inn: the traveller stopped there, all did
            assert rules.spaces[inn] == "inn" and min(s.pos) >= inn, f"{a} -> {b} passes {inn}"
            assert b <= rules.next_stop[inn], f"{a} -> {b} passes two inns"


def wrong_action(s: TokaidoState, rng: random.Random) -> Action:
    legal = {str(a) for a in s.legal_actions()}
    while True:
        text = rng.choice([f"move {rng.randrange(40)}", "skip", "take blind",
                           f"take {rng.choice(s.rules.kinds).code}"])
        if text not in legal:
            return GAME.parse_action(text)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_random_games_keep_the_rules(seed: int, players: int) -> None:
    rng = random.Random(seed)
    s = GAME.new_game(players, seed=seed)
    check_invariants(s, s.pos[:])
    n = 0
    while not s.is_terminal():
        assert n < MAX_ACTIONS
        legal = s.legal_actions()
        assert legal and s.legal_actions(s.current_player()) == legal
        assert all(s.legal_actions(q) == [] for q in range(players) if q != s.current_player())
        if n % 5 == 0:
            bad, snapshot = wrong_action(s, rng), s.to_dict()
            try:
                s.apply_action(bad)
                raise AssertionError(f"{bad} accepted; legal were {legal}")
            except IllegalActionError:
                assert s.to_dict() == snapshot
        before = s.pos[:]
        s.apply_action(rng.choice(legal))
        check_invariants(s, before)
        n += 1
    assert sorted(s.edo_order) == list(range(players))
    assert s.returns().count(1.0) == 1 and s.returns()[s.winner()] == 1.0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_views_hide_pile_orders(seed: int, players: int) -> None:
    """ENGINES.md Hidden information: permuting the face-down piles changes no view."""
    rng = random.Random(seed)
    s = GAME.new_game(players, seed=seed)
    while not s.is_terminal():
        if rng.random() < 0.2:
            t = s.clone()
            rng.shuffle(t.enc_deck)
            rng.shuffle(t.story_deck)
            for p in range(players):
                assert t.observation(p) == s.observation(p)
        s.apply_action(rng.choice(s.legal_actions()))


def test_views_do_not_name_pile_cards() -> None:
    """The observation shows pile sizes, never the cards: no face-down code appears in it."""
    s = GAME.new_game(2, seed=3, options={"characters": ["merchant", "gourmet"]})
    text = str(s.observation(0))
    hidden_only = {s.rules.kinds[i].code for i in s.enc_deck} - \
        {s.rules.kinds[i].code for i in s.enc_face}
    assert hidden_only and not any(f"'{c}'" in text for c in hidden_only)
    assert "encounter_deck" not in s.observation(1) and "story_deck" not in s.observation(1)


def test_clone_is_independent_and_same_seed_same_game() -> None:
    a = GAME.new_game(3, seed=42)
    b = GAME.new_game(3, seed=42)
    assert a.to_dict() == b.to_dict()
    c = a.clone()
    rng = random.Random(1)
    while not c.is_terminal():
        c.apply_action(rng.choice(c.legal_actions()))
    assert a.to_dict() == b.to_dict()
    assert a.clone().to_dict() == a.to_dict()
