"""The printable mat (WORLD.md §5): exact scale, the board as defined, and its files."""

import re

import cv2
import numpy as np
import pytest

from referee.vision.mat import board, render_sheet, write_sheet


def test_board_is_the_world_md_definition():
    b = board()
    assert b.getChessboardSize() == (7, 3)
    assert b.getSquareLength() == 40.0 and b.getMarkerLength() == 30.0
    assert sorted(b.getIds().ravel().tolist()) == list(range(10))


def test_sheet_is_a4_at_ten_px_per_mm_and_detectable():
    sheet = render_sheet(10.0)
    assert sheet.shape == (2100, 2970)
    # the board's top-left corner is 8.5 mm from the left and 80 mm from the top: black square
    assert sheet[800 + 50, 85 + 50] < 50
    det = cv2.aruco.CharucoDetector(board())
    corners, ids, _, _ = det.detectBoard(sheet)
    assert ids is not None and len(ids) == 12
    # first inner corner at (40, 40) mm on the board → paper (48.5, 120) mm → px
    i = int(np.where(ids.ravel() == 0)[0][0])
    assert np.allclose(corners[i].ravel(), [485, 1200], atol=2)


def test_pdf_page_is_exactly_a4(tmp_path):
    out = write_sheet(tmp_path / "mat.pdf")
    head = out.read_bytes()
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", head)
    assert box, "no MediaBox in the PDF"
    w_pt, h_pt = float(box.group(1)), float(box.group(2))
    assert abs(w_pt / 72 * 25.4 - 297) < 0.5 and abs(h_pt / 72 * 25.4 - 210) < 0.5


def test_png_and_refusal_of_other_suffixes(tmp_path):
    from PIL import Image

    png = write_sheet(tmp_path / "mat.png")
    assert cv2.imread(str(png), 0).shape == (2100, 2970)
    # it says its resolution, so that printed at 100 % it is A4 (2970 px / 254 dpi = 297 mm)
    with Image.open(png) as im:
        dpi = im.info["dpi"]
    assert all(abs(2970 / d * 25.4 - 297) < 0.5 for d in dpi[:1]) and abs(dpi[0] - dpi[1]) < 1e-6
    with pytest.raises(ValueError, match="png or .pdf"):
        write_sheet(tmp_path / "mat.svg")
