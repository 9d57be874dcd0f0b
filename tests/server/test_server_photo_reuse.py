"""A photo frozen at a table is not judged again as another builder's build (a break-it
trial: a builder downloaded another's frozen photo with the view link, sent it as their own
and was judged correct): refused in plain words, also re-encoded, also in a later round and
after a crash; two different builds at one station never count as one photo."""

from __future__ import annotations

import itertools
import os
import signal
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from fastapi.testclient import TestClient

from referee.paths import FIXTURES
from referee.server.fingerprints import SAME_LEVELS, fingerprint, thumb_distance, thumbnail
from referee.server.judging import _judged_pixels

from .conftest import SCENES, free_port, scene_card, scene_photo, serve

SHARED = Path("/work/shared/tuki/dev-scenes-3")


def _jpeg(image: np.ndarray, quality: int) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()


def _files(data: bytes, name: str = "build.jpg") -> dict:
    return {"photo": (name, data, "image/png" if name.endswith(".png") else "image/jpeg")}


def _three_seats(c: TestClient | httpx.Client) -> tuple[str, dict[str, str], list[dict], str]:
    """A 3-seat table of phone places, all at station D03, its round begun on D03-02's card:
    (id, table key's header, each seat's key header, the view token)."""
    body = {"name": "Reuse", "players": ["Ava", "Ben", "Cy"], "level": "normal",
            "places": [{"station": "D03", "camera": {"kind": "upload"}}] * 3}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    h = {"X-Table-Secret": created["secret"]}
    seats = c.get(f"/api/tables/{created['id']}/seats", headers=h).json()
    grid, die = scene_card("D03-02")
    r = c.post(f"/api/tables/{created['id']}/rounds", json={"grid": grid, "die": die},
               headers=h)
    assert r.status_code == 200, r.text
    return created["id"], h, [{"X-Seat-Key": s["key"]} for s in seats], created["view_token"]


def _refused(r: httpx.Response) -> None:
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["error"] == "ReusedPhotoError" and body["code"] == "photo.reused", body
    assert "already taken at this table" in body["detail"]


def test_another_builders_frozen_photo_is_refused_and_the_round_goes_on(client, wait_view):
    table_id, h, keys, token = _three_seats(client)
    url = f"/api/tables/{table_id}"
    r = client.post(f"{url}/done/0", files=_files(scene_photo("D03-02")), headers=keys[0])
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    assert view["round"]["builders"][0]["state"] == "correct"

    # Ben downloads Ava's frozen photo with the view link, as anyone at the table can ...
    viewer = TestClient(client.app, base_url="http://localhost")  # no cookie, no key
    got = viewer.get(view["round"]["builders"][0]["photo"], params={"v": token})
    assert got.status_code == 200 and got.content[:2] == b"\xff\xd8"
    pixels = _judged_pixels(got.content)
    # ... and sends it as his own build: those bytes, the same pixels as a PNG, the photo
    # re-encoded, at half its size, or made brighter
    half = cv2.resize(pixels, (pixels.shape[1] // 2, pixels.shape[0] // 2),
                      interpolation=cv2.INTER_AREA)
    for data, name in ((got.content, "mine.jpg"),
                       (cv2.imencode(".png", pixels)[1].tobytes(), "mine.png"),
                       (_jpeg(pixels, 60), "mine.jpg"), (_jpeg(half, 85), "mine.jpg"),
                       (_jpeg(cv2.convertScaleAbs(pixels, beta=8), 90), "mine.jpg")):
        _refused(client.post(f"{url}/done/1", files=_files(data, name), headers=keys[1]))
    # nothing was stored: Ben still builds, and no photo of his is kept
    view = client.get(url, headers=h).json()
    assert [b["status"] for b in view["round"]["builders"]] == ["done", "building",
                                                                "building"]
    assert view["round"]["builders"][1]["photo"] is None
    kinds = [e["kind"] for e in client.get(f"{url}/events", headers=h).json()]
    assert kinds.count("server:photo") == 1 and kinds.count("done") == 1

    # Ben sends a photo of his own build (another build at the same station): judged
    r = client.post(f"{url}/done/1", files=_files(scene_photo("D03-03")), headers=keys[1])
    assert r.status_code == 200, r.text
    # Cy, the last, sends Ben's original file: refused too; then his own
    _refused(client.post(f"{url}/done/2", files=_files(scene_photo("D03-03")),
                         headers=keys[2]))
    r = client.post(f"{url}/done/2", files=_files(scene_photo("D03-05")), headers=keys[2])
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: all(b["verdict"] for b in v["round"]["builders"]))
    assert all(b["verdict"] for b in view["round"]["builders"])

    # the next round: Ava's photo of the last round is not her new build
    for b in view["round"]["builders"]:  # unsure builds: the table decides, the round ends
        for by in b["deciders"] if b["state"] == "unsure" else []:
            client.post(f"{url}/decide", headers=h,
                        json={"seat": b["seat"], "correct": True, "by": by})
    view = wait_view(table_id, lambda v: v["round"]["status"] == "over")
    assert view["round"]["status"] == "over", view["round"]
    grid, die = scene_card("D03-04")
    r = client.post(f"{url}/rounds", json={"grid": grid, "die": die}, headers=h)
    assert r.status_code == 200, r.text
    builder = client.get(url, headers=h).json()["round"]["builders"][0]["seat"]
    _refused(client.post(f"{url}/done/{builder}", files=_files(scene_photo("D03-02")),
                         headers=keys[builder]))
    r = client.post(f"{url}/done/{builder}", files=_files(scene_photo("D03-04")),
                    headers=keys[builder])
    assert r.status_code == 200, r.text


def test_a_builder_may_send_their_own_photo_again(client, wait_view):
    """The same builder sending the same photo again in the same round (a retake of a photo
    judged unsure because of the photo) is a retry, not someone else's photo."""
    nomat = next((FIXTURES / "real-nomat").glob("*.jpg")).read_bytes()
    table_id, h, keys, _ = _three_seats(client)
    url = f"/api/tables/{table_id}"
    assert client.post(f"{url}/done/0", files=_files(nomat), headers=keys[0]).status_code \
        == 200
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    assert view["round"]["builders"][0]["state"] == "unsure"
    r = client.post(f"{url}/done/0", files=_files(nomat), headers=keys[0])
    assert r.status_code == 200, r.text
    kinds = [e["kind"] for e in client.get(f"{url}/events", headers=h).json()]
    assert kinds.count("retake") == 1 and kinds.count("server:photo") == 2
    # but the other builders may not send it
    _refused(client.post(f"{url}/done/1", files=_files(nomat), headers=keys[1]))


def test_a_restart_keeps_refusing_the_photo(tmp_path):
    data, port, log = tmp_path / "data", free_port(), tmp_path / "server.log"
    proc = serve(data, port, log, "--no-demo")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as c:
            table_id, h, keys, token = _three_seats(c)
            r = c.post(f"/api/tables/{table_id}/done/0", headers=keys[0],
                       files=_files(scene_photo("D03-02")))
            assert r.status_code == 200, r.text
            photo = c.get(f"/api/tables/{table_id}", headers=h).json()[
                "round"]["builders"][0]["photo"]
            frozen = c.get(photo, params={"v": token}).content
        os.kill(proc.pid, signal.SIGKILL)  # a power cut: no shutdown at all
        proc.wait()

        proc = serve(data, port, log, "--no-demo")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as c:
            for sent in (frozen, scene_photo("D03-02")):
                _refused(c.post(f"/api/tables/{table_id}/done/1", headers=keys[1],
                                files=_files(sent)))
            r = c.post(f"/api/tables/{table_id}/done/1", headers=keys[1],
                       files=_files(scene_photo("D03-06")))
            assert r.status_code == 200, r.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _stations(root: Path) -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for p in sorted((root / "scenes").glob("*/image.jpg")):
        out.setdefault(p.parent.name.split("-")[0], []).append(p)
    return out


@pytest.mark.parametrize("root", [FIXTURES / "dev-scenes", SHARED], ids=["dev-scenes",
                                                                        "dev-scenes-3"])
def test_two_builds_at_one_station_are_never_one_photo(root: Path):
    """Every pair of different scenes of one station counts as two photos, with a margin;
    each scene re-encoded, halved or brightened counts as itself."""
    if not root.is_dir():
        pytest.skip(f"{root} is not on this machine")
    assert root != SCENES
    closest = 255.0
    for paths in _stations(root).values():
        images = [_judged_pixels(p.read_bytes()) for p in paths]
        prints = [fingerprint(im) for im in images]
        for fa, fb in itertools.combinations(prints, 2):
            assert not fa.same(fb)
            closest = min(closest, thumb_distance(fa.thumb, fb.thumb))
        for im, fp in zip(images, prints, strict=True):
            half = cv2.resize(im, (im.shape[1] // 2, im.shape[0] // 2),
                              interpolation=cv2.INTER_AREA)
            for copy in (_jpeg(im, 50), _jpeg(half, 75),
                         _jpeg(cv2.convertScaleAbs(im, beta=6), 92)):
                again = _judged_pixels(copy)
                assert fp.same(fingerprint(again))
                assert thumb_distance(fp.thumb, thumbnail(again)) <= SAME_LEVELS / 2
    assert closest >= 2 * SAME_LEVELS  # the nearest two builds, far from the threshold
