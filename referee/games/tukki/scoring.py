"""Scoring a Tukki Tukki box, usable on its own (`referee rules score tukki BOX`).

Rules (RULINGS.md "Tukki Tukki", Scoring a box and Parrot; seed: "הניקוד ..."):
- the score is the sum of the box's values;
- a pair is two equal values in one column, one above the other, and scores 0; equal cards
  side by side are no pair;
- pairs of one value score together: 2 pairs (a four) -10, 3 (a six) -15, 4 (an eight) -20
  (models/tukki/rules.json "sets"); pairs of different values score 0 each;
- a parrot takes the value of the other card in its column, so a parrot always makes a pair;
- two parrots in one column are a pair worth 0 that joins no four.

A set's bonus is shared out over its columns (-10 over a four is -5 a column), so that each
column's points add up to the box's score.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.games.engine import NotationError, SetupError, register_refusals
from referee.games.tukki.cards import PARROT, Card, Rules, card_name, load_rules, parse_card


@dataclass(frozen=True)
class ColumnScore:
    """One column's cards, its points (its share of a set's bonus included) and why."""

    column: int  # 1-4
    top: Card
    bottom: Card
    points: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, the cards in notation."""
        return {"column": self.column, "top": card_name(self.top),
                "bottom": card_name(self.bottom), "points": self.points, "reason": self.reason}


@dataclass(frozen=True)
class BoxScore:
    """A box's score and its four columns, whose points add up to it."""

    score: int
    columns: tuple[ColumnScore, ...]

    def to_dict(self) -> dict[str, Any]:
        """`{"score": int, "columns": [...]}`, the shape of `rules score tukki --json`."""
        return {"score": self.score, "columns": [c.to_dict() for c in self.columns]}


# Why a text or list is no box (NotationError codes; `text` as written)
register_refusals("tukki", {
    "tukki.box-not-text": "a box must be text, not {text}",
    "tukki.box-slashes": "box '{text}': expected top row / bottom row, with one '/'",
    "tukki.box-rows": "box '{text}': expected 4 cards in each row, got {top} / {bottom}",
    "tukki.box-size": "box '{text}': expected 8 cards (top row / bottom row), got {cards}",
    "tukki.box-card": "box '{text}': unknown card '{card}': expected 0-12 or P",
    "tukki.box-cards": "a box is 8 cards 0-12 or P (a1-a4, b1-b4), not [{cards}]",
})


def parse_box(text: str) -> list[Card]:
    """A box from text, top row / bottom row: `"5 5 P 9 / 5 5 7 9"` -> 8 cards a1-a4, b1-b4.

    Cards are separated by spaces or commas; the `/` between the rows may be left out.

    :raises NotationError: not 4 + 4 cards, or a card that is not 0-12 or P.
    """
    if not isinstance(text, str):
        raise NotationError("tukki.box-not-text", text=repr(text))
    rows = text.split("/")
    if len(rows) > 2:
        raise NotationError("tukki.box-slashes", text=text)
    cells = [[t for t in re.split(r"[\s,]+", r.strip()) if t] for r in rows]
    if len(rows) == 2 and any(len(r) != 4 for r in cells):
        raise NotationError("tukki.box-rows", text=text, top=len(cells[0]),
                            bottom=len(cells[1]))
    flat = [t for r in cells for t in r]
    if len(flat) != 8:
        raise NotationError("tukki.box-size", text=text, cards=len(flat))
    try:
        return [parse_card(t) for t in flat]
    except NotationError as e:
        raise NotationError("tukki.box-card", text=text, card=e.params["text"]) from None


def column_value(top: Card, bottom: Card) -> int | None:
    """The value a column's pair counts in sets, or None when the column is no pair.

    Two parrots are a pair too, but of no value for sets: they give -1 (joins no four).
    """
    if top == PARROT and bottom == PARROT:
        return -1
    if top == PARROT:
        return bottom
    if bottom == PARROT or top == bottom:
        return top
    return None


def score_box(cards: Sequence[Card], rules: Rules | None = None) -> BoxScore:
    """Score a fully face-up box of 8 cards (a1-a4, b1-b4), with a reason per column.

    :raises NotationError: not 8 cards of 0-12 or P.
    :raises SetupError: a card more often than the deck holds (rules data "deck"), such as
        five parrots.
    """
    if len(cards) != 8 or any(not isinstance(c, int) or not 0 <= c <= PARROT for c in cards):
        raise NotationError("tukki.box-cards", cards=[str(c) for c in cards])
    rules = rules or load_rules()
    over = [f"{k} x {card_name(c)} (the deck has {rules.counts.get(c, 0)})"
            for c, k in sorted(Counter(cards).items()) if k > rules.counts.get(c, 0)]
    if over:
        raise SetupError(f"the box has more cards than the deck holds: {', '.join(over)}")
    pairs: dict[int, list[int]] = {}
    for k in range(4):
        v = column_value(cards[k], cards[k + 4])
        if v is not None and v >= 0:
            pairs.setdefault(v, []).append(k)
    bonus = [0] * 4
    set_of: dict[int, str] = {}
    for v, cols in pairs.items():
        if len(cols) in rules.sets:
            name, points = rules.sets[len(cols)]
            share = points // len(cols)
            for k in cols:
                bonus[k] = share
                set_of[k] = f"in {_a(name)} of {v}s ({points} over {len(cols)} columns)"
            bonus[cols[0]] += points - share * len(cols)
    columns = []
    for k in range(4):
        top, bottom = cards[k], cards[k + 4]
        head = f"{card_name(top)} over {card_name(bottom)}: "
        v = column_value(top, bottom)
        if v is None:
            points, why = top + bottom, f"no pair, {top} + {bottom}"
        elif v < 0:
            points, why = 0, "two parrots, a pair worth 0 that joins no four"
        else:
            copy = "the parrot copies the " + str(v) + ", " if PARROT in (top, bottom) else ""
            points = bonus[k]
            why = copy + f"a pair of {v}s " + (set_of[k] if k in set_of else "scores 0")
        columns.append(ColumnScore(k + 1, top, bottom, points, head + why))
    return BoxScore(sum(c.points for c in columns), tuple(columns))


def box_score(cards: Sequence[Card], rules: Rules | None = None) -> int:
    """Only the score of `score_box`."""
    return score_box(cards, rules).score


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word
