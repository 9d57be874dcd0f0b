"""Search bots for the card games: determinized Monte Carlo (PIMC) with paired rollouts.

Hidden information is handled by determinization: each round of the search deals the cards
the seat cannot see anew with `State.determinize(seat, rng)`, which depends only on
`observation(seat)`, then tries every legal action on that same deal, each followed by a
rollout with the same seed (common random numbers: the actions are compared on equal luck),
every seat moved by the rollout policy. The action with the best mean reward is played. The
bot reads the real state only through `observation` and `determinize`; its RNG is seeded from
a SHA-256 of its observation, so the same observation gives the same move whenever the search
ends by its iteration budget rather than its time cap (issue 16).

Levels (easy, medium, hard) are data in models/bots.yaml: iterations, a time cap, the rollout
policy, the reward and the rollout horizon, with per-game overrides. The time cap counts the
CPU time of the deciding thread (`time.thread_time`), so that a busy machine does not weaken
the bot; on an idle one it is the wall time too.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import yaml

from referee.games.engine import Bot, GameInfo, RandomBot, RulesError, State
from referee.paths import MODELS

if TYPE_CHECKING:
    from referee.games.ismcts import IsmctsBot

LEVELS_FILE = MODELS / "bots.yaml"
# With an opponent model, a deal is redealt while a draw at its weight says no, at most this
# many times (the last deal is kept: a bounded cost when the model fits no deal).
MODEL_TRIES = 8


@dataclass(frozen=True)
class Level:
    """One level of a game's search bot (models/bots.yaml).

    `iterations`: rollouts per decision (at least one deal, i.e. one rollout per legal
    action); `time_ms`: a cap on one decision's CPU time in ms, checked after each deal
    (None: no cap); `rollout`: the policy that plays the rollouts (`random` or a bot of the
    game); `reward`: `win` (1 for a win, 1/k when shared) or `margin` (the game's
    `search_value`, a smooth 0..1 of the score lead); `horizon`: `game`, or `round` to end
    rollouts with the round (games in rounds, see `GameInfo.cut_to_round`); `depth`: stop each
    rollout after this many actions and value the position reached by the margin reward
    (None: play to the horizon); `model`: keep each deal with the probability the game's
    opponent model gives it (`GameInfo.deal_weight`), else redeal, up to MODEL_TRIES times;
    `search`: `pimc` (this module's `SearchBot`) or `ismcts` (referee.games.ismcts, where
    `iterations` counts iterations: one deal and one rollout each); `exploration`: ISMCTS's
    UCB1 constant (rewards 0..1); `opponents`: `tree` (ISMCTS's other seats choose by UCB1
    on their own reward) or `policy` (they play the rollout policy's move in the tree too).
    """

    name: str
    iterations: int
    time_ms: float | None
    rollout: str
    horizon: str = "game"
    reward: str = "win"
    depth: int | None = None
    model: bool = False
    search: str = "pimc"
    exploration: float = 0.7
    opponents: str = "tree"


@cache
def _raw_levels() -> dict[str, Any]:
    levels: dict[str, Any] = yaml.safe_load(LEVELS_FILE.read_text(encoding="utf-8"))
    return levels


def load_level(game: str, name: str) -> Level:
    """Level `name` for `game` from models/bots.yaml: the defaults, then the game's overrides.

    :raises RulesError: no such level, or a level with a missing or wrong value.
    """
    raw = _raw_levels()
    levels = raw.get("levels", {})
    if name not in levels:
        raise RulesError(f"unknown level {name!r}: expected one of {', '.join(levels)}")
    values = {**levels[name], **raw.get("games", {}).get(game, {}).get(name, {})}
    try:
        level = Level(name=name, **values)
    except TypeError as e:
        raise RulesError(f"models/bots.yaml level {name} for {game}: {e}") from None
    if not isinstance(level.iterations, int) or level.iterations < 1:
        raise RulesError(f"models/bots.yaml level {name} for {game}: iterations must be a "
                         f"whole number >= 1, not {level.iterations!r}")
    if level.time_ms is not None and (isinstance(level.time_ms, bool)
                                      or not isinstance(level.time_ms, int | float)
                                      or level.time_ms <= 0):
        raise RulesError(f"models/bots.yaml level {name} for {game}: time_ms must be a number "
                         f"of ms > 0 or null, not {level.time_ms!r}")
    if level.horizon not in ("game", "round"):
        raise RulesError(f"models/bots.yaml level {name} for {game}: horizon must be game or "
                         f"round, not {level.horizon!r}")
    if level.search not in ("pimc", "ismcts"):
        raise RulesError(f"models/bots.yaml level {name} for {game}: search must be pimc or "
                         f"ismcts, not {level.search!r}")
    if (isinstance(level.exploration, bool) or not isinstance(level.exploration, int | float)
            or level.exploration < 0):
        raise RulesError(f"models/bots.yaml level {name} for {game}: exploration must be a "
                         f"number >= 0, not {level.exploration!r}")
    if level.opponents not in ("tree", "policy"):
        raise RulesError(f"models/bots.yaml level {name} for {game}: opponents must be tree or "
                         f"policy, not {level.opponents!r}")
    return level


def observation_seed(observation: dict[str, Any]) -> int:
    """A 64-bit seed from a canonical JSON of `observation` (stable across runs, unlike hash)."""
    text = json.dumps(observation, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


@dataclass(frozen=True)
class SearchResult:
    """One decision: the action played, each legal action's visits and mean reward (0..1),
    the iterations run and the search time in seconds."""

    action: Any
    visits: list[int]
    means: list[float]
    iterations: int
    seconds: float


def rollout_policy(game: GameInfo, level: Level) -> Bot:
    """The bot that plays `level`'s rollouts in `game`, once the level is checked against the
    game (the search bots share it).

    :raises RulesError: the level names a rollout policy, reward or horizon the game lacks.
    """
    if level.rollout != "random" and level.rollout not in game.bots:
        raise RulesError(f"level {level.name}: no rollout policy {level.rollout!r} for "
                         f"{game.name}: expected random or {', '.join(game.bots)}")
    if level.depth is not None and level.reward != "margin":
        raise RulesError(f"level {level.name}: a rollout depth needs reward: margin")
    if level.reward == "margin" and game.search_value is None:
        raise RulesError(f"level {level.name}: {game.name} has no margin reward")
    if level.horizon == "round" and game.cut_to_round is None:
        raise RulesError(f"level {level.name}: {game.name} has no rounds to cut at")
    if level.model and game.deal_weight is None:
        raise RulesError(f"level {level.name}: {game.name} has no opponent model")
    return RandomBot() if level.rollout == "random" else game.bots[level.rollout]()


class SearchBot:
    """Determinized Monte Carlo for one game at one level (see the module docstring).

    :raises RulesError: the level names a rollout policy, reward or horizon the game lacks.
    """

    def __init__(self, game: GameInfo, level: Level,
                 clock: Callable[[], float] = time.thread_time) -> None:
        self.game = game
        self.level = level
        self._policy: Bot = rollout_policy(game, level)
        self._clock = clock

    def choose(self, state: State, rng: random.Random) -> Any:
        """The action to play; `rng` is not used (the search seeds its own from the view)."""
        return self.search(state).action

    def search(self, state: State) -> SearchResult:
        """Search the current player's decision in `state`; `state` is left unchanged.

        A decision with one legal action is played without search (0 iterations).

        :raises RulesError: the game is over.
        """
        t0 = self._clock()
        if state.is_terminal():
            raise RulesError("the game is over: there is no move to search")
        me = state.current_player()
        legal = state.legal_actions() if self.game.bot_actions is None \
            else self.game.bot_actions(state)
        k = len(legal)
        if k == 1:
            return SearchResult(legal[0], [0], [0.0], 0, self._clock() - t0)
        rng = random.Random(observation_seed(state.observation(me)))
        level = self.level
        deadline = None if level.time_ms is None else t0 + level.time_ms / 1000.0
        cut = self.game.cut_to_round if level.horizon == "round" else None
        value = self.game.search_value if level.reward == "margin" else None
        policy = self._policy.choose
        depth = -1 if level.depth is None else level.depth  # -1: no limit
        weigh = self.game.deal_weight if level.model else None
        playout = self.game.playouts.get(level.rollout)  # the same moves, faster
        visits = [0] * k
        totals = [0.0] * k
        n = 0
        roll = random.Random()
        while n + k <= max(level.iterations, k):
            deal = state.determinize(me, rng)
            if weigh is not None:
                tries = MODEL_TRIES
                while tries and rng.random() >= weigh(deal, me):
                    deal = state.determinize(me, rng)
                    tries -= 1
            if cut is not None:
                cut(deal)
            if playout is None:
                roll.seed(rng.getrandbits(64))
                seeded = roll.getstate()
            for i in range(k):  # every action on the same deal and rollout seed (less noise)
                s = deal.clone()
                s.apply_action(legal[i])
                if playout is not None:  # the policy's moves, faster (no RNG: none needed)
                    playout(s, depth)
                else:
                    if i:
                        roll.setstate(seeded)  # as seeding anew, at a fraction of the cost
                    left = depth
                    while left and not s.is_terminal():
                        s.apply_action(policy(s, roll))
                        left -= 1
                if value is not None:
                    v = value(s, me)
                else:
                    r = s.returns()
                    won = sum(r)
                    v = r[me] / won if won else 0.0
                visits[i] += 1
                totals[i] += v
            n += k
            if deadline is not None and self._clock() >= deadline:
                break
        means = [totals[j] / visits[j] for j in range(k)]
        best = max(range(k), key=lambda j: (means[j], -j))
        return SearchResult(legal[best], visits, means, n, self._clock() - t0)


def make_search_bot(game: GameInfo, level: str) -> SearchBot | IsmctsBot:
    """The search bot of `game` at level `level` (easy, medium or hard): a `SearchBot`, or an
    `IsmctsBot` where the level says `search: ismcts`.

    :raises RulesError: an unknown level, or a level models/bots.yaml gets wrong.
    """
    lv = load_level(game.name, level)
    if lv.search == "ismcts":
        from referee.games.ismcts import IsmctsBot

        return IsmctsBot(game, lv)
    return SearchBot(game, lv)
