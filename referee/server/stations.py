"""The station catalogue: which station profiles a build place can use, by id.

Profiles come from models/demo/stations/<id>/station.json (the demo's dev-scene stations) and
calibration/stations/<id>.yaml|.yml|.json (a user's own, made by calibration).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import yaml

from referee.errors import RefereeError
from referee.files import load_user_yaml, read_small_text
from referee.paths import CALIBRATION, MODELS
from referee.server.errors import ServerError
from referee.vision.station import load_station

DEMO = MODELS / "demo"


class UnknownStationError(ServerError):
    """A station id that is in no catalogue folder."""


def catalogue() -> dict[str, Path]:
    """Station id -> its profile file, demo stations first; a user's profile of the same id
    wins."""
    out: dict[str, Path] = {}
    for d in sorted((DEMO / "stations").glob("*/station.json")):
        out[d.parent.name] = d
    folder = CALIBRATION / "stations"
    if folder.is_dir():
        for f in sorted(folder.iterdir()):
            if f.suffix in (".yaml", ".yml", ".json"):
                out[f.stem] = f
    return out


def station_path(station_id: str) -> Path:
    """:raises UnknownStationError: naming the ids there are."""
    cat = catalogue()
    if station_id not in cat:
        raise UnknownStationError(f"no station {station_id!r}; stations: "
                                  f"{', '.join(cat) or 'none'} (calibrate one with "
                                  "`referee calibrate`, or use a demo station)")
    return cat[station_id]


def colours_of(raw: dict, folder: Path | None = None) -> str:
    """"calibrated" when a profile's colours were learned (a colour model not made of the
    defaults, or a colour photo to learn them from that is there: `folder` is the profile's,
    where its `colour_calibration.image` lies), else "default". A new user's trial copied a
    photo set's station.json to calibration/stations/ without its colour photo: it was
    listed as calibrated, and judged on the default colours."""
    model = raw.get("colour_model")
    if isinstance(model, dict):
        return "default" if model.get("source", "photo") == "priors" else "calibrated"
    cal = raw.get("colour_calibration")
    if not cal:
        return "default"
    image = cal.get("image") if isinstance(cal, dict) else None
    if folder is not None and (not isinstance(image, str) or
                               not (folder / image).is_file()):
        return "default"
    return "calibrated"


def describe() -> list[dict]:
    """[{id, level, source, colours, usable}] for the new-table form and GET /api/stations.

    A profile that does not load (`load_station` without learning its colours: the file and
    its fields) is listed with `usable` false and level "?": the form shows it greyed out as
    one to fix or calibrate again (it was offered as "broken · ?", and refused only once the
    table was made)."""
    rows = []
    for sid, path in catalogue().items():
        level, colours, usable = "?", "default", False
        with contextlib.suppress(RefereeError, OSError, ValueError, yaml.YAMLError,
                                 AttributeError, RecursionError):
            text = read_small_text(path)
            raw = json.loads(text) if path.suffix == ".json" else load_user_yaml(text)
            level = str(raw.get("level", "?"))
            colours = colours_of(raw, path.parent)
            load_station(path, learn_colours=False)
            usable = True
        rows.append({"id": sid, "level": level, "colours": colours, "usable": usable,
                     "source": "demo" if path.is_relative_to(DEMO) else "calibration"})
    return rows


def first_choices(rows: list[dict]) -> list[str]:
    """The station ids of `describe()`'s rows in the order the new-table form offers them to
    places 1, 2, 3: one level's stations before the other's (a table plays one level, and a
    mix is refused), and within each a user's own calibrated stations first, then the demo
    stations, then those still on the default colours, then profiles that do not load (a
    new user's trial: the third place got the uncalibrated example while a calibrated
    station was free); catalogue order within each. The level first is the one with more
    calibrated stations, on a tie the one whose best station ranks higher, then the normal
    level (the form's own default): a user's one advanced station beside two normal demo
    stations leaves the places normal (a re-trial got practice · Advanced beside D03 and
    could not make the table)."""
    def rank(row: dict) -> int:
        if not row.get("usable", True):
            return 3
        if row["colours"] != "calibrated":
            return 2
        return 1 if row["source"] == "demo" else 0

    def pull(level: str) -> tuple[int, int, bool]:
        mine = [rank(r) for r in rows if r["level"] == level]
        return (sum(k < 2 for k in mine), -min(mine, default=4), level == "normal")

    first = max({str(r["level"]) for r in rows if r.get("usable", True)} or {"normal"},
                key=pull)
    return [r["id"] for r in sorted(rows, key=lambda r: (r["level"] != first, rank(r)))]
