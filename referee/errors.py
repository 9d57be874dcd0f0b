"""The root of every user-facing error: its message is plain words, shown without a traceback.

Each layer has its own family below it: `games.engine.RulesError`,
`tuki.cards.CardError`, `tuki.game.IllegalCommandError`, `vision.errors.VisionError`, ...
"""


class RefereeError(Exception):
    """An error a user can act on; `str(e)` says what was expected and what came."""


def yaml_error_sentence(path: object, e: Exception) -> str:
    """One plain sentence for a YAML parser's error: the file, the line, "is not valid YAML"
    (the parser's own text spans several lines and quotes the file as a string)."""
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    line = f", line {mark.line + 1}," if mark is not None else ""
    problem = getattr(e, "problem", None)
    why = f" ({' '.join(str(problem).split())})" if problem else ""
    return f"{path}{line} is not valid YAML{why}"
