"""The greedy `heuristic` TAKI bot: it sees only what its seat may know (hand and counts).

Order of preference: a card that empties the hand; on a +2 stack a +2, then a King; a TAKI
backed by cards of its colour; action cards that hurt the next player; cards of the colour it
holds most of; a Change Color naming that colour; the King, +3 Breaker and drawing last. It
always calls "last card" when it may (RULINGS.md TAKI "Last card": bots always declare).
"""

from __future__ import annotations

import random
from bisect import insort

from referee.games.taki.actions import BREAK, CLOSE, DRAW, END, PLAY, Action
from referee.games.taki.cards import (
    BREAKER,
    CHANGE_COLOR,
    COLOR_OF,
    DIR,
    KING,
    PLUS,
    PLUS2,
    PLUS3,
    RANK_OF,
    STOP,
    SUPERTAKI,
    TAKI,
)
from referee.games.taki.phases import RUN
from referee.games.taki.state import TakiState, legal_in

# The likelihood the opponent model gives an action the heuristic would not have taken
# (`deal_weight`): small, since a heuristic bot never does, but above 0 for a person.
MISMATCH = 0.05


def bot_actions(state: TakiState) -> list[Action]:
    """The legal actions a bot weighs: only those with the "last card" call when it is
    offered (RULINGS.md TAKI "Last card": bots always declare; the call costs nothing)."""
    legal = state.legal_actions()
    return [a for a in legal if a.last] or legal


def pick(legal: list[Action], hand: tuple[int, ...] | list[int], pending: int, in_run: bool,
         color: int) -> Action:
    """The heuristic's choice among `legal` (non-empty) for a player holding `hand`, with
    `pending` cards on a +2 stack, `in_run` inside its own TAKI run and `color` the active
    colour: the best score of `HeuristicBot._score`, the earliest in `legal` on a tie."""
    n = len(hand)
    if n <= 2:
        called = [a for a in legal if a.last]
        if called:
            legal = called
    per_color = [0, 0, 0, 0]
    for k in hand:
        c = COLOR_OF[k]
        if c >= 0:
            per_color[c] += 1
    best = legal[0]
    top = -1.0
    for a in legal:
        verb = a.verb
        if verb != PLAY:
            v = 100.0 if verb == BREAK else 2.0 if verb == CLOSE else 1.0 if verb == END \
                else 0.0
        else:
            k = a.card
            rank = RANK_OF[k]
            if n == 1 and rank != PLUS:
                v = 1000.0
            elif pending:
                v = 50.0 if rank == PLUS2 else 40.0
            elif in_run:
                v = 20.0 if rank < STOP else 15.0
            elif rank >= 0:
                same = per_color[COLOR_OF[k]] - 1
                if rank < STOP:
                    v = 12.0 + same
                elif rank == TAKI:
                    v = 10.0 + 4.0 * same
                elif rank == PLUS:
                    v = 13.0 + same if n > 2 else 3.0
                elif rank == DIR:
                    v = 11.0 + same
                else:  # STOP, PLUS2
                    v = 14.0 + same
            elif k == SUPERTAKI:
                v = 9.0 + 4.0 * per_color[color]
            elif k == CHANGE_COLOR:
                v = 8.0 + per_color[a.color]
            elif k == PLUS3:
                v = 11.0
            elif k == KING:
                v = 5.0
            else:  # BREAKER
                v = 0.5
        if v > top:
            best, top = a, v
    return best


def deal_weight(state: TakiState, seat: int) -> float:
    """How likely (0..1) the other seats' recent actions are in `state` (a deal of the cards
    `seat` cannot see) if those seats play as the heuristic bot: the product, over each other
    seat's actions since it last drew (`TakiState.recent`), of 1 where `pick` on its hand then
    (its hand now plus the cards it played since) takes that action, else MISMATCH. Reads
    the public contexts and the deal's hands only; the search's opponent model (issue 16)."""
    w = 1.0
    for q in range(state.num_players):
        recent = state.recent(q) if q != seat else ()
        if not recent:
            continue
        hand = list(state.hand(q))
        for ph, pending, taki_open, lead, color, run, n, action in reversed(recent):
            verb = action.verb
            if verb == PLAY:
                insort(hand, action.card)
            elif verb == BREAK:
                insort(hand, BREAKER)
            legal = legal_in(hand, ph, pending, taki_open, lead, color, run, n)
            if len(legal) > 1:
                a = pick(legal, hand, pending, ph == RUN, color)
                if a.verb != verb or a.card != action.card or a.color != action.color:
                    w *= MISMATCH
    return w


def heuristic_playout(state: TakiState, limit: int = -1) -> None:
    """The heuristic bot playing every seat of `state` on in place, up to `limit` actions
    (-1: to the end): the same moves as `HeuristicBot` by `apply_action`, for search
    rollouts (`TakiState.play_on`; GameInfo.playouts)."""
    state.play_on(pick, limit)


class HeuristicBot:
    """Scores each legal action and plays the best; ties go to the earliest in legal order.

    It is also the hard search bot's rollout policy, so its choice (`pick`) is written for
    speed: one pass over the legal actions, the scores of `_score` inlined (`_score` is the
    reference; tests check that both choose alike)."""

    def choose(self, state: TakiState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return pick(legal, state.hand(state.current_player()), state.pending_draw,
                    state.phase == RUN, state.color)

    @staticmethod
    def _score(state: TakiState, a: Action, hand: tuple[int, ...], per_color: list[int]) -> float:
        if a.verb == BREAK:
            return 100.0
        if a.verb == CLOSE:
            return 2.0
        if a.verb in (END, DRAW):
            return 0.0 if a.verb == DRAW else 1.0
        if a.verb != PLAY:  # pass
            return 0.0
        k = a.card
        if len(hand) == 1 and RANK_OF[k] != PLUS:
            return 1000.0  # goes out
        rank, col = RANK_OF[k], COLOR_OF[k]
        if state.pending_draw:
            return 50.0 if rank == PLUS2 else 40.0
        if state.phase == RUN:  # inside one's run: plain cards first, an action card last
            return 20.0 if rank < STOP else 15.0
        same = per_color[col] - 1 if col >= 0 else 0
        if rank == TAKI:
            return 10.0 + 4.0 * same
        if k == SUPERTAKI:
            return 9.0 + 4.0 * per_color[state.color]
        if rank in (STOP, PLUS2):
            return 14.0 + same
        if rank == PLUS:
            return 13.0 + same if len(hand) > 2 else 3.0
        if rank == DIR:
            return 11.0 + same
        if k == CHANGE_COLOR:
            return 8.0 + per_color[a.color]
        if k == PLUS3:
            return 11.0
        if k == KING:
            return 5.0
        if k == BREAKER:
            return 0.5
        return 12.0 + same  # a number card
