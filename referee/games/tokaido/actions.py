"""Tokaido actions and their one text notation (docs/tokaido.md "Notation").

- `move N`: walk to road space N (0 = Kyoto);
- `take CODE`: take or buy the card of kind CODE at one's space or inn (`take sushi`,
  `take temple2`, `take doll-red`, `take story-blue`, `take monk`);
- `take blind`: at an encounter, the top card of the deck instead of a face-up one;
- `skip`: leave an optional space action (or the inn meal) undone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from referee.games.engine import NotationError, register_refusals

BLIND = "blind"
# Why a text is no action (NotationError code; `text` as written)
register_refusals("tokaido", {
    "tokaido.action-unknown": ("not a Tokaido action: '{text}'; expected 'move N', 'take CODE', "
                               "'take blind' or 'skip'"),
})
_MOVE = re.compile(r"move\s+(\d+)")
_TAKE = re.compile(r"take\s+([a-z0-9][a-z0-9-]*)")


@dataclass(frozen=True, slots=True)
class Action:
    """`verb` is move, take or skip; `arg` the space index (int) for move, the card code
    (str, or `blind`) for take, None for skip."""

    verb: Literal["move", "take", "skip"]
    arg: int | str | None = None

    def __str__(self) -> str:
        return self.verb if self.arg is None else f"{self.verb} {self.arg}"


SKIP = Action("skip")


def move(n: int) -> Action:
    """`move N`: walk to road space `n`."""
    return Action("move", n)


def take(code: str) -> Action:
    """`take CODE`: the card of kind `code`, or `blind` (an encounter's top card)."""
    return Action("take", code)


def parse_action(text: str) -> Action:
    """Read one action in the notation above; card codes are checked when it is applied.

    :raises NotationError: the text is none of `move N`, `take CODE`, `take blind`, `skip`.
    """
    t = " ".join(str(text).strip().lower().split())
    if t == "skip":
        return SKIP
    if m := _MOVE.fullmatch(t):
        return move(int(m.group(1)))
    if m := _TAKE.fullmatch(t):
        return take(m.group(1))
    raise NotationError("tokaido.action-unknown", text=str(text))
