"""The labelled photo-set format of WORLD.md §6, and `eval` over it.

An evaluation never reads `truth`; it uses each station's colour photo and intrinsics as a
user's setup would. Time is counted from the decoded image to the verdict.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from referee.files import read_small_text
from referee.vision.errors import PhotoError, VisionError

if TYPE_CHECKING:
    from referee.vision.station import Station


class DatasetError(VisionError):
    """A folder that is not a photo set in the WORLD.md §6 format."""


@dataclass(frozen=True)
class Scene:
    """One labelled photo: id, station id, level, image path, target rows, die face text,
    expected verdict and fault codes, and its conditions (label.json's `conditions`, `plain`
    without them); from label.json, never its `truth`."""

    id: str
    station: str
    level: str
    image: Path
    target: tuple[str, ...]
    die: str
    verdict: str
    faults: tuple[str, ...]
    conditions: tuple[str, ...] = ("plain",)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(read_small_text(path, "utf-8-sig"))  # a BOM, as editors write
    except (OSError, ValueError) as e:  # not JSON (JSONDecodeError), not UTF-8, too large
        raise DatasetError(f"cannot read {path}: {e}") from None
    except RecursionError:
        raise DatasetError(f"cannot read {path}: its lists are nested too deep") from None


def scenes(root: Path, bad: list[tuple[str, str]] | None = None) -> Iterator[Scene]:
    """The scenes of a set, sorted by id.

    bad: when given, a scene whose label cannot be read is added to it as (id, why) and
    skipped, instead of raising.
    :raises DatasetError: no such folder, no scenes/ folder, or (without `bad`) a label
        without a needed field.
    """
    root = Path(root)
    folder = root / "scenes"
    if not root.exists():
        raise DatasetError(f"{root} does not exist: give the folder of a photo set")
    if not root.is_dir():
        raise DatasetError(f"{root} is a file, not a photo set's folder")
    if not folder.is_dir():
        raise DatasetError(f"{root} is not a photo set: it has no scenes/ folder")
    for d in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            yield _scene(d)
        except DatasetError as e:
            if bad is None:
                raise
            bad.append((d.name, str(e)))


STATION_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}")  # a folder of stations/
VERDICTS = ("correct", "wrong", "unsure")


def _scene(d: Path) -> Scene:
    """One scene of a set, its label checked: a station named as a folder of the set's
    stations/ (never a path), a known level and die face (`DieFace.parse`), a target that is
    a card grid of that level (`parse_grid`), and a verdict of WORLD.md §4.

    :raises DatasetError: the label is unreadable or a field is missing or wrong (named).
    """
    from referee.errors import RefereeError
    from referee.tuki.cards import parse_grid, turn
    from referee.tuki.die import DieFace

    where = d / "label.json"
    lab = _read_json(where)
    try:
        die = lab["die"]
        if not isinstance(die, dict):  # was "'str' object has no attribute 'get'"
            raise TypeError('die must be {"animal": "bear", "white_square": false} or alike')
        white = die.get("white_square", False)
        if not isinstance(white, bool):  # "false" in quotes is text, and was taken as true
            raise TypeError("die.white_square must be true or false")
        face = die["animal"] + ("+white" if white else "")
        conditions = tuple(str(c) for c in lab.get("conditions") or ()) or ("plain",)
        sid = lab.get("id")
        sc = Scene(sid if isinstance(sid, str) and sid else d.name, lab["station"],
                   lab.get("level", "normal"), d / "image.jpg", tuple(lab["target"]), face,
                   lab["verdict"], tuple(lab.get("faults", [])), conditions)
    except (KeyError, TypeError, AttributeError) as e:
        raise DatasetError(f"{where}: missing or wrong field {e}") from None
    if not isinstance(sc.station, str) or not STATION_NAME.fullmatch(sc.station) or \
            ".." in sc.station:
        raise DatasetError(f"{where}: station must name a folder of stations/, not "
                           f"{sc.station!r}")
    if sc.level not in ("normal", "advanced"):
        raise DatasetError(f"{where}: level must be normal or advanced, not {sc.level!r}")
    if sc.verdict not in VERDICTS:
        raise DatasetError(f"{where}: verdict must be correct, wrong or unsure, not "
                           f"{sc.verdict!r}")
    try:
        DieFace.parse(face)
        target = tuple(parse_grid(sc.target, sc.level))
        card = lab.get("card")
        turned = None
        if isinstance(card, dict) and card.get("grid") is not None:
            turned = tuple(turn(parse_grid(card["grid"], sc.level), face))
    except (RefereeError, TypeError, AttributeError) as e:
        raise DatasetError(f"{where}: {e}") from None
    if turned is not None and turned != target:
        # the target is the card turned by the die (WORLD.md §6): a label whose target says
        # otherwise is judged against neither (a break-it trial: a confident "got wrong")
        raise DatasetError(f"{where}: its target is not its card turned by its die ({face})")
    return sc


@dataclass
class SceneResult:
    """One judged scene: the expected and the given verdict, the fault and reason codes, ms
    from the decoded image to the verdict, the expected fault codes, timings per stage (or
    `{"error": why}` for a scene that could not run), its station and conditions."""

    id: str
    expected: str
    got: str
    faults: list[str]
    reasons: list[str]
    ms: float
    expected_faults: list[str] = field(default_factory=list)
    stage_ms: dict[str, Any] = field(default_factory=dict)
    station: str = ""
    conditions: tuple[str, ...] = ("plain",)


PAPER_CLIPPED = 245.0  # the paper's median this bright in some channel: `paper-clipped`
GROUPINGS = ("station", "condition")


@dataclass
class EvalSummary:
    """The results of one run; `to_dict` is the `referee eval` summary (WORLD.md §6
    "Evaluation")."""

    results: list[SceneResult]

    def groups(self, by: str) -> dict[str, EvalSummary]:
        """The results split by `station` or by `condition` (a scene counts in each of its
        conditions: label.json's `conditions`, `plain` without them, and `paper-clipped`
        where the photo's paper clipped).

        :raises ValueError: another grouping.
        """
        if by not in GROUPINGS:
            raise ValueError(f"cannot group by {by!r}; use station or condition")
        out: dict[str, list[SceneResult]] = {}
        for r in self.results:
            for key in ([r.station] if by == "station" else list(r.conditions)):
                out.setdefault(key, []).append(r)
        return {k: EvalSummary(v) for k, v in sorted(out.items())}

    def to_dict(self) -> dict[str, Any]:
        """scenes; accuracy (0–1, an unsure verdict is a miss); confidently_wrong; unsure;
        median_ms and p95_ms over the scenes that ran."""
        r = self.results
        n = len(r)
        ms = sorted(x.ms for x in r if "error" not in x.stage_ms)  # scenes that ran
        return {
            "scenes": n,
            # 6 places: printed as 0.1 %, 4 places rounded twice (14/17: 0.8235, "82.3 %")
            "accuracy": round(sum(x.got == x.expected for x in r) / n, 6) if n else 0.0,
            "confidently_wrong": sum(
                (x.expected, x.got) in (("correct", "wrong"), ("wrong", "correct")) for x in r),
            "unsure": sum(x.got == "unsure" for x in r),
            "median_ms": round(statistics.median(ms), 1) if ms else 0.0,
            "p95_ms": round(float(np.percentile(ms, 95, method="inverted_cdf")), 1)
            if ms else 0.0,
        }


def evaluate(root: Path, limit: int | None = None,
             on_result: Callable[[SceneResult], None] | None = None,
             intrinsics: str = "station",
             on_note: Callable[[str], None] | None = None) -> EvalSummary:
    """Judge every scene of the set at `root` (the first `limit`); `on_result(SceneResult)` is
    called per scene. An unreadable photo, station or label makes that scene unsure.
    `on_note(text)` is told once of each station judged on the default colours because its
    colour photo could not be used (a new user's trial: its scenes were unsure without a
    word of why).
    `intrinsics`: "station" (the station's calibrated camera) or "from-mat" (each photo judged
    as a phone's photo: intrinsics estimated from the mat, see `check_photo`).

    :raises DatasetError: `root` does not exist or has no scenes/ folder.
    """
    import time

    from referee.check import check_photo
    from referee.vision.photo import read_photo
    from referee.vision.station import load_station, unused_colour_photo

    root = Path(root)
    stations: dict[str, Station | VisionError] = {}
    results = []
    bad: list[tuple[str, str]] = []
    for i, sc in enumerate(scenes(root, bad)):
        if limit is not None and i >= limit:
            break
        if sc.station not in stations:
            try:
                loaded = load_station(root / "stations" / sc.station / "station.json")
            except VisionError as e:  # its scenes are unsure; the others still count
                stations[sc.station] = e
            else:
                stations[sc.station] = loaded
                why = unused_colour_photo(loaded)
                if why is not None and on_note is not None:
                    on_note(f"station {sc.station}: default colours, since its colour photo "
                            f"could not be used: {why}")
        station = stations[sc.station]
        try:
            if isinstance(station, VisionError):
                raise station
            if station.level != sc.level:  # `judge` refuses it; a card of the other level
                # judged at this station had stones "missing" (a break-it trial: wrong)
                raise DatasetError(f"{sc.id}: the label's level is {sc.level}, but station "
                                   f"{sc.station} is set up for the {station.level} level")
            image = read_photo(sc.image)
        except VisionError as e:  # one bad file is an unsure scene, not the end of the run
            code = ("photo:unreadable" if isinstance(e, PhotoError) else "label:unreadable"
                    if isinstance(e, DatasetError) else "station:unreadable")
            res = SceneResult(sc.id, sc.verdict, "unsure", [], [code], 0.0,
                              list(sc.faults), {"error": str(e)}, sc.station, sc.conditions)
        else:
            t0 = time.perf_counter()
            chk = check_photo(image, station, sc.target, sc.die, sc.level, overlay=False,
                              intrinsics=intrinsics)
            ms = (time.perf_counter() - t0) * 1000
            v = chk.verdict
            conditions = sc.conditions
            if chk.paper_bgr is not None and float(max(chk.paper_bgr)) >= PAPER_CLIPPED:
                conditions = (*conditions, "paper-clipped")
            res = SceneResult(sc.id, sc.verdict, v.verdict, [f.code for f in v.faults],
                              [r.code for r in v.reasons], round(ms, 1), list(sc.faults),
                              dict(chk.timings_ms), sc.station, conditions)
        results.append(res)
        if on_result:
            on_result(res)
    for scene_id, why in bad:  # counted as misses: the label could not say what was expected
        res = SceneResult(scene_id, "?", "unsure", [], ["label:unreadable"], 0.0, [],
                          {"error": why}, "?")
        results.append(res)
        if on_result:
            on_result(res)
    return EvalSummary(results)
