"""The phases of a TAKI turn (state.py), apart from the state so that refusals.py and the bots
read them without importing the state machine.

TURN (its start), RUN (inside one's own TAKI run), KING (after a King: one card or `end`),
PLUS (after a Plus: a card or `draw`), ANSWER (the +3 window: each other player decides
`break` or `pass` in turn order), OVER. The value is the name views and `to_dict` give.
"""

from __future__ import annotations

from enum import StrEnum


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
