"""Fixtures for the server tests: an app on a fresh data folder, and dev-scene photos."""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.paths import FIXTURES
from referee.server.app import create_app
from referee.server.settings import Settings

SCENES = FIXTURES / "dev-scenes" / "scenes"


def scene_photo(scene: str) -> bytes:
    return (SCENES / scene / "image.jpg").read_bytes()


def with_exif(jpeg: bytes, orientation: int = 1, note: bytes = b"") -> bytes:
    """The JPEG with an APP1 Exif segment after its SOI, as a phone writes one: a TIFF header
    with one tag, Orientation (1: upright; 6: the pixels stored a quarter turn to the left of
    upright, a phone held upright), then `note` (a phone's other tags' kind of text, such as
    where it was taken)."""
    tiff = (b"MM\x00\x2a" + struct.pack(">IH", 8, 1)
            + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0))
    payload = b"Exif\x00\x00" + tiff + note
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def scene_card(scene: str) -> tuple[str, str]:
    """(printed card grid, die face) from a scene's label."""
    import json

    label = json.loads((SCENES / scene / "label.json").read_text())
    die = label["die"]["animal"] + ("+white" if label["die"]["white_square"] else "")
    return "\n".join(label["card"]["grid"]), die


def started_table(client: TestClient, make_table, **kw) -> tuple[str, dict[str, str]]:
    """A new phone-upload table (`make_table(**kw)`) whose round has begun on D03-02's card
    and die; (its id, its table-key header)."""
    table_id, secret = make_table(**kw)
    grid, die = scene_card("D03-02")
    h = {"X-Table-Secret": secret}
    r = client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                    headers=h)
    assert r.status_code == 200, r.text
    return table_id, h


def local_client(app) -> TestClient:
    """A test client that reaches the app as http://localhost (the box answers only to its
    own names: referee.server.guard)."""
    return TestClient(app, base_url="http://localhost")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", demo=True, max_upload_bytes=5 * 1024 * 1024,
                    ws_hello_s=1.0)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with local_client(create_app(settings)) as c:
        yield c


@pytest.fixture
def demo_secret(client: TestClient, settings: Settings) -> str:
    """The demo table's key; the client also opens the demo's view link (its view cookie)."""
    open_view(client, "demo")
    return (settings.data_dir / "demo-secret.txt").read_text().strip()


@pytest.fixture
def admin_key(client: TestClient, settings: Settings) -> str:
    """The box's admin key (made at the app's first start)."""
    return (settings.data_dir / "admin-key").read_text().strip()


def admin_headers(data: Path) -> dict[str, str]:
    """The X-Admin-Key header of the box whose data folder is `data`."""
    return {"X-Admin-Key": (data / "admin-key").read_text().strip()}


def open_view(client: TestClient, table_id: str) -> str:
    """Open a listed table's view link as a phone would (the client keeps its view cookie);
    the view token."""
    listed = {t["id"]: t for t in client.get("/api/tables").json()}
    path = listed[table_id]["view_path"]
    assert client.get(path).status_code == 200
    return path.split("?v=")[1]


def wait_for(pred, timeout_s: float = 10.0):
    """`pred()`'s first true answer within `timeout_s` seconds, else its last (a bot's move
    comes from the bots' worker thread)."""
    end = time.monotonic() + timeout_s
    while True:
        out = pred()
        if out or time.monotonic() > end:
            return out
        time.sleep(0.02)


def play_seat_to_the_end(c: TestClient, g: dict, seat: int = 0) -> dict:
    """Plays `seat` of the card table `g` (make_game's answer) with seeded random legal
    moves, the bots answering, until the game is over; the seat's last answer.
    :raises AssertionError: a bot that does not answer, or no end in 400 moves."""
    import random

    gid = g["id"]
    for _ in range(400):
        me = wait_for(lambda: (lambda m: m if m["legal"] or m["over"] else None)(
            c.get(f"/api/games/{gid}/seats/{seat}", headers=seat_key(g, seat)).json()))
        assert me, "the bot did not answer"
        if me["over"]:
            return me
        r = c.post(f"/api/games/{gid}/seats/{seat}/act", headers=seat_key(g, seat),
                   json={"action": random.Random(len(me["view"]["last"])).choice(me["legal"])})
        assert r.status_code == 200, r.text
    raise AssertionError("no end in 400 moves")


def make_game(c: TestClient, game: str = "taki", players=("Ava", "Ben", None), bots=None,
              **extra) -> dict:
    """A new card table made through the API (`players`: None is an open seat; `bots`: seat
    number as text -> bot level); the creation's answer (id, secret, seats, ...), each
    person's seat taken as its phone takes it (`claim_seats`)."""
    body = {"game": game, "players": list(players), "bots": bots or {}, **extra}
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return claim_seats(c, r.json())


def claim_seats(c, g: dict, base: str = "") -> dict:
    """Each person's seat of the card table `g` (a creation's answer) taken by its phone
    with the invitation in its link: `seats[i]` gets the seat's own key and link (the
    invitation kept as `invite`). `c`: a TestClient, or httpx with the server's `base`."""
    for s in g["seats"]:
        if s["key"]:
            r = c.post(f"{base}/api/games/{g['id']}/claim", headers={"X-Seat-Key": s["key"]})
            assert r.status_code == 200, r.text
            s["invite"], s["key"], s["link"] = s["key"], r.json()["key"], r.json()["link"]
    return g


def seat_key(g: dict, seat: int) -> dict[str, str]:
    """The X-Seat-Key header of `seat` of the card table `g` (make_game's answer)."""
    return {"X-Seat-Key": g["seats"][seat]["key"]}


@pytest.fixture
def make_table(client: TestClient):
    """make_table(players=..., stations=...) creates a table with phone-upload places and
    returns (id, secret)."""

    def make(players: tuple[str, ...] = ("Ava", "Ben"),
             stations: tuple[str, ...] = ("D03", "D04"), **extra: object) -> tuple[str, str]:
        body = {"name": "Test", "players": list(players), "level": "normal",
                "places": [{"station": s, "camera": {"kind": "upload"}} for s in stations],
                **extra}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()["id"], r.json()["secret"]

    return make


@pytest.fixture
def wait_view(client: TestClient):
    """wait_view(table_id, pred) polls the table's view until pred(view) holds (judging runs
    in a worker thread), at most 20 s; returns the last view."""
    import time

    def wait(table_id: str, pred, timeout_s: float = 20.0) -> dict:
        end = time.monotonic() + timeout_s
        while True:
            view = client.get(f"/api/tables/{table_id}").json()
            if pred(view) or time.monotonic() > end:
                return view
            time.sleep(0.05)

    return wait


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(data: Path, port: int, log: Path, *extra: str, env: dict[str, str] | None = None):
    """Start `referee serve` in a subprocess (with `env` added to the environment) and wait
    until /healthz answers."""
    import os
    import subprocess
    import sys
    import time

    import httpx

    cmd = [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port",
           str(port), "--data", str(data), *extra]
    proc = subprocess.Popen(cmd, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})})
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"server did not start: {log.read_text()[-2000:]}")


# card tables: a box without the demo, bots without a pause, a short WebSocket hello
@pytest.fixture
def csettings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", demo=False, bot_pause_s=0, ws_hello_s=1.0)


@pytest.fixture
def c(csettings: Settings) -> Iterator[TestClient]:
    with local_client(create_app(csettings)) as client:
        yield client


def round_started(base: str, body: dict) -> tuple[dict, dict[str, str], str]:
    """A table made from `body` on the server at `base`, its round started on the card of
    dev-scene D03-02: (the creation's answer, the table key's header, the table's API URL)."""
    import httpx

    created = httpx.post(base + "/api/tables", json=body).json()
    h = {"X-Table-Secret": created["secret"]}
    url = f"{base}/api/tables/{created['id']}"
    grid, die = scene_card("D03-02")
    assert httpx.post(url + "/rounds", json={"grid": grid, "die": die}, headers=h).is_success
    return created, h, url


def two_verdicts(base: str, name: str = "Family") -> tuple[dict, dict]:
    """A table for Ava (D03) and Ben (D04) with a round played: both photos judged, unsure
    builds decided correct by the table. (The creation's answer, the last view.)"""
    import time

    import httpx

    created, h, url = round_started(base, {"name": name, "players": ["Ava", "Ben"],
                                           "places": [{"station": "D03"}, {"station": "D04"}]})
    for seat, scene in ((0, "D03-02"), (1, "D04-06")):
        photo = {"photo": ("p.jpg", (SCENES / scene / "image.jpg").read_bytes(), "image/jpeg")}
        assert httpx.post(f"{url}/done/{seat}", files=photo, headers=h, timeout=30).is_success
    end = time.monotonic() + 30
    while True:
        view = httpx.get(url, headers=h).json()
        if all(b["verdict"] for b in view["round"]["builders"]) or time.monotonic() > end:
            break
        time.sleep(0.1)
    for b in view["round"]["builders"]:  # unsure builds: the lookout decides
        for by in b["deciders"] if b["state"] == "unsure" else []:
            assert httpx.post(url + "/decide", headers=h,
                              json={"seat": b["seat"], "correct": True, "by": by}).is_success
    return created, httpx.get(url, headers=h).json()


def submit_new_card_game(page, players=("Ava", "Ben")) -> None:
    """On the new card game page (a Playwright page): the players' names typed into the
    first seats, and the form sent."""
    names = page.locator("#seat-rows input[name=name]")
    for i, name in enumerate(players):
        names.nth(i).fill(name)
    page.click("button[type=submit]")


def words_fit(code: str, params: dict) -> None:
    """`refusal.<code>` reads in every language, translated, with no placeholder the server
    leaves unfilled."""
    import string

    from referee.server.i18n import LANGUAGES, messages

    en = messages("en")[f"refusal.{code}"]
    for lang in LANGUAGES:
        said = messages(lang)[f"refusal.{code}"]
        assert {f for _, f, _, _ in string.Formatter().parse(said) if f} <= set(params), said
        assert lang == "en" or said != en, (lang, code)


@pytest.fixture
def base(tmp_path, monkeypatch):
    """A `referee serve` of its own on tmp_path/data without the demo table, bots answering
    at once: its address (the card games' browser tests)."""
    monkeypatch.setenv("REFEREE_BOT_PAUSE_S", "0")
    port = free_port()
    proc = serve(tmp_path / "data", port, tmp_path / "server.log", "--no-demo")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=10)
