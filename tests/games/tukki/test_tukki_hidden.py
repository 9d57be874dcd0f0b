"""Hidden information (ENGINES.md): a view never changes when what its player cannot see is
permuted: every face-down card (their own too: a box is laid unseen), the deck order, and a
card another player drew from the deck."""

from __future__ import annotations

import random

from referee.games.tukki import new_game
from referee.games.tukki.state import TAKE, TukkiState


def shuffled_unseen(s: TukkiState, viewer: int, rng: random.Random) -> TukkiState:
    """A copy of `s` with everything `viewer` cannot see permuted among its places."""
    t = s.clone()
    slots: list[tuple[str, int, int]] = [("deck", i, 0) for i in range(len(t.deck))]
    slots += [("box", p, i) for p in range(t.num_players) for i in range(8) if not t.up[p][i]]
    if t.drawn is not None and t.drawn_from == "deck" and viewer != t.current:
        slots.append(("drawn", 0, 0))

    def get(slot):
        kind, a, b = slot
        return t.deck[a] if kind == "deck" else t.boxes[a][b] if kind == "box" else t.drawn

    cards = [get(x) for x in slots]
    rng.shuffle(cards)
    for (kind, a, b), c in zip(slots, cards, strict=True):
        if kind == "deck":
            t.deck[a] = c
        elif kind == "box":
            t.boxes[a][b] = c
        else:
            t.drawn = c
    return t


def test_views_do_not_change_when_unseen_cards_are_permuted():
    rng = random.Random(7)
    changed = checked = 0
    for seed in range(60):
        s = new_game(2 + seed % 5, seed=seed)
        while not s.is_terminal():
            if rng.random() < 0.2:
                for viewer in range(s.num_players):
                    t = shuffled_unseen(s, viewer, rng)
                    changed += t.to_dict() != s.to_dict()
                    checked += 1
                    assert t.observation(viewer) == s.observation(viewer)
            s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 1000 and changed > 0.9 * checked  # the permutations did hide something


def test_the_drawer_sees_the_deck_card_and_others_do_not():
    s = new_game(3, seed=2)
    while s.phase != TAKE:
        s.apply_action(s.legal_actions()[0])
    s.apply_text("take deck")
    me = s.current
    assert s.observation(me)["drawn"] not in (None, "?")
    assert all(s.observation(q)["drawn"] == "?" for q in range(3) if q != me)


def test_views_show_face_up_cards():
    """The view is not blind: a face-up card changes it (the test above could not pass by
    showing nothing)."""
    s = new_game(2, seed=3)
    s.apply_text("reveal a1")
    t = s.clone()
    t.boxes[0][0] = (t.boxes[0][0] + 1) % 13
    assert t.observation(1) != s.observation(1)
    assert s.observation(1)["boxes"][0][0] != "?"
