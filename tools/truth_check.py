"""Developer check of the vision against the renderer's ground truth (never used by the referee).

For every scene of a labelled photo set (WORLD.md §6) whose label.json carries `truth`, it
measures the photo and compares each stone found with the truth bar of its colour:
- along (x) and up (z) errors in u, after removing the scene's common shift (the median
  error over its stones: only positions relative to each other matter), and
- whether the error lies within 2 `sigma_u` (the uncertainty the judge relies on).

Usage: python tools/truth_check.py SET [SET ...] [--verbose]
Prints per-scene lines with --verbose, and a summary: the share of stones within 2 sigma.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from referee.check import check_photo
from referee.evaluate import scenes
from referee.vision.photo import read_photo
from referee.vision.station import load_station


def truth_bars(label: dict) -> dict[str, tuple[str, float, float]]:
    """colour -> (orientation, x_u, z_u) of the truth's bars (z from the table, in u)."""
    t = label["truth"]
    u = float(t.get("unit_mm", 16.0))
    return {b["colour"]: (b["orientation"], b["x"] + b["dx_mm"] / u, b["h"] + b["lift_mm"] / u)
            for b in t["bars"]}


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    sets = [Path(a) for a in argv if not a.startswith("--")]
    inside = total = 0
    worst: list[tuple[float, str]] = []
    for root in sets:
        stations = {}
        for sc in scenes(root):
            label = json.loads((sc.image.parent / "label.json").read_text())
            if "truth" not in label:
                continue
            if sc.station not in stations:
                stations[sc.station] = load_station(root / "stations" / sc.station /
                                                    "station.json")
            chk = check_photo(read_photo(sc.image), stations[sc.station], sc.target, sc.die,
                              sc.level, overlay=False)
            truth = truth_bars(label)
            rows = []
            for s in chk.build.stones:
                if s.colour not in truth or truth[s.colour][0] != s.orientation:
                    continue
                _, tx, tz = truth[s.colour]
                rows.append((s.colour, s.x_u - tx, s.z_u - tz, s.sigma_u))
            if not rows:
                continue
            mx = float(np.median([r[1] for r in rows]))
            mz = float(np.median([r[2] for r in rows]))
            for c, ex, ez, sig in rows:
                e = max(abs(ex - mx), abs(ez - mz))
                ok = e <= 2 * sig + 1e-9
                inside += ok
                total += 1
                worst.append((e / max(sig, 1e-9), f"{sc.id}:{c}"))
                if verbose:
                    print(f"{sc.id} {c} dx={ex - mx:+.3f} dz={ez - mz:+.3f} (shift {mx:+.2f},"
                          f"{mz:+.2f}) sigma={sig:.3f} {'ok' if ok else 'OUT'} "
                          f"{chk.verdict.verdict}/{sc.verdict}")
    if not total:
        print("no stones with truth")
        return 1
    worst.sort(reverse=True)
    print(f"{inside}/{total} stones within 2 sigma ({inside / total:.1%}); worst: "
          + ", ".join(f"{n} {r:.1f}σ" for r, n in worst[:8]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
