"""What a stranger's uploads cannot do (a break-it trial, 2026-12-01): take the box's memory,
hold up other tables' verdicts, publish a phone's location, or move a station's mat."""

from __future__ import annotations

import threading
import time

from referee.server import judging

from .conftest import scene_card, scene_photo, started_table, with_exif


def _counting_decode(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = judging.decode

    def spy(data, max_pixels=None):
        calls.append(len(data))
        return real(data, max_pixels)

    monkeypatch.setattr(judging, "decode", spy)
    return calls


def test_a_photo_the_rules_do_not_take_is_refused_before_its_pixels_are_decoded(
        client, make_table, monkeypatch):
    """A 126 KB PNG may hold 40 MP (120 MB decoded): twenty sent together to places that
    wanted no photo took 4 GB, each decoded before the table's state refused it."""
    calls = _counting_decode(monkeypatch)
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    data = scene_photo("D03-02")
    photo = {"photo": ("D03-02.jpg", data, "image/jpeg")}
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h, files=photo)  # no round yet
    assert r.status_code == 409, r.text
    assert calls == []
    grid, die = scene_card("D03-02")
    assert client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    assert client.post(f"/api/tables/{table_id}/done/0", headers=h,
                       files=photo).status_code == 200
    assert calls[:1] == [len(data)]  # once taken, decoded (then stored and judged) as ever


def test_uploads_are_decoded_two_at_a_time(client, monkeypatch):
    """However many photos arrive together, at most two are being decoded at once."""
    service = client.app.state.service
    now, most = [0], [0]
    lock = threading.Lock()
    real = judging.decode

    def slow(data, max_pixels=None):
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        time.sleep(0.05)
        with lock:
            now[0] -= 1
        return real(data, max_pixels)

    monkeypatch.setattr(judging, "decode", slow)
    data = scene_photo("D03-02")
    threads = [threading.Thread(target=service._upload_frame, args=(data, "x.jpg"))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 2


def test_the_tables_take_turns_at_the_judge(client, monkeypatch):
    """One worker judges for every table: a table that sends photo after photo (a noise
    photo takes seconds) waits for its own, and another table's photo is judged next."""
    service = client.app.state.service
    order: list[tuple[str, int]] = []
    gate = threading.Event()

    def judge(table, rnd, seat):
        gate.wait(5)
        order.append((table.id, seat))

    monkeypatch.setattr(service, "_judge", judge)

    class T:
        def __init__(self, tid):
            self.id = tid

    a, b = T("a"), T("b")
    for seat in range(4):
        service._queue_judging(a, 1, seat)
    service._queue_judging(b, 1, 9)
    gate.set()
    end = time.monotonic() + 5
    while len(order) < 5 and time.monotonic() < end:
        time.sleep(0.01)
    # the worker was on a's first photo when b's came: b's is next, then a's others
    assert order == [("a", 0), ("b", 9), ("a", 1), ("a", 2), ("a", 3)]


def test_a_phone_photo_is_stored_without_its_metadata(client, make_table, wait_view):
    """A phone's photo carries where it was taken and the phone's make (EXIF); the table's
    view link hands stored photos to anyone, so they are stored re-encoded, never as sent."""
    table_id, h = started_table(client, make_table)
    sent = with_exif(scene_photo("D03-02"), note=b"GPSLatitude 32.0853 N; Make: PhoneCo")
    assert b"GPSLatitude" in sent
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("IMG_0001.jpg", sent, "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["photo"])
    got = client.get(view["round"]["builders"][0]["photo"], headers=h)
    assert got.status_code == 200 and got.content[:2] == b"\xff\xd8"
    assert b"GPSLatitude" not in got.content and b"Exif\x00\x00" not in got.content
    assert b"PhoneCo" not in got.content


def test_a_phone_place_never_moves_the_stations_mat(client, make_table, wait_view, settings):
    """A station's mat pose, as last seen for sure, tells its own mat from a neighbour's in
    a webcam's view (WORLD.md §4 `mat:several`). Only the station's own camera teaches it: a
    photo sent to a phone place is taken from anywhere, by anyone at the table."""
    table_id, h = started_table(client, make_table)
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("D03-02.jpg", scene_photo("D03-02"), "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"])
    assert view["round"]["builders"][0]["verdict"]["verdict"] == "correct"  # a sure one
    poses = settings.data_dir / "mat-poses.json"
    assert not poses.exists() or "D03" not in poses.read_text()


def test_an_uploads_name_is_named_without_control_or_direction_characters(
        client, make_table):
    table_id, h = started_table(client, make_table)
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("a\x1b[31m\u202eb\x7f.jpg", b"just text", "image/jpeg")})
    assert r.status_code == 415
    shown = r.json()["params"]["file"]
    assert shown == "a[31mb.jpg" and shown in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("x" * 300 + ".jpg", b"just text", "image/jpeg")})
    assert r.status_code == 415 and r.json()["params"]["file"] == "x" * 40 + "…"


def test_a_long_file_name_is_taken_or_refused_as_too_long_never_as_a_broken_body(
        client, make_table):
    """A photo named 2,000 letters long is taken (its name cut to 40 for words, as any);
    one of 5,000 or 100,000 passes the form parser's bound on a part's header and is refused
    in plain words that say the name is too long (it got "the request's body cannot be read:
    its JSON or form data is malformed"), with a code each phone says in its language. A
    body that is broken indeed is still told so."""
    from referee.server.i18n import LANGUAGES, messages

    table_id, h = started_table(client, make_table)
    url = f"/api/tables/{table_id}/done/0"
    r = client.post(url, headers=h, files={"photo": ("y" * 2000 + ".jpg", b"just text",
                                                     "image/jpeg")})
    assert r.status_code == 415 and r.json()["params"]["file"] == "y" * 40 + "…"
    for n in (5000, 100_000):
        r = client.post(url, headers=h, files={"photo": ("z" * n + ".jpg", scene_photo(
            "D03-02"), "image/jpeg")})
        assert r.status_code == 422, r.text
        body = r.json()
        assert body["code"] == "photo.name-too-long" and "name is too long" in body["detail"]
        assert "malformed" not in body["detail"] and len(r.text) < 400  # no name echoed
        for lang in LANGUAGES:
            assert messages(lang)["refusal.photo.name-too-long"]
    r = client.post(url, headers={**h, "Content-Type": "multipart/form-data; boundary=XX"},
                    content=b"--XX\r\nContent-Disposition: form-data; name=\"photo\"\r\n"
                            b"garbage without an end")
    assert r.status_code == 400 and "malformed" in r.json()["detail"]
    # the round goes on: a photo with a short name is judged as ever
    r = client.post(url, headers=h, files={"photo": ("p.jpg", scene_photo("D03-02"),
                                                     "image/jpeg")})
    assert r.status_code == 200, r.text


def test_a_round_with_a_cards_id_and_a_grid_is_refused(client, make_table):
    """Which one counts was nowhere said: the grid was judged and the id tallied, a penalty
    card named for another card."""
    table_id, secret = make_table()
    grid, die = scene_card("D03-02")
    r = client.post(f"/api/tables/{table_id}/rounds", headers={"X-Table-Secret": secret},
                    json={"card_id": "N01", "grid": grid, "die": die})
    assert r.status_code == 422 and "not both" in r.json()["detail"]
    assert client.get(f"/api/tables/{table_id}").json()["round"] is None


def test_a_cameras_field_of_another_kind_is_refused_not_stored(client):
    """An upload place has no device or folder: such a field was stored unread."""
    def create(camera):
        return client.post("/api/tables", json={
            "name": "T", "players": ["Ava", "Ben"], "level": "normal",
            "places": [{"station": "D03", "camera": camera},
                       {"station": "D04", "camera": {"kind": "upload"}}]})

    for camera in ({"kind": "upload", "device": "rtsp://x"}, {"kind": "upload", "path": "/etc"},
                   {"kind": "folder", "device": "0"}, {"kind": "capture", "format": "RGB888"}):
        r = create(camera)
        assert r.status_code == 422, (camera, r.text)
        assert "takes no" in r.text
    assert create({"kind": "upload"}).status_code == 201


def test_a_large_png_is_refused_before_it_is_decoded(client, make_table, monkeypatch):
    """A PNG of a few hundred KB may hold 40 MP (16-bit: seconds to decode, again and again
    when it is corrupt). A camera's photo is a JPEG (decoded at a reduced scale when large);
    another format is refused over 12 MP, from its header."""
    import cv2
    import numpy as np

    calls = _counting_decode(monkeypatch)
    table_id, h = started_table(client, make_table)
    ok, png = cv2.imencode(".png", np.zeros((3500, 3500, 3), np.uint8))  # 12.25 MP
    assert ok and len(png) < 200_000
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("screen.png", png.tobytes(), "image/png")})
    assert r.status_code == 413 and "12 megapixels" in r.json()["detail"], r.text
    assert calls == []


def test_bots_of_a_table_with_people_move_before_a_table_of_bots_alone():
    """One worker plays every table's bots; a search bot thinks up to 0.2 s a move, so
    tables of bots alone (anyone may make them) delayed the bots people play against."""
    from types import SimpleNamespace

    from referee.server.card_bots import BotQueue

    played: list[str] = []
    gate = threading.Event()

    def play(table, seq):
        gate.wait(5)
        played.append(table.id)

    def table(tid, *bots):
        return SimpleNamespace(id=tid, seats=[SimpleNamespace(bot=b) for b in bots])

    q = BotQueue(play)
    try:
        q.schedule(table("first", "hard", "hard"), 1, 0.0)  # keeps the worker busy
        time.sleep(0.1)
        for i in range(3):
            q.schedule(table(f"bots{i}", "hard", "hard"), 1, 0.0)
        q.schedule(table("people", None, "hard"), 1, 0.0)
        time.sleep(0.05)
        gate.set()
        end = time.monotonic() + 5
        while len(played) < 5 and time.monotonic() < end:
            time.sleep(0.01)
    finally:
        q.close()
    assert played == ["first", "people", "bots0", "bots1", "bots2"]
