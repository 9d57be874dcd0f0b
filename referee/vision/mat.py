"""The referee mat A4 v2 (WORLD.md §5): its ChArUco board, its regions, and the printable sheet.

All lengths in mm in the board frame: origin at the board's top-left corner, x to the right as
the camera sees it, y toward the camera, z into the table (height above the table is -z).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

PAPER_W_MM, PAPER_H_MM = 297.0, 210.0
BOARD_LEFT_MM, BOARD_TOP_MM = 8.5, 80.0  # board's top-left corner on the paper
SQUARES = (7, 3)
SQUARE_MM, MARKER_MM = 40.0, 30.0
BUILD_LINE_Y_MM = -15.0
BUILD_ZONE = (40.0, 240.0, -70.0, -5.0)  # x0, x1, y0, y1: the printed grey outline
PAPER_BEYOND = (-8.5, 288.5, -80.0, 0.0)  # where counted stones may stand
MARGIN_MM = 5.0  # nothing is printed nearer the paper's edge (printers clip there)


@cache
def board() -> cv2.aruco.CharucoBoard:
    """The mat's board, exactly as WORLD.md §5 defines it (OpenCV's default layout)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM, MARKER_MM, dictionary)


@dataclass(frozen=True)
class PaperRegion:
    """A rectangle of plain white paper in board mm (x0, x1, y0, y1), for white balance."""

    x0: float
    x1: float
    y0: float
    y1: float


# Plain paper around the board: the left, right and front margins (never under a build).
WHITE_MARGINS = (
    PaperRegion(-7.5, -1.5, 4.0, 116.0),
    PaperRegion(281.5, 287.5, 4.0, 116.0),
    PaperRegion(10.0, 270.0, 122.0, 127.0),
)


def render_sheet(px_per_mm: float = 10.0) -> np.ndarray:
    """The whole A4 sheet as an image, H×W uint8 grey, at `px_per_mm`.

    Draws the board, the build zone outline, the dashed build line, and one line with the
    instructions and the print check (the board's 40 mm squares), at least `MARGIN_MM` from
    every edge. Source: WORLD.md §5.
    """
    s = px_per_mm
    w, h = round(PAPER_W_MM * s), round(PAPER_H_MM * s)
    sheet = np.full((h, w), 255, np.uint8)

    def px(x_mm: float, y_mm: float) -> tuple[int, int]:  # board mm -> sheet px
        return round((BOARD_LEFT_MM + x_mm) * s), round((BOARD_TOP_MM + y_mm) * s)

    bw, bh = round(SQUARES[0] * SQUARE_MM * s), round(SQUARES[1] * SQUARE_MM * s)
    img = board().generateImage((bw, bh), marginSize=0, borderBits=1)
    x0, y0 = px(0, 0)
    sheet[y0:y0 + bh, x0:x0 + bw] = img
    grey = 150
    zx0, zx1, zy0, zy1 = BUILD_ZONE
    cv2.rectangle(sheet, px(zx0, zy0), px(zx1, zy1), grey, max(1, round(0.4 * s)))
    x = zx0
    while x < zx1:  # dashed build line
        cv2.line(sheet, px(x, BUILD_LINE_Y_MM), px(min(x + 5, zx1), BUILD_LINE_Y_MM), grey,
                 max(1, round(0.3 * s)))
        x += 10
    # the print check and the instructions: one line in the band between the board and the
    # edge toward the camera, at least 5 mm from every edge (printers clip nearer); the
    # board's own 40 mm squares are the ruler
    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(0.2 * s))
    base = PAPER_H_MM - 6.5  # baseline, mm from the top (descenders stay 5 mm clear)
    check = "PRINT CHECK: each square of the board is 40 mm (print at 100 %)"
    say = "TUKI REFEREE MAT A4 v2 - lay flat, this edge toward the camera; build on the line"
    scale = 0.1 * s
    while True:  # both fit side by side between the 5 mm margins, with a gap
        (cw, ch), _ = cv2.getTextSize(check, font, scale, thick)
        (sw, _), _ = cv2.getTextSize(say, font, scale, thick)
        if (cw + sw) / s + 10.0 <= PAPER_W_MM - 2 * MARGIN_MM or scale < 0.05 * s:
            break
        scale *= 0.95
    y = round(base * s)
    cv2.putText(sheet, say, (round(MARGIN_MM * s), y), font, scale, 0, thick, cv2.LINE_AA)
    cv2.putText(sheet, check, (round((PAPER_W_MM - MARGIN_MM) * s) - cw, y), font, scale, 0,
                thick, cv2.LINE_AA)
    return sheet


def write_sheet(out: Path, px_per_mm: float = 10.0) -> Path:
    """Write the sheet as PNG, or as a one-page A4 PDF, each at exact scale (by the suffix):
    the PNG carries its resolution (`px_per_mm` × 25.4 dpi), so that printed at 100 % it is
    297 × 210 mm (a new-user trial: without it a viewer printed it at its own 72 or 96 dpi).

    :raises ValueError: the suffix is neither .png nor .pdf.
    """
    from PIL import Image

    out = Path(out)
    sheet = render_sheet(px_per_mm)
    dpi = px_per_mm * 25.4  # page size = pixels / dpi, so the print is 297 × 210 mm
    if out.suffix.lower() == ".png":
        Image.fromarray(sheet).save(out, "PNG", dpi=(dpi, dpi))
    elif out.suffix.lower() == ".pdf":
        Image.fromarray(sheet).save(out, "PDF", resolution=dpi)
    else:
        raise ValueError(f"mat output must end in .png or .pdf, not {out.name!r}")
    return out
