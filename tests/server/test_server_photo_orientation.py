"""A phone photo taken upright is stored sideways with an EXIF orientation tag (6). The server
and the CLI read it through the one decoder (`vision.photo.decode_photo`), which turns it
upright: a break-it trial had the server judge it while `referee judge` answered
`photo:rotated`."""

from __future__ import annotations

import json

import cv2
import numpy as np
from typer.testing import CliRunner

from referee.cli import app
from referee.paths import FIXTURES
from referee.vision.photo import decode_photo, read_photo

from .conftest import scene_card, scene_photo, started_table, with_exif

STATION = FIXTURES / "dev-scenes" / "stations" / "D03" / "station.json"


def _sideways(jpeg: bytes) -> bytes:
    """The photo as a phone held upright stores it: its pixels a quarter turn to the left,
    and EXIF orientation 6 (turn them a quarter turn to the right to show them)."""
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(np.rot90(img)),
                           [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return with_exif(buf.tobytes(), orientation=6)


def test_a_photo_with_exif_orientation_is_decoded_upright(tmp_path):
    upright = decode_photo(scene_photo("D03-02"))
    sent = _sideways(scene_photo("D03-02"))
    stored = cv2.imdecode(np.frombuffer(sent, np.uint8), cv2.IMREAD_UNCHANGED)
    assert stored.shape[:2] == upright.shape[1::-1]  # the file's pixels are sideways
    for got in (decode_photo(sent), decode_photo(sent, 100_000)):  # full, and scaled down
        k = upright.shape[0] // got.shape[0]
        assert got.shape == (upright.shape[0] // k, upright.shape[1] // k, 3)
        same = cv2.resize(upright, got.shape[1::-1], interpolation=cv2.INTER_AREA)
        assert np.abs(got.astype(int) - same).mean() < 2  # turned the right way round
    (tmp_path / "p.jpg").write_bytes(sent)
    assert np.array_equal(read_photo(tmp_path / "p.jpg"), decode_photo(sent))


def _cli_verdict(photo, card) -> str:
    grid, die = scene_card("D03-02")
    card.write_text(grid + "\n")
    r = CliRunner().invoke(app, ["judge", str(photo), "--station", str(STATION),
                                 "--card-grid", str(card), "--die", die, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    return out["verdict"] + "".join(f" {x['code']}" for x in out["faults"] + out["reasons"])


def test_the_cli_and_the_server_judge_a_sideways_phone_photo_as_the_upright_one(
        tmp_path, client, make_table, wait_view):
    (tmp_path / "upright.jpg").write_bytes(scene_photo("D03-02"))
    (tmp_path / "IMG_0001.jpg").write_bytes(_sideways(scene_photo("D03-02")))
    card = tmp_path / "card.txt"
    assert _cli_verdict(tmp_path / "upright.jpg", card) == "correct"
    assert _cli_verdict(tmp_path / "IMG_0001.jpg", card) == "correct"  # not photo:rotated

    table_id, h = started_table(client, make_table)  # D03-02's card and die, at D03
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("IMG_0001.jpg", (tmp_path / "IMG_0001.jpg").read_bytes(),
                                     "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"])
    verdict = view["round"]["builders"][0]["verdict"]
    assert verdict["verdict"] == "correct", verdict
