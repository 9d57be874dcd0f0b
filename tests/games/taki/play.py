"""A TAKI game part-played by the heuristic bot, for tests that need a position from play."""

from __future__ import annotations

import random

from referee.games.taki import TakiState, new_game
from referee.games.taki.bots import HeuristicBot


def heuristic_position(players: int, seed: int, moves: int) -> TakiState:
    """The game `new_game(players, seed)` after `moves` actions, every seat the heuristic bot
    (its choices seeded by `seed`)."""
    state = new_game(players, seed=seed)
    rng = random.Random(seed)
    bot = HeuristicBot()
    for _ in range(moves):
        state.apply_action(bot.choose(state, rng))
    return state
