"""A measured build written as a text grid, and back (for tests and `referee judge-grid`).

`build_from_grid` reads a grid as an exact build: positions are whole units, stones that
share an edge or a corner in the grid touch (gap 0 mm), other gaps are the real distance, and
the lowest row stands on the table, or `lifted_u` units up on snow. Unlike a card grid, a build
grid may lack stones or hold one not of the level (those are faults for the judge, WORLD.md §4
"Grids"), but each stone must still be a straight bar of five, and at most once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from referee.build import MeasuredBuild, StoneMeasurement
from referee.tuki.grid import GridError, GridStone, bar, render, scan, to_rows, trim, where
from referee.tuki.pieces import BAR_LEN


class BuildGridError(GridError):
    """A build grid that cannot be a build: unknown letter, a broken bar, a stone twice."""


def rect_gap_u(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
               ) -> float:
    """Front-view distance between rectangles (x, z, width, height), in u; 0 when they meet."""
    dx = max(0.0, max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]))
    dz = max(0.0, max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))
    return math.hypot(dx, dz)


def rect_of(s: StoneMeasurement) -> tuple[float, float, float, float]:
    """(x, z, width, height) of a measured stone's front face, in u."""
    w, h = (BAR_LEN, 1) if s.orientation == "H" else (1, BAR_LEN)
    return (s.x_u, s.z_u, float(w), float(h))


def with_gaps(stones: Iterable[StoneMeasurement], unit_mm: float) -> list[StoneMeasurement]:
    """Fill `gaps_mm` from exact positions: every stone within 1 u, keyed by colour."""
    stones = list(stones)
    out = []
    for s in stones:
        gaps = {}
        for o in stones:
            if o is s:
                continue
            g = rect_gap_u(rect_of(s), rect_of(o))
            if g <= 1.0:
                gaps[o.colour] = round(g * unit_mm, 6)
        out.append(StoneMeasurement(s.colour, s.orientation, s.x_u, s.z_u, s.sigma_u, gaps,
                                    s.table_gap_mm))
    return out


def build_from_grid(text_or_rows: str | Iterable[str], lifted_u: float = 0,
                    unit_mm: float = 16.0) -> MeasuredBuild:
    """An exact MeasuredBuild from a grid (rows top to bottom).

    x_u counts from the leftmost stone cell, z_u from the lowest row plus `lifted_u`;
    table_gap_mm is each stone's z_u * unit_mm.
    :raises BuildGridError: unknown letter, a stone of the wrong length or not straight, two
        stones crossing, or one colour twice.
    """
    if lifted_u < 0:
        raise BuildGridError(f"lifted must be 0 or more units, not {lifted_u}")
    rows = list(trim(to_rows(text_or_rows)))
    cells = scan(rows, BuildGridError)
    stones = []
    for letter, cs in cells.items():
        if len(cs) > BAR_LEN and len(cs) % BAR_LEN == 0:
            raise BuildGridError(f"stone {letter} appears {len(cs) // BAR_LEN} times "
                                 f"(first at {where(*cs[0])}); a build holds each stone once")
        g = bar(rows, letter, cs, BuildGridError, len(rows))
        z = g.z + lifted_u
        stones.append(StoneMeasurement(letter, g.orientation, float(g.x), float(z), 0.0, {},
                                       z * unit_mm))
    return MeasuredBuild(tuple(with_gaps(stones, unit_mm)), unit_mm)


def build_to_grid(build: MeasuredBuild) -> tuple[str, ...]:
    """The build drawn as a trimmed grid, each stone at its rounded position (a stone drawn
    later covers an earlier one where they overlap)."""
    stones = [GridStone(s.colour, s.orientation if s.orientation in ("H", "V") else "H",
                        round(s.x_u), round(s.z_u), 0, 0) for s in build.stones]
    return render(stones)
