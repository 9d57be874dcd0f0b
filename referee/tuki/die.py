"""The Tuki die: six faces, three animals, each plain or with a white square (WORLD.md §3).

Notation: `bear`, `fish`, `eagle`, with `+white` for the white square (`fish+white`).
Rules text: "if there is no white square under the animal, at least one coloured stone must
touch the table; if there is, all coloured stones stand on snow and none touches the table".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.errors import RefereeError
from referee.paths import MODELS

ANIMALS: tuple[str, ...] = ("bear", "fish", "eagle")


class DieError(RefereeError):
    """A die face that is not one of the six."""


@dataclass(frozen=True, order=True)
class DieFace:
    """One face: `animal` is bear|fish|eagle; `white_square` forbids table contact."""

    animal: str
    white_square: bool = False

    def __post_init__(self) -> None:
        if self.animal not in ANIMALS:
            raise DieError(f"unknown die animal {self.animal!r}; expected bear, fish or eagle")

    @classmethod
    def parse(cls, text: str) -> DieFace:
        """`"fish+white"` -> DieFace("fish", True); `"bear"` -> DieFace("bear", False).

        :raises DieError: for anything else, echoing the text.
        """
        t = str(text).strip().lower()
        animal, plus, rest = t.partition("+")
        if (plus and rest != "white") or animal not in ANIMALS:
            raise DieError(f"unknown die face {text!r}; expected bear, fish or eagle, "
                           f"optionally with +white (e.g. fish+white)")
        return cls(animal, bool(plus))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DieFace:
        """From `{"animal": ..., "white_square": ...}` (label.json, die.json).

        :raises DieError: another shape, or an animal that is not bear, fish or eagle.
        """
        try:
            return cls(str(d["animal"]), bool(d.get("white_square", False)))
        except (KeyError, TypeError) as e:
            raise DieError(f"bad die face {d!r}; expected {{animal, white_square}}") from e

    def to_dict(self) -> dict[str, Any]:
        """`{"animal": ..., "white_square": ...}`, the inverse of `from_dict`."""
        return {"animal": self.animal, "white_square": self.white_square}

    def __str__(self) -> str:
        return self.animal + ("+white" if self.white_square else "")


@cache
def _load_faces() -> tuple[DieFace, ...]:
    data = json.loads((MODELS / "tuki" / "die.json").read_text(encoding="utf-8"))
    return tuple(DieFace.from_dict(f) for f in data["faces"])


FACES: tuple[DieFace, ...] = _load_faces()
