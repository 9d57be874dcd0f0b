"""The sample deck generator (`referee cards generate`): valid cards of touching and floating
stones, as real Tuki cards have them (WORLD.md §2: a stone may float, held up by snow that the
card does not show).

Each card places the level's stones one by one in a random order: a stone either shares a
unit edge with a stone already placed, or (at most once per card, with `float_chance`) stands
apart from all of them. Cards fit in `max_size` units, differ from every other card under
turning and mirroring, and differ from their own mirror image, so that `mirrored` and
`rotation:ANIMAL` can be told apart. Seeded; the same seed gives the same deck.
"""

from __future__ import annotations

import random

from referee.build import ORIENTATIONS, Colour
from referee.tuki.cards import Card, Deck
from referee.tuki.grid import GridStone, Rows, mirror, render, rotate_ccw, shares_edge
from referee.tuki.pieces import level_stones

PREFIX = {"normal": "N", "advanced": "A"}


def _near(a: GridStone, b: GridStone) -> bool:
    """Closer than one empty unit (touching, or meeting at a corner)."""
    cb = b.cells()
    return any((x + dx, z + dz) in cb for x, z in a.cells()
               for dx in (-1, 0, 1) for dz in (-1, 0, 1))


def _size(stones: list[GridStone]) -> tuple[int, int]:
    cells = set().union(*(s.cells() for s in stones))
    xs = [x for x, _ in cells]
    zs = [z for _, z in cells]
    return max(xs) - min(xs) + 1, max(zs) - min(zs) + 1


def _card(colours: tuple[Colour, ...], rng: random.Random, float_chance: float,
          max_size: int) -> list[GridStone] | None:
    order = list(colours)
    rng.shuffle(order)
    floated = rng.random() >= float_chance  # True once the card may no longer float a stone
    placed: list[GridStone] = []
    for colour in order:
        options = []
        float_now = bool(placed) and not floated and rng.random() < 0.5
        for o in ORIENTATIONS:
            for x in range(-7, 8):
                for z in range(-7, 8):
                    s = GridStone(colour, o, x, z, 0, 0)
                    if not placed:
                        if (x, z) == (0, 0):
                            options.append(s)
                        continue
                    if any(s.cells() & p.cells() for p in placed):
                        continue
                    if max(_size([*placed, s])) > max_size:
                        continue
                    if float_now:
                        ok = not any(_near(s, p) for p in placed)
                    else:
                        ok = any(shares_edge(s, p) for p in placed)
                    if ok:
                        options.append(s)
        if not options:
            return None
        floated = floated or float_now
        placed.append(rng.choice(options))
    return placed


def _variants(rows: Rows) -> set[Rows]:
    out = set()
    for g in (rows, mirror(rows)):
        for _ in range(4):
            out.add(g)
            g = rotate_ccw(g)
    return out


def generate_deck(level: str, count: int = 40, seed: int = 1, float_chance: float = 0.3,
                  max_size: int = 9) -> Deck:
    """A deck of `count` distinct valid cards (ids N01.. or A01..). :raises LevelError:"""
    colours = level_stones(level)
    rng = random.Random(seed)
    cards: list[Card] = []
    seen: set[Rows] = set()
    while len(cards) < count:
        stones = _card(colours, rng, float_chance, max_size)
        if stones is None:
            continue
        grid = render(stones)
        if grid in seen or mirror(grid) == grid:
            continue
        seen |= _variants(grid)
        cards.append(Card.parse(f"{PREFIX[level]}{len(cards) + 1:02d}", grid, level))
    return Deck(level, tuple(cards))
