"""Tukki Tukki cards and box places in the notation of ENGINES.md, and the rules data.

Cards are ints: 0-12 are number cards, `PARROT` (13) is the parrot, written `P`.
A box is 8 cards in the order a1-a4 (top row), b1-b4 (bottom row); column k is `ak` over
`bk`, so place i (0-7) has its column partner at (i + 4) % 8.

The deck, the player counts, the number of rounds and the set bonuses are data in
models/tukki/rules.json (RULINGS.md "Tukki Tukki": Deck, Game, Scoring a box).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeAlias

from referee.games.engine import NotationError, SetupError, register_refusals
from referee.paths import MODELS

Card: TypeAlias = int  # 0-12, or PARROT
Place: TypeAlias = int  # 0-7: a1-a4, b1-b4

PARROT: Card = 13
PLACES = ("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4")
_PLACE_INDEX = {name: i for i, name in enumerate(PLACES)}
_CARD_NAMES = tuple(str(v) for v in range(13)) + ("P",)
_CARD_INDEX = {name: i for i, name in enumerate(_CARD_NAMES)}
_CARD_INDEX["p"] = PARROT


# Why a text is no card or place (NotationError codes; parameter `text` as written)
register_refusals("tukki", {
    "tukki.card-unknown": "unknown card '{text}': expected 0-12 or P",
    "tukki.place-unknown": "unknown place '{text}': expected a1-a4 or b1-b4",
})


def card_name(card: Card) -> str:
    """`"0"`-`"12"` or `"P"`."""
    return _CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """A card from its notation (`0`-`12`, `P`).

    :raises NotationError: anything else.
    """
    try:
        return _CARD_INDEX[text.strip()]
    except (KeyError, AttributeError):
        raise NotationError("tukki.card-unknown", text=str(text)) from None


def place_name(place: Place) -> str:
    """`a1`-`a4` (top row) or `b1`-`b4` (bottom row) for place 0-7."""
    return PLACES[place]


def parse_place(text: str) -> Place:
    """A box place from `a1`-`a4` (top row) or `b1`-`b4` (bottom row).

    :raises NotationError: anything else.
    """
    try:
        return _PLACE_INDEX[text.strip().lower()]
    except (KeyError, AttributeError):
        raise NotationError("tukki.place-unknown", text=str(text)) from None


def partner(place: Place) -> Place:
    """The other place of the same column (a2 <-> b2)."""
    return (place + 4) % 8


@dataclass(frozen=True)
class Rules:
    """The rules data of models/tukki/rules.json."""

    counts: dict[Card, int]  # copies of each card in the deck
    min_players: int
    max_players: int
    rounds: int
    opening_reveals: int
    opening_parrot_value: int
    sets: dict[int, tuple[str, int]]  # pairs of one value -> (name, points), e.g. 2 -> four

    @property
    def deck(self) -> list[Card]:
        """The full deck in a fixed order (108 cards with the default data)."""
        return [c for c, n in sorted(self.counts.items()) for _ in range(n)]


@cache
def load_rules(path: Path | None = None) -> Rules:
    """Read the rules data (default models/tukki/rules.json).

    :raises SetupError: the file is not valid rules data.
    """
    path = path or MODELS / "tukki" / "rules.json"
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        return Rules(
            counts={parse_card(k): int(v) for k, v in raw["deck"].items()},
            min_players=int(raw["players"]["min"]),
            max_players=int(raw["players"]["max"]),
            rounds=int(raw["rounds"]),
            opening_reveals=int(raw["opening_reveals"]),
            opening_parrot_value=int(raw["opening_parrot_value"]),
            sets={int(k): (str(v["name"]), int(v["points"])) for k, v in raw["sets"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, NotationError) as e:
        raise SetupError(f"bad Tukki Tukki rules data in {path}: {e}") from None
