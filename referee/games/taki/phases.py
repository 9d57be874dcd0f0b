"""The phases of a TAKI turn (state.py), apart from the state so that refusals.py and the bots
read them without importing the state machine.

TURN (its start), RUN (inside one's own TAKI run), KING (after a King: one card or `end`),
PLUS (after a Plus: a card or `draw`), ANSWER (the +3 window: each other player decides
`break` or `pass` in turn order), OVER. The value is the name views and `to_dict` give.
"""

from __future__ import annotations

from enum import StrEnum

from referee.games.taki.cards import ANY, IN_RUN, MATCH, ON_OPEN_TAKI, ON_STACK


class Phase(StrEnum):
    """TakiState.phase; its value is the phase's name in views."""

    TURN = "turn"
    RUN = "run"
    KING = "king"
    PLUS = "plus"
    ANSWER = "answer"
    OVER = "over"


TURN = Phase.TURN
RUN = Phase.RUN
KING_PHASE = Phase.KING
PLUS_PHASE = Phase.PLUS
ANSWER = Phase.ANSWER
OVER = Phase.OVER


def playable(phase: Phase, pending: int, taki_open: bool, lead: int, color: int,
             run_color: int) -> tuple[bool, ...] | None:
    """The card kinds that may be played in this public context, a row of cards.py's match
    tables (index: card kind): on a +2 stack, on an open TAKI run, inside one's own run,
    after a King, else by the leading card and the active colour. None in the +3 window
    (only a Breaker answers it) and at the end. The one place both the legal moves
    (`state.legal_in`) and the public inferences (`inference.declined`) read it from."""
    if phase is TURN:
        if pending:
            return ON_STACK
        return ON_OPEN_TAKI[lead][color] if taki_open else MATCH[lead][color]
    if phase is RUN:
        return IN_RUN[run_color]
    if phase is KING_PHASE:
        return ANY
    if phase is PLUS_PHASE:
        return MATCH[lead][color]
    return None
