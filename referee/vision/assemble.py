"""Fitted bars → the measured build of WORLD.md §4 (positions in u, gaps and table heights
in mm), settling each stone's free depth on what holds it up.

Depth is free (one camera): a front face d mm off the build line looks d·tan(elevation) mm
higher or lower in the front view. Within that doubt a stone is read as resting on the thing
under it: the table, or a stone whose top it meets. Snow pieces are whole units thick, so
snow on the table holds a stone a whole number of units up; that is a support too. Stones
further off (wedged, or pushed off a neighbour by more than the doubt) keep their height.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

import numpy as np

from referee.build import (
    MeasuredBuild,
    Orientation,
    StoneMeasurement,
    Unmeasured,
    is_colour,
    with_gaps,
)
from referee.vision.choose import face_rect, spills
from referee.vision.fit import BarFit
from referee.vision.rectify import FrontView
from referee.vision.settings import VisionSettings

COLOUR_NAMES = {"G": "gray", "B": "blue", "P": "purple", "O": "orange"}
BAR = 5.0


def _size(s: StoneMeasurement) -> tuple[float, float]:
    return (BAR, 1.0) if s.orientation == "H" else (1.0, BAR)


def _overlap_u(a: StoneMeasurement, b: StoneMeasurement, axis: int = 0) -> float:
    """How far (u) the two stones' faces overlap along the build line (axis 0) or up it
    (axis 1); negative: apart."""
    lo_a, lo_b = (a.x_u, b.x_u) if axis == 0 else (a.z_u, b.z_u)
    return min(lo_a + _size(a)[axis], lo_b + _size(b)[axis]) - max(lo_a, lo_b)


def stood_in(stones: Sequence[StoneMeasurement], max_u: float) -> set[str]:
    """The colours of stones measured standing in another stone: their faces overlap by more
    than `max_u` along both axes (more than `part` pushes apart), which no build can do
    (WORLD.md §1). The less sure of the two (the larger `sigma_u`; both when alike) is
    mis-measured: a break-it trial, D02-04 under an HDR look (local contrast): the pale blue
    bar, placed from a top end that was the grey bar's edge beside it, stood a unit deep in
    the orange bar under it (sigma 0.08 against 0.042), and a correct build was judged wrong
    for certain."""
    out: set[str] = set()
    for a, b in itertools.combinations(stones, 2):
        if min(_overlap_u(a, b, 0), _overlap_u(a, b, 1)) <= max_u:
            continue
        if a.sigma_u >= b.sigma_u - 1e-9:
            out.add(a.colour)
        if b.sigma_u >= a.sigma_u - 1e-9:
            out.add(b.colour)
    return out


def _name(colour: str) -> str:
    return COLOUR_NAMES.get(colour, colour)


def settle(stones: list[StoneMeasurement], doubt_u: float, snow_grid: bool = True
           ) -> list[StoneMeasurement]:
    """Each stone, lowest first, moved onto the table or onto the top of a stone under it
    when its measured bottom lies within `doubt_u` of that support (and they overlap by at
    least half a unit along the build line). A stone resting on another goes onto that
    one's settled top: stones measured touching stay touching.

    snow_grid: snow pieces are whole units thick (WORLD.md §1), so a stone held up by snow
    standing on the table, or on a stone, rests a whole number of units above it; such
    heights count as supports too. A stone wedged at another height, further off than the
    doubt, keeps its height (a stone propped up by something thinner is a `contact` fault;
    the doubt is no wider, since each stone's own depth off the line already moves it).
    """
    done: list[tuple[StoneMeasurement, StoneMeasurement]] = []  # (as measured, settled)
    for s in sorted(stones, key=lambda t: t.z_u):
        # (measured height of the support, where the stone goes when it rests there): a
        # stone measured on another's top rests on it wherever that one settled, since both
        # stand at the same depth (moving one alone would part stones measured touching)
        supports = [(0.0, 0.0)]
        if snow_grid and s.z_u > 0.5:
            supports.append((float(round(s.z_u)),) * 2)
        for raw, t in done:
            if _overlap_u(s, t) >= 0.5:
                top = raw.z_u + _size(raw)[1]
                k = max(0, round(s.z_u - top)) if snow_grid else 0  # units of snow on it
                supports.append((top + k, t.z_u + _size(t)[1] + k))
        seen, goes = min(supports, key=lambda z: abs(z[0] - s.z_u))
        settled = replace(s, z_u=goes) if abs(seen - s.z_u) <= doubt_u else s
        done.append((s, settled))
    order = {s.colour: i for i, s in enumerate(stones)}
    return sorted((t for _, t in done), key=lambda t: order[t.colour])


def settled_apart(raw: Sequence[StoneMeasurement], settled: Sequence[StoneMeasurement],
                  spread_u: float) -> set[str]:
    """The colours of stones that `settle` moved more than `spread_u` (u) relative to another
    stone, up or down: with `spread_u` half a unit, their settled offset is not the whole
    number of units nearest the one measured, so which whole unit each rests on is a guess.

    Settling rounds each stone's height alone; a structure off the build line (WORLD.md §5)
    shifts them all alike, and near half a unit two stones on equal snow measured 1.33 and
    1.66 u up went to 1 and 2 (PL01-02, 12 mm units, 6.6 mm in front of the line): a
    confident `position` fault made by the rounding. Such stones are weak (no fault rests on
    them alone). raw and settled: the same stones, in the same order, before and after.
    """
    moved = [(a.colour, b.z_u - a.z_u) for a, b in zip(raw, settled, strict=True)]
    return {colour for (c, m), (d, n) in itertools.combinations(moved, 2)
            if abs(m - n) > spread_u for colour in (c, d)}


def along_ray(stones: list[StoneMeasurement], raw: list[StoneMeasurement], unit: float,
              camera_mm: tuple[float, float, float], colours: Collection[str]
              ) -> list[StoneMeasurement]:
    """Each settled stone of the given `colours` moved along its camera ray as far as
    settling moved it up or down (`settle`).

    Each stone's front face stands a few mm off the others' (WORLD.md §5), and the structure's
    one depth (depth.py) leaves that offset in its height: a stone settled lower than it
    looked stands further from the camera than the structure, so along the build line it also
    stands further from the camera's side (by the offset × the ray's slope, up to 0.1 u).
    Measured on dev-scenes 1–3 (442 stones, renderer's truth): the standing stones' error
    along the line drops from 0.039 to 0.034 u (std). A lying stone's height is as sure as
    the edge between its front and top faces (`BarFit.edge`): moved so only where that edge
    placed it (`assemble`), it gains one scene on dev 1–3, Y and Z on each path, and all
    lying stones' error along the line rises from 0.034 to 0.040 u otherwise.

    raw: the stones before settling; camera_mm: the camera's centre in the board frame (x
    along the line, z down, mm; `Pose.camera_centre_mm`); positions in u, unit in mm.
    """
    cx, cz = camera_mm[0], camera_mm[2]
    seen = {r.colour: r for r in raw}
    out = []
    for st in stones:
        r = seen[st.colour]
        if st.colour in colours and st.z_u != r.z_u:
            t = (st.z_u * unit + cz) / (r.z_u * unit + cz)
            st = replace(st, x_u=(cx + t * (r.x_u * unit - cx)) / unit)
        out.append(st)
    return out


def part(stones: list[StoneMeasurement], margin_u: float, max_u: float,
         rounds: int = 20) -> list[StoneMeasurement]:
    """Stones whose front faces overlap pushed apart until they overlap by no more than
    `margin_u`: two stones cannot stand in each other (WORLD.md §1), so such an overlap is
    the fits' error at the edge they share (two dark ends that look alike, a lamp's
    highlight across the seam, a lower end hidden by a piece in front). They are pushed
    along the axis they overlap less in: side by side along the build line, stacked up and
    down (where the lower one goes no lower than the table). Each stone of a pair moves by
    its share of the variance (`sigma_u`²), so a surer fit moves less; a stone of several
    pairs is pushed by each in turn, `rounds` times over. The true positions satisfy every
    such constraint, so this projection only brings the pairs' offsets nearer to them: on
    834 rendered scenes (tools/truth_check.py's truth) the pairs' offsets along the line
    off the truth by more than 0.13 u fell from 121 to 88 of 2871.

    An overlap over `max_u` is no slip of an edge: left as measured. Positions in u.
    """
    out = list(stones)
    for _ in range(rounds):
        moved = False
        for i, j in itertools.combinations(range(len(out)), 2):
            a, b = out[i], out[j]
            ox, oz = _overlap_u(a, b, 0), _overlap_u(a, b, 1)
            k = 0 if ox < oz else 1   # the axis to push along: x (0) or z (1)
            over = min(ox, oz)
            if not margin_u < over <= max_u:
                continue
            if (a.x_u - b.x_u if k == 0 else a.z_u - b.z_u) > \
                    (_size(b)[k] - _size(a)[k]) / 2:   # a's centre beyond b's
                i, j, a, b = j, i, b, a   # a is the left (lower) one
            va, vb = a.sigma_u ** 2, b.sigma_u ** 2
            push = over - margin_u
            da = push * va / (va + vb)
            if k == 1:
                da = min(da, max(a.z_u, 0.0))   # nothing goes under the table
                out[i] = replace(a, z_u=a.z_u - da)
                out[j] = replace(b, z_u=b.z_u + push - da)
            else:
                out[i] = replace(a, x_u=a.x_u - da)
                out[j] = replace(b, x_u=b.x_u + push - da)
            moved = True
        if not moved:
            break
    return out


def table_or_snow(stones: list[StoneMeasurement], allow_u: float) -> list[StoneMeasurement]:
    """Stones, as measured, with nothing under them whose height fits both the table and a
    unit of snow within `allow_u`: what a build standing up to the allowed distance off the
    line (WORLD.md §5, ±10 mm) would show. Whether such a stone touches the table is not
    seen, so the table rule cannot be judged on it."""
    out = []
    for s in stones:
        if abs(s.z_u) > allow_u or abs(1.0 - s.z_u) > allow_u:
            continue
        if not any(t is not s and _overlap_u(s, t) >= 0.5 and t.z_u < s.z_u for t in stones):
            out.append(s)
    return out


def afloat(stones: list[StoneMeasurement], doubt_u: float) -> list[StoneMeasurement]:
    """Stones measured between the table and one unit up with nothing under them: no stone
    whose top meets their bottom. Nothing in the game is thinner than a unit (stones and
    snow are whole units, WORLD.md §1), so such a height is a measurement error: most often a
    structure standing off the build line, which looks higher (behind) or lower (in front)
    by its offset × tan(elevation). The table rule cannot be judged on it.
    """
    out = []
    for s in stones:
        if not doubt_u < s.z_u < 1.0 - doubt_u:
            continue
        if not any(t is not s and _overlap_u(s, t) >= 0.5 and
                   abs(t.z_u + _size(t)[1] - s.z_u) <= max(doubt_u, 0.25) for t in stones):
            out.append(s)
    return out


# the stones' colours lost to an over-exposed photo, and what to do about it
OVER_EXPOSED = Unmeasured("photo:bright", "the photo is over-exposed where the stones are, so "
                          "their colours cannot be told; lower the camera's exposure or the "
                          "light")


NOT_FOUND_BRIGHT = "was not found in the over-exposed photo"


def _not_found(colours: Sequence[str], why: str) -> list[Unmeasured]:
    """`stone:not-found:X` for each of `colours`: "the <name> stone <why>"."""
    return [Unmeasured(f"stone:not-found:{c}", f"the {_name(c)} stone {why}") for c in colours]


def _over_a_stone(f: BarFit, fits: Sequence[BarFit], unit: float) -> bool:
    """Whether the face of `f` starts at most a unit above the top of a fit that is held up,
    along half a unit or more of it: where a stone of the build would lie, fitted a little
    high (a lamp-lit top face taken for part of the front: OA02-05), not a patch of its
    colour far from the build."""
    x, z, w, _ = face_rect(f, unit)
    for t in fits:
        if t is f or not t.supported:
            continue
        tx, tz, tw, th = face_rect(t, unit)
        if (min(x + w, tx + tw) - max(x, tx) >= 0.5 * unit
                and -0.25 * unit <= z - (tz + th) <= unit):
            return True
    return False


def _gone(f: BarFit, s: VisionSettings, chromatic: str, fits: Sequence[BarFit],
          unit: float) -> bool:
    """Whether the colour's best fit `f` is no stone of the build: its face shows less
    than `missing_fill` of its colour, or, for a colour with a hue (`chromatic`), less than
    `min_stone_fill` where nothing holds it up. Such a fit is a patch of the colour far
    behind the mat (N3 L03-02: the blue stone lying on the table beyond the paper, 25 % of
    a face high in the air; N5 J03-06: a part of the other builder's blue stone, held up by
    nothing of this build, `choose.unheld_parts`), not a stone of the build partly hidden:
    a piece in front hides a stone that stands on something. The stone is then absent,
    which is `missing` only where the photo shows no other trouble (`assemble`). Not so
    for grey: a grey stone lit as white as snow may be in the build unseen, and grey
    patches of shade are anywhere. Nor for a fit just above a stone of the build that is
    held up (`_over_a_stone`, among `fits`): that is the stone, placed a little high (OA02-05,
    measured unseen: the blue bar on the grey one, its lit top face taken for part of its
    front, 0.4 u up and held up by nothing, was called missing: a correct build judged
    wrong); it is partly seen, so unsure."""
    return f.fill < s.fit.missing_fill or (
        f.colour in chromatic and not f.supported and f.fill < s.fit.min_stone_fill
        and not _over_a_stone(f, fits, unit))


def assemble(fits: list[BarFit], unit: float, doubt_mm: float, s: VisionSettings,
             colours: str = "", paper_clipped: bool = False, blown: Sequence[str] = (),
             unexplained: bool = False, camera_mm: tuple[float, float, float] | None = None,
             chromatic: str = "", paper_bright: bool = False,
             unshaped: Sequence[str] = (), unit_px: float | None = None,
             hued: Callable[[str], bool] | None = None,
             doubled: Sequence[str] = ()) -> MeasuredBuild:
    """The measured build from one fit per colour (`choose.choose`, `ground`, `pin`).

    unit: u in mm; doubt_mm: how far up or down a face off the build line may look
    (depth_doubt_mm × tan(elevation)); the gaps and table heights handed on are the measured
    ones less `doubt_mm`. A fit held up by nothing is `stone:unsupported:X`, one that can
    slide along its length `stone:hidden:X`; a settled stone afloat (`afloat`) or at a
    height that fits both the table and snow (`table_or_snow`) is `stone:unsupported:X` and
    leaves the build. A colour whose face shows less than `missing_fill` is not there (the
    judge names it missing), nor is one of the `chromatic` colours whose best fit shows
    less than `min_stone_fill` and is held up by nothing (`_gone`); between the two fills
    it is hidden (a problem: unsure). When more than `max_missing` of the level's
    `colours` are not there, none is called missing: each is `stone:not-found` (unsure).
    A fit without grooves whose colour spills around it (fill − score > `max_spill`) sits
    in a look-alike area, a table or a box of that colour, rather than on a stone: unclear.
    So is a fit whose template response is below `min_score` (`min_score_plain` without
    grooves): its colour fits a stone's shape only in part.

    paper_clipped: the mat's paper is blown out, so a light stone may be too; a stone not
    found is then `stone:not-found` with `photo:bright`, never missing. blown: colours whose
    fitted face is blown out: `photo:bright` (their colour cannot be told). unexplained: the
    photo's colours could not be checked (no colour calibration, no coloured stone to check
    them on, or a stone-shaped thing of an unknown colour by the build), so a stone not
    found may be there unseen: `stone:not-found` with `photo:colours`, never missing.
    unshaped: colours with no fit whose pixels show where stones are searched
    (`unshaped`): not found, never missing.
    hued: asked of each colour still not there: whether something of its hue (a grey: of
    its look, `lookalike.greyish`) shows in a stone's shape by the build (`lookalike.hued`): not
    found, never missing. doubled: colours whose fit has a rival of the other orientation by
    the build (`rivals.rivalled_by_build`): that shape may be the stone not found, its
    colour taken for this one, so none is called missing beside it.
    unit_px: how many photo pixels a unit spans at the build; under `build.min_unit_px` a
    stone not found may be one too small to tell (a break-it trial: D06-02 at 480×270, a
    unit 10 px, judged `missing:G`): not found, never missing.
    paper_bright: the paper clips in some channel (under a tinted light the others may
    not); when more stones than `max_missing` are not found, the photo is then too bright
    (`photo:bright`) rather than covered or off in colour (NL01: a cyan light, the paper
    255 255 239, the stones washed out to its tint).
    """
    problems, stones = [], []
    gone_fits = [f for f in fits if _gone(f, s, chromatic, fits, unit)]  # asked once each
    absent = [f.colour for f in gone_fits]
    absent += [c for c in colours if c not in {f.colour for f in fits}]
    among = [c for c in absent if c in unshaped]
    if among:  # its colour shows where stones stand, in no stone's shape: no evidence
        problems += _not_found(among, "was not found in a stone's shape, though its colour "
                               "shows by the build (among things that look like it?)")
        absent = [c for c in absent if c not in among]
    # first: a photo too coarse to tell is said so, with the cure (and nothing else asked)
    if absent and unit_px is not None and unit_px < s.build.min_unit_px:
        problems += _not_found(absent, f"was not found, and the stones are small in this "
                               f"photo (about {unit_px:.0f} px a unit): move the camera "
                               "closer, or send the photo at full size")
        absent = []
    huey = [c for c in absent if hued is not None and hued(c)]
    if huey:  # its hue shows in a stone's shape: its colour may have moved since calibration
        changed = "(has the light or the camera's colour changed since the colour photo?)"
        problems += _not_found([c for c in huey if c in chromatic], "was not found in its "
                               "colour, though something of its hue shows in a stone's "
                               "shape by the build " + changed)
        problems += _not_found([c for c in huey if c not in chromatic], "was not found in "
                               "its colour, though something grey shows in a stone's shape "
                               "by the build " + changed)
        absent = [c for c in absent if c not in huey]
    if blown or (absent and paper_clipped):
        problems += _not_found(absent, NOT_FOUND_BRIGHT)
        problems.append(OVER_EXPOSED)
        absent = []
    if absent and doubled:  # the other shape of a rivalled colour may be the absent stone
        # (after an over-exposed photo's reason, which says what to do about it)
        shown = " or ".join(_name(c) for c in doubled)
        problems += _not_found(absent, f"was not found, while the {shown} stone's colour "
                               "shows in another stone's shape too: that may be it, its "
                               "colour taken for another")
        absent = []
    if len(absent) > s.build.max_missing:
        # more stones gone than a builder forgets: more likely a covered build or a photo
        # whose colours are off (grey, washed out) than a build: let the lookout look
        if paper_bright:
            problems += _not_found(absent, NOT_FOUND_BRIGHT)
            problems.append(Unmeasured("photo:bright", f"{len(absent)} stones were not "
                                       "found and the photo is over-exposed: lower the "
                                       "camera's exposure or the light"))
        else:
            problems += _not_found(absent, "was not found; is the build covered, or the "
                                   "photo's colour off?")
            # and what was found in such a photo is no ground for a verdict either
            problems.append(Unmeasured("photo:unclear", f"{len(absent)} stones were not "
                                       "found, so this photo cannot be judged"))
        absent = []  # named: not again below
    elif absent and unexplained:
        problems += _not_found(absent, "was not found")
        problems.append(Unmeasured("photo:colours", "a stone is not found, and the photo's "
                                   "colours could not be checked (no colour calibration at "
                                   "this station, a stone-shaped thing of a colour the "
                                   "referee does not know, or no coloured stone to check "
                                   "them on): calibrate the colours through this camera"))
        absent = []
    for f in fits:
        if f in gone_fits:
            continue
        # a standing bar placed from its top end (grooves.anchor_top) is placed whatever
        # hides its lower part; its face's fill and score count that part as missing
        placed = f.anchored and f.supported and f.fill >= s.build.anchored_min_fill
        if f.fill < s.fit.min_stone_fill and not placed:
            problems.append(Unmeasured(f"stone:hidden:{f.colour}",
                                       f"the {_name(f.colour)} stone is "
                                       f"partly hidden or unclear ({f.fill:.0%} of it seen)"))
            continue
        if f.foot_hidden:
            problems.append(Unmeasured(f"stone:hidden:{f.colour}",
                                       f"a piece lying in front of the build may hide the foot "
                                       f"of the {_name(f.colour)} stone, so how high it stands "
                                       "is not seen: move loose pieces away from the front of "
                                       "the build"))
            continue
        if not f.supported:
            problems.append(Unmeasured(f"stone:unsupported:{f.colour}",
                                       f"the {_name(f.colour)} stone was "
                                       "measured where nothing could hold it up; look again"))
            continue
        if f.slack_u >= s.fit.max_slack_u:
            problems.append(Unmeasured(f"stone:hidden:{f.colour}",
                                       f"an end of the {_name(f.colour)} "
                                       "stone is hidden, so where it stands is not certain"))
            continue
        if not f.grooves and spills(f, s.build.max_spill):
            problems.append(Unmeasured(f"stone:unclear:{f.colour}",
                                       f"the {_name(f.colour)} stone "
                                       "cannot be told from things of its colour around it"))
            continue
        if not placed and (f.score < s.build.min_score or
                           (not f.grooves and f.score < s.build.min_score_plain)):
            # a stone's shape that the colour matches only in part (a box behind of nearly
            # the colour, a face lit otherwise than the rest): no ground for a verdict (Y01-03,
            # Y03-01: a wrong orientation and a 0.7 u height, each judged wrong for certain)
            problems.append(Unmeasured(f"stone:unclear:{f.colour}",
                                       f"the {_name(f.colour)} stone is not seen clearly "
                                       f"enough (its colour fits a stone's shape only "
                                       f"{f.score:.0%})"))
            continue
        # a clean fit's doubt is about as many mm whatever the unit (small stones' units
        # hold fewer pixels): never under base_sigma_mm, nor under base_sigma_u
        base = max(s.build.base_sigma_u, s.build.base_sigma_mm / unit)
        sigma = max(s.build.anchored_sigma_u if f.anchored else base, f.slack_u / 2)
        assert is_colour(f.colour)  # only `lookalike.unknown_stone` fits `?`, and keeps them
        stones.append(StoneMeasurement(f.colour, f.orientation, f.x_mm / unit, f.h_mm / unit,
                                       sigma, {}, 0.0,
                                       weak=f.score < s.build.sure_score or f.rivalled or
                                       f.rested or f.tinted or f.odd_end or f.lit_seam or
                                       f.snow_like or f.bare_top or f.face_below or f.behind))
    if absent and any(p.code.startswith("stone:") for p in problems):
        # a stone not found beside another that could not be measured: the photo shows
        # trouble (a piece in front, colours washed out), no evidence the stone is absent
        problems += _not_found(absent, "was not found, and another could not be measured")
    unmeasured = {p.subject for p in problems if p.code.startswith("stone:") and p.subject}
    if len(unmeasured) > s.build.max_missing and not any(p.code.startswith("photo:")
                                                   for p in problems):
        # most of the build unmeasured: what was measured may be the wrong things (a stone
        # taken for another whose colour came out alike), no ground for a verdict
        problems.append(Unmeasured("photo:unclear", f"{len(unmeasured)} stones could not be "
                                   "measured, so this photo cannot be judged"))
    raw = list(stones)
    if s.build.settle:
        stones = settle(stones, doubt_mm / unit, s.build.snow_grid)
        guess = settled_apart(raw, stones, s.build.settle_spread_u)
        stones = [replace(st, weak=True) if st.colour in guess else st for st in stones]
        moved = {f.colour for f in fits if (s.build.ray_settle_v if f.orientation == "V"
                                              else s.build.ray_settle_h and f.edge)}
        if camera_mm is not None and moved:
            stones = along_ray(stones, raw, unit, camera_mm, moved)
    if s.build.part_max_u > 0:
        stones = part(stones, s.build.part_margin_u, s.build.part_max_u)
        if s.build.overlap_weak:
            inside = stood_in(stones, s.build.part_max_u)
            stones = [replace(st, weak=True) if st.colour in inside else st for st in stones]
    floating = afloat(stones, doubt_mm / unit)
    if s.build.line_allowance_mm > 0:
        # doubt_mm is depth_doubt_mm × tan(elevation); the allowance scales the same way
        allow = s.build.line_allowance_mm * doubt_mm / max(s.build.depth_doubt_mm, 1e-6) / unit
        floating += [st for st in table_or_snow(raw, allow) if st.colour not in
                     {f.colour for f in floating}]
    else:
        allow = 0.0
    for st in floating:
        problems.append(Unmeasured(f"stone:unsupported:{st.colour}",
                                   f"the {_name(st.colour)} stone "
                                   f"measures {st.z_u * unit:.0f} mm above the table, on "
                                   "nothing that thick: the build may stand off the dashed "
                                   "line; push it onto the line, or look again"))
    # nothing stands under the table: a stone measured lower than a build off the line can
    # look (G04-01: a standing stone placed from a step a unit below its top) is mismeasured
    sunk = [st for st in stones if st.z_u < -max(allow, doubt_mm / unit)
            and st.colour not in {f.colour for f in floating}]
    for st in sunk:
        problems.append(Unmeasured(f"stone:unsupported:{st.colour}",
                                   f"the {_name(st.colour)} stone measures "
                                   f"{-st.z_u * unit:.0f} mm below the table, where nothing "
                                   "can stand: look again"))
    floating += sunk
    gone = {st.colour for st in floating}
    stones = [st for st in stones if st.colour not in gone]
    out = []
    for st in with_gaps(stones, unit):
        gaps = {k: max(0.0, g - doubt_mm) for k, g in st.gaps_mm.items()}
        table = max(0.0, st.z_u * unit - doubt_mm)
        out.append(replace(st, gaps_mm=gaps, table_gap_mm=table))
    return MeasuredBuild(tuple(out), unit, tuple(problems))


def unshaped(fits: Sequence[BarFit], masks: dict[str, np.ndarray], view: FrontView,
             unit: float, regions: dict[Orientation, tuple[float, ...]], colours: str,
             min_faces: float) -> list[str]:
    """The colours with no fit whose pixels (`masks`, H×W bool each) fill at least
    `min_faces` of a stone's face where stones are searched (`regions`, mm): such a stone
    may lie among things of its look (a grey stone on snow in shade, whose strips around
    the face take its colour, so that no template responds: OX02-02 as a phone photo, a
    correct build judged `missing:G`). It is not found, never missing (WORLD.md §4: missing
    needs evidence that the stone could have been seen). 0 < `min_faces`: the check is on.
    """
    if min_faces <= 0:
        return []
    have = {f.colour for f in fits}
    x0, x1, h0, h1 = regions["H"]
    c0, r1 = view.to_px(x0, h0)
    c1, r0 = view.to_px(x1 + 5 * unit, h1 + unit)
    r0, r1 = max(int(r0), 0), max(int(r1), 0)
    c0, c1 = max(int(c0), 0), max(int(c1), 0)
    face_px = 5 * (unit * view.px_per_mm) ** 2
    return [c for c in colours if c not in have and c in masks and
            int(np.count_nonzero(masks[c][r0:r1, c0:c1])) >= min_faces * face_px]
