"""A fit's rivals of the other orientation (stage 5, fit): which way a stone lies is in doubt
where a candidate standing where it lies (or lying where it stands), held up and full enough,
scores as high; and a colour so rivalled by the build may show in another stone's shape (a
stone not found beside it is then not found, never missing: `assemble`).

Split out of pipeline.py (its second job); `pipeline.measure` asks these once per fit.
"""

from __future__ import annotations

from referee.build import rect_overlap
from referee.vision.choose import face_rect
from referee.vision.fit import BarFit
from referee.vision.settings import VisionSettings


def rivalled(f: BarFit, cands: list[BarFit], unit: float, s: VisionSettings) -> bool:
    """Whether a candidate of the other orientation among the colour's `cands`, held up and
    full enough to be a stone, scores at least as high as the chosen fit `f` less
    `build.turn_rival_margin`: `choose` may have taken `f` for its grooves (N2 M01-05: a snow
    pillar in shade, grey, with its cubes' seams for grooves, over the grey bar lying on
    it), so which way the stone lies is in doubt, and no fault rests on it alone. So it is
    when such a candidate shares a cell with `f` (`build.cross_rival_u2` of a unit square,
    `unit` in mm) and scores within `build.cross_rival_margin` of it: the colour lies in an
    L or a T, one arm of it something else in that colour (N10 B01-04: a snow pillar in deep
    shade beside the blue bar, its top cell the end of the dark grey bar lying on it, taken
    for the grey stone standing; a correct build judged wrong)."""
    return bool(rivals(f, cands, unit, s))


def rivals(f: BarFit, cands: list[BarFit], unit: float, s: VisionSettings) -> list[BarFit]:
    """The candidates that make `f` `rivalled`."""
    def shared_u2(c: BarFit) -> float:
        return rect_overlap(face_rect(f, unit), face_rect(c, unit)) / (unit * unit)

    return [c for c in cands if c.orientation != f.orientation and c.supported and
            c.fill >= s.fit.min_stone_fill and
            (c.score >= f.score - s.build.turn_rival_margin or
             (c.score >= f.score - s.build.cross_rival_margin and
              shared_u2(c) >= s.build.cross_rival_u2))]


def rivalled_by_build(fits: list[BarFit], cands: dict[str, list[BarFit]], unit: float,
                      s: VisionSettings) -> list[str]:
    """The colours of `rivalled` fits whose rival lies by the build: within a unit of the
    box around the fits that are stones (held up, full enough). The colour shows in another
    stone's shape of the build too, and a stone not found may be that one, its colour taken
    for this one (`assemble`: not found, never missing). A break-it trial: OX02-02 through a
    phone's processing (vivid colours), its grey bar on two snow pillars taken for orange as
    well as the orange bar standing under it (both 0.82); fitted on the grey, the grey was
    called missing and a correct build judged wrong. A rival far from the build is not (PG01-05,
    a wrong build missing its purple stone: the blue's rivals lie 15 u up, on the wall)."""
    stones = [face_rect(f, unit) for f in fits if f.supported and
              f.fill >= s.fit.min_stone_fill]
    if not stones:
        return []
    x0 = min(r[0] for r in stones) - unit
    z0 = min(r[1] for r in stones) - unit
    box = (x0, z0, max(r[0] + r[2] for r in stones) + unit - x0,
           max(r[1] + r[3] for r in stones) + unit - z0)
    return [f.colour for f in fits if f.rivalled and any(
        rect_overlap(face_rect(c, unit), box) > 0 for c in rivals(f, cands.get(f.colour, []),
                                                                 unit, s))]
