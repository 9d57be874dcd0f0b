"""Third-party baselines for `referee bench GAME --compare`: the same random playouts, timed.

Each game may list baselines in `BASELINES`; each is a function `(games, seed) -> BenchResult`
that imports its library lazily. The libraries come with the `bench` extra
(`pip install -e '.[bench]'`); a missing one is reported, never raised. Only TAKI has
baselines now: OpenSpiel's `crazy_eights` and RLCard's `uno`, both 2-player, uniform random
moves, player decisions counted as actions (chance nodes are not).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from referee.games.bench import BenchResult

NOT_INSTALLED = "not installed (pip install -e '.[bench]')"


def _openspiel_crazy_eights(games: int, seed: int) -> BenchResult:
    import pyspiel  # optional: the `bench` extra

    game = pyspiel.load_game("crazy_eights", {"players": 2})
    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return BenchResult(games, actions, time.perf_counter() - t0)


def _rlcard_uno(games: int, seed: int) -> BenchResult:
    import numpy as np
    import rlcard  # optional: the `bench` extra
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": seed})
    np.random.seed(seed)  # RLCard's RandomAgent draws from numpy's global generator
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    actions = 0
    t0 = time.perf_counter()
    for _ in range(games):
        trajectories, _payoffs = env.run(is_training=False)
        actions += sum((len(t) - 1) // 2 for t in trajectories)  # state, action, ..., state
    return BenchResult(games, actions, time.perf_counter() - t0)


def _taki_draw_only_when_stuck(games: int, seed: int) -> BenchResult:
    """Our TAKI under RLCard UNO's legal set: random moves, `draw` only when nothing else is
    legal. RULINGS.md lets a TAKI player draw at any turn start, so uniform random TAKI games
    run ~30x longer than UNO's; this policy makes games/s comparable."""
    from referee.games.taki import new_game

    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        state = new_game(2, seed=seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            plays = [a for a in legal if a.verb != 1]  # 1 = DRAW
            state.apply_action(rng.choice(plays or legal))
            actions += 1
    return BenchResult(games, actions, time.perf_counter() - t0)


BASELINES: dict[str, dict[str, Callable[[int, int], BenchResult]]] = {
    "taki": {"crazy_eights": _openspiel_crazy_eights, "uno": _rlcard_uno},
}
# Our own engine under another random policy, timed beside the baselines (ratios vs each).
ALTERNATES: dict[str, dict[str, Callable[[int, int], BenchResult]]] = {
    "taki": {"taki_draw_only_when_stuck": _taki_draw_only_when_stuck},
}


def _row(ours: BenchResult, theirs: BenchResult) -> dict[str, Any]:
    row = theirs.to_dict()
    row["actions_per_game"] = round(theirs.actions / theirs.games, 1) if theirs.games else 0.0
    row["ours_actions_per_game"] = round(ours.actions / ours.games, 1) if ours.games else 0.0
    row["ratio_games_per_s"] = round(ours.games_per_s / theirs.games_per_s, 2) \
        if theirs.games_per_s else None
    row["ratio_actions_per_s"] = round(ours.actions_per_s / theirs.actions_per_s, 2) \
        if theirs.actions_per_s else None
    return row


def compare(game_name: str, result: BenchResult, games: int, seed: int) -> dict[str, Any]:
    """Time each baseline of `game_name` over `games` random games; one row per baseline.

    A row is the baseline's own bench dict plus the mean actions per game on both sides and
    the ratios ours/theirs in games/s and actions/s, or the text `NOT_INSTALLED`. Rows of
    `ALTERNATES` time our engine under another policy, with its games/s ratio against each
    installed baseline. A game without baselines gives `{}`.
    """
    out: dict[str, dict[str, Any] | str] = {}
    timed: dict[str, BenchResult] = {}
    for name, run in BASELINES.get(game_name, {}).items():
        try:
            timed[name] = run(games, seed)
        except ImportError:
            out[name] = NOT_INSTALLED
            continue
        out[name] = _row(result, timed[name])
    for name, run in ALTERNATES.get(game_name, {}).items():
        ours = run(games, seed)
        row: dict[str, Any] = ours.to_dict()
        row["actions_per_game"] = round(ours.actions / ours.games, 1) if ours.games else 0.0
        for base, theirs in timed.items():
            row[f"ratio_games_per_s_vs_{base}"] = round(ours.games_per_s / theirs.games_per_s, 2) \
                if theirs.games_per_s else None
        out[name] = row
    return out
