"""Every vision threshold, named, in one tree: a node per stage (as chesscog's `cfg`).

The defaults below are written out in full in models/vision.yaml, which a user may edit; a
key that is not a setting is refused (a typo must not pass silently). Values are geometric
or photometric limits, never fitted to single photos. `referee eval --json` reports the
settings it ran with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from referee.errors import yaml_error_sentence
from referee.files import FileTooLargeError, load_user_yaml, read_small_text
from referee.paths import MODELS
from referee.vision.errors import VisionError


class SettingsError(VisionError):
    """A vision settings file with an unknown key or a value of the wrong kind."""


@dataclass(frozen=True)
class PoseSettings:
    """Stage 1, the mat (pose.py; WORLD.md §5–6)."""

    min_markers: int = 3            # markers (or ...)
    min_charuco: int = 4            # ... ChArUco corners needed for a pose
    min_rows_spread_mm: float = 20.0  # board points must span more than one row
    max_pose_rms_px: float = 3.0    # reprojection error above this: the pose is not trusted
    marker_inlier: float = 0.35     # a marker's corner error (× its size) to join a board ...
    marker_inlier_tight: float = 0.15  # ... and after the board's pose is refitted
    max_aspect_change: float = 0.02  # a station photo's width/height off its camera's: cropped
    upscale_below_markers: int = 5  # fewer markers found: look again at the photo
    upscale_max_side_px: int = 2000  # enlarged twice, if its longer side is at most this
    fine_cell_px: int = 8           # ...and first read its markers' bits at this many px a cell
    several_ratio: float = 2.0      # two mats whose distances (to the stored pose or the
    #                                 photo's bottom centre) are within this factor: unsure
    black_level: float = 20.0       # a photo whose brightest pixel is below this: black
    flat_std: float = 2.0           # a photo this uniform (grey-level std) shows nothing
    white_level: float = 200.0      # ... and this bright everywhere: blinded (photo:bright)
    # a phone's photo (intrinsics from the mat in it, pipeline.phone_station): its focal
    # length's 1σ doubt, as a share of it, up to `max_focal_doubt` is taken as it is; up to
    # `max_focal_doubt_checked` the verdict must also hold with the focal length moved by
    # ±`focal_check_sigmas`·doubt (check.check_photo), else unsure; above it, unsure at once
    max_focal_doubt: float = 0.06
    max_focal_doubt_checked: float = 0.15
    focal_check_sigmas: float = 2.0
    max_single_view_rms_px: float = 2.0  # the one-view fit's RMS, per 1000 px of photo
    # a station's photo: the focal length the mat in it shows (one-view fit) off the station
    # camera's by more than `focal_mismatch_sigmas` of its doubt and `min_focal_mismatch`
    # (a share) is another camera, a zoom, or a crop taken for a resize (mats.camera_mismatch;
    # 578 photos of 24 sets, each at its own station: at most 2.4 σ off, and 16 % at 0.6 σ)
    focal_mismatch_sigmas: float = 4.0
    min_focal_mismatch: float = 0.12
    # the mat's outer edges (black squares against the paper beyond them) blurred wider than
    # this (σ, mm on the board): `photo:blurred` (mats.edge_blur_mm; 603 sharp photos of 25
    # sets: at most 1.25 mm; a 2 px Gaussian blur 1.5 mm, median; 0: off)
    max_blur_mm: float = 1.75
    # `referee calibrate camera`: each view's own focal length (one-view fit) must agree
    # with the others' within their doubts: chi²/dof above this, the photos are of different
    # cameras or zoom settings (one camera's views: 0.4; five stations' photos: 38)
    max_calib_focal_chi2: float = 9.0
    duplicate_view_px: float = 1.0  # a view whose corners all lie this near another's: a copy


@dataclass(frozen=True)
class ExposureSettings:
    """Stage 2a, light (pipeline.py): too dark, or stones blown out."""

    min_paper_luma: float = 40.0    # mean paper brightness (0-255) below this: too dark
    clipped_level: float = 250.0    # a pixel this bright in every channel is blown out
    max_blown_face: float = 0.25    # a stone's face this much blown out: its colour is lost
    washed_out_level: float = 128.0  # a photo whose darkest 0.1 % is this light: washed out


@dataclass(frozen=True)
class ColourSettings:
    """Stages 2 and 4, the table's colour classes and what counts as snow (colour.py,
    pipeline.py), and stage 6b, the colour self-check (selfcheck.py)."""

    table_classes: int = 3          # k-means colours learned from the table around the mat
    table_min_share: float = 0.05   # a k-means colour holding less of the table is none of it
    table_drop_near: float = 0.15   # a table colour this near a stone colour (× max_distance)
    #                                    is that stone (a spare one lying there): no class
    spare_near: float = 0.35        # ... and this near, holding under spare_share of the
    spare_share: float = 0.12       # table: a spare stone in other light (colour.table_centres)
    neutral_chroma: float = 12.0    # Lab chroma below this is neutral (snow in any light)
    min_snow_lightness: float = 20.0  # neutral and lighter than this may be snow (0-100; snow
    #                     in a lamp's shade under a lit paper: L 42, NS01-04; L 29, OS04-03)
    tinted_snow_lightness: float = 85.0  # this light and below tinted_snow_chroma: snow in
    tinted_snow_chroma: float = 30.0  # light thrown back tinted (b* +24 at L 98, OV03-02)
    shade_snow_lightness: float = 60.0  # this light and below shade_snow_chroma: snow in a
    shade_snow_chroma: float = 20.0  # shade lit in another tint (b* -17 at L 82, QV04-06)
    channel_order_ratio: float = 1.0  # another channel order fitting the stones this much better
    channel_order_margin: float = 3.0  # ... and by this much (Lab units, a mean per stone)
    max_colour_distance: float = 8.0  # found stones farther (Lab) from their calibrated colour
    clip_max_scale: float = 1.8     # a channel at exposure.clipped_level may have been this
    #                                    many times brighter (1: never; colour.unclipped)...
    clip_scale_step: float = 0.15   # ...tried in these steps
    close_colours: float = 12.0     # learnt colours nearer than this (ColourModel.separation)
    #                                    are called close (`referee calibrate colours`)


@dataclass(frozen=True)
class RectifySettings:
    """Stage 3, the front view on the build line (rectify.py)."""

    px_per_mm: float = 2.0          # resolution of the rectified front view
    view_height_mm: float = 260.0   # how high above the table the front view reaches


@dataclass(frozen=True)
class InFrontSettings:
    """Stage 3b, pieces lying on the mat in front of the build (infront.py; WORLD.md §5)."""

    enabled: bool = True
    px_per_mm: float = 2.0          # resolution of the board seen from above
    erode_mm: float = 3.0           # the print shrunk by this (pose error, blur at edges)
    light_share: float = 0.3        # this share of the way from black print to white: a piece
    min_area_u2: float = 0.15       # a piece's patch on the black print, at least (u²)
    reach_u: float = 0.5            # the piece runs on this far beyond its patch, each way
    white_mm: float = 25.0          # black print is judged against the lit white this near
    top_u: float = 1.15             # a face ending this high or lower may end on its top...
    min_share: float = 0.5          # ...where a piece's span covers this share of its width
    alike: float = 15.0             # ...and what shows under it has the piece's a, b ...
    darker: float = 25.0            # ...and its L, or up to this much darker...
    alike_share: float = 0.25       # ...than this share of the piece's pixels
    agree_u: float = 0.25           # its top end (a standing bar's) agrees this near: as fitted


@dataclass(frozen=True)
class FitSettings:
    """Stage 5, bar templates and the choice of each colour's stone (fit.py, choose.py)."""

    strip_mm: float = 3.0           # width of the penalty strips around a face
    min_peak: float = 0.2           # template response below this is no candidate
    per_orientation: int = 4        # candidates kept per colour and orientation
    min_support: float = 0.3        # share of the strip under a face that must hold it up
    min_stone_fill: float = 0.6     # share of a fitted front face that must show its colour
    missing_fill: float = 0.15      # below this share of a face, the stone is not there
    table_band_mm: float = 3.0      # a bottom this near the table (past the depth doubt): on it
    touch_reach_u: float = 0.5      # a stone this near another leans on it (held up)
    wide_own_u: float = 8.0         # a chain down to the table never runs through the stone's
    #                                    own colour where it spans this wide (u): a wall or a
    #                                    table behind the mat (each colour is one stone; 0: off)
    rival_margin: float = 0.05      # a pinned candidate this near in score beats a sliding one
    clipped_snow_chroma: float = 24.0  # paper clipped: snow under a grooved stone may be
    #                                    tinted up to this chroma (the light's, unbalanced)
    slack_fill_tolerance: float = 0.5  # a slide losing less than this share of what a whole
    #                                    bar loses: the bar is not pinned along its length
    max_slack_u: float = 0.5        # a bar that can slide this far along its length: hidden
    edge_min_step: float = 6.0      # an H bar's own top edge this sharp (L) is evidence…
    edge_share: float = 0.35        # …that colour beyond its end with a step below this
    #                                    share of it is no more of the bar (ends.edge_pinned)
    light_min_step: float = 10.0    # L beyond a bar's end that pins it there
    light_spread_k: float = 3.0     # ... and at least this × its neighbouring segments' step in L
    light_min_fill: float = 0.9     # ... each segment showing the bar's colour this much
    light_lying: bool = True        # ... and so for a lying bar too, besides its top edge
    odd_end_k: float = 2.0          # an end segment's step in L this × the inner ones (and
    #                                    light_min_step): the fit is weak (ends.odd_end; 0: off)
    lit_seam_l: float = 40.0        # the seam under a lying bar this much lighter (L) than both
    #                                    faces over a unit: the lower fit is weak (0: off)
    lit_seam_fill: float = 0.5      # ...showing the lower bar's colour less than this share
    frame_reach_u: float = 1.0      # a fit this near the photo's edge, along its length or
    #                                    across it: where it ends is not seen (0: off)
    anchor_top: bool = True         # place a standing bar whose foot is hidden from its top
    anchor_grey: bool = True        # ...a grey one too, where a coloured stone sits on it,
    anchor_grey_apart: float = 0.25  # ...at a station whose grey lies this × max_distance
    #                                    from snow's white or farther (0: at any station)
    bare_top_fill: float = 0.2      # a standing bar's top face showing this little of its colour,
    #                                    nothing on it: weak (ends.bare_top; 0: off)
    bare_top_band_u: float = 0.25   # ...where the top face shows this tall (u) at all
    bare_top_hue_deg: float = 30.0  # ...its hue: within this of the front face's (a lit top face)
    bare_top_alike: float = 0.5     # ...and it is as alike what lies beyond it as this share of
    #                                    the colour model's max_distance (the same surface)
    bare_top_lying: bool = True     # ...a lying bar's too, over what nothing stands on, when
    #                                    its colour runs on below it (below_run_u)
    snow_split: float = 0.5         # a groove-less grey fit whose face's median L lies past
    #                                    this share of the way from the grey's L to the snow's:
    #                                    weak (ends.snow_like; 0: off)
    grooveless_grey: bool = True    # any groove-less grey fit is weak: lightness alone tells
    #                                    grey from snow in shade, and a camera's tone moves it
    below_run_u: float = 0.25       # a lying bar's colour running on below its fitted bottom
    below_grooves: float = 0.5      # …this far (u), its grooves there this share as clear
    below_shift_u: float = 0.25     # …each where clearest within this sideways (u): weak
    #                                    (ends.face_below; 0: off)
    min_unknown_score: float = 0.6  # a bar of no known colour fitting this well may be a stone
    rest_on_grooves: bool = True    # a colour patch larger than a bar: find the stone by its
    rest_min_grooves: float = 4.0   # …grooves (this strong) where it rests on another stone
    rest_reach_u: float = 0.25      # …its bottom this near the contact (choose.resting)
    rest_margin: float = 0.7        # …no place away from it this strong (a share of its)
    rest_max_other: float = 0.1     # …no segment of it showing other stones' colours more
    rest_beside: bool = True        # …or beside a measured stone, side faces touching
    rest_line_margin: float = 0.9   # …unless a place along its length is this strong too
    rest_table_shade: bool = True   # …a grey stone may take the table's shade (a lamp on it)
    # a grey stone tinted by coloured surroundings takes the pixels that another stone's
    # colour claimed outside that stone's face, where they lie this near the grey
    # (× the colour model's max_distance; 0: never)
    tinted_grey: float = 1.0
    tinted_below: float = 0.85      # …only where the grey's first fit scores under this
    lend_table: bool = True         # a coloured stone not seen whole takes back the pixels of
    #                                    its face a table class of nearly its hue took


@dataclass(frozen=True)
class GrooveSettings:
    """Stage 5 too, sub-unit precision from the grooves (grooves.py, used by choose.py)."""

    use_grooves: bool = True        # refine positions on the stones' grooves
    groove_bonus: float = 0.1       # score bonus of a candidate whose grooves show
    reach_u: float = 0.45           # how far the groove phase may move a bar
    edge_reach_u: float = 0.2       # how far an H bar's front/top edge may move it
    notch_u: float = 0.125          # the grooves' phase centred on them within this, their
    notch_blur_mm: float = 0.75     # …departure from the smoothed profile blurred so
    # the station's unit checked on the grooves' spacing (grooves.unit_scale): scales within
    # ±unit_spread (in unit_step) tried; at least unit_min_fits grooved stones within
    # ±unit_agree of their median, and that median off 1 by more than unit_max_off (a
    # structure off the line looks 1–4 % larger or smaller): the unit is in doubt (0: off)
    unit_spread: float = 0.15
    unit_step: float = 0.01
    unit_min_fits: int = 3
    unit_agree: float = 0.03
    unit_max_off: float = 0.05


@dataclass(frozen=True)
class DepthSettings:
    """Stage 5b, the structure's depth off the build line (depth.py; WORLD.md §5, §7)."""

    enabled: bool = True
    search_mm: float = 12.0         # depths tried, either side of the line (WORLD.md: ~10 mm)
    step_mm: float = 0.25
    min_stones: int = 2             # stones whose heights must agree
    max_off_u: float = 0.2          # each stone this close to a whole unit at the answer
    clip_u: float = 0.3             # a stone counts at most this far off in the cost
    apart_mm: float = 4.0           # another depth this far away ...
    rival_off_u: float = 0.25       # ... with every stone this close to whole units, or ...
    rival_cost: float = 0.02        # ... a cost this close (per stone): no answer
    min_shift_mm: float = 2.5       # an answer this near the line is the bars' own spread: 0
    scale_tolerance: float = 0.02   # rival depths: the one whose scale is this near the
    scale_margin: float = 0.01      # grooves' and this much nearer than the others wins,
    scale_ratio: float = 0.25       # ...its miss at most this share of the next one's (0: off)
    scale_stones: int = 2           # stones whose grooves show the scale, at least
    floor_u: float = 0.5            # a depth that stands a stone this far under the table: none


@dataclass(frozen=True)
class BuildSettings:
    """Stage 6, the measured build (assemble.py; WORLD.md §4)."""

    max_missing: int = 1            # more stones not found than this: unsure, not missing
    min_unit_px: float = 12.0       # a unit spanning fewer px in the photo: a stone not found
    #                                 is not-found, never missing (our sets: 14.9 px or more)
    # a colour with no fit whose pixels fill this share of a face where stones are searched
    # is not found, never missing: its stone may lie among look-alikes (0: off)
    not_found_faces: float = 0.35
    # a chromatic stone not found whose hue (within this many degrees, at this share of its
    # chroma or more) shows in a stone's shape by the build: not found (lookalike.hued; 0: off)
    hued_degrees: float = 25.0
    hued_chroma: float = 0.5
    # ... and, where the paper in front of the build is blown out (a hot spot's veil washes
    # colours towards white), this chroma, under the neutral limit, and this hue's reach
    # (its paper clipped, the white balance is off there; lookalike.veiled_columns:
    # a column so when more than veiled_share of its paper strip is; 0: off)
    veiled_chroma: float = 8.0
    veiled_degrees: float = 40.0
    veiled_lightness: float = 85.0  # ... on pixels this light (washed) or lighter
    veiled_share: float = 0.5
    # a grey stone not found where something of its look (neutral, or within the colour
    # model's max_distance of its centre) shows in a stone's shape within one band of
    # lightness this wide (L; bands every half of it): not found (lookalike.greyish; 0: off)
    grey_band_l: float = 16.0
    max_spill: float = 0.12         # colour around a groove-less fit beyond this: unclear
    min_score: float = 0.6          # a fit's template response below this: unclear
    min_score_plain: float = 0.65   # ... below this where its grooves did not show
    sure_score: float = 0.7         # below this a fit is weak: no fault rests on it alone
    turn_rival_margin: float = 0.0  # a rival of the other orientation this near: weak too
    cross_rival_margin: float = 0.2  # ... within this, a rival sharing a cell with it
    cross_rival_u2: float = 0.5     # a cell shared: this much of the faces' area (u²)
    rival_not_missing: bool = True  # beside such a rivalled fit no stone is missing: the
    #                                    rival shape may be it (assemble)
    depth_doubt_mm: float = 5.0     # how far a front face usually stands off the build line
    line_allowance_mm: float = 10.0  # how far it may (WORLD.md §5): table vs snow unsure
    settle: bool = True             # rest stones on their support within the depth doubt
    snow_grid: bool = True          # snow is whole units thick: whole-unit heights support
    settle_spread_u: float = 0.5    # two stones settled this much further apart: both weak
    ray_settle_v: bool = True       # a settled upright stone moves along its camera ray
    ray_settle_h: bool = True       # so does a lying one placed by its front/top edge
    part_margin_u: float = 0.02     # side by side faces may overlap this much (assemble.part)
    part_max_u: float = 0.4         # ... and are pushed apart up to this overlap (0: never)
    overlap_weak: bool = True       # ... a deeper overlap: the less sure stone is weak
    base_sigma_u: float = 0.042     # positional doubt of a clean fit (tools/truth_check.py)
    base_sigma_mm: float = 0.67     # ... and in mm, which binds for units under 16 mm
    anchored_sigma_u: float = 0.08  # positional doubt of a bar placed from its top end
    anchored_min_fill: float = 0.45  # a bar placed so counts (weak) seen this much


@dataclass(frozen=True)
class SteadySettings:
    """Stage 7, the verdict's steadiness (referee/check.py): a build judged wrong is measured
    and judged again on the photo a little softer and saved again; a verdict that changes
    is unsure (`photo:unclear`). A penalty card needs a verdict that such a photo gives too."""

    blur_px: float = 0.6            # a Gaussian blur of this sigma (px; 0: not asked)
    jpeg_quality: int = 85          # a JPEG save at this quality (0: not asked)


@dataclass(frozen=True)
class VisionSettings:
    """The whole tree, a node per stage, in the order `pipeline.measure` runs them."""

    pose: PoseSettings = field(default_factory=PoseSettings)
    exposure: ExposureSettings = field(default_factory=ExposureSettings)
    colour: ColourSettings = field(default_factory=ColourSettings)
    rectify: RectifySettings = field(default_factory=RectifySettings)
    in_front: InFrontSettings = field(default_factory=InFrontSettings)
    fit: FitSettings = field(default_factory=FitSettings)
    grooves: GrooveSettings = field(default_factory=GrooveSettings)
    depth: DepthSettings = field(default_factory=DepthSettings)
    build: BuildSettings = field(default_factory=BuildSettings)
    steady: SteadySettings = field(default_factory=SteadySettings)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _node(cls: type, raw: Any, where: str) -> Any:
    if not isinstance(raw, dict):
        raise SettingsError(f"{where}: expected a mapping of settings")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise SettingsError(f"{where}: unknown setting {unknown[0]!r}; the settings here are "
                            f"{', '.join(known)}")
    values = {}
    default = cls()
    for name, value in raw.items():
        old = getattr(default, name)
        if is_dataclass(old):
            values[name] = _node(type(old), value, f"{where}.{name}")
            continue
        kind = type(old)
        ok = isinstance(value, bool) if kind is bool else \
            (isinstance(value, (int, float)) and not isinstance(value, bool))
        if kind is int and ok and float(value) != int(value):
            ok = False
        if not ok:
            raise SettingsError(f"{where}.{name}: expected {kind.__name__}, not {value!r}")
        values[name] = kind(value)
    return replace(default, **values)


def load_settings(path: str | Path) -> VisionSettings:
    """Settings from a YAML file of the tree's shape; missing keys keep their defaults.

    :raises SettingsError: an unreadable file, an unknown key, or a value of the wrong kind.
    """
    path = Path(path)
    try:
        raw = load_user_yaml(read_small_text(path)) or {}
    except FileTooLargeError as e:
        raise SettingsError(f"the vision settings: {e}") from None
    except UnicodeDecodeError as e:
        raise SettingsError(f"the vision settings {path} are not UTF-8 text (byte {e.start})"
                            ) from None
    except yaml.YAMLError as e:
        raise SettingsError(f"the vision settings {yaml_error_sentence(path, e)}") from None
    except ValueError:  # an integer of more than 4300 digits
        raise SettingsError(f"the vision settings {path} hold a number far too long") from None
    except OSError as e:
        raise SettingsError(f"cannot read the vision settings {path}: {e.strerror}") from None
    return _node(VisionSettings, raw, path.name)


def write_settings(settings: VisionSettings, path: str | Path) -> None:
    """The whole tree written out as YAML (how models/vision.yaml is made)."""
    Path(path).write_text("# Vision settings, a node per stage; referee/vision/settings.py "
                          "documents each one.\n"
                          + yaml.safe_dump(settings.to_dict(), sort_keys=False),
                          encoding="utf-8")


@cache
def default_settings() -> VisionSettings:
    """Settings from models/vision.yaml (the defaults where it lacks a key).

    :raises SettingsError: the file holds an unknown key or a wrong value.
    """
    path = MODELS / "vision.yaml"
    return load_settings(path) if path.exists() else VisionSettings()
