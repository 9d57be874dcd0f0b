"""Tuki cards: parsing a card grid, turning it by the die into the target, and decks.

Source: WORLD.md §2 (a card is a front view of 3 or 4 stones; the rolled animal goes to the
bottom: bear as printed, fish a quarter turn counter-clockwise, eagle clockwise); rules text
"the lookout puts the card in the stand so that the rolled animal is at the bottom".

Deck files (models/tuki/decks/<level>.txt) are plain text:

    # comment lines
    level: normal
    edges: bottom=bear left=fish right=eagle
    [N01]
    BBBBB.
    G...P.
    ...

Every card is checked on load; an error names the card, the file line and the grid cell.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.paths import MODELS
from referee.tuki.die import ANIMALS, DieFace
from referee.tuki.grid import (
    GridError,
    Rows,
    bar,
    mirror,
    rotate_ccw,
    rotate_cw,
    scan,
    to_rows,
    trim,
    where,
)
from referee.tuki.pieces import a_level, level_stones, pieces, stone_letters

DECKS = MODELS / "tuki" / "decks"
DEFAULT_EDGES: tuple[tuple[str, str], ...] = (("bear", "bottom"), ("fish", "left"),
                                              ("eagle", "right"))
EDGE_NAMES = ("bottom", "left", "right", "top")


class CardError(GridError):
    """A card grid or deck file that is not valid; names row, column (or line) and the fault.
    `other_level`: the grid holds a stone its level has not (orange at the normal level): a
    card of the other level, which a caller may say how to set up for."""

    other_level = False


def parse_grid(text_or_rows: str | Iterable[str], level: str | None = None) -> Rows:
    """Read and check a card grid; return it trimmed (tuple of rows, top to bottom), its
    stone letters in capitals: typed in either case, as card ids and die faces are.

    level: `normal` (G B P) or `advanced` (G B P O); None accepts either set.
    :raises CardError: unknown letter, overlap, letter count, not straight, wrong level for
        the deck, or an empty grid; with the row and column.
    """
    # only the stone letters: any other is refused as typed ('x', not 'X'), and no letter
    # becomes two ("ß".upper() is "SS"), which would move every cell after it
    capitals = str.maketrans({c.lower(): c for c in stone_letters()})
    rows = [r.translate(capitals) for r in to_rows(text_or_rows)]
    cells = scan(rows, CardError)
    if not cells:
        raise CardError("the card grid holds no stones; expected rows of '.' and G B P (O)",
                        "grid.empty")
    for letter, cs in cells.items():
        bar(rows, letter, cs, CardError, len(rows))
    have = set(cells)
    levels = pieces()["levels"]
    wanted = [level] if level is not None else list(levels)
    for lv in wanted:
        stones = level_stones(lv)
        if have == set(stones):
            return trim(rows)
    lv = level or ("advanced" if "O" in have else "normal")
    stones = level_stones(lv)
    extra = [k for k in cells if k not in stones]
    if extra:
        k = extra[0]
        r, c = cells[k][0]
        e = CardError(f"{where(r, c)}: stone {k} is not a stone of the {lv} level; "
                      f"{a_level(lv)} card holds {' '.join(stones)}", "card.other-level",
                      {"row": r + 1, "col": c + 1, "stone": k})
        e.other_level = True
        raise e
    missing = [k for k in stones if k not in have]
    raise CardError(f"the card lacks stone {' '.join(missing)}; {a_level(lv)} card holds "
                    f"{' '.join(stones)}", "card.lacks", {"stones": " ".join(missing)})


@dataclass(frozen=True)
class Card:
    """A card: `id` (N01.., A01..), `level`, `grid` trimmed; `edges` pairs each animal with
    the printed edge it sits on (bottom, left, right or top; a deck file's `edges:` line)."""

    id: str
    level: str
    grid: Rows
    edges: tuple[tuple[str, str], ...] = field(default=DEFAULT_EDGES)

    @classmethod
    def parse(cls, card_id: str, text_or_rows: str | Iterable[str], level: str | None = None,
              edges: tuple[tuple[str, str], ...] = DEFAULT_EDGES) -> Card:
        """Check a grid (see `parse_grid`) and make a card. :raises CardError:"""
        grid = parse_grid(text_or_rows, level)
        lv = level or ("advanced" if any("O" in r for r in grid) else "normal")
        return cls(card_id, lv, grid, edges)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: id, level, grid (rows), edges {animal: edge}."""
        return {"id": self.id, "level": self.level, "grid": list(self.grid),
                "edges": dict(self.edges)}


def turn(card_or_grid: Card | Rows | list[str], face: DieFace | str) -> Rows:
    """The target: the card turned so that the die's animal is at the bottom.

    Plain grids use the default edges (bottom bear, left fish, right eagle).
    :raises DieError: for an unknown face string.
    """
    if isinstance(face, str):
        face = DieFace.parse(face)
    if isinstance(card_or_grid, Card):
        grid, edges = card_or_grid.grid, dict(card_or_grid.edges)
    else:
        grid, edges = tuple(card_or_grid), dict(DEFAULT_EDGES)
    edge = edges[face.animal]
    if edge == "left":
        return rotate_ccw(grid)
    if edge == "right":
        return rotate_cw(grid)
    if edge == "top":
        return mirror(tuple(reversed(grid)))
    return tuple(grid)


@dataclass(frozen=True)
class Deck:
    """The cards of one level, in file order. `get(id)` finds one."""

    level: str
    cards: tuple[Card, ...]

    def get(self, card_id: str) -> Card:
        """The card with this id, in any case ("n01" is N01).

        :raises CardError: for an id not in the deck, naming what ids exist.
        """
        wanted = card_id.strip().upper()
        for c in self.cards:
            if c.id.upper() == wanted:
                return c
        span = f"{self.cards[0].id}..{self.cards[-1].id}" if self.cards else "none"
        raise CardError(f"no card {card_id!r} in the {self.level} deck (cards {span})",
                        "card.unknown-id", {"id": str(card_id)[:40]})

    @property
    def ids(self) -> tuple[str, ...]:
        """The card ids, in file order."""
        return tuple(c.id for c in self.cards)

    @classmethod
    def load(cls, level: str, path: Path | None = None) -> Deck:
        """Read models/tuki/decks/<level>.txt (or `path`) and check every card.

        :raises CardError: naming the card and file line; LevelError for an unknown level;
            OSError: the file cannot be read.
        """
        level_stones(level)
        path = path or DECKS / f"{level}.txt"
        return cls.parse(path.read_text(encoding="utf-8"), level, str(path))

    @classmethod
    def parse(cls, text: str, level: str, source: str = "deck") -> Deck:
        """Parse deck text (format in the module docstring). :raises CardError:"""
        edges = DEFAULT_EDGES
        cards: list[Card] = []
        cur: tuple[str, int, list[str]] | None = None

        def close() -> None:
            if cur is None:
                return
            cid, line, rows = cur
            try:
                cards.append(Card.parse(cid, rows, level, edges))
            except CardError as e:
                raise CardError(f"{source}, card {cid} (grid from line {line + 1}): {e}") from e

        for n, raw in enumerate(text.splitlines()):
            line = raw.strip()
            if line.startswith("#") or (not line and cur is None):
                continue
            if line.startswith("[") and line.endswith("]"):
                close()
                cid = line[1:-1].strip()
                if any(c.id == cid for c in cards):
                    raise CardError(f"{source}, line {n + 1}: card id {cid} appears twice")
                cur = (cid, n + 1, [])
            elif cur is None and ":" in line:
                key, _, value = line.partition(":")
                if key.strip() == "level" and value.strip() != level:
                    raise CardError(f"{source}, line {n + 1}: deck is for level "
                                    f"{value.strip()!r}, not {level!r}")
                if key.strip() == "edges":
                    edges = _parse_edges(value, f"{source}, line {n + 1}")
            elif cur is not None:
                cur[2].append(line)
            else:
                raise CardError(f"{source}, line {n + 1}: expected '[ID]' before a grid, "
                                f"got {line!r}")
        close()
        return cls(level, tuple(cards))


def find_card(card_id: str) -> Card:
    """A card of the shipped decks by id (N.. normal, A.. advanced), in any case ("n07" is N07,
    as the server takes it).

    :raises CardError: for an id in neither deck.
    """
    wanted = card_id.strip().upper()
    for level in pieces()["levels"]:
        deck = Deck.load(level)
        if wanted in deck.ids:
            return deck.get(wanted)
    raise CardError(f"no card {card_id!r} in the decks; ids look like N01 (normal) or A01 "
                    f"(advanced), see `referee cards list`")


def _parse_edges(value: str, where_: str) -> tuple[tuple[str, str], ...]:
    pairs = {}
    for item in value.split():
        edge, _, animal = item.partition("=")
        if edge not in EDGE_NAMES or animal not in ANIMALS:
            raise CardError(f"{where_}: bad edge {item!r}; expected e.g. bottom=bear left=fish "
                            f"right=eagle")
        pairs[animal] = edge
    if set(pairs) != set(ANIMALS) or len(set(pairs.values())) != 3:
        raise CardError(f"{where_}: edges must place bear, fish and eagle on three different "
                        f"edges, got {value.strip()!r}")
    return tuple((a, pairs[a]) for a in ANIMALS)


def format_deck(deck: Deck, header: str = "") -> str:
    """Deck text for a file (the inverse of `Deck.parse`)."""
    out = [f"# {line}" for line in header.splitlines()]
    edges = dict(deck.cards[0].edges) if deck.cards else dict(DEFAULT_EDGES)
    out += [f"level: {deck.level}",
            "edges: " + " ".join(f"{edges[a]}={a}" for a in ANIMALS), ""]
    for c in deck.cards:
        out += [f"[{c.id}]", *c.grid, ""]
    return "\n".join(out)
