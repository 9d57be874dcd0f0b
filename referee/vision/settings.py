"""Every vision threshold, named, in one place (STYLE.md, chesscog's `cfg`).

Defaults live in models/vision.yaml; a station profile may override a few. Values are
geometric or photometric limits, never fitted to single photos.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cache

import yaml

from referee.paths import MODELS


@dataclass(frozen=True)
class VisionSettings:
    min_markers: int = 3            # markers (or ...)
    min_charuco: int = 4            # ... ChArUco corners needed for a pose
    min_rows_spread_mm: float = 20.0  # board points must span more than one row
    max_pose_rms_px: float = 3.0    # reprojection error above this: the pose is not trusted
    several_ratio: float = 2.0      # two mats whose distances (to the stored pose or the
    #                                 photo's bottom centre) are within this factor: unsure
    black_level: float = 20.0       # a photo whose brightest pixel is below this: black
    flat_std: float = 2.0           # a photo this uniform (grey-level std) shows nothing
    px_per_mm: float = 2.0          # resolution of the rectified front view
    view_height_mm: float = 260.0   # how high above the table the front view reaches
    min_paper_luma: float = 40.0    # mean paper brightness (0-255) below this: too dark
    clipped_level: float = 250.0    # a pixel this bright in every channel is blown out
    max_blown_face: float = 0.25    # a stone's face this much blown out: its colour is lost
    min_stone_fill: float = 0.6     # share of a fitted front face that must show its colour
    missing_fill: float = 0.15      # below this share of a face, the stone is not there
    max_missing: int = 1            # more stones not found than this: unsure, not missing
    slack_fill_tolerance: float = 0.5  # a slide losing less than this share of what a whole
    #                                    bar loses: the bar is not pinned along its length
    max_slack_u: float = 0.5        # a bar that can slide this far along its length: hidden
    max_spill: float = 0.12         # colour around a groove-less fit beyond this: unclear
    depth_doubt_mm: float = 5.0     # how far a front face may stand off the build line
    table_band_mm: float = 3.0      # a bottom this near the table (past the depth doubt): on it
    neutral_chroma: float = 12.0    # Lab chroma below this is neutral (snow in any light)
    min_snow_lightness: float = 40.0  # neutral and lighter than this may be snow (0-100)
    channel_order_ratio: float = 1.0  # another channel order fitting the stones this much better
    max_colour_distance: float = 8.0  # found stones farther (Lab) from their calibrated colour
    min_unknown_score: float = 0.6  # a bar of no known colour fitting this well may be a stone
    touch_reach_u: float = 0.5      # a stone this near another leans on it (held up)
    anchor_top: bool = True         # place a standing bar whose foot is hidden from its top
    anchored_sigma_u: float = 0.08  # positional doubt of a bar placed from its top end
    settle: bool = True             # rest stones on their support within the depth doubt
    snow_grid: bool = True          # snow is whole units thick: whole-unit heights support
    base_sigma_u: float = 0.03      # positional doubt of a clean fit
    use_grooves: bool = True        # refine positions on the stones' grooves
    groove_bonus: float = 0.1       # score bonus of a candidate whose grooves show
    table_classes: int = 3          # k-means colours learned from the table around the mat


@cache
def default_settings() -> VisionSettings:
    """Settings from models/vision.yaml, falling back to the dataclass defaults."""
    path = MODELS / "vision.yaml"
    if not path.exists():
        return VisionSettings()
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    known = {f.name for f in fields(VisionSettings)}
    return replace(VisionSettings(), **{k: v for k, v in raw.items() if k in known})
