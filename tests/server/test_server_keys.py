"""Who may do what: each key opens its own power and nothing more (docs/server.md)."""

from __future__ import annotations

import socket
import stat
import threading
import time

import pytest
from fastapi.testclient import TestClient

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import admin_headers, local_client, scene_card, scene_photo

PHONES = [{"station": "D03"}, {"station": "D04"}]


def _new(client: TestClient, players=("Ava", "Ben", "Cy"), headers=None, **extra):
    stations = ["D03", "D04", "D03"][:min(len(players), 3)]
    body = {"players": list(players), "places": [{"station": s} for s in stations]} | extra
    return client.post("/api/tables", json=body, headers=headers or {})


def _seat_keys(client: TestClient, table_id: str, secret: str) -> list[str]:
    r = client.get(f"/api/tables/{table_id}/seats", headers={"X-Table-Secret": secret})
    assert r.status_code == 200, r.text
    return [s["key"] for s in r.json()]


class Listener:
    """A loopback TCP listener that counts the connections it is offered."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.contacts = 0
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.contacts += 1
            conn.close()

    def close(self) -> None:
        self._stop = True
        self._thread.join(2)
        self.sock.close()


def test_a_capture_url_is_never_contacted_without_the_admin_key(client, admin_key):
    """A stranger on the network cannot make the box fetch a URL (a request forgery into
    the LAN): the table is refused before any camera is opened."""
    listener = Listener()
    try:
        url = f"http://127.0.0.1:{listener.port}/video"
        body = {"players": ["A", "B"], "places": [
            {"station": "D03", "camera": {"kind": "capture", "device": url}},
            {"station": "D04"}]}
        for headers in ({}, {"X-Admin-Key": "x" * 32}, {"X-Table-Secret": "x" * 32}):
            r = client.post("/api/tables", json=body, headers=headers)
            assert r.status_code in (401, 403), r.text
            assert "admin key" in r.json()["detail"]
        for camera in ({"kind": "folder", "path": "models/demo/photos/D03"},
                       {"kind": "picamera"}):
            place = {"station": "D03", "camera": camera}
            r = client.post("/api/tables", json={"players": ["A", "B"],
                                                 "places": [place, {"station": "D04"}]})
            assert r.status_code == 401, (camera, r.text)
        time.sleep(1.0)
        assert listener.contacts == 0
        # with the admin key the box may open it (and does)
        r = client.post("/api/tables", json=body, headers={"X-Admin-Key": admin_key})
        assert r.status_code == 201, r.text
        end = time.monotonic() + 10
        while listener.contacts == 0 and time.monotonic() < end:
            time.sleep(0.05)
        assert listener.contacts >= 1
    finally:
        listener.close()


def test_the_view_link_opens_the_view_and_nothing_more(client):
    created = _new(client).json()
    table_id, token = created["id"], created["view_token"]
    assert created["viewer_path"] == f"/t/{table_id}?v={token}"
    client.cookies.clear()
    # the id alone opens nothing: not the view, its events, photos, previews or QR code
    for path in ("", "/events", "/qr.svg", "/places/0/preview.jpg", "/photos/x.jpg"):
        assert client.get(f"/api/tables/{table_id}{path}").status_code == 401, path
    page = client.get(f"/t/{table_id}")
    assert page.status_code == 401 and "does not open the table" in page.text
    assert client.get(f"/t/{table_id}?v={'x' * 32}").status_code == 403
    # the view link: the page, and a cookie that the images and the feed carry
    page = client.get(f"/t/{table_id}?v={token}")
    assert page.status_code == 200
    cookie = page.headers["set-cookie"]
    assert f"v_{table_id}={token}" in cookie and "HttpOnly" in cookie
    assert "samesite=strict" in cookie.lower()
    assert client.get(f"/api/tables/{table_id}").json()["id"] == table_id
    assert client.get(f"/api/tables/{table_id}/qr.svg").status_code == 200
    # ... and acts for nobody
    grid, die = scene_card("D03-02")
    r = client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die})
    assert r.status_code == 403 and "only watches" in r.json()["detail"]
    assert client.get(f"/api/tables/{table_id}/seats").status_code == 401
    # another table's view link opens nothing here
    other = _new(client).json()
    client.cookies.clear()
    r = client.get(f"/api/tables/{table_id}?v={other['view_token']}")
    assert r.status_code == 403


def test_a_seat_acts_for_itself_and_runs_the_round_only_as_the_lookout(client):
    created = _new(client, first_lookout=0).json()
    table_id, secret = created["id"], created["secret"]
    ava, ben, cy = (_seat_keys(client, table_id, secret))
    client.cookies.clear()  # each phone below brings only its own key
    grid, die = scene_card("D03-02")
    start = {"grid": grid, "die": die}
    url = f"/api/tables/{table_id}"
    # Ben is no lookout: he cannot start the round; Ava (the lookout) can
    r = client.post(f"{url}/rounds", json=start, headers={"X-Seat-Key": ben})
    assert r.status_code == 403 and "lookout" in r.json()["detail"]
    assert client.post(f"{url}/rounds", json=start,
                       headers={"X-Seat-Key": ava}).status_code == 200
    # Ben says his own "done", never Cy's
    photo = {"photo": ("b.jpg", scene_photo("D03-02"), "image/jpeg")}
    r = client.post(f"{url}/done/2", files=photo, headers={"X-Seat-Key": ben})
    assert r.status_code == 403 and "own seat" in r.json()["detail"]
    r = client.post(f"{url}/done/1", files=photo, headers={"X-Seat-Key": ben})
    assert r.status_code == 200, r.text
    # a seat key reads the table too
    view = client.get(url, headers={"X-Seat-Key": cy}).json()
    assert view["round"]["done_order"] == [1]
    # a decision names its decider by the key, never by the body
    r = client.post(f"{url}/decide", json={"seat": 1, "correct": True, "by": 0},
                    headers={"X-Seat-Key": cy})
    assert r.status_code == 403 and "own seat" in r.json()["detail"]
    # the lookout's powers follow the role: after the round, the taker is the lookout
    r = client.post(f"{url}/end", headers={"X-Seat-Key": ava})
    assert r.status_code == 200, r.text
    assert client.get(url, headers={"X-Seat-Key": ava}).json()["lookout"] == 0  # void round


def test_the_lookout_power_moves_with_the_role(client, wait_view):
    created = _new(client, players=("Ava", "Ben"), first_lookout=0).json()
    table_id, secret = created["id"], created["secret"]
    ava, ben = _seat_keys(client, table_id, secret)
    url = f"/api/tables/{table_id}"
    grid, die = scene_card("D03-02")
    assert client.post(f"{url}/rounds", json={"grid": grid, "die": die},
                       headers={"X-Seat-Key": ava}).status_code == 200
    # Ava builds it right and is first; Ben built another card: Ben takes the penalty card
    for seat, key, scene in ((0, ava, "D03-02"), (1, ben, "D04-01")):
        r = client.post(f"{url}/done/{seat}", headers={"X-Seat-Key": key},
                        files={"photo": ("p.jpg", scene_photo(scene), "image/jpeg")})
        assert r.status_code == 200, r.text
    h = {"X-Table-Secret": secret}
    view = wait_view(table_id, lambda v: v["round"]["taker"] is not None
                     or any(b["state"] == "unsure" for b in v["round"]["builders"]))
    for b in view["round"]["builders"]:  # an unsure build: the table's owner decides
        for by in b["deciders"] if b["state"] == "unsure" else []:
            client.post(f"{url}/decide", headers=h,
                        json={"seat": b["seat"], "correct": b["seat"] == 0, "by": by})
    view = client.get(url, headers=h).json()
    new = view["lookout"]
    assert new == view["round"]["taker"]
    keys = {0: ava, 1: ben}
    past = 1 - new
    r = client.post(f"{url}/rounds", json={"grid": grid, "die": die},
                    headers={"X-Seat-Key": keys[past]})
    assert r.status_code == 403  # a past lookout keeps none of it
    r = client.post(f"{url}/rounds", json={"grid": grid, "die": die},
                    headers={"X-Seat-Key": keys[new]})
    assert r.status_code == 200, r.text


def test_a_seat_that_changes_hands_gets_a_new_key(client):
    created = _new(client).json()
    table_id, secret = created["id"], created["secret"]
    old = _seat_keys(client, table_id, secret)
    client.cookies.clear()
    url = f"/api/tables/{table_id}"
    assert client.get(url, headers={"X-Seat-Key": old[1]}).status_code == 200
    assert client.post(f"{url}/seats/1/key", headers={"X-Seat-Key": old[1]}).status_code == 401
    r = client.post(f"{url}/seats/1/key", headers={"X-Table-Secret": secret})
    assert r.status_code == 200
    new = r.json()
    assert new["key"] != old[1] and new["path"].endswith(f"#s={new['key']}")
    assert client.get(url, headers={"X-Seat-Key": old[1]}).status_code == 403
    assert client.get(url, headers={"X-Seat-Key": new["key"]}).status_code == 200
    assert client.get(url, headers={"X-Seat-Key": old[0]}).status_code == 200  # the others
    # the table's key still shows every seat's current link
    assert _seat_keys(client, table_id, secret)[1] == new["key"]


def test_seat_links_and_their_qr_codes_need_the_table_key(client):
    created = _new(client).json()
    table_id, secret = created["id"], created["secret"]
    keys = _seat_keys(client, table_id, secret)
    url = f"/api/tables/{table_id}"
    assert client.get(f"{url}/seats", headers={"X-Seat-Key": keys[0]}).status_code == 401
    assert client.get(f"{url}/seats/0/qr.svg").status_code == 401
    r = client.get(f"{url}/seats/0/qr.svg", headers={"X-Table-Secret": secret})
    assert r.status_code == 200 and "<svg" in r.text
    assert client.get(f"{url}/seats/3/qr.svg",
                      headers={"X-Table-Secret": secret}).status_code == 404
    # nothing of the keys is in the view or the events that every phone reads
    shown = client.get(url).text + client.get(f"{url}/events").text
    assert all(k not in shown for k in keys) and secret not in shown


def test_archive_and_delete_need_the_admin_key(client, admin_key, settings):
    created = _new(client).json()
    table_id, secret = created["id"], created["secret"]
    url = f"/api/tables/{table_id}"
    for headers in ({}, {"X-Table-Secret": secret}, {"X-Admin-Key": "x" * 32}):
        assert client.post(f"{url}/archive", headers=headers).status_code in (401, 403)
        assert client.delete(url, headers=headers).status_code in (401, 403)
    admin = {"X-Admin-Key": admin_key}
    assert client.post(f"{url}/archive", headers=admin).status_code == 200
    assert client.get(url).json()["archived"] is True
    grid, die = scene_card("D03-02")
    r = client.post(f"{url}/rounds", json={"grid": grid, "die": die},
                    headers={"X-Table-Secret": secret})
    assert r.status_code == 409 and "archived" in r.json()["detail"]
    # nor does a seat change hands there (a break-it trial: a new seat key was written)
    r = client.post(f"{url}/seats/1/key", headers={"X-Table-Secret": secret})
    assert r.status_code == 409 and "archived" in r.json()["detail"]
    photo_dir = settings.photos_dir / table_id
    photo_dir.mkdir(parents=True, exist_ok=True)
    assert client.delete(url, headers=admin).status_code == 204
    assert client.get(url, headers=admin).status_code == 404
    assert not photo_dir.exists()
    assert table_id not in {t["id"] for t in client.get("/api/tables", headers=admin).json()}


def test_tables_in_play_are_bounded(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", demo=True, max_tables=3,
                        max_tables_per_client=2)
    with local_client(create_app(settings)) as c:
        assert _new(c).status_code == 201
        assert _new(c).status_code == 201
        r = _new(c)  # a third from the same address
        assert r.status_code == 429 and "this phone or computer" in r.json()["detail"]
        # an archived table no longer counts (the demo never does)
        admin = admin_headers(settings.data_dir)
        first = c.get("/api/tables", headers=admin).json()
        mine = [t["id"] for t in first if not t["demo"]]
        assert c.post(f"/api/tables/{mine[0]}/archive", headers=admin).status_code == 200
        assert _new(c).status_code == 201
        # the box's own limit, whoever asks
        c.headers["X-Forwarded-For"] = "1.2.3.4"  # ignored: the address is the socket's
        assert _new(c).status_code == 429
    # at the next start the limits still hold (the tables are restored, not re-counted anew)
    with local_client(create_app(settings)) as c:
        assert _new(c).status_code == 429


def test_the_public_list_shows_only_listed_tables(client, admin_key):
    hidden = _new(client).json()
    shown = _new(client, name="Café", listed=True).json()
    public = client.get("/api/tables").json()
    ids = {t["id"] for t in public}
    assert shown["id"] in ids and "demo" in ids and hidden["id"] not in ids
    entry = next(t for t in public if t["id"] == shown["id"])
    assert entry["view_path"] == f"/t/{shown['id']}?v={shown['view_token']}"
    assert hidden["view_token"] not in client.get("/").text
    everything = client.get("/api/tables", headers={"X-Admin-Key": admin_key}).json()
    assert hidden["id"] in {t["id"] for t in everything}
    assert client.get("/api/tables", headers={"X-Admin-Key": "x" * 32}).status_code == 403


@pytest.mark.parametrize("host, ok", [
    ("localhost:8000", True), ("127.0.0.1:8000", True), ("192.168.1.20:8000", True),
    ("[::1]:8000", True), ("evil.example", False), ("evil.example:8000", False),
    ("referee.attacker.test", False), ("", False), ("[::1]evil.com", False),
    ("[::1].evil.com", False), ("127.0.0.1:evil", False),
    ("referee.local:8000", True), ("referee.local.evil.com", False)])
def test_only_the_box_own_host_names_are_answered(client, host, ok):
    """DNS rebinding: a stranger's page under the stranger's name is refused."""
    r = client.get("/api/tables", headers={"Host": host})
    assert (r.status_code == 200) == ok, (host, r.text)
    if not ok:
        assert r.status_code == 400 and "host name" in r.json()["detail"]


def test_more_host_names_can_be_allowed(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", demo=False,
                        allowed_hosts=("referee.home.arpa",))
    with local_client(create_app(settings)) as c:
        assert c.get("/healthz", headers={"Host": "referee.home.arpa"}).status_code == 200
        assert c.get("/healthz", headers={"Host": "other.home.arpa"}).status_code == 400


def test_no_other_page_may_frame_the_box(client):
    for path in ("/", "/new", "/api/tables", "/admin", "/healthz"):
        r = client.get(path)
        assert r.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
        assert r.headers["referrer-policy"] == "no-referrer"


def test_the_admin_key_is_made_once_and_kept_private(client, settings, admin_key):
    path = settings.data_dir / "admin-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(admin_key) >= 32
    with local_client(create_app(settings)):
        pass
    assert path.read_text().strip() == admin_key  # the same at the next start


def test_the_data_folder_is_the_box_users_own(tmp_path):
    """A break-it trial: the database (every card game's seed, so every hand; the view
    tokens) and the photos were readable by any user of the box. The data folder is 0700,
    made so or closed at start."""
    made = tmp_path / "new"
    with local_client(create_app(Settings(data_dir=made, demo=False))):
        pass
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    with local_client(create_app(Settings(data_dir=shared, demo=False))):
        pass
    assert stat.S_IMODE(shared.stat().st_mode) == 0o700
    assert (shared / "referee.sqlite3").exists()


def test_the_cli_shows_the_admin_key(tmp_path):
    import subprocess
    import sys

    from referee.server.storage import EventStore

    data = tmp_path / "data"
    data.mkdir()
    EventStore(data / "referee.sqlite3").close()  # the folder a server has used
    out = subprocess.run([sys.executable, "-m", "referee", "admin-key", "--data", str(data)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    key = (data / "admin-key").read_text().strip()
    assert out.stdout.splitlines()[0] == key and f"/admin#a={key}" in out.stdout


def test_one_reader_per_physical_camera(client, admin_key):
    """Two tables on the same camera share its one reader; it stops with the last."""
    service = client.app.state.service
    device = "/nonexistent/shared-cam.avi"
    body = {"players": ["A", "B"], "places": [
        {"station": "D03", "camera": {"kind": "capture", "device": device}}, {"station": "D04"}]}
    admin = {"X-Admin-Key": admin_key}
    ids = [client.post("/api/tables", json=body, headers=admin).json()["id"] for _ in range(3)]
    assert service.cameras.running() == 1
    assert len([t for t in threading.enumerate() if "shared-cam" in t.name or
                t.name.startswith("camera")]) <= 1
    client.post(f"/api/tables/{ids[0]}/archive", headers=admin)
    client.delete(f"/api/tables/{ids[1]}", headers=admin)
    assert service.cameras.running() == 1
    client.post(f"/api/tables/{ids[2]}/archive", headers=admin)
    assert service.cameras.running() == 0


def test_two_host_headers_are_refused(client):
    import httpx

    transport = client._transport  # the app, reached as a socket would
    r = httpx.Client(transport=transport, base_url="http://localhost").get(
        "/healthz", headers=[("Host", "127.0.0.1"), ("Host", "127.0.0.1")])
    assert r.status_code == 400


def test_a_request_head_past_64_kb_is_refused(client):
    """docs/server.md: a request's head is at most 64 KB. The server's h11 holds to it only
    while a head arrives in parts; a break-it trial's 70 and 100 KB heads, read whole, were
    answered 200. The front door counts them: 431 in plain words, a WebSocket closed."""
    from starlette.websockets import WebSocketDisconnect

    assert client.get("/healthz", headers={"X-Pad": "x" * 60_000}).status_code == 200
    for size in (70_000, 100_000):
        r = client.get("/healthz", headers={"X-Pad": "x" * size})
        assert r.status_code == 431, size
        assert r.json()["error"] == "HeadersTooLargeError" and "64 KB" in r.json()["detail"]
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/ws/anything", headers={"X-Pad": "x" * 70_000}) as ws:
            ws.receive_text()
    assert closed.value.code == 4400


def test_parallel_creations_stay_within_the_limits(tmp_path):
    """Requests that arrive together cannot all pass the count before any is stored."""
    from concurrent.futures import ThreadPoolExecutor

    settings = Settings(data_dir=tmp_path / "data", demo=False, max_tables=20,
                        max_tables_per_client=5)
    with local_client(create_app(settings)) as c:
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda _: _new(c).status_code, range(12)))
    assert codes.count(201) == 5 and codes.count(429) == 7


def test_a_camera_password_never_reaches_the_phones(client, admin_key, wait_view):
    body = {"players": ["A", "B"], "listed": True, "places": [
        {"station": "D03", "camera": {"kind": "capture",
                                      "device": "rtsp://admin:Sup3rSecret@127.0.0.1:1/live"}},
        {"station": "D04"}]}
    created = client.post("/api/tables", json=body, headers={"X-Admin-Key": admin_key}).json()
    table_id, h = created["id"], {"X-Table-Secret": created["secret"]}
    view = wait_view(table_id, lambda v: v["places"][0]["camera"]["state"] == "dead")
    detail = view["places"][0]["camera"]["detail"]
    assert "rtsp://127.0.0.1:1/live" in detail and "Sup3rSecret" not in detail
    grid, die = scene_card("D03-02")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    client.post(f"/api/tables/{table_id}/done/0", headers=h)
    everything = (client.get(f"/api/tables/{table_id}").text
                  + client.get(f"/api/tables/{table_id}/events").text)
    assert "Sup3rSecret" not in everything and "admin:" not in everything


def test_a_past_lookout_cannot_start_the_new_lookouts_round(client, make_table):
    """The lookout is checked under the table's lock, in the same step as the command."""
    created = _new(client, players=("Ava", "Ben")).json()
    table_id, secret = created["id"], created["secret"]
    ava, ben = _seat_keys(client, table_id, secret)
    service = client.app.state.service
    table = service.get(table_id)
    grid, die = scene_card("D03-02")
    import dataclasses

    from referee.server.keys import Access

    # the lookout moves (as a penalty would) while Ava's request waits for the lock
    started = threading.Event()
    result: list[object] = []

    def ava_starts() -> None:
        started.set()
        try:
            result.append(service.start_round(table_id, None, grid, die, Access("seat", 0)))
        except Exception as e:
            result.append(e)

    with table.lock:
        worker = threading.Thread(target=ava_starts)
        worker.start()
        started.wait(5)
        table.state = dataclasses.replace(table.state, lookout=1)
    worker.join(10)
    assert result and type(result[0]).__name__ == "ForbiddenError"
