"""Tukki Tukki (תוכי תוכי): the engine of ENGINES.md, rules per RULINGS.md "Tukki Tukki".

Rules variant: the user's Hebrew text (seed file 001_929e361541e1c2de.txt, in English in
docs/RULINGS.md) with the rulings of RULINGS.md;
108 cards (0-12 eight times, 4 parrots), 2-6 players, five rounds, lowest total wins.
Action encoding: `Action` values whose `str()` is the notation (`take bin`, `place a3 land b2`,
...). See docs/tukki.md for the rulings, notation, setup keys and expect keys.
"""

from __future__ import annotations

from referee.games.engine import GameInfo
from referee.games.tukki.actions import Action, parse_action
from referee.games.tukki.bots import HeuristicBot, search_value
from referee.games.tukki.cards import load_rules
from referee.games.tukki.render import render
from referee.games.tukki.scoring import BoxScore, parse_box, score_box
from referee.games.tukki.setup import from_setup, new_game
from referee.games.tukki.state import TukkiState, cut_to_round

GAME = GameInfo(
    name="tukki",
    title="Tukki Tukki",
    min_players=load_rules().min_players,
    max_players=load_rules().max_players,
    low_scores_rank_first=True,
    new_game=new_game,
    from_setup=from_setup,
    parse_action=parse_action,
    bots={"heuristic": HeuristicBot},
    render=render,
    search_value=search_value,
    cut_to_round=cut_to_round,
)
TukkiState.game = GAME

__all__ = ["GAME", "Action", "BoxScore", "HeuristicBot", "TukkiState", "from_setup",
           "new_game", "parse_action", "parse_box", "render", "score_box"]
