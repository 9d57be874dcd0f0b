"""The one call into vision: a frozen photo, its station and the round's target → a verdict.

Wraps `referee.check.check_photo` (where pixels meet the rules) and loads station profiles once.
The verdict is exactly what the referee computed; this module never makes one up.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

_stations: dict[str, Any] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Judged:
    """verdict: the WORLD.md §4 dict; overlay_jpeg: the photo with fitted stones and faults;
    build: the MeasuredBuild as a dict; timings_ms: per stage; mat_pose: the station's mat
    pose (rvec, tvec) when it alone was in view and sure (check.PhotoCheck), else None."""

    verdict: dict[str, Any]
    overlay_jpeg: bytes | None
    build: dict[str, Any]
    timings_ms: dict[str, float]
    mat_pose: tuple[list[float], list[float]] | None = None


def load_station(path: Path) -> Any:
    """The station profile at `path` (a folder with station.json, a station.json, or a
    profile YAML), cached. :raises StationError: (vision) for a bad profile."""
    from referee.vision.station import load_station as _load

    key = str(path)
    with _lock:
        if key not in _stations:
            _stations[key] = _load(path)
        return _stations[key]


def decode(data: bytes) -> np.ndarray:
    """H×W×3 uint8 BGR. :raises PhotoError: a corrupt or unsupported file."""
    from referee.check import decode_photo

    return decode_photo(data)


def forget_station(path: Path) -> None:
    """Drop a cached profile (it was calibrated again)."""
    with _lock:
        _stations.pop(str(path), None)


def judge_photo(image_bgr: np.ndarray, station_path: Path, target_rows: list[str],
                face: Any, level: str,
                mat_pose: tuple[list[float], list[float]] | None = None,
                intrinsics: str = "station") -> Judged:
    """Run the referee on one photo; `mat_pose` (rvec, tvec), if given, is the station's mat
    pose as last seen for sure, used instead of the profile's; intrinsics "from-mat" for a
    phone's photo of a camera's station (vision.pipeline.phone_station). Errors of vision
    propagate (the caller records them)."""
    import dataclasses

    import cv2

    from referee.check import check_photo

    station = load_station(station_path)
    if mat_pose is not None:
        station = dataclasses.replace(station, mat_pose=(
            np.asarray(mat_pose[0], np.float64).reshape(3),
            np.asarray(mat_pose[1], np.float64).reshape(3)))
    # the overlay without its English captions: the phones show them in their own language
    result = check_photo(image_bgr, station, list(target_rows), face, level, captions=False,
                         intrinsics=intrinsics)
    ok, buf = (False, None) if result.overlay_bgr is None else \
        cv2.imencode(".jpg", result.overlay_bgr, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return Judged(result.verdict.to_dict(), buf.tobytes() if ok and buf is not None else None,
                  result.build.to_dict(),
                  {k: round(float(v), 1) for k, v in dict(result.timings_ms).items()},
                  result.mat_pose)
