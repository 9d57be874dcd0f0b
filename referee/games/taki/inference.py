"""What the other seats can infer about a TAKI hand from public events only (docs/taki.md,
"Reading the table"), and the deal that a search makes from it (`TakiState.determinize`).

A seat's hand is kept as one mask per card, oldest first: the card kinds that card is
unlikely to be. A draw, `end`, `close` or `pass` marks every slot with the kinds the seat
could have played (`declined`); a King, or an action card inside a run, marks the plainer
cards it passed over (`passed_over`); a card played drops a slot (`shed`). Pure functions
of the public context; the state machine (state.py) calls them.
"""

from __future__ import annotations

import random

from referee.games.taki.cards import (
    ANY,
    BREAKER,
    COLOR_OF,
    IN_RUN,
    KING,
    MATCH,
    ON_OPEN_TAKI,
    ON_STACK,
    PLUS,
    RANK_OF,
    STOP,
)
from referee.games.taki.phases import ANSWER, RUN, Phase, playable


def _bits(row: tuple[bool, ...]) -> int:
    """A row of the match tables as a bit mask over card kinds (bit k: kind k)."""
    return sum(1 << k for k, ok in enumerate(row) if ok)


# The match tables' rows as masks, for the public inferences (`declined`), keyed by the row
# object's id: `playable` hands out the tables' own rows, and an id hashes faster than a row.
ROW_BITS = {id(row): _bits(row) for row in (ON_STACK, ANY, *IN_RUN, *(
    row for table in (MATCH, ON_OPEN_TAKI) for per_lead in table for row in per_lead))}
BREAKER_BIT = 1 << BREAKER
KING_BIT = 1 << KING
PLUS_BITS = _bits(tuple(RANK_OF[k] == PLUS for k in range(len(ANY))))
NUMBER_BITS = _bits(tuple(0 <= RANK_OF[k] < STOP for k in range(len(ANY))))
# A hand slot marked "unlikely" for a kind is still dealt that kind with this weight against 1
# (`deal_hand`): the inference holds for a player who plays whenever they can, as
# the heuristic bot does, and a person may hold a card back.
UNLIKELY_WEIGHT = 0.02
# A seat that names a colour with a Change Color likely holds that colour most: until its next
# action, each card dealt to it that is not of the colour is kept with this weight against 1.
NAMED_WEIGHT = 0.4
# Whether playing a King, or an action card inside a run, marks the plainer cards the seat
# passed over (see `passed_over`).
PASSED_OVER = True
DEAL_TRIES = 64  # a slot whose likely kinds ran out takes the 64th card it drew


def declined(phase: Phase, pending: int, taki_open: bool, lead: int, color: int,
             run_color: int) -> int:
    """The kinds the current seat could have played in this public context, as a mask (never
    its hand): its draw, `end`, `close` or `pass` says it likely holds none of them. A +3
    Breaker played in one's own turn costs 3 cards, so declining it says nothing, except when
    answering a +3, where it is the only card."""
    if phase is ANSWER:
        return BREAKER_BIT
    row = playable(phase, pending, taki_open, lead, color, run_color)
    bits = ROW_BITS[id(row)] if row is not None else 0
    return bits & ~BREAKER_BIT


def passed_over(k: int, hand_size: int, phase: Phase, pending: int, taki_open: bool,
                lead: int, color: int, run_color: int) -> int:
    """The kinds the current seat (holding `hand_size` cards) likely lacks when it plays kind
    `k` now (before the play), as a mask from the public context only: one keeps a King for
    when nothing else plays, so a King played on a +2 stack says "no +2", and elsewhere "no
    other card that plays" (bar Breakers, and Plus cards with 2 cards or fewer in hand, which
    cannot end a game); inside a run one plays the plain cards before the action card that
    is to act, so an action card there says "no number card of the run's colour"."""
    if k == KING:
        if phase == RUN or phase == ANSWER:
            return 0
        bits = declined(phase, pending, taki_open, lead, color, run_color) & ~KING_BIT
        if hand_size <= 2:
            bits &= ~PLUS_BITS
        return bits
    if phase == RUN and not NUMBER_BITS >> k & 1:
        return ROW_BITS[id(IN_RUN[run_color])] & NUMBER_BITS
    return 0


def shed(slots: list[int], k: int) -> None:
    """A seat with these slot masks played kind `k`: drop the oldest slot not marked unlikely
    for `k` (slots are marked oldest-most, so this keeps the fewest marks: no inference
    stronger than the events allow). If every slot was marked, the inference was wrong for
    `k` (a card held back): the marks for `k` go, and the oldest slot with them."""
    bit = 1 << k
    for i, mask in enumerate(slots):
        if not mask & bit:
            del slots[i]
            return
    for i in range(len(slots)):
        slots[i] &= ~bit
    del slots[0]


def deal_hand(pool: list[int], slots: list[int], named: int, rng: random.Random) -> list[int]:
    """One seat's hand dealt from `pool` (cards, taken out of it), one card per slot, oldest
    slot first: a card of a kind its slot is marked unlikely to be is kept only with weight
    UNLIKELY_WEIGHT, and with `named` >= 0 (the colour the seat just named) a card of another
    colour only with weight NAMED_WEIGHT; after DEAL_TRIES draws the slot keeps what it drew.
    Sorted."""
    slack = UNLIKELY_WEIGHT
    keep = NAMED_WEIGHT
    rand = rng.random
    hand = []
    for mask in slots:  # oldest first: the most marked slots take first
        n = len(pool)
        i = int(rand() * n)
        if named >= 0:
            tries = DEAL_TRIES
            while tries and ((mask >> pool[i] & 1 and rand() >= slack)
                             or (COLOR_OF[pool[i]] != named and rand() >= keep)):
                i = int(rand() * n)
                tries -= 1
        elif mask:
            tries = DEAL_TRIES
            while mask >> pool[i] & 1 and rand() >= slack and tries:
                i = int(rand() * n)
                tries -= 1
        hand.append(pool[i])
        pool[i] = pool[-1]
        pool.pop()
    hand.sort()
    return hand
