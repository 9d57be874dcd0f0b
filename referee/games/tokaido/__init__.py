"""Tokaido, the seed's variant (seed file 002_e681b164576ed2f3.txt, RULINGS.md Tokaido), in the
shape of ENGINES.md.

Notation, setup keys, expect keys, rulings and the filled-in values: docs/tokaido.md.
"""

from __future__ import annotations

from referee.games.engine import GameInfo
from referee.games.tokaido.actions import Action, parse_action
from referee.games.tokaido.bots import HeuristicBot, QuickBot, search_value
from referee.games.tokaido.data import load_rules
from referee.games.tokaido.render import render
from referee.games.tokaido.setup import from_setup, new_game
from referee.games.tokaido.state import TokaidoState

_rules = load_rules()

GAME = GameInfo(
    name="tokaido",
    title="Tokaido",
    min_players=_rules.min_players,
    max_players=_rules.max_players,
    new_game=new_game,
    from_setup=from_setup,
    parse_action=parse_action,
    bots={"heuristic": HeuristicBot, "quick": QuickBot},
    render=render,
    search_value=search_value,
    action_cost=TokaidoState.cost,
)
TokaidoState.game = GAME

__all__ = ["GAME", "Action", "TokaidoState", "from_setup", "new_game", "parse_action"]
