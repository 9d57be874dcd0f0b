"""TAKI (seed file 003_9e33af30550492fe.txt, RULINGS.md TAKI): a pure engine in the common
shape of ENGINES.md.

`GAME` is what the CLI, the server and the shared tests use; see docs/taki.md for the
notation, setup keys, expect keys and every ruling.
"""

from referee.games.engine import GameInfo
from referee.games.taki.actions import Action, parse_action
from referee.games.taki.bots import HeuristicBot, bot_actions, deal_weight, heuristic_playout
from referee.games.taki.render import render
from referee.games.taki.setup import from_setup, new_game
from referee.games.taki.state import TakiState

GAME = GameInfo(
    name="taki",
    title="TAKI",
    min_players=2,
    max_players=10,
    low_scores_rank_first=True,
    new_game=new_game,
    from_setup=from_setup,
    parse_action=parse_action,
    bots={"heuristic": HeuristicBot},
    render=render,
    bot_actions=bot_actions,
    deal_weight=deal_weight,
    playouts={"heuristic": heuristic_playout},
    call_counts=TakiState.call_counts,
)
TakiState.game = GAME

__all__ = ["GAME", "Action", "TakiState", "from_setup", "new_game", "parse_action"]
