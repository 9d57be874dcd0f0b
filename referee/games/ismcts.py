"""Information-set Monte Carlo tree search (single-observer ISMCTS) for the card games.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012 (the SO-ISMCTS algorithm). One tree
is grown for the deciding seat, its nodes keyed by the sequence of actions from the root
decision (every seat's, so the tree goes through the opponents' decisions and through the
seat's own later actions of the same turn: TAKI runs, Plus cards, a Change Color's colour).
Each iteration:

1. deals the cards the seat cannot see anew, `State.determinize(seat, rng)` (with the game's
   opponent model, `GameInfo.deal_weight`, redealing as `SearchBot` does, if the level says
   `model: true`);
2. descends from the root while every action legal in that deal has a child: the child with
   the best UCB1 score, where the count under the logarithm is the child's *availability*
   (how often it was legal when its parent was visited) rather than the parent's visits;
   each node's reward is that of the seat that took its action, so an opponent's node
   chooses by the opponent's reward (or, with the level's `opponents: policy`, the other
   seats play the rollout policy's move in the tree too, a model of the opponents as that
   policy: the tree then branches on their moves but never explores them);
3. expands one untried action legal in the deal (at random);
4. plays the rest of the game with the rollout policy (the game's fast playout if it has
   one, `GameInfo.playouts`), and
5. adds the reward of the end reached (1 for a win, 1/k when shared, or the game's margin
   value) to every node on the path, from the point of view of the seat that moved there.

The action played is the root's most visited child. As for `SearchBot`, the bot reads the real
state only through `observation` and `determinize`, and its RNG is seeded from a SHA-256 of
the observation, so the same observation gives the same move whenever the iteration budget,
not the CPU-time cap (`time.thread_time`), ends the search. Pure: no I/O, no global state.
"""

from __future__ import annotations

import math
import random
from typing import Any

from referee.games.engine import RulesError, State
from referee.games.search import (
    MODEL_TRIES,
    SearchBot,
    SearchResult,
    observation_seed,
)


class Node:
    """One node of the tree: the position after `action`, taken by seat `mover`.

    `visits`: iterations through it; `total`: the sum of `mover`'s rewards (0..1 each) over
    them; `avail`: how often its action was legal when its parent was passed through in
    selection (UCB1's count under the logarithm); `children`: by action."""

    __slots__ = ("action", "mover", "visits", "total", "avail", "children")

    def __init__(self, action: Any, mover: int) -> None:
        self.action = action
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[Any, Node] = {}


class IsmctsBot(SearchBot):
    """SO-ISMCTS for one game at one level (see the module docstring).

    The level's `iterations` are iterations (one deal and one rollout each), `time_ms` the
    CPU-time cap of a decision in ms (checked after each iteration), `exploration` UCB1's
    constant c (score = mean + c * sqrt(ln(availability) / visits), rewards in 0..1),
    `opponents` `tree` or `policy` (see the module docstring).

    :raises RulesError: the level names a rollout policy, reward or horizon the game lacks.
    """

    def search(self, state: State) -> SearchResult:
        """Search the current player's decision in `state`; `state` is left unchanged.

        `SearchResult.visits` and `means` are per legal action (in `bot_actions` order): the
        root child's visits and its mean reward for the seat (0 for an action never tried).
        A decision with one legal action is played without search (0 iterations).

        :raises RulesError: the game is over.
        """
        t0 = self._clock()
        if state.is_terminal():
            raise RulesError("the game is over: there is no move to search")
        game = self.game
        me = state.current_player()
        actions = game.bot_actions or _legal
        legal = actions(state)
        if len(legal) == 1:
            return SearchResult(legal[0], [0], [0.0], 0, self._clock() - t0)
        rng = random.Random(observation_seed(state.observation(me)))
        level = self.level
        deadline = None if level.time_ms is None else t0 + level.time_ms / 1000.0
        cut = game.cut_to_round if level.horizon == "round" else None
        value = game.search_value if level.reward == "margin" else None
        weigh = game.deal_weight if level.model else None
        playout = game.playouts.get(level.rollout)
        policy = self._policy.choose
        depth = -1 if level.depth is None else level.depth
        c = level.exploration
        follow = level.opponents == "policy"
        log = math.log
        sqrt = math.sqrt
        root = Node(None, -1)
        n = 0
        path: list[Node] = []
        while n < level.iterations:
            s = state.determinize(me, rng)
            if weigh is not None:
                tries = MODEL_TRIES
                while tries and rng.random() >= weigh(s, me):
                    s = state.determinize(me, rng)
                    tries -= 1
            if cut is not None:
                cut(s)
            node = root
            path.clear()
            while not s.is_terminal():  # selection, then the expansion of one action
                children = node.children
                mover = s.current_player()
                if follow and mover != me:  # the other seats move by the rollout policy
                    a = policy(s, rng)
                    child = children.get(a)
                    if child is None:  # expanded: the rollout follows
                        node = children[a] = Node(a, mover)
                        s.apply_action(a)
                        path.append(node)
                        break
                    node = child
                    s.apply_action(a)
                    path.append(node)
                    continue
                options = actions(s) if path else legal
                untried = [a for a in options if a not in children]
                if untried:
                    a = untried[0] if len(untried) == 1 else rng.choice(untried)
                    node = children[a] = Node(a, mover)
                    s.apply_action(a)
                    path.append(node)
                    break
                best = None
                top = -1.0
                for a in options:
                    child = children[a]
                    child.avail += 1
                    score = child.total / child.visits \
                        + c * sqrt(log(child.avail) / child.visits)
                    if score > top:
                        best, top = child, score
                assert best is not None
                node = best
                s.apply_action(node.action)
                path.append(node)
            if not s.is_terminal():  # the rollout
                if playout is not None:
                    playout(s, depth)
                else:
                    left = depth
                    while left and not s.is_terminal():
                        s.apply_action(policy(s, rng))
                        left -= 1
            if value is not None:
                for node in path:
                    node.visits += 1
                    node.total += value(s, node.mover)
            else:
                r = s.returns()
                won = sum(r)
                for node in path:
                    node.visits += 1
                    node.total += r[node.mover] / won if won else 0.0
            root.visits += 1
            n += 1
            if deadline is not None and self._clock() >= deadline:
                break
        kids = [root.children.get(a) for a in legal]
        visits = [k.visits if k is not None else 0 for k in kids]
        means = [k.total / k.visits if k is not None and k.visits else 0.0 for k in kids]
        best_i = max(range(len(legal)), key=lambda j: (visits[j], means[j], -j))
        return SearchResult(legal[best_i], visits, means, n, self._clock() - t0)


def _legal(state: State) -> list[Any]:
    return state.legal_actions()
