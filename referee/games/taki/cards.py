"""TAKI cards: int codes, the binding notation (ENGINES.md "TAKI"), the deck and match tables.

A card kind is an int 0..56. Coloured kinds are `colour * 13 + rank` with colours R G B Y
(0..3) and ranks `1 3 4 5 6 7 8 9 STOP +2 DIR PLUS TAKI` (0..12); the colourless kinds follow:
SUPERTAKI 52, KING 53, +3 54, BREAKER 55, COLOR 56. Copies of a kind are not told apart.
The deck counts and hand size are data in models/taki/deck.json, read once at import.
"""

from __future__ import annotations

import json
from typing import TypeAlias

from referee.games.engine import NotationError, register_refusals
from referee.paths import MODELS

Card: TypeAlias = int  # a card kind, 0..56
Color: TypeAlias = int  # 0..3 for R G B Y

COLORS = ("R", "G", "B", "Y")
COLOR_NAMES = ("red", "green", "blue", "yellow")
RANKS = ("1", "3", "4", "5", "6", "7", "8", "9", "STOP", "+2", "DIR", "PLUS", "TAKI")
NUMBER_RANKS = 8  # ranks 0..7 are the number cards
STOP, PLUS2, DIR, PLUS, TAKI = 8, 9, 10, 11, 12  # ranks of the coloured action cards
SUPERTAKI, KING, PLUS3, BREAKER, CHANGE_COLOR = 52, 53, 54, 55, 56
COLORLESS_NAMES = ("SUPERTAKI", "KING", "+3", "BREAKER", "COLOR")
NKINDS = 57

CARD_NAMES: tuple[str, ...] = tuple(c + r for c in COLORS for r in RANKS) + COLORLESS_NAMES
CARD_BY_NAME: dict[str, Card] = {n: i for i, n in enumerate(CARD_NAMES)}
COLOR_BY_NAME: dict[str, Color] = {c: i for i, c in enumerate(COLORS)}

# Per kind: its colour (-1 colourless), rank (-1 colourless), and the symbol it shows for
# matching: the rank, TAKI for a Super TAKI (it is "a TAKI in the active colour"), else none.
COLOR_OF: tuple[int, ...] = tuple(k // 13 if k < 52 else -1 for k in range(NKINDS))
RANK_OF: tuple[int, ...] = tuple(k % 13 if k < 52 else -1 for k in range(NKINDS))
SYMBOL_OF: tuple[int, ...] = tuple(
    k % 13 if k < 52 else (TAKI if k == SUPERTAKI else -1 - k) for k in range(NKINDS))


# Why a text is no card (NotationError codes; parameters: `text` as written, `card` notation)
register_refusals("taki", {
    "taki.card-capitals": "no TAKI card '{text}'; cards are written in capitals: {card}",
    "taki.card-no-2": "no TAKI card '{text}'; TAKI has no 2 card",
    "taki.card-rank": ("no TAKI card '{text}'; the rank '{rank}' is none of 1 3 4 5 6 7 8 9 "
                       "STOP +2 DIR PLUS TAKI"),
    "taki.card-unknown": ("no TAKI card '{text}': expected a colour R G B Y followed by a rank "
                          "(1 3 4 5 6 7 8 9 STOP +2 DIR PLUS TAKI), e.g. R5, G+2, BSTOP, or "
                          "one of SUPERTAKI, KING, +3, BREAKER, COLOR"),
})


def card_name(card: Card) -> str:
    """The notation of a card kind, e.g. 34 -> 'BSTOP'."""
    return CARD_NAMES[card]


def is_number(card: Card) -> bool:
    """Whether a card kind is a number card (1 or 3 to 9, any colour; TAKI has no 2)."""
    return card < 52 and card % 13 < NUMBER_RANKS


def parse_card(text: str) -> Card:
    """A card from its notation (`R5`, `G+2`, `BDIR`, `KING`, `+3`, ...).

    :raises NotationError: not a TAKI card; the message says why and what is expected.
    """
    card = CARD_BY_NAME.get(text)
    if card is not None:
        return card
    up = text.upper()
    if up in CARD_BY_NAME:
        raise NotationError("taki.card-capitals", text=text, card=up)
    if up[:1] in COLOR_BY_NAME and up[1:] == "2":
        raise NotationError("taki.card-no-2", text=text)
    if up[:1] in COLOR_BY_NAME and up[1:] not in RANKS:
        raise NotationError("taki.card-rank", text=text, rank=text[1:])
    raise NotationError("taki.card-unknown", text=text)


def _load_deck() -> tuple[tuple[int, ...], int]:
    """Counts per kind and the hand size from models/taki/deck.json."""
    data = json.loads((MODELS / "taki" / "deck.json").read_text(encoding="utf-8"))
    counts = [0] * NKINDS
    for c in COLORS:
        for rank, n in data["per_color"].items():
            counts[CARD_BY_NAME[c + rank]] = int(n)
    for name, n in data["colorless"].items():
        counts[CARD_BY_NAME[name]] = int(n)
    return tuple(counts), int(data["hand_size"])


DECK_COUNTS, HAND_SIZE = _load_deck()
FULL_DECK: tuple[Card, ...] = tuple(k for k in range(NKINDS) for _ in range(DECK_COUNTS[k]))


def _match_row(lead: Card, color: Color) -> tuple[bool, ...]:
    """Which kinds may be played on `lead` with active colour `color`, no +2 stack active."""
    row = []
    for k in range(NKINDS):
        if k < 52:
            row.append(COLOR_OF[k] == color or RANK_OF[k] == SYMBOL_OF[lead])
        elif k in (CHANGE_COLOR, SUPERTAKI):  # "not allowed ... on a +3"
            row.append(lead != PLUS3)
        else:  # King, +3, Breaker: on anything
            row.append(True)
    return tuple(row)


# MATCH[lead][color][kind]: the matching rule (RULINGS.md TAKI "Matching").
MATCH: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(_match_row(lead, c) for c in range(4)) for lead in range(NKINDS))
# Facing an open TAKI: as usual, or a TAKI of any colour (RULINGS.md TAKI: "the next player
# may continue it or play a different-coloured TAKI").
ON_OPEN_TAKI: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(tuple(ok or RANK_OF[k] == TAKI for k, ok in enumerate(row)) for row in rows)
    for rows in MATCH)
# On an active +2 stack only a +2 (any colour) or a King.
ON_STACK: tuple[bool, ...] = tuple(RANK_OF[k] == PLUS2 or k == KING for k in range(NKINDS))
# Inside one's own run: only cards of the run's colour.
IN_RUN: tuple[tuple[bool, ...], ...] = tuple(
    tuple(COLOR_OF[k] == c for k in range(NKINDS)) for c in range(4))
# After a King: any card.
ANY: tuple[bool, ...] = (True,) * NKINDS
