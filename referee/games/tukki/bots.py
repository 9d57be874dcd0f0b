"""The greedy `heuristic` Tukki Tukki bot.

It estimates a box's score with each face-down card worth `UNSEEN` points (about the mean of
the unseen cards) and a parrot column worth 0 (a parrot always copies its partner), plus the
set bonuses of the pairs it can see. It then:
- takes the bin card if placing it lowers that estimate by at least `TAKE_BIN_GAIN`;
- places a drawn card where the estimate drops most, or throws it and reveals if no place
  gains at least `PLACE_GAIN`;
- finishes the round (opens its last face-down card) only when its estimate is no higher
  than every opponent's; otherwise it keeps the last card face down (the last-card dilemma).
"""

from __future__ import annotations

import math
import random
from typing import cast

from referee.games.tukki.actions import TAKE_BIN, TAKE_DECK, THROW, Action
from referee.games.tukki.cards import PARROT, Card
from referee.games.tukki.state import PLACE_PHASE, TAKE, TukkiState

UNSEEN = 6.0
TAKE_BIN_GAIN = 2.5
PLACE_GAIN = 0.5


def estimate(box: list[Card], up: list[bool], sets: dict[int, tuple[str, int]]) -> float:
    """The expected score of a box, face-down cards counted as UNSEEN points."""
    total = 0.0
    pairs: dict[int, int] = {}
    for k in range(4):
        t, b, ut, ub = box[k], box[k + 4], up[k], up[k + 4]
        if (ut and t == PARROT) or (ub and b == PARROT):
            if ut and ub and t != b:  # the parrot copies a known value
                v = b if t == PARROT else t
                pairs[v] = pairs.get(v, 0) + 1
            continue
        if ut and ub:
            if t == b:
                pairs[t] = pairs.get(t, 0) + 1
            else:
                total += t + b
        else:
            total += (t if ut else UNSEEN) + (b if ub else UNSEEN)
    for k in pairs.values():
        if k in sets:
            total += sets[k][1]
    return total


class HeuristicBot:
    """Greedy on the estimate above; see the module docstring."""

    def choose(self, state: TukkiState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase is TAKE:
            return self._take(state, legal)
        if state.phase is PLACE_PHASE:
            return self._place(state, legal)
        return self._reveal(state, legal, rng)

    def _after(self, state: TukkiState, card: Card, a: Action) -> tuple[float, bool]:
        """The estimate after placing `card` by `a`, and whether the box is then all up."""
        p = state.current
        box, up = state.boxes[p][:], state.up[p][:]
        old = box[a.place]
        box[a.place], up[a.place] = card, True
        if a.land >= 0:
            box[a.land], up[a.land] = old, True
        return estimate(box, up, state.rules.sets), all(up)

    def _ahead(self, state: TukkiState, mine: float) -> bool:
        """Whether finishing now looks good: no opponent's estimate is below `mine`."""
        sets = state.rules.sets
        return all(mine <= estimate(state.boxes[q], state.up[q], sets)
                   for q in range(state.num_players) if q != state.current)

    def _best(self, state: TukkiState, card: Card, legal: list[Action]) -> tuple[float, Action]:
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.kind != "place":
                continue
            est, done = self._after(state, card, a)
            if done and state.finisher is None and not self._ahead(state, est):
                est += 50.0  # do not open the last card while behind
            if best is None or est < best[0]:
                best = (est, a)
        assert best is not None  # a PLACE phase always offers a place
        return best

    def _take(self, state: TukkiState, legal: list[Action]) -> Action:
        if TAKE_BIN not in legal:
            return TAKE_DECK
        if TAKE_DECK not in legal:
            return TAKE_BIN
        p = state.current
        now = estimate(state.boxes[p], state.up[p], state.rules.sets)
        card = state.bin[-1]
        est, _ = self._best(state, card, state.place_actions())
        return TAKE_BIN if now - est >= TAKE_BIN_GAIN else TAKE_DECK

    def _place(self, state: TukkiState, legal: list[Action]) -> Action:
        p = state.current
        now = estimate(state.boxes[p], state.up[p], state.rules.sets)
        est, a = self._best(state, cast(int, state.drawn), legal)
        if THROW in legal and now - est < PLACE_GAIN:
            down = sum(not u for u in state.up[p])
            if down > 1 or state.finisher is not None or self._ahead(state, now):
                return THROW
        return a

    def _reveal(self, state: TukkiState, legal: list[Action], rng: random.Random) -> Action:
        up = state.up[state.current]
        # prefer a column with nothing shown yet: it spreads the information
        fresh = [a for a in legal if not up[(a.place + 4) % 8]]
        return rng.choice(fresh or legal)



MARGIN_SCALE = 10.0  # points of lead that make a search rollout worth 0.73 instead of 0.5


def search_value(state: TukkiState, p: int) -> float:
    """A finished (or cut) game's worth to seat p for search rollouts, 0..1: a logistic of
    p's lead over the best rival in MARGIN_SCALE points (the lowest total wins)."""
    totals = state.scores()
    mine = totals[p]
    best = min(t for q, t in enumerate(totals) if q != p)
    return 1.0 / (1.0 + math.exp(-(best - mine) / MARGIN_SCALE))
