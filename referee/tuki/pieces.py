"""The Tuki pieces as data (models/tuki/pieces.json): levels, their stones, snow shapes.

Source: WORLD.md §1; RULINGS.md Tuki "Levels" (normal G B P; advanced adds O).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from referee.build import (
    BAR_LEN,  # noqa: F401  (5 segments per stone: re-exported)
    Colour,
)
from referee.errors import RefereeError
from referee.paths import MODELS


class LevelError(RefereeError):
    """A level name that is neither `normal` nor `advanced`."""


@cache
def pieces() -> dict[str, Any]:
    """The parsed models/tuki/pieces.json."""
    data: dict[str, Any] = json.loads((MODELS / "tuki" / "pieces.json").read_text(encoding="utf-8"))
    return data


def a_level(level: str) -> str:
    """`a normal`, `an advanced`: a level's name with its article, for plain sentences."""
    return f"{'an' if level[:1] in 'aeiou' else 'a'} {level}"


def level_stones(level: str) -> tuple[Colour, ...]:
    """The stone letters of a level, e.g. `("G", "B", "P")` for normal (pieces.json `levels`).

    :raises LevelError: for an unknown level.
    """
    levels = pieces()["levels"]
    if level not in levels:
        raise LevelError(f"unknown level {level!r}; expected one of {', '.join(levels)}")
    return tuple(levels[level])


def stone_letters() -> tuple[Colour, ...]:
    """Every stone letter of the game, `G B P O` (pieces.json `colours`, the letters of
    `build.Colour`; tests/tuki/test_tuki_pieces.py holds the two together)."""
    return tuple(pieces()["colours"])


def default_unit_mm() -> float:
    """The default unit u in mm (16); stations override it."""
    return float(pieces()["unit_mm"])
