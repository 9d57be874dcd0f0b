"""The measured build: the shared vocabulary between vision and the judge (WORLD.md §4).

A front view of the build, in units u, with x along the build line to the right and z up
from the table plane. Vision fills it from a photo; a text grid fills it for tests and the CLI.
The judge reads it and never sees a pixel.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeGuard

Colour = Literal["G", "B", "P", "O"]  # gray, blue, purple, orange (WORLD.md §1)
Orientation = Literal["H", "V"]  # horizontal, vertical, seen from the front (WORLD.md §2)

COLOURS: tuple[Colour, ...] = ("G", "B", "P", "O")
ORIENTATIONS: tuple[Orientation, ...] = ("H", "V")
BAR_LEN = 5  # a stone is 1 × 1 × 5 u (WORLD.md §1)


def is_colour(letter: str) -> TypeGuard[Colour]:
    """Whether `letter` is a stone's letter, `G B P O` (WORLD.md §1)."""
    return letter in COLOURS


@dataclass(frozen=True)
class StoneMeasurement:
    """One stone as measured.

    colour: `G` `B` `P` `O`; orientation: `H` or `V` (seen from the front).
    x_u, z_u: the lower-left corner of its front face, in u (float).
    sigma_u: standard deviation of that position, in u.
    gaps_mm: smallest front-view gap to each stone whose faces come within 1 u, in mm,
        keyed by that stone's colour.
    table_gap_mm: the height of its lowest face above the table plane, in mm.
    weak: its fit is weak (the colour fits a stone's shape only in part, a rival of the
        other orientation scores as high, or it was found by grooves that repeat every unit
        beside another stone): where it agrees with the target it counts, but a fault that
        rests on it alone is no ground for a penalty card (the judge is unsure,
        `stone:unclear:X`).
    """

    colour: Colour
    orientation: Orientation
    x_u: float
    z_u: float
    sigma_u: float = 0.0
    gaps_mm: dict[Colour, float] = field(default_factory=dict)
    table_gap_mm: float = 0.0
    weak: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (WORLD.md §4 field names): u rounded to 3 decimals, mm to 2."""
        return {
            "colour": self.colour,
            "orientation": self.orientation,
            "x_u": round(self.x_u, 3),
            "z_u": round(self.z_u, 3),
            "sigma_u": round(self.sigma_u, 3),
            "gaps_mm": {k: round(v, 2) for k, v in self.gaps_mm.items()},
            "table_gap_mm": round(self.table_gap_mm, 2),
            **({"weak": True} if self.weak else {}),
        }


def code_subject(code: str) -> str | None:
    """What a WORLD.md §4 code is about: the stone (`position:B` → `B`, `stone:hidden:P` →
    `P`), the die's animal (`rotation:fish` → `fish`), or None for a code about the table or
    the photo (`table:none`, `photo:colours`, `mirrored`)."""
    head, _, tail = code.rpartition(":")
    if head and tail in COLOURS:
        return tail
    return tail if head == "rotation" else None


@dataclass(frozen=True)
class Unmeasured:
    """Why (part of) a build could not be measured: a WORLD.md §4 reason code, plain words,
    and what the code is about (`subject`: a stone's colour, or None for the photo)."""

    code: str
    text: str
    subject: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.subject is None:
            object.__setattr__(self, "subject", code_subject(self.code))


@dataclass(frozen=True)
class MeasuredBuild:
    """What vision hands the judge: the stones found, and what could not be measured.

    unit_mm: the station's unit, so that gaps in mm relate to offsets in u.
    problems: reasons the measurement is incomplete (e.g. `mat:not-found`, `stone:hidden:B`);
        any problem makes the judge answer unsure rather than guess.
    """

    stones: tuple[StoneMeasurement, ...]
    unit_mm: float = 16.0
    problems: tuple[Unmeasured, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: unit_mm, stones (`StoneMeasurement.to_dict`), problems [{code, text}]."""
        return {
            "unit_mm": self.unit_mm,
            "stones": [s.to_dict() for s in self.stones],
            "problems": [{"code": p.code, "text": p.text} for p in self.problems],
        }


def rect_gap_u(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
               ) -> float:
    """Front-view distance between rectangles (x, z, width, height), in their own unit (u, or
    mm); 0 when they meet."""
    dx = max(0.0, max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]))
    dz = max(0.0, max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))
    return math.hypot(dx, dz)


def rect_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
                 ) -> float:
    """Front-view area that rectangles (x, z, width, height) share, in their own unit
    squared (u², or mm²); 0 when they do not overlap."""
    dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    dz = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(dx, 0.0) * max(dz, 0.0)


def rect_of(s: StoneMeasurement) -> tuple[float, float, float, float]:
    """(x, z, width, height) of a measured stone's front face, in u."""
    w, h = (BAR_LEN, 1) if s.orientation == "H" else (1, BAR_LEN)
    return (s.x_u, s.z_u, float(w), float(h))


def with_gaps(stones: Iterable[StoneMeasurement], unit_mm: float) -> list[StoneMeasurement]:
    """The stones with `gaps_mm` filled from their positions: for every other stone within
    1 u, the front-view gap in mm (`rect_gap_u` × unit_mm), keyed by its colour."""
    stones = list(stones)
    out = []
    for s in stones:
        gaps: dict[Colour, float] = {}
        for o in stones:
            if o is s:
                continue
            g = rect_gap_u(rect_of(s), rect_of(o))
            if g <= 1.0:
                gaps[o.colour] = round(g * unit_mm, 6)
        out.append(replace(s, gaps_mm=gaps))
    return out
