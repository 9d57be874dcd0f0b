"""Station profiles: one camera beside one builder's mat (WORLD.md §6).

A station is read from a photo set's `station.json` (its colour photo is learned on load) or
from a profile YAML in calibration/stations/ written by `referee calibrate`. Every field is
checked; a wrong one raises `StationError` naming it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import yaml

from referee.vision.colour import ColourModel
from referee.vision.errors import StationError, VisionError

LEVELS = ("normal", "advanced")


@dataclass(frozen=True)
class Station:
    """id; level (`normal`|`advanced`); unit_mm; image_size (w, h) px; camera_matrix 3×3;
    dist_coeffs (5,); colour_model (learned or priors)."""

    id: str
    level: str
    unit_mm: float
    image_size: tuple[int, int]
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    colour_model: ColourModel

    @property
    def colours(self) -> str:
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
                "colour_model": self.colour_model.to_dict()}


def _field(raw: dict, name: str, where: str):
    if name not in raw:
        raise StationError(f"{where}: the field {name!r} is missing")
    return raw[name]


def station_from_dict(raw: dict, where: str, colour_model: ColourModel | None = None) -> Station:
    """Check and convert a station mapping.

    :raises StationError: a field is missing or of the wrong kind (named in the message).
    """
    if not isinstance(raw, dict):
        raise StationError(f"{where}: expected a mapping of station fields")
    level = _field(raw, "level", where)
    if level not in LEVELS:
        raise StationError(f"{where}: level must be normal or advanced, not {level!r}")
    try:
        unit = float(raw.get("unit_mm", 16.0))
    except (TypeError, ValueError):
        raise StationError(f"{where}: unit_mm must be a number, "
                           f"not {raw.get('unit_mm')!r}") from None
    if not 5.0 <= unit <= 60.0:
        raise StationError(f"{where}: unit_mm {unit} is not a plausible piece size (5-60 mm)")
    try:
        size = tuple(int(v) for v in _field(raw, "image_size", where))
        assert len(size) == 2 and min(size) > 0
    except (TypeError, ValueError, AssertionError):
        raise StationError(f"{where}: image_size must be [width, height] in px") from None
    try:
        k = np.asarray(_field(raw, "camera_matrix", where), np.float64)
        assert k.shape == (3, 3) and np.all(np.isfinite(k)) and k[0, 0] > 0 and k[1, 1] > 0
    except (TypeError, ValueError, AssertionError):
        raise StationError(f"{where}: camera_matrix must be 3×3 numbers with positive "
                           "focal lengths") from None
    try:
        d = np.asarray(raw.get("dist_coeffs") or [0, 0, 0, 0, 0], np.float64).ravel()
        assert d.size in (4, 5, 8, 12, 14) and np.all(np.isfinite(d))
    except (TypeError, ValueError, AssertionError):
        raise StationError(f"{where}: dist_coeffs must be 4, 5, 8, 12 or 14 finite "
                           "numbers") from None
    colours = "GBP" if level == "normal" else "GBPO"
    if colour_model is None and raw.get("colour_model"):
        try:
            colour_model = ColourModel.from_dict(raw["colour_model"])
            for c in [*colours, "white"]:
                lab = colour_model.centres[c]
                assert len(lab) == 3 and all(np.isfinite(lab))
        except (KeyError, TypeError, ValueError, IndexError, AssertionError):
            raise StationError(f"{where}: colour_model needs centres for {', '.join(colours)} "
                               "and white, each three numbers (L, a, b); calibrate the "
                               "colours again") from None
    return Station(str(raw.get("id", Path(where).stem)), level, unit, size, k, d,
                   colour_model or ColourModel.priors())


def load_station(path: str | Path, learn_colours: bool = True) -> Station:
    """A station from a `station.json` (photo-set format) or a profile `.yaml`.

    For a station.json with a colour photo, the colour model is learned from that photo (as a
    user's setup would); without one, or when the photo shows no usable stack, default
    priors are used (lower confidence; `colour_model.source` says why).
    :raises StationError: unreadable file or a wrong field.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise StationError(f"cannot read station file {path}: {e.strerror}") from None
    try:
        raw = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as e:
        raise StationError(f"{path}: not valid {path.suffix.lstrip('.') or 'YAML'}: {e}") \
            from None
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
            model = learn_colours_from_photo(photo, station, order)
        except VisionError as e:  # a poor colour photo must not stop the station
            model = replace(ColourModel.priors(), source=f"priors ({e})")
        station = station_from_dict(raw, str(path), colour_model=model)
    return station


def check_stack_order(order, colours: str, where: str) -> None:
    """The colour photo's stack, bottom to top: each of the level's stones once.

    :raises StationError: another order string (e.g. `GGGG`, `XYZ`).
    """
    if not isinstance(order, str) or sorted(order) != sorted(colours):
        raise StationError(f"{where}: the colour stack must hold each of {colours} once, "
                           f"bottom to top (e.g. {colours}), not {order!r}")
