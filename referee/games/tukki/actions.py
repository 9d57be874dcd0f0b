"""Tukki Tukki actions and their one text notation (ENGINES.md "Tukki Tukki"):

- `reveal b2`: an opening reveal, or the reveal of option (c) after `throw`;
- `take bin` / `take deck`: the start of a turn;
- `place a3`: option (a) if a3 is face up, (b) if it is face down;
- `place a3 land b2`: option (a) over a face-up parrot, which floats and lands on b2;
- `throw`: option (c), throwing the card drawn from the deck on the bin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.games.engine import NotationError, register_refusals
from referee.games.tukki.cards import PLACES, Place, parse_place


@dataclass(frozen=True, slots=True)
class Action:
    """One decision in the notation above; `str()` gives its text. Use the constants below
    (`TAKE_BIN`, `PLACE[i]`, ...) or `parse_action`; places are indices 0-7 (a1-b4)."""

    kind: Literal["reveal", "take", "place", "throw"]
    place: Place = -1  # reveal / place
    land: Place = -1  # place ... land (a floating parrot)
    source: Literal["", "bin", "deck"] = ""  # take: where the card comes from

    def __str__(self) -> str:
        if self.kind == "take":
            return f"take {self.source}"
        if self.kind == "throw":
            return "throw"
        if self.kind == "reveal":
            return f"reveal {PLACES[self.place]}"
        if self.land >= 0:
            return f"place {PLACES[self.place]} land {PLACES[self.land]}"
        return f"place {PLACES[self.place]}"


TAKE_BIN = Action("take", source="bin")
TAKE_DECK = Action("take", source="deck")
THROW = Action("throw")
REVEAL = tuple(Action("reveal", i) for i in range(8))
PLACE = tuple(Action("place", i) for i in range(8))
PLACE_LAND = tuple(tuple(Action("place", i, j) for j in range(8)) for i in range(8))

ALL_ACTIONS: tuple[Action, ...] = (
    (TAKE_BIN, TAKE_DECK, THROW) + REVEAL + PLACE
    + tuple(a for i in range(8) for j, a in enumerate(PLACE_LAND[i]) if i != j)
)

_SYNTAX = "expected 'take bin', 'take deck', 'place a3', 'place a3 land b2', 'throw' or 'reveal b2'"
# Why a text is no action (NotationError codes; `text` as written, `place` a bad place)
register_refusals("tukki", {
    "tukki.action-unknown": "bad action '{text}': " + _SYNTAX,
    "tukki.action-place": "bad action '{text}': unknown place '{place}': expected a1-a4 or b1-b4",
    "tukki.land-on-itself": ("bad action '{text}': the parrot cannot land where the new card "
                             "goes"),
})


def parse_action(text: str) -> Action:
    """Read an action in the notation above (case and extra spaces do not matter).

    :raises NotationError: the text is no Tukki Tukki action.
    """
    if not isinstance(text, str):
        raise NotationError("tukki.action-unknown", text=repr(text))
    words = text.lower().split()
    try:
        match words:
            case ["take", "bin"]:
                return TAKE_BIN
            case ["take", "deck"]:
                return TAKE_DECK
            case ["throw"]:
                return THROW
            case ["reveal", p]:
                return REVEAL[parse_place(p)]
            case ["place", p]:
                return PLACE[parse_place(p)]
            case ["place", p, "land", q]:
                i, j = parse_place(p), parse_place(q)
                if i == j:
                    raise NotationError("tukki.land-on-itself", text=text)
                return PLACE_LAND[i][j]
    except NotationError as e:
        if e.code != "tukki.place-unknown":
            raise
        raise NotationError("tukki.action-place", text=text, place=e.params["text"]) from None
    raise NotationError("tukki.action-unknown", text=text)
