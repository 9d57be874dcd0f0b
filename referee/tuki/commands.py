"""The Tuki game's commands (`game.decide` takes them; see game.py for what each means):
small frozen dataclasses, players as seat indexes 0..n-1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.tuki.judge import Verdict


@dataclass(frozen=True)
class NewGame:
    players: tuple[str, ...]
    level: str = "normal"
    lookout: int = 0
    places: tuple[str, ...] | None = None
    deck: tuple[str, ...] | None = None


@dataclass(frozen=True)
class StartRound:
    card_id: str
    target: tuple[str, ...]
    die: str
    by: int | None = None


@dataclass(frozen=True)
class Done:
    player: int
    verdict: dict[str, Any] | Verdict | None = None


@dataclass(frozen=True)
class Judge:
    player: int
    verdict: dict[str, Any] | Verdict


@dataclass(frozen=True)
class Decide:
    player: int
    builder: int
    correct: bool


@dataclass(frozen=True)
class VoidRound:
    by: int


@dataclass(frozen=True)
class Overrule:
    """The lookout confirms that a questioned verdict was wrong (our ruling: a verdict any
    player questions is the lookout's to decide, as the lookout decides by eye without the
    camera). `correct` is the build's true result."""

    player: int
    builder: int
    correct: bool


@dataclass(frozen=True)
class Retake:
    """A builder sends a new photo of a build judged unsure because of the photo itself (the
    mat not found or not seen well, the photo dark, turned, mirrored, or its colours: WORLD.md
    §4's `mat:`, `photo:` and `camera:` reasons): the unsure verdict is dropped and the new
    photo is judged instead."""

    player: int


@dataclass(frozen=True)
class EndGame:
    """The table ends the game before its rules do: no winner (our ruling)."""


Command = NewGame | StartRound | Done | Judge | Decide | VoidRound | Overrule | Retake | EndGame
