"""Random-playout benchmarks on one core (ENGINES.md "Benchmark"); legal moves included."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from referee.games.engine import RandomBot, RulesError, get_game, play_out


@dataclass(frozen=True)
class BenchResult:
    """Games played, actions taken (player decisions) and the wall time in seconds."""

    games: int
    actions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The `referee bench GAME --json` object: games, games_per_s, actions_per_s."""
        return {"games": self.games, "games_per_s": round(self.games_per_s, 1),
                "actions_per_s": round(self.actions_per_s, 1)}


def bench_random_playouts(name: str, games: int, players: int = 2, seed: int = 0,
                          max_actions: int = 100_000) -> BenchResult:
    """Play `games` random games of `name`; time them with `time.perf_counter`.

    :raises RulesError: an unknown game, fewer than 1 game, or (from the engine's new_game)
        a player count the game does not take.
    """
    game = get_game(name)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RulesError(f"games must be a whole number of at least 1, not {games!r}")
    rng = random.Random(seed)
    bots = [RandomBot()] * players
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        state = game.new_game(players, seed=seed + g)
        actions += play_out(state, bots, rng, max_actions)
    return BenchResult(games, actions, time.perf_counter() - t0)
