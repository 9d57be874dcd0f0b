"""The root of every user-facing error: its message is plain words, shown without a traceback.

Each layer has its own family below it: `games.engine.RulesError`,
`tuki.cards.CardError`, `tuki.game.IllegalCommandError`, `vision.errors.VisionError`, ...
"""


class RefereeError(Exception):
    """An error a user can act on; `str(e)` says what was expected and what came."""
