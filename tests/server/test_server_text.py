"""Text that cannot be stored or shown is refused at the door, once, for every field (issue 14
item 1); a table stored with such text before is set aside, never a 500 for everyone."""

from __future__ import annotations

import json
import sqlite3
import unicodedata

import pytest
from fastapi.testclient import TestClient

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import local_client, scene_card

PLACES = [{"station": "D03"}, {"station": "D04"}]


def _create(client: TestClient, **body: object):
    return client.post("/api/tables", json={"players": ["Ava", "Ben"], "places": PLACES}
                       | body)


def _create_raw(client: TestClient, text: str):
    """A creation whose JSON is sent as typed: the \\ud800 escape reaches the server as is."""
    return client.post("/api/tables", content=text.encode(),
                       headers={"content-type": "application/json"})


def _everyone_still_served(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/api/tables").status_code == 200
    assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize("raw", [
    '{"players": ["\\ud800", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}',
    '{"name": "T\\udfff", "players": ["Ava", "Ben"], "places": [{"station": "D03"}, '
    '{"station": "D04"}]}',
    '{"players": ["Ava", "Ben"], "places": [{"station": "D03\\ud800"}, {"station": "D04"}]}',
    # a key nobody expects, holding a lone surrogate: the 422 names where, and still encodes
    '{"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}], '
    '"\\ud800": 1}',
])
def test_a_lone_surrogate_is_refused_and_breaks_nothing(client, raw):
    before = client.get("/api/tables").json()
    r = _create_raw(client, raw)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "RequestValidationError"
    assert client.get("/api/tables").json() == before
    _everyone_still_served(client)


def test_a_lone_surrogate_in_a_round_is_refused(client, make_table):
    table_id, secret = make_table()
    r = client.post(f"/api/tables/{table_id}/rounds",
                    content=b'{"card_id": "N0\\ud800", "die": "fish"}',
                    headers={"X-Table-Secret": secret, "content-type": "application/json"})
    assert r.status_code == 422 and "not well-formed Unicode" in r.json()["detail"]
    assert client.get(f"/api/tables/{table_id}").json()["round"] is None


@pytest.mark.parametrize(("name", "why"), [
    ("\u200b\u200b\u200b", "U+200B"),           # zero-width spaces only
    ("\u200d\u200c", "visible character"),       # joiners only: allowed marks, nothing seen
    ("   ", "visible character"),
    ("\u3164", "visible character"),             # a Hangul filler: a letter that shows nothing
    ("\u115f\u2800", "visible character"),       # a leading filler, a blank Braille pattern
    ("Ava\u202eneB", "U+202E"),                  # right-to-left override
    ("\u2067Ava", "U+2067"),                     # right-to-left isolate
    ("Av\x07a", "U+0007"),                       # a control character
    ("Ava\nBen", "U+000A"),                      # a line break in a one-line field
    ("\ufeffAva", "U+FEFF"),                     # a byte-order mark
    ("x" * 31, "at most 30"),
    ("B" + "\u0336" * 29, "marks"),              # strokes stacked on one letter
])
def test_names_that_cannot_be_shown_are_refused(client, name, why):
    r = _create(client, players=[name, "Ben"])
    assert r.status_code == 422, r.text
    assert why in r.json()["detail"] and "body.players.0" in r.json()["detail"]
    r = _create(client, name=name * 2)  # the table's name has the same check (60 at most)
    assert r.status_code == 422 and why.replace("30", "60") in r.json()["detail"]


def test_names_in_two_normal_forms_are_one_name(client):
    nfc, nfd = "Zo\u00eb", "Zoe\u0308"
    assert nfc != nfd and unicodedata.normalize("NFC", nfd) == nfc
    r = _create(client, players=[nfc, nfd])
    assert r.status_code == 422 and "names 1 and 2 are the same name" in r.json()["detail"]
    r = _create(client, players=["Ava", "ava"])  # case does not make another player either
    assert r.status_code == 422
    r = _create(client, players=[nfd, "Ben"], name=f"  {nfd}'s table ")
    assert r.status_code == 201
    view = client.get(f"/api/tables/{r.json()['id']}").json()
    assert view["players"][0]["name"] == nfc and view["name"] == f"{nfc}'s table"


@pytest.mark.parametrize("twin", ["Ava\u200f", "Av\u034fa", "\u200eAva", "Ava\ufe0f",
                                  "A\u200dva", "Ava\u3164"])
def test_a_name_with_an_invisible_character_is_the_same_name(client, twin):
    """A break-it trial: "Ava" with a direction mark, a grapheme joiner or a variation
    selector looked like "Ava" and counted as another player."""
    r = _create(client, players=["Ava", twin])
    assert r.status_code == 422 and "same name" in r.json()["detail"], (twin, r.text)


@pytest.mark.parametrize(("name", "twin"), [
    ("Bob", "B\u043eb"),                     # a Cyrillic o (a break-it trial)
    ("Ava", "\u0410va"),                     # a Cyrillic A
    ("Nico", "Nic\u03bf"),                   # a Greek omicron
    ("\u0639\u0644\u06cc", "\u0639\u0644\u064a"),  # Ali, Persian and Arabic yeh
    ("\u06a9\u0627\u0645", "\u0643\u0627\u0645"),  # Kam, Persian and Arabic kaf
])
def test_a_name_of_look_alike_letters_is_the_same_name(client, name, twin):
    """Two names that look alike on a phone are one player, and a name with a few marks on
    each letter is kept (Hebrew points, Arabic harakat)."""
    r = _create(client, players=[name, twin])
    assert r.status_code == 422 and "same name" in r.json()["detail"], (twin, r.text)


def test_names_with_their_points_and_harakat_are_kept(client):
    hebrew = "\u05e9\u05c1\u05bc\u05b8\u05e8\u05b8\u05d4"   # Sarah: shin dot, dagesh, qamats
    arabic = "\u0645\u064f\u062d\u064e\u0645\u0651\u064e\u062f"  # Muhammad: shadda + fatha
    r = _create(client, players=[hebrew, arabic])
    assert r.status_code == 201, r.text


def test_right_to_left_names_keep_their_joiners_and_marks(client):
    persian = "\u0645\u06cc\u200c\u0646\u0627"   # with a zero-width non-joiner
    hebrew = "\u05d3\u05e0\u05d4\u200f"          # with a right-to-left mark
    arabic = "\u0639\u0644\u0627\u0621\u061c"     # with an Arabic letter mark
    r = _create(client, players=[persian, hebrew, arabic], places=PLACES + PLACES[:1])
    assert r.status_code == 201, r.text
    view = client.get(f"/api/tables/{r.json()['id']}").json()
    assert [p["name"] for p in view["players"]] == [persian, hebrew, arabic]
    assert client.get(f"/t/{r.json()['id']}").status_code == 200


def test_a_grid_keeps_its_lines_and_refuses_controls(client, make_table):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    r = client.post(f"/api/tables/{table_id}/rounds", headers=h,
                    json={"grid": grid.replace("\n", "\x0b"), "die": die})
    assert r.status_code == 422 and "U+000B" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/rounds", headers=h,
                    json={"grid": grid.replace("\n", "\r\n"), "die": die})
    assert r.status_code == 200, r.text


def test_a_long_id_is_not_repeated(client, demo_secret):
    long_id = "x" * 10_000
    for path in (f"/api/tables/{long_id}", f"/api/tables/{long_id}/events",
                 f"/api/tables/demo/photos/{long_id}.jpg", f"/t/{long_id}"):
        r = client.get(path)
        assert r.status_code in (404, 422), path  # unknown, or a name longer than any photo's
        assert len(r.content) < 3000 and "x" * 100 not in r.text, path
    r = client.get(f"/api/tables/{long_id}")
    assert "10000 characters" in r.json()["detail"]
    r = client.get(f"/api/tables/{long_id}/qr.svg")
    assert r.status_code == 404 and "x" * 100 not in r.text


def _store_name(data, sql: str, *args: object) -> None:
    with sqlite3.connect(data / "referee.sqlite3") as db:
        db.execute(sql, args)


@pytest.mark.parametrize("where", ["table name", "player name"])
def test_a_stored_bad_name_cannot_break_the_pages(tmp_path, where):
    """A table written with a lone surrogate in its name (before this check, or by hand) is
    set aside at start; the home page and the table list keep answering."""
    data = tmp_path / "data"
    settings = Settings(data_dir=data, demo=False)
    with local_client(create_app(settings)) as c:
        good = _create(c).json()["id"]
        bad = _create(c).json()["id"]
    if where == "table name":
        with sqlite3.connect(data / "referee.sqlite3") as db:
            (config,) = db.execute("SELECT config FROM tables WHERE id = ?", (bad,)).fetchone()
        config = config.replace('"name": "Tuki"', '"name": "T\\ud800"')
        assert "\\ud800" in config
        _store_name(data, "UPDATE tables SET config = ? WHERE id = ?", config, bad)
    else:
        with sqlite3.connect(data / "referee.sqlite3") as db:
            (payload,) = db.execute("SELECT payload FROM events WHERE table_id = ? AND seq = 1",
                                    (bad,)).fetchone()
        assert json.loads(payload)["players"] == ["Ava", "Ben"]
        _store_name(data, "UPDATE events SET payload = ? WHERE table_id = ? AND seq = 1",
                    payload.replace('"Ava"', '"\\u202eAva\\ud800"'), bad)
    with local_client(create_app(settings)) as c:
        _everyone_still_served(c)
        admin = {"X-Admin-Key": (data / "admin-key").read_text().strip()}
        listed = {t["id"]: t for t in c.get("/api/tables", headers=admin).json()}
        assert listed[good]["damaged"] is None
        assert "cannot be shown" in listed[bad]["damaged"]
        assert c.get(f"/api/tables/{bad}").status_code == 409
        assert c.get(f"/t/{bad}").status_code == 409
        # the public list shows only listed tables; the admin's list says why one is set aside
        assert c.get("/api/tables").json() == []
