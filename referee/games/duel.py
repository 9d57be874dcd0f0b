"""`referee bench bots`: one bot against another, seats rotating, seeds fixed (issue 16).

Bot B plays one seat, seat `g % players` in game g, and bot A every other seat; game g is dealt
with seed `seed + g`. A win shared by k players counts 1/k. The time is the CPU time of B's
decisions on one core (`time.thread_time`), so that other work on the machine does not count.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from referee.games.engine import Bot, RulesError, State, get_game, make_bot, play_out

MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class DuelResult:
    """`score`: B's wins (shared wins as 1/k); `move_ms`: B's decisions, CPU ms each."""

    game: str
    bot: str
    against: str
    players: int
    games: int
    score: float
    move_ms: list[float]

    @property
    def win_rate(self) -> float:
        return self.score / self.games

    @property
    def ci95(self) -> float:
        """Half-width of the normal 95 % interval of the win rate (1.96 standard errors)."""
        p = self.win_rate
        return 1.96 * math.sqrt(max(p * (1 - p), 0.0) / self.games)

    @property
    def ms_per_move_p95(self) -> float:
        """The 95th percentile of B's decision times in ms (nearest rank); 0 without moves."""
        if not self.move_ms:
            return 0.0
        return float(np.percentile(self.move_ms, 95, method="inverted_cdf"))

    def to_dict(self) -> dict[str, Any]:
        """The `--json` object: games, bot, against, win_rate, ci95, ms_per_move_p95."""
        return {"games": self.games, "bot": self.bot, "against": self.against,
                "win_rate": round(self.win_rate, 4), "ci95": round(self.ci95, 4),
                "ms_per_move_p95": round(self.ms_per_move_p95, 2)}


class _Timed:
    """Wraps a bot and records the CPU time of each of its decisions, in ms."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.ms: list[float] = []

    def choose(self, state: State, rng: random.Random) -> object:
        t0 = time.thread_time()
        action = self.bot.choose(state, rng)
        self.ms.append((time.thread_time() - t0) * 1000.0)
        return action


def duel(game_name: str, bot: str, against: str, players: int = 2, games: int = 100,
         seed: int = 0) -> DuelResult:
    """Play `games` games of `game_name`: `bot` in one rotating seat, `against` in the others.

    :raises RulesError: an unknown game or bot, fewer than 1 game, or a player count the game
        does not take.
    """
    game = get_game(game_name)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RulesError(f"games must be a whole number of at least 1, not {games!r}")
    timed = _Timed(make_bot(game, bot))
    others = make_bot(game, against)
    score = 0.0
    for g in range(games):
        state = game.new_game(players, seed=seed + g)  # refuses a player count it lacks
        me = g % players
        seats: list[Bot] = [others] * players
        seats[me] = timed
        play_out(state, seats, random.Random(seed + g), MAX_ACTIONS)
        r = state.returns()
        score += r[me] / sum(r) if sum(r) else 0.0
    return DuelResult(game_name, bot, against, players, games, score, timed.ms)
