"""Why an action is refused: one code per rule, with its parameters and English words naming
the rule (docs/taki.md "Rule index"); the server's i18n keys `refusal.<code>` say the same in
the other languages.

Called only off the hot path, when `TakiState.apply_action` meets an action that is not in
the legal list. Parameters: `action` and cards in notation, seats as ints, `color` a colour
letter R G B Y (read "red", ... in English). This module reads the state's fields but does
not import the state machine (state.py imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.games.engine import IllegalActionError, register_refusals
from referee.games.taki.actions import BREAK, CLOSE, DRAW, PASS, PLAY, Action
from referee.games.taki.cards import (
    CHANGE_COLOR,
    COLOR_NAMES,
    COLORS,
    PLUS3,
    SUPERTAKI,
    card_name,
)
from referee.games.taki.phases import ANSWER, KING_PHASE, OVER, PLUS_PHASE, RUN, TURN

if TYPE_CHECKING:
    from referee.games.taki.state import TakiState

REFUSALS = {
    "taki.not-an-action": "expected a TAKI action (see parse_action), got {action}",
    "taki.game-over": "{action}: the game is over (seat {winner} won)",
    "taki.last-while-answering": ("{action}: 'last card' is called in one's own turn; seat "
                                  "{seat} is answering a +3"),
    "taki.no-breaker": ("{action}: seat {seat} holds no BREAKER (rule +3: only a +3 Breaker "
                        "answers a +3)"),
    "taki.must-answer": ("{action}: seat {seat} must answer seat {owner}'s +3 with 'break' or "
                         "'pass' (rule +3: no chains, a King is no answer)"),
    "taki.nothing-to-answer": ("{action}: 'break' and 'pass' answer a +3, and no +3 awaits an "
                               "answer"),
    "taki.last-too-early": ("{action}: seat {seat} holds {cards} cards; 'last card' is called "
                            "with the move that can leave one card (rule last card)"),
    "taki.card-not-held": "{action}: seat {seat} holds no {card}",
    "taki.run-draw": ("{action}: inside a TAKI run the choices are {color} cards, 'close' and "
                      "'end' (rule TAKI)"),
    "taki.king-draw": "{action}: after a King, play any one card or 'end' (rule King)",
    "taki.close-empty-run": ("{action}: a TAKI played with no card after it cannot be closed "
                             "by its player; play on or 'end' (rule TAKI)"),
    "taki.plus-needs-card": ("{action}: after a Plus you must play a second card or 'draw' "
                             "(rule Plus)"),
    "taki.close-after-king": ("{action}: 'close' ends one's own TAKI run; after a King play "
                              "one card or 'end' (rule King)"),
    "taki.not-at-turn-start": ("{action}: '{action}' ends a TAKI run or a King's turn; at the "
                               "start of a turn play a card or 'draw' (rule a turn)"),
    "taki.run-colour": ("{action}: inside a TAKI run only {color} cards may be played, then "
                        "'close' or 'end' (rule TAKI)"),
    "taki.stack": ("{action}: a +2 stack of {pending} is active: only a +2 or a KING may be "
                   "played, or 'draw' (rule +2)"),
    "taki.not-on-plus3": "{action}: {card} may not be played on a +3 (rule {card})",
    "taki.no-match": ("{action}: {card} matches neither the active colour {color} nor the "
                      "symbol of the leading card {lead} (rule matching)"),
}
register_refusals("taki", REFUSALS, {"color": dict(zip(COLORS, COLOR_NAMES, strict=True))})


def refusal(state: TakiState, a: Any) -> IllegalActionError:
    """Why `a` is not legal now, naming the rule (docs/taki.md)."""
    if not isinstance(a, Action):
        return IllegalActionError("taki.not-an-action", action=repr(a))
    act = str(a)
    if state._phase == OVER:
        return IllegalActionError("taki.game-over", action=act, winner=state._winner)
    p = state._cur
    hand = state._hands[p]
    ph = state._phase
    if ph == ANSWER:
        if a.last:
            return IllegalActionError("taki.last-while-answering", action=act, seat=p)
        if a.verb == BREAK:
            return IllegalActionError("taki.no-breaker", action=act, seat=p)
        return IllegalActionError("taki.must-answer", action=act, seat=p, owner=state._owner)
    if a.verb in (BREAK, PASS):
        return IllegalActionError("taki.nothing-to-answer", action=act)
    if a.last and len(hand) > 2:
        return IllegalActionError("taki.last-too-early", action=act, seat=p, cards=len(hand))
    if a.verb == PLAY:
        if a.card not in hand:
            return IllegalActionError("taki.card-not-held", action=act, seat=p,
                                      card=card_name(a.card))
        return _play_refusal(state, act, a.card)
    if a.verb == DRAW:
        if ph == RUN:
            return IllegalActionError("taki.run-draw", action=act,
                                      color=COLORS[state._run_color])
        return IllegalActionError("taki.king-draw", action=act)
    if ph == RUN:  # close with no card after the TAKI
        return IllegalActionError("taki.close-empty-run", action=act)
    if ph == PLUS_PHASE:
        return IllegalActionError("taki.plus-needs-card", action=act)
    if a.verb == CLOSE and ph == KING_PHASE:
        return IllegalActionError("taki.close-after-king", action=act)
    return IllegalActionError("taki.not-at-turn-start", action=act)


def _play_refusal(state: TakiState, act: str, k: int) -> IllegalActionError:
    ph = state._phase
    if ph == RUN:
        return IllegalActionError("taki.run-colour", action=act, color=COLORS[state._run_color])
    if ph == TURN and state._pending:
        return IllegalActionError("taki.stack", action=act, pending=state._pending)
    if k in (CHANGE_COLOR, SUPERTAKI) and state._lead == PLUS3:
        return IllegalActionError("taki.not-on-plus3", action=act, card=card_name(k))
    return IllegalActionError("taki.no-match", action=act, card=card_name(k),
                              color=COLORS[state._color], lead=card_name(state._lead))
