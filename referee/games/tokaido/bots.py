"""A greedy Tokaido bot: take what adds most to one's score now, walk to the nearest good space.

It looks only at public facts: for `take blind` it values the average unseen encounter card,
never the pile's top.
"""

from __future__ import annotations

import math
import random

from referee.games.tokaido.actions import BLIND, Action
from referee.games.tokaido.state import MOVE, TokaidoState

STEP_COST = 0.7  # points a space walked past is worth giving up (tuned against random)
RIVAL_WEIGHT = 0.3  # how much taking points from the best rival counts


def _worth(state: TokaidoState, p: int) -> float:
    """Seat p's score now, coins counted smoothly, less a share of the best rival's."""
    rows = state.breakdown()

    def own(q: int) -> float:
        r = rows[q]
        return r["total"] - r["money"] + state.coins[q] / state.rules.coins_per_point

    rival = max((own(q) for q in range(state.num_players) if q != p), default=0.0)
    return own(p) - RIVAL_WEIGHT * rival


def _blind_worth(state: TokaidoState, p: int) -> float:
    """Average points (coins counted as points) of the encounter cards nobody can see."""
    rules = state.rules
    seen = [0] * len(rules.kinds)
    for h in state.held:
        for i, c in enumerate(h):
            seen[i] += c
    for i in state.enc_face:
        seen[i] += 1
    unseen = [(rules.kinds[i], rules.kinds[i].count - seen[i])
              for i in rules.deck_kinds["encounter"]]
    total = sum(n for _, n in unseen)
    if not total:
        return 0.0
    ab = state.character(p).ability
    extra = ab.coins / rules.coins_per_point if ab.deck == "encounter" else 0.0
    return extra + sum(n * (k.points + k.coins / rules.coins_per_point)
                       for k, n in unseen) / total


def _best_take(state: TokaidoState) -> tuple[float, Action]:
    """The take (or skip) that leaves the current player best off, and its gain."""
    p = state.current_player()
    base = _worth(state, p)
    best: tuple[float, Action] | None = None
    for a in state.legal_actions():
        if a.arg == BLIND:
            gain = _blind_worth(state, p)
        else:
            s = state.clone()
            s.apply_action(a)
            gain = _worth(s, p) - base
        if best is None or gain > best[0]:
            best = (gain, a)
    assert best is not None, "a decision always has a legal action"
    return best


class HeuristicBot:
    """Greedy: at a space, the best immediate gain; on the road, gain minus STEP_COST a step."""

    def choose(self, state: TokaidoState, rng: random.Random) -> Action:
        if state.phase is not MOVE:
            return _best_take(state)[1]
        p = state.current_player()
        start = state.pos[p]
        best: tuple[float, int, Action] | None = None
        for a in state.legal_actions():
            s = state.clone()
            s.apply_action(a)
            assert isinstance(a.arg, int)  # on the road every legal action is 'move N'
            gain = _best_take(s)[0] if s.phase is not MOVE and s.current_player() == p else 0.0
            value = gain - STEP_COST * (a.arg - start - 1)
            key = (value, -a.arg, a)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        return best[2]


class QuickBot:
    """A fast, light policy for search rollouts (no scoring, about a random bot's speed): walk
    to the nearest free space most of the time, a little further sometimes; at a space take
    a random card on offer, skipping only when nothing is."""

    NEAREST = 0.6  # chance to walk to the nearest free space
    SECOND = 0.25  # chance to walk to the one after it

    def choose(self, state: TokaidoState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if state.phase is MOVE:
            x = rng.random()
            if x < self.NEAREST or len(legal) == 1:
                return legal[0]
            if x < self.NEAREST + self.SECOND:
                return legal[1]
            return rng.choice(legal)
        takes = [a for a in legal if a.verb == "take"]
        return rng.choice(takes or legal)


MARGIN_SCALE = 5.0  # points of lead that make a search rollout worth 0.73 instead of 0.5


def search_value(state: TokaidoState, p: int) -> float:
    """A position's worth to seat p for search rollouts (the game finished, or stopped at the
    rollout depth: points as if it ended now), 0..1: a logistic of
    p's lead over the best rival in MARGIN_SCALE points (the most points win)."""
    totals = state.scores()
    mine = totals[p]
    best = max(t for q, t in enumerate(totals) if q != p)
    return 1.0 / (1.0 + math.exp(-(mine - best) / MARGIN_SCALE))
