"""Developer A/B of the referee's verdicts on labelled photo sets (never used by the referee).

Dump every scene's verdict of one or more sets (WORLD.md §6) to a JSON file, then compare two
dumps, made with two versions of the code, scene by scene:

    python tools/verdicts.py dump OUT.json SET [SET ...] [--intrinsics from-mat]
    python tools/verdicts.py diff A.json B.json

`dump` prints each set's summary (scenes, accuracy, confidently wrong, unsure, median ms) and
writes {"SET/ID": [expected, got, faults, reasons, conditions]}. `diff` prints the scenes whose
verdict or reasons differ, and the count of verdicts that got right or wrong. To run another
version of the code, check it out in a worktree and run this file from there
(`PYTHONPATH=<worktree>`), or the installed package's code is used.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from referee.evaluate import evaluate


def dump(out: Path, sets: list[Path], intrinsics: str) -> None:
    res: dict[str, list] = {}
    for root in sets:
        summary = evaluate(root, intrinsics=intrinsics)
        for r in summary.results:
            res[f"{root.name}/{r.id}"] = [r.expected, r.got, r.faults, r.reasons,
                                         list(r.conditions)]
        d = summary.to_dict()
        print(f"{root.name}: {d['scenes']} scenes, accuracy {d['accuracy']:.1%}, confidently "
              f"wrong {d['confidently_wrong']}, unsure {d['unsure']}, median {d['median_ms']} ms",
              flush=True)
    out.write_text(json.dumps(res, indent=0))


def diff(a_path: Path, b_path: Path) -> None:
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    gained = lost = 0
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k), b.get(k)
        if x is None or y is None:
            print(k, "only in", a_path.name if y is None else b_path.name)
            continue
        if x[1] != y[1] or x[3] != y[3]:
            print(k, "expected", x[0], "|", x[1], x[3], "->", y[1], y[3])
            gained += y[1] == y[0] and x[1] != x[0]
            lost += x[1] == x[0] and y[1] != y[0]
    print(f"{gained} scenes now right, {lost} no longer right")


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "dump":
        intrinsics = "station"
        if "--intrinsics" in argv:
            i = argv.index("--intrinsics")
            intrinsics = argv[i + 1]
            argv = argv[:i] + argv[i + 2:]
        if any(a.startswith("--") for a in argv):
            print(__doc__)
            return 2
        dump(Path(argv[1]), [Path(s) for s in argv[2:]], intrinsics)
        return 0
    if len(argv) == 3 and argv[0] == "diff":
        diff(Path(argv[1]), Path(argv[2]))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
