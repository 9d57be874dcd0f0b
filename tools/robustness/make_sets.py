"""Transformed copies of labelled photo sets (WORLD.md §6), for robustness trials.

    python tools/robustness/make_sets.py OUT TRANSFORM STRENGTH SET [SET ...] [--calib]

writes OUT/<set name>/ for each SET: its stations (linked, or with --calib copied and their
colour photos transformed too, as a camera setting would), and every scene's photo through
`transforms.T[TRANSFORM]` at STRENGTH, saved at JPEG quality 92 (labels linked). Then
measure with `python tools/verdicts.py dump OUT.json OUT/*` and compare with the untransformed
sets' dump (`verdicts.py diff`): a scene right before and confidently wrong after is a
fragile verdict. TRANSFORM `ident` gives the quality-92 save alone, the control.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).parent))
import transforms  # noqa: E402


def build(out: Path, name: str, strength: float, sets: list[Path], calib: bool) -> None:
    fn = transforms.T[name]
    for src in sets:
        dst = out / src.name
        if dst.exists():
            shutil.rmtree(dst)
        (dst / "scenes").mkdir(parents=True)
        if calib:
            shutil.copytree(src / "stations", dst / "stations")
            for colours in (dst / "stations").glob("*/colours.jpg"):
                img = cv2.imread(str(colours))
                cv2.imwrite(str(colours), fn(img, strength), [cv2.IMWRITE_JPEG_QUALITY, 92])
        else:
            os.symlink(src.resolve() / "stations", dst / "stations")
        for sc in sorted((src / "scenes").iterdir()):
            d = dst / "scenes" / sc.name
            d.mkdir()
            os.symlink(sc.resolve() / "label.json", d / "label.json")
            img = cv2.imread(str(sc / "image.jpg"))
            cv2.imwrite(str(d / "image.jpg"), fn(img, strength), [cv2.IMWRITE_JPEG_QUALITY, 92])


def main(argv: list[str]) -> int:
    calib = "--calib" in argv
    args = [a for a in argv if a != "--calib"]
    if len(args) < 4 or args[1] not in transforms.T:
        print(__doc__)
        print("transforms:", " ".join(sorted(transforms.T)))
        return 2
    build(Path(args[0]), args[1], float(args[2]), [Path(a) for a in args[3:]], calib)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
