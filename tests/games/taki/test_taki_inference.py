"""The public action log in the TAKI observation and the deals weighted by it (issue 16): the
log shows who played which card and who drew how many, never a drawn card; a seat that drew
when it could have played a kind is dealt that kind rarely, until it draws again; and the
inferences never contradict a seat that plays whenever it can (the heuristic bot).
"""

from __future__ import annotations

import random

from referee.games.taki import from_setup, new_game
from referee.games.taki.bots import HeuristicBot
from referee.games.taki.cards import COLOR_OF, FULL_DECK, RANK_OF, parse_card

from .play import heuristic_position

RED = 0


def test_the_log_records_plays_and_draw_counts_but_no_drawn_card():
    s = from_setup({"hands": [["R5", "G3", "B4"], ["B3", "G4", "Y7"]],
                    "deck": ["Y1", "Y3", "Y4", "Y5"], "discard": ["R1"]})
    s.apply_text("play R5")
    s.apply_text("draw")  # seat 1 holds no red and no 5: it draws Y1 (unseen by seat 0)
    s.apply_text("draw last")  # seat 0 holds G3 B4 on Y1 and calls "last card"
    view = s.observation(0)
    assert view["log"] == [[0, "play R5"], [1, "draw"], [1, "drew 1"],
                           [0, "draw last"], [0, "drew 1"]]
    assert "Y1" not in str(view["log"]) and view == s.observation(0)
    assert s.observation(1)["log"] == view["log"]  # public: the same for every seat


def _hand_of(state, seat: int, seats: int, cards: int) -> list[list[int]]:
    """Seat `seat`'s hand in `seats` deals from the view of seat 0."""
    rng = random.Random(7)
    out = []
    for _ in range(seats):
        hand = state.determinize(0, rng).hand(seat)
        assert len(hand) == cards
        out.append(list(hand))
    return out


def _playable_on_red_5(k: int) -> bool:
    return COLOR_OF[k] == RED or RANK_OF[k] == RANK_OF[parse_card("R5")] or COLOR_OF[k] < 0


def test_a_seat_that_drew_on_red_is_dealt_red_rarely_until_it_draws_again():
    s = from_setup({"hands": [["R5", "G3", "B4"], ["B3", "G4", "Y7", "G6", "B6"]],
                    "deck": [k for k in ("Y1", "Y3", "Y4", "Y5", "Y6", "R3", "R4")],
                    "discard": ["R1"]})
    fresh = _hand_of(s, 1, 400, 5)
    s.apply_text("play R5")
    s.apply_text("draw")  # seat 1 could play no red, no 5 and no wild card: it draws one
    after = _hand_of(s, 1, 400, 6)
    per_deal_fresh = sum(map(_playable_on_red_5, sum(fresh, []))) / 400
    per_deal_after = sum(map(_playable_on_red_5, sum(after, []))) / 400
    # A uniform deal of 5 cards holds about 2 such cards; after the draw only the drawn card
    # (1 of 6) is likely to be one, so the 6 cards hold well under one.
    assert per_deal_fresh > 1.0 and per_deal_after < 0.7, (per_deal_fresh, per_deal_after)
    # Seat 0 draws too; seat 1 draws again on R5: all 6 cards it held are marked now, and
    # the one it drew is free.
    s.apply_text("draw")
    s.apply_text("draw")
    assert len(s._slots[1]) == 7 and all(s._slots[1][:6]) and s._slots[1][6] == 0


def test_a_king_played_says_no_other_card_played():
    """A King is kept for when nothing else plays: after seat 1 plays one on R1, its other
    cards are rarely dealt as red, 1s or wild cards (a +2 stack: rarely a +2)."""
    s = from_setup({"hands": [["R5", "G3", "B4"], ["KING", "B3", "G4", "Y7", "G6"]],
                    "deck": ["Y1", "Y3", "Y4", "Y5", "Y6", "R3", "R4", "R6", "R7"],
                    "discard": ["R1"]})
    s.apply_text("play R5")
    fresh = _hand_of(s, 1, 400, 5)
    s.apply_text("play KING")
    s.apply_text("play G4")  # after the King: any card, here a plain one (no mark)
    after = _hand_of(s, 1, 400, 3)
    playable = lambda k: _playable_on_red_5(k) and k != parse_card("KING")  # noqa: E731
    per_card_fresh = sum(map(playable, sum(fresh, []))) / (400 * 5)
    per_card_after = sum(map(playable, sum(after, []))) / (400 * 3)
    assert per_card_fresh > 0.3 and per_card_after < 0.1, (per_card_fresh, per_card_after)
    stack = from_setup({"hands": [["R+2", "G3", "B4"], ["KING", "B3", "G4", "Y7", "G6"]],
                        "deck": ["Y1", "Y3", "Y4", "Y5", "Y6"], "discard": ["R1"]})
    stack.apply_text("play R+2")
    stack.apply_text("play KING")
    assert stack._slots[1] and all(m >> parse_card("G+2") & 1 for m in stack._slots[1])
    assert not any(m >> parse_card("G4") & 1 for m in stack._slots[1])


def test_the_colour_named_with_a_change_color_weights_that_hand_until_its_next_action():
    s = from_setup({"hands": [["R5", "G3", "B4"], ["COLOR", "B3", "G4", "Y7", "G6", "R7"]],
                    "deck": ["Y1", "Y3", "Y4", "Y5", "Y6", "R3", "R4"], "discard": ["R1"]})
    s.apply_text("play R5")
    green = lambda deals: sum(COLOR_OF[k] == 1 for h in deals for k in h) / len(deals)  # noqa: E731
    before = green(_hand_of(s, 1, 400, 6))
    s.apply_text("play COLOR G")
    named = green(_hand_of(s, 1, 400, 5))
    s.apply_text("play G3")
    s.apply_text("draw")  # seat 1's next action: the named colour says no more
    later = green(_hand_of(s, 1, 400, 6))
    # per card: 2 green cards in a pool of 13 (seat 0 holds G3) are dealt more often
    assert named / 5 > 1.5 * before / 6 and later / 6 < 0.8 * named / 5, (before, named, later)


def test_the_deal_keeps_every_card_and_the_view():
    state = heuristic_position(3, seed=2, moves=30)
    assert not state.is_terminal()
    for seat in range(3):
        deal = state.determinize(seat, random.Random(seat))
        assert deal.observation(seat) == state.observation(seat)
        cards = sorted([k for h in deal._hands for k in h] + deal._deck + deal._discard)
        assert cards == sorted(FULL_DECK)


def _consistent(hand: list[int], slots: list[int]) -> bool:
    """Whether each card of `hand` can sit in its own slot that does not rule its kind out."""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j, k in enumerate(hand):
            if not slots[i] >> k & 1 and j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return len(hand) == len(slots) and all(place(i, set()) for i in range(len(slots)))


def test_the_inferences_never_contradict_a_seat_that_plays_when_it_can():
    """The heuristic bot draws, ends a run or passes a +3 only without a card to play, so its
    true hand always fits the marks; and some marks are made (the test is not empty)."""
    marked = 0
    for seed in range(12):
        players = 2 + seed % 3
        state = new_game(players, seed=seed, options={"tournament": seed % 4 == 0})
        bot, rng = HeuristicBot(), random.Random(seed)
        while not state.is_terminal():
            for p in range(players):
                assert _consistent(list(state.hand(p)), state._slots[p]), (seed, p)
                marked += sum(1 for m in state._slots[p] if m)
            state.apply_action(bot.choose(state, rng))
    assert marked > 1000
