"""Why an action is refused: one message per rule, naming it (docs/taki.md "Rule index").

Called only off the hot path, when `TakiState.apply_action` meets an action that is not in
the legal list; the message echoes the action and says what the rules allow instead.
"""

from __future__ import annotations

from typing import Any

from referee.games.engine import IllegalActionError
from referee.games.taki.actions import BREAK, CLOSE, DRAW, PASS, PLAY, Action
from referee.games.taki.cards import CHANGE_COLOR, COLOR_NAMES, PLUS3, SUPERTAKI, card_name
from referee.games.taki.state import ANSWER, KING_PHASE, OVER, PLUS_PHASE, RUN, TURN, TakiState


def refusal(state: TakiState, a: Any) -> IllegalActionError:
    """Why `a` is not legal now, naming the rule (docs/taki.md)."""
    if not isinstance(a, Action):
        return IllegalActionError(f"expected a TAKI action (see parse_action), got {a!r}")
    if state._phase == OVER:
        return IllegalActionError(f"{a}: the game is over (seat {state._winner} won)")
    p = state._cur
    hand = state._hands[p]
    ph = state._phase
    if ph == ANSWER:
        if a.last:
            return IllegalActionError(f"{a}: 'last card' is called in one's own turn; "
                                      f"seat {p} is answering a +3")
        if a.verb == BREAK:
            return IllegalActionError(f"{a}: seat {p} holds no BREAKER (rule +3: only a "
                                      "+3 Breaker answers a +3)")
        return IllegalActionError(
            f"{a}: seat {p} must answer seat {state._owner}'s +3 with 'break' or 'pass' "
            "(rule +3: no chains, a King is no answer)")
    if a.verb in (BREAK, PASS):
        return IllegalActionError(f"{a}: 'break' and 'pass' answer a +3, and no +3 "
                                  "awaits an answer")
    if a.last and len(hand) > 2:
        return IllegalActionError(
            f"{a}: seat {p} holds {len(hand)} cards; 'last card' is called with the move "
            "that can leave one card (rule last card)")
    if a.verb == PLAY:
        if a.card not in hand:
            return IllegalActionError(f"{a}: seat {p} holds no {card_name(a.card)}")
        return IllegalActionError(f"{a}: {_play_rule(state, a.card)}")
    if a.verb == DRAW:
        if ph == RUN:
            return IllegalActionError(f"{a}: inside a TAKI run the choices are "
                                      f"{COLOR_NAMES[state._run_color]} cards, 'close' and "
                                      "'end' (rule TAKI)")
        return IllegalActionError(f"{a}: after a King, play any one card or 'end' "
                                  "(rule King)")
    if ph == RUN:  # close with no card after the TAKI
        return IllegalActionError(f"{a}: a TAKI played with no card after it cannot be "
                                  "closed by its player; play on or 'end' (rule TAKI)")
    if ph == PLUS_PHASE:
        return IllegalActionError(f"{a}: after a Plus you must play a second card or "
                                  "'draw' (rule Plus)")
    if a.verb == CLOSE and ph == KING_PHASE:
        return IllegalActionError(f"{a}: 'close' ends one's own TAKI run; after a King "
                                  "play one card or 'end' (rule King)")
    return IllegalActionError(f"{a}: '{a}' ends a TAKI run or a King's turn; at the start "
                              "of a turn play a card or 'draw' (rule a turn)")

def _play_rule(state: TakiState, k: int) -> str:
    ph = state._phase
    if ph == RUN:
        return (f"inside a TAKI run only {COLOR_NAMES[state._run_color]} cards may be "
                "played, then 'close' or 'end' (rule TAKI)")
    if ph == TURN and state._pending:
        return (f"a +2 stack of {state._pending} is active: only a +2 or a KING may be "
                "played, or 'draw' (rule +2)")
    lead = card_name(state._lead)
    if k in (CHANGE_COLOR, SUPERTAKI) and state._lead == PLUS3:
        what = "a Change Color" if k == CHANGE_COLOR else "a Super TAKI"
        return f"{what} may not be played on a +3 (rule {card_name(k)})"
    return (f"{card_name(k)} matches neither the active colour "
            f"{COLOR_NAMES[state._color]} nor the symbol of the leading card {lead} "
            "(rule matching)")
