"""Station profiles: one camera beside one builder's mat (WORLD.md §6).

A station is read from a photo set's `station.json` (its colour photo is learned on load) or
from a profile YAML in calibration/stations/ written by `referee calibrate`. Every field is
checked; a wrong one raises `StationError` naming it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from referee.errors import yaml_error_sentence
from referee.files import FileTooLargeError, load_user_yaml, read_small_text
from referee.vision.colour import ColourModel, check_centres
from referee.vision.errors import StationError, VisionError
from referee.vision.photo import is_photo_file

LEVELS = ("normal", "advanced")
MAX_DIST_COEFF = 1000.0  # |a distortion coefficient| of a real lens, even a fisheye's
MAX_SIDE_PX = 65_535  # a camera's image side at most (JPEG's own limit)
# A real camera's field of view across a side of its image, in degrees. The narrowest aimed
# at a mat: a phone's 10x periscope telephoto (about 240 mm equivalent) sees 8.6° across a
# photo's long side, 4.8° across the short side of a 16:9 one. The widest: a phone's
# ultra-wide sees about 110°, and a camera matrix (a pinhole's) can describe nothing of
# 180° (f = 0); a fisheye's wider view lies in its distortion, not in f.
FOV_DEG = (3.0, 170.0)


@dataclass(frozen=True)
class Station:
    """id; level (`normal`|`advanced`); unit_mm; image_size (w, h) px; camera_matrix 3×3
    float64 (px); dist_coeffs (k,) float64, k = 4, 5, 8, 12 or 14 (OpenCV's order, WORLD.md
    §6); colour_model (learned or priors); mat_pose: (rvec, tvec), each (3,) float64, of this
    station's mat as calibrated (board → camera, Rodrigues and mm), or None: it tells the
    station's own mat from a neighbour's identical one; kept_colour_model: colours learnt at
    the other level, kept while this level's are not learnt (`referee calibrate level`
    turns to a level whose stones they lack, and back again), or None."""

    id: str
    level: str
    unit_mm: float
    image_size: tuple[int, int]
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    colour_model: ColourModel
    mat_pose: tuple[np.ndarray, np.ndarray] | None = None
    kept_colour_model: ColourModel | None = None

    @property
    def colours(self) -> str:
        """The level's stone letters as one string, `GBP` or `GBPO` (WORLD.md §1)."""
        return "GBP" if self.level == "normal" else "GBPO"

    def camera_for(self, shape: tuple[int, ...]) -> np.ndarray:
        """The camera matrix scaled to a photo of `shape` (H×W...), e.g. a phone's resize."""
        w0, h0 = self.image_size
        h, w = shape[:2]
        if (w, h) == (w0, h0):
            return self.camera_matrix
        sx, sy = w / w0, h / h0
        return np.diag([sx, sy, 1.0]) @ self.camera_matrix

    def to_profile(self) -> dict:
        return {"id": self.id, "level": self.level, "unit_mm": self.unit_mm,
                "image_size": list(self.image_size),
                "camera_matrix": self.camera_matrix.round(6).tolist(),
                "dist_coeffs": self.dist_coeffs.round(8).tolist(),
                "colour_model": self.colour_model.to_dict(),
                **({"mat_pose": {"rvec": self.mat_pose[0].round(6).tolist(),
                                 "tvec": self.mat_pose[1].round(3).tolist()}}
                   if self.mat_pose is not None else {}),
                **({"kept_colour_model": self.kept_colour_model.to_dict()}
                   if self.kept_colour_model is not None else {})}


def focal_range(side_px: float) -> tuple[float, float]:
    """(shortest, longest) focal length, px, a real camera has across an image side of
    `side_px` px: f = side / (2·tan(fov / 2)) for the widest and the narrowest field of view
    of `FOV_DEG`."""
    narrow, wide = (math.radians(a) / 2 for a in FOV_DEG)
    return side_px / (2 * math.tan(wide)), side_px / (2 * math.tan(narrow))


def focal_outside(k: np.ndarray, size: tuple[int, int]
                  ) -> tuple[str, float, int, str, float, float] | None:
    """The first focal length of the camera matrix `k` (px) that no real camera has for its
    image side (fx across the width, fy across the height of `size`, (w, h) px: a field of
    view outside `FOV_DEG`, or NaN), as (name, value, side px, "wide" or "high", shortest,
    longest); None when both are a real camera's."""
    for name, f, side, across in (("fx", float(k[0, 0]), size[0], "wide"),
                                  ("fy", float(k[1, 1]), size[1], "high")):
        lo, hi = focal_range(side)
        if not lo <= f <= hi:
            return name, f, side, across, lo, hi
    return None


def check_focal_lengths(k: np.ndarray, size: tuple[int, int], where: str) -> None:
    """Each focal length of the camera matrix `k` is a real camera's (`focal_outside`). fx
    1e9 px, or 0.001 px, is no lens: a typo or a calibration that went wrong, whose every
    verdict would be wrong or unsure.

    :raises StationError: naming the field, the value and the range.
    """
    bad = focal_outside(k, size)
    if bad is not None:
        name, f, side, across, lo, hi = bad
        raise StationError(
            f"{where}: camera_matrix's {name} is {f:.6g} px, which no real camera has "
            f"for an image {side} px {across}: {name} is {hi:.0f} px for a field of view of "
            f"{FOV_DEG[0]:g}° across it, {lo:.3g} px for {FOV_DEG[1]:g}°; calibrate "
            "the camera again (`referee calibrate camera`)")


def _field(raw: dict, name: str, where: str):
    if name not in raw:
        raise StationError(f"{where}: the field {name!r} is missing")
    return raw[name]


def _is_number(value: Any) -> bool:
    """An int or a float as JSON or YAML gives it; not text ("16"), true/false or null."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numbers(value: Any) -> Any:
    """`value` (a number or nested lists of them) as it is. :raises TypeError: something in
    it is not a number (`_is_number`; numpy took "700" for 700 where `unit_mm: "16"` is
    refused)."""
    if isinstance(value, (list, tuple)):
        return [_numbers(v) for v in value]
    if not _is_number(value):
        raise TypeError(f"{value!r} is not a number")
    return value


def station_from_dict(raw: dict, where: str, colour_model: ColourModel | None = None) -> Station:
    """Check and convert a station mapping.

    :raises StationError: a field is missing or of the wrong kind (named in the message), or
        a number too large for a float anywhere (a 400-digit integer).
    """
    try:
        return _station_from_dict(raw, where, colour_model)
    except (OverflowError, TypeError):  # an integer past float's range, in any field
        raise StationError(f"{where}: a number in it is far too large for a station's "
                           "(or a field holds something that is not a number)") from None


def _station_from_dict(raw: dict, where: str, colour_model: ColourModel | None) -> Station:
    if not isinstance(raw, dict):
        raise StationError(f"{where}: is not a station profile (it holds no fields such as "
                           "level, unit_mm and camera_matrix; `referee calibrate` writes one)")
    level = _field(raw, "level", where)
    if level not in LEVELS:
        raise StationError(f"{where}: level must be normal or advanced, not {level!r}")
    given_unit = raw.get("unit_mm", 16.0)
    if not _is_number(given_unit):
        # "16" in quotes is text: a hand edit gone astray, said so rather than guessed at
        raise StationError(f"{where}: unit_mm must be a number, not {given_unit!r}")
    unit = float(given_unit)
    if not 5.0 <= unit <= 60.0:
        raise StationError(f"{where}: unit_mm {unit} is not a plausible piece size (5-60 mm)")
    bad_size = StationError(f"{where}: image_size must be [width, height] in px, each 1 to "
                            f"{MAX_SIDE_PX}")
    given = _field(raw, "image_size", where)
    # a list of two numbers: a string was read letter by letter, infinity raised OverflowError
    if not isinstance(given, (list, tuple)) or len(given) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)
            for v in given):
        raise bad_size
    size = (int(given[0]), int(given[1]))
    if not all(1 <= v <= MAX_SIDE_PX for v in size):
        raise bad_size
    bad_k = StationError(f"{where}: camera_matrix must be 3×3 numbers with positive focal "
                         "lengths")
    try:
        k = np.asarray(_numbers(_field(raw, "camera_matrix", where)), np.float64)
    except (TypeError, ValueError, RecursionError):
        raise bad_k from None
    if k.shape != (3, 3) or not np.all(np.isfinite(k)) or k[0, 0] <= 0 or k[1, 1] <= 0:
        raise bad_k
    if not (0 <= k[0, 2] <= size[0] and 0 <= k[1, 2] <= size[1]):
        # a break-it trial's cx of -1e6 read as "two referee mats are in view"
        raise StationError(f"{where}: camera_matrix's principal point ({k[0, 2]:g}, "
                           f"{k[1, 2]:g}) px lies outside the {size[0]}×{size[1]} image; "
                           "calibrate the camera again")
    if k[1, 0] != 0 or k[2, 0] != 0 or k[2, 1] != 0 or k[2, 2] != 1:  # a pinhole camera's
        raise StationError(f"{where}: camera_matrix must be a camera's, [[fx, 0, cx], "
                           "[0, fy, cy], [0, 0, 1]] (as `referee calibrate camera` writes it)")
    check_focal_lengths(k, size, where)
    bad_d = StationError(f"{where}: dist_coeffs must be 4, 5, 8, 12 or 14 finite numbers")
    try:
        d = np.asarray(_numbers(raw.get("dist_coeffs") or [0, 0, 0, 0, 0]), np.float64).ravel()
    except (TypeError, ValueError, RecursionError):
        raise bad_d from None
    if d.size not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(d)):
        raise bad_d
    if np.abs(d).max(initial=0.0) > MAX_DIST_COEFF:
        # 1e30 ended in a traceback from solvePnP, 3e6 in 30 s of drawing the paper's
        # margins far outside the photo (a break-it trial)
        raise StationError(f"{where}: dist_coeffs hold {np.abs(d).max():g}, which no lens "
                           f"has (at most {MAX_DIST_COEFF:g}); calibrate the camera again")
    mat_pose = None
    if raw.get("mat_pose") is not None:
        try:
            mp = raw["mat_pose"]
            mat_pose = (np.asarray(_numbers(mp["rvec"]), np.float64).reshape(3),
                        np.asarray(_numbers(mp["tvec"]), np.float64).reshape(3))
        except (TypeError, ValueError, KeyError, RecursionError):
            raise StationError(f"{where}: mat_pose must hold rvec and tvec, three numbers "
                               "each") from None
        if not all(np.all(np.isfinite(v)) for v in mat_pose):
            raise StationError(f"{where}: mat_pose must hold finite numbers")
    colours = "GBP" if level == "normal" else "GBPO"
    if colour_model is None and raw.get("colour_model"):
        bad_model = StationError(f"{where}: colour_model needs centres for "
                                 f"{', '.join(colours)} and white, each three numbers (L, a, b);"
                                 " calibrate the colours again")
        try:
            colour_model = ColourModel.from_dict(raw["colour_model"])
            centres = [colour_model.centres[c] for c in [*colours, "white"]]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise bad_model from None
        if any(len(lab) != 3 or not all(np.isfinite(lab)) for lab in centres):
            raise bad_model
        try:  # a hand edit (B and P swapped: a break-it trial's card judged the other way)
            check_centres({c: raw["colour_model"]["centres"][c] for c in colours})
        except ValueError as e:
            raise StationError(f"{where}: colour_model does not hold the stones' colours "
                               f"({e}); calibrate the colours again") from None
        given = raw["colour_model"]
        weight, dist = given.get("lightness_weight", 0.4), given.get("max_distance", 22.0)
        # numbers, and of a colour distance's size (1e30 made every stone "over-exposed")
        if not (_is_number(weight) and _is_number(dist) and 0 < weight <= 10
                and 0 < dist <= 200):
            raise StationError(f"{where}: colour_model's lightness_weight (0-10) and "
                               "max_distance (0-200) must be positive numbers; calibrate the "
                               "colours again")
    kept = None
    if raw.get("kept_colour_model") is not None:
        try:
            kept = ColourModel.from_dict(raw["kept_colour_model"])
            if not all(len(lab) == 3 and all(np.isfinite(lab)) for lab in kept.centres.values()):
                raise ValueError
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StationError(f"{where}: kept_colour_model must hold centres of three "
                               "numbers (L, a, b) each; delete it, or calibrate the colours "
                               "again") from None
    return Station(str(raw.get("id", Path(where).stem)), level, unit, size, k, d,
                   colour_model or ColourModel.priors(), mat_pose, kept)


def load_station(path: str | Path, learn_colours: bool = True) -> Station:
    """A station from a `station.json` (photo-set format) or a profile `.yaml`.

    For a station.json with a colour photo, the colour model is learned from that photo (as a
    user's setup would); without one, or when the photo shows no usable stack, default
    priors are used (lower confidence; `colour_model.source` says why).
    :raises StationError: unreadable file or a wrong field.
    """
    path = Path(path)
    try:
        text = read_small_text(path, "utf-8-sig")  # a byte order mark: Windows Notepad's
    except OSError as e:
        raise StationError(f"cannot read station file {path}: {e.strerror}") from None
    except FileTooLargeError as e:
        raise StationError(str(e)) from None
    except UnicodeDecodeError as e:
        if is_photo_file(path):
            raise StationError(f"{path} is a photo, not a station file: give the station's "
                               "file (its station.json, or calibration/stations/NAME.yaml "
                               "that `referee calibrate` writes)") from None
        raise StationError(f"{path} is not UTF-8 text (byte {e.start}); save it as plain "
                           "text") from None
    try:
        raw = json.loads(text) if path.suffix == ".json" else load_user_yaml(text)
    except json.JSONDecodeError as e:
        raise StationError(f"{path}, line {e.lineno}, is not valid JSON ({e.msg})") from None
    except yaml.YAMLError as e:
        raise StationError(yaml_error_sentence(path, e)) from None
    except ValueError:  # an integer of more than 4300 digits (Python's int limit)
        raise StationError(f"{path} holds a number far too long to be a station's") from None
    except RecursionError:  # brackets nested thousands deep: no station file
        raise StationError(f"{path} is not a station file (its lists are nested too "
                           "deep)") from None
    station = station_from_dict(raw, str(path))
    cal = raw.get("colour_calibration") if isinstance(raw, dict) else None
    if learn_colours and cal and not raw.get("colour_model"):
        from referee.vision.calibration import learn_colours_from_photo

        try:
            photo = path.parent / cal["image"]
            order = cal.get("stack_bottom_to_top", station.colours)
        except (TypeError, KeyError):
            raise StationError(f"{path}: colour_calibration needs an 'image' field") from None
        check_stack_order(order, station.colours, str(path))
        try:
            model, _ = learn_colours_from_photo(photo, station, order)
        except VisionError as e:  # a poor colour photo must not stop the station
            model = replace(ColourModel.priors(), source=f"{UNUSED_PHOTO}{e})")
        station = station_from_dict(raw, str(path), colour_model=model)
    return station


UNUSED_PHOTO = "priors ("  # a colour model's source when the station's colour photo failed


def unused_colour_photo(station: Station) -> str | None:
    """Why the station's colour photo could not be used (its colours are then the default
    priors, `load_station`), or None when it was, or there is none."""
    source = str(station.colour_model.source)  # a hand-edited profile may hold anything
    return source[len(UNUSED_PHOTO):-1] if source.startswith(UNUSED_PHOTO) else None


def check_stack_order(order: object, colours: str, where: str) -> None:
    """The colour photo's stack, bottom to top: each of the level's stones once.

    :raises StationError: another order string (e.g. `GGGG`, `XYZ`).
    """
    if not isinstance(order, str) or sorted(order) != sorted(colours):
        raise StationError(f"{where}: the colour stack must hold each of {colours} once, "
                           f"bottom to top (e.g. {colours}), not {order!r}")


def profile_path(name: str) -> Path:
    """Where a user's station profile `name` lives: calibration/stations/<name>.yaml.

    :raises StationError: a name that is not 1–64 letters, digits, '-', '_' or '.'.
    """
    import re

    from referee.paths import CALIBRATION

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", name or ""):
        raise StationError(f"a station name is 1-64 letters, digits, '-', '_' or '.', "
                           f"not {str(name)[:40]!r}")
    return CALIBRATION / "stations" / f"{name}.yaml"


def save_profile(name: str, profile: dict, path: Path | None = None) -> Path:
    """Write a station profile whole or not at all (a temporary file renamed over it): to
    `path` if given (JSON for a .json file, else YAML), else to calibration/stations/.

    :raises StationError: a bad name; OSError: the folder cannot be written.
    """
    import os

    path = Path(path) if path is not None else profile_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    text = (json.dumps(profile, indent=2, ensure_ascii=False) if path.suffix == ".json"
            else yaml.safe_dump(profile, sort_keys=False, allow_unicode=True))
    tmp.write_text(text, encoding="utf-8")
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    tmp.replace(path)
    return path


def save_colour_calibration(station: Station, model: ColourModel,
                            mat_pose: tuple[np.ndarray, np.ndarray],
                            source: dict, path: Path | None = None) -> Path:
    """Keep a station's new colour model, its mat's pose and where the colour photo came from
    (`source`: the camera's kind and device or pixel format, or a file; WORLD.md §6) in its
    profile under calibration/stations/ (a demo station gets its own profile there, which
    wins over the demo's), or in the profile file `path` if given.

    :raises StationError, OSError: as save_profile.
    """
    profile = replace(station, colour_model=model, kept_colour_model=None,  # superseded
                      mat_pose=(np.asarray(mat_pose[0], np.float64).reshape(3),
                                np.asarray(mat_pose[1], np.float64).reshape(3))).to_profile()
    profile["colour_source"] = source
    return save_profile(station.id, profile, path)
