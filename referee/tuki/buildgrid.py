"""A measured build written as a text grid, and back (for tests and `referee judge-grid`).

`build_from_grid` reads a grid as an exact build: positions are whole units, stones that
share an edge or a corner in the grid touch (gap 0 mm), other gaps are the real distance, and
the lowest row stands on the table, or `lifted_u` units up on snow. Unlike a card grid, a build
grid may lack stones or hold one not of the level (those are faults for the judge, WORLD.md §4
"Grids"), but each stone must still be a straight bar of five, and at most once.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.build import BAR_LEN, MeasuredBuild, StoneMeasurement, rect_gap_u, rect_of, with_gaps
from referee.tuki.grid import GridError, GridStone, bar, render, scan, to_rows, trim, where

__all__ = ["BuildGridError", "build_from_grid", "build_to_grid", "rect_gap_u", "rect_of",
           "with_gaps"]


class BuildGridError(GridError):
    """A build grid that cannot be a build: unknown letter, a broken bar, a stone twice."""


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
