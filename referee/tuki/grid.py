"""Text grids of stones (WORLD.md §2): scanning, validation with row/column, geometry, rotation.

A grid is rows from top to bottom; `.` is empty and `G B P O` are stone cells; each stone is
five cells in one straight line. Rows and columns in messages count from 1. This module is
shared by card grids (cards.py) and build grids (buildgrid.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.build import BAR_LEN, Colour, Orientation
from referee.errors import RefereeError
from referee.tuki.pieces import stone_letters

Rows = tuple[str, ...]
EMPTY = "."


class GridError(RefereeError):
    """A text grid that is not well formed; the message names row, column and the fault.
    `code` and `params` say the same for a phone's own language (i18n `refusal.<code>`:
    the server's answer carries both, as its own errors' do); None where no phone sees it."""

    def __init__(self, message: str = "", code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params or {}


def _at(r: int, c: int) -> dict[str, object]:
    """A 0-based cell as the params of a grid error: row and column counted from 1."""
    return {"row": r + 1, "col": c + 1}


@dataclass(frozen=True)
class GridStone:
    """A stone read from a grid: `x`, `z` is the lower-left cell in units (z up from the
    grid's bottom row); `orientation` H or V; `row`, `col` its top-left cell (0-based)."""

    colour: Colour
    orientation: Orientation
    x: int
    z: int
    row: int
    col: int

    @property
    def width(self) -> int:
        """Its extent along x, in units: 5 lying (H), 1 standing (V)."""
        return BAR_LEN if self.orientation == "H" else 1

    @property
    def height(self) -> int:
        """Its extent along z, in units: 1 lying (H), 5 standing (V)."""
        return 1 if self.orientation == "H" else BAR_LEN

    def cells(self) -> set[tuple[int, int]]:
        """The (x, z) unit cells this stone covers."""
        return {(self.x + i, self.z + j) for i in range(self.width) for j in range(self.height)}


def shares_edge(a: GridStone, b: GridStone) -> bool:
    """Whether two stones share at least one unit edge (a corner alone is not an edge)."""
    cb = b.cells()
    return any((x + dx, z + dz) in cb for x, z in a.cells()
               for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def to_rows(text_or_rows: str | Iterable[str]) -> list[str]:
    """Split text into rows; strip trailing blanks; pad to a rectangle with `.`."""
    lines = text_or_rows.splitlines() if isinstance(text_or_rows, str) else list(text_or_rows)
    rows = [str(r).rstrip() for r in lines]
    # blank rows off both ends, found by index (popping the front one by one was quadratic:
    # a break-it trial's grid after 990 000 blank lines took 59 s)
    first = next((i for i, r in enumerate(rows) if r.strip()), len(rows))
    last = next((i for i in range(len(rows) - 1, first - 1, -1) if rows[i].strip()), first - 1)
    rows = rows[first:last + 1]
    width = max((len(r) for r in rows), default=0)
    return [r.replace(" ", EMPTY).ljust(width, EMPTY) for r in rows]


def where(r: int, c: int) -> str:
    """`row R, column C` for a 0-based cell, counted from 1 as messages do."""
    return f"row {r + 1}, column {c + 1}"


def scan(rows: list[str], error: type[GridError] = GridError
         ) -> dict[Colour, list[tuple[int, int]]]:
    """Cells (row, column; 0-based) per stone letter, in reading order.

    :raises error: on an unknown letter.
    """
    letters = stone_letters()
    colour_of: dict[str, Colour] = {c: c for c in letters}
    cells: dict[Colour, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == EMPTY:
                continue
            colour = colour_of.get(ch)
            if colour is None:
                raise error(f"{where(r, c)}: unknown letter {ch!r}; expected '.' or one of "
                            f"{' '.join(letters)}", "grid.unknown-letter",
                            {**_at(r, c), "letter": ch})
            cells.setdefault(colour, []).append((r, c))
    return cells


def _crossing(rows: list[str], letter: Colour, cells: list[tuple[int, int]]
              ) -> tuple[int, int] | None:
    """If `letter`'s cells lie on one line with holes filled by other stones, the first hole:
    two stones crossing in the front view (an overlap)."""
    rs = {r for r, _ in cells}
    cs = {c for _, c in cells}
    if len(rs) == 1:
        r = next(iter(rs))
        line = [(r, c) for c in range(min(cs), max(cs) + 1)]
    elif len(cs) == 1:
        c = next(iter(cs))
        line = [(r, c) for r in range(min(rs), max(rs) + 1)]
    else:
        return None
    holes = [p for p in line if p not in set(cells)]
    if holes and len(line) <= BAR_LEN and all(rows[r][c] != EMPTY for r, c in holes):
        return holes[0]
    return None


def bar(rows: list[str], letter: Colour, cells: list[tuple[int, int]], error: type[GridError],
        height: int) -> GridStone:
    """The one straight bar of five cells that `cells` must form.

    :raises error: for an overlap, a wrong letter count or a bar that is not straight.
    """
    first = cells[0]
    if len(cells) < BAR_LEN:
        hole = _crossing(rows, letter, cells)
        if hole is not None:
            other = rows[hole[0]][hole[1]]
            raise error(f"{where(*hole)}: stones {letter} and {other} overlap; "
                        f"{letter} would need this cell too", "grid.overlap",
                        {**_at(*hole), "a": letter, "b": other})
    if len(cells) != BAR_LEN:
        n = len(cells)
        raise error(f"stone {letter} has {n} cell{'' if n == 1 else 's'} (first at "
                    f"{where(*first)}); "
                    f"a stone fills exactly {BAR_LEN} cells", "grid.cells",
                    {**_at(*first), "stone": letter, "n": n})
    rs = sorted({r for r, _ in cells})
    cs = sorted({c for _, c in cells})
    if len(rs) == 1 and cs == list(range(cs[0], cs[0] + BAR_LEN)):
        return GridStone(letter, "H", cs[0], height - 1 - rs[0], rs[0], cs[0])
    if len(cs) == 1 and rs == list(range(rs[0], rs[0] + BAR_LEN)):
        return GridStone(letter, "V", cs[0], height - 1 - rs[-1], rs[0], cs[0])
    # name the first cell that leaves the line, or that follows a hole in it
    horizontal = cells[1][0] == first[0]
    along = 1 if horizontal else 0

    def key(p: tuple[int, int]) -> int:
        return p[along]

    on_line = sorted((p for p in cells if (p[0] == first[0] if horizontal else p[1] == first[1])),
                     key=key)
    for r, c in cells[1:]:
        if (horizontal and r != first[0]) or (not horizontal and c != first[1]):
            raise error(f"{where(r, c)}: stone {letter} is not straight; its cells must be "
                        f"five in one row or one column, starting at {where(*first)}",
                        "grid.not-straight", {**_at(r, c), "stone": letter})
    for prev, cur in zip(on_line, on_line[1:], strict=False):
        if key(cur) != key(prev) + 1:
            raise error(f"{where(*cur)}: stone {letter} is not straight; its five cells must "
                        f"be next to each other, with no gap after {where(*prev)}",
                        "grid.not-straight", {**_at(*cur), "stone": letter})
    raise AssertionError("unreachable: five cells in one line without a gap form a bar")


def trim(rows: list[str]) -> Rows:
    """Cut empty margins (the normal form of a grid)."""
    filled = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != EMPTY]
    if not filled:
        return ()
    r0 = min(r for r, _ in filled)
    r1 = max(r for r, _ in filled)
    c0 = min(c for _, c in filled)
    c1 = max(c for _, c in filled)
    return tuple(row[c0:c1 + 1] for row in rows[r0:r1 + 1])


def stones_of(rows: Rows | list[str]) -> dict[Colour, GridStone]:
    """The stones of a well-formed grid, keyed by colour, in x/z units (z=0 is the bottom row)."""
    rows = list(rows)
    return {k: bar(rows, k, v, GridError, len(rows)) for k, v in scan(rows).items()}


def render(stones: Iterable[GridStone]) -> Rows:
    """Draw stones (x/z units) as a trimmed grid."""
    stones = list(stones)
    if not stones:
        return ()
    cells = {cell: s.colour for s in stones for cell in s.cells()}
    x0 = min(x for x, _ in cells)
    x1 = max(x for x, _ in cells)
    z0 = min(z for _, z in cells)
    z1 = max(z for _, z in cells)
    return tuple("".join(cells.get((x, z), EMPTY) for x in range(x0, x1 + 1))
                 for z in range(z1, z0 - 1, -1))


def rotate_ccw(rows: Rows) -> Rows:
    """A quarter turn counter-clockwise: the left edge goes to the bottom."""
    if not rows:
        return ()
    w = len(rows[0])
    return tuple("".join(row[w - 1 - i] for row in rows) for i in range(w))


def rotate_cw(rows: Rows) -> Rows:
    """A quarter turn clockwise: the right edge goes to the bottom."""
    if not rows:
        return ()
    return tuple("".join(row[i] for row in reversed(rows)) for i in range(len(rows[0])))


def mirror(rows: Rows) -> Rows:
    """The grid seen from behind (left and right swapped)."""
    return tuple(row[::-1] for row in rows)
