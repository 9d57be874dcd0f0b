"""The tables API: a whole round through HTTP, with real photos and the real referee."""

from __future__ import annotations

import pytest

from referee.check import check_photo, decode_photo, load_station
from referee.paths import MODELS
from referee.tuki.cards import turn

from .conftest import scene_card, scene_photo


def judged(view: dict) -> bool:
    rd = view["round"]
    return rd is not None and all(b["verdict"] is not None for b in rd["builders"])


def test_health_and_docs(client):
    h = client.get("/healthz").json()
    assert h["status"] == "ok" and h["tables"] == 1
    assert h["cameras"]["demo"] == ["live", "live"]
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/tables/{table_id}/done/{seat}" in paths


def test_create_gives_secret_once(client, make_table):
    table_id, secret = make_table()
    assert len(secret) >= 32
    for path in (f"/api/tables/{table_id}", f"/t/{table_id}", f"/api/tables/{table_id}/events",
                 "/api/tables", "/"):
        assert secret not in client.get(path).text
    view = client.get(f"/api/tables/{table_id}").json()
    assert [p["name"] for p in view["players"]] == ["Ava", "Ben"]
    assert view["phase"] == "between" and view["round"] is None


def test_a_round_with_uploaded_photos(client, make_table, wait_view, settings):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    r = client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    assert r.status_code == 200, r.text
    # Ava says done with her photo: with 2 builders the round ends, Ben finished last
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("ava.jpg", scene_photo("D03-02"), "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    ben = view["round"]["builders"][1]
    assert ben["status"] == "stopped" and ben["state"] == "waiting"
    # a second "done" from Ava is refused by the rules
    again = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                        files={"photo": ("a.jpg", scene_photo("D03-02"), "image/jpeg")})
    assert again.status_code == 409
    # Ben's photo arrives from his phone
    r = client.post(f"/api/tables/{table_id}/done/1", headers=h,
                    files={"photo": ("ben.jpg", scene_photo("D04-06"), "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, judged)
    assert judged(view)
    # the verdicts are the referee's own, for exactly these photos
    target = list(turn(grid.splitlines(), die))
    for b, scene, station in ((0, "D03-02", "D03"), (1, "D04-06", "D04")):
        st = load_station(MODELS / "demo" / "stations" / station / "station.json")
        want = check_photo(decode_photo(scene_photo(scene)), st, target, die, "normal")
        assert view["round"]["builders"][b]["verdict"] == want.verdict.to_dict()
        assert client.get(view["round"]["builders"][b]["overlay"]).status_code == 200
    # settle any unsure build by the lookout's decision, then a penalty is given
    for b in view["round"]["builders"]:
        for by in b["deciders"] if b["state"] == "unsure" else []:
            r = client.post(f"/api/tables/{table_id}/decide", headers=h,
                            json={"seat": b["seat"], "correct": True, "by": by})
            assert r.status_code == 200, r.text
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["round"]["taker"] in (0, 1)
    assert sum(p["penalties"] for p in view["players"]) == 1
    assert view["lookout"] == view["round"]["taker"]
    kinds = [e["kind"] for e in client.get(f"/api/tables/{table_id}/events").json()]
    assert kinds[:3] == ["game_started", "round_started", "server:photo"]
    assert "penalty" in kinds and kinds.count("server:judged") == 2


def test_demo_round_uses_the_scene_card_and_cameras(client, demo_secret, wait_view):
    h = {"X-Table-Secret": demo_secret}
    assert client.post("/api/tables/demo/rounds/demo", headers=h).status_code == 200
    view = client.get("/api/tables/demo").json()
    assert view["round"]["card"]["id"] == "D03-02"
    assert view["round"]["die"] == {"animal": "bear", "white_square": True}
    assert client.post("/api/tables/demo/done/1", headers=h).status_code == 200
    view = wait_view("demo", judged)
    assert judged(view) and view["round"]["done_order"] == [1]


def test_card_by_deck_id_and_void_round(client, make_table):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    r = client.post(f"/api/tables/{table_id}/rounds", json={"card_id": "N01", "die": "fish"},
                    headers=h)
    assert r.status_code == 200, r.text
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["round"]["card"]["id"] == "N01"
    assert client.post(f"/api/tables/{table_id}/end", headers=h).status_code == 200
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["void"] and view["round"] is None and view["lookout"] == 0


@pytest.mark.parametrize("body, words", [
    ({"card_id": "N999", "die": "fish"}, "no card 'N999'"),
    ({"grid": "GGGGG\nBBBB.", "die": "fish"}, "B"),
    ({"card_id": "N01", "die": "cat"}, "cat"),
    ({"die": "fish"}, "a round needs a card"),
])
def test_bad_round_input_is_refused(client, make_table, body, words):
    table_id, secret = make_table()
    r = client.post(f"/api/tables/{table_id}/rounds", json=body,
                    headers={"X-Table-Secret": secret})
    assert r.status_code == 422 and words in r.json()["detail"]
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 1


def test_create_refuses_bad_tables(client):
    base = {"players": ["A", "B"], "places": [{"station": "D03"}, {"station": "D04"}]}
    assert client.post("/api/tables", json=base | {"players": ["A"]}).status_code == 422
    r = client.post("/api/tables", json=base | {"places": [{"station": "D03"}]})
    assert r.status_code == 422 and "2 build places" in r.json()["detail"]
    r = client.post("/api/tables", json=base | {"places": [{"station": "X9"}, {"station": "D03"}]})
    assert r.status_code == 422 and "no station 'X9'" in r.json()["detail"]
    assert client.post("/api/tables", json=base | {"players": ["A", "A"]}).status_code == 422
    assert len(client.get("/api/tables").json()) == 1  # only the demo table


def test_a_dead_camera_shows_and_done_waits_for_nothing(client, wait_view):
    body = {"players": ["A", "B"], "places": [
        {"station": "D03", "camera": {"kind": "capture", "device": "/nonexistent/cam.avi"}},
        {"station": "D04"}]}
    r = client.post("/api/tables", json=body)
    table_id, h = r.json()["id"], {"X-Table-Secret": r.json()["secret"]}
    view = wait_view(table_id, lambda v: v["places"][0]["camera"]["state"] == "dead")
    cam = view["places"][0]["camera"]
    assert cam["state"] == "dead" and "cannot open camera" in cam["detail"]
    assert cam["retry_in_s"] is not None
    assert client.get("/healthz").json()["cameras"][table_id] == ["dead", "idle"]
    grid, die = scene_card("D03-02")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h)
    assert r.status_code == 409 and "no frame for A's place" in r.json()["detail"]
    assert client.get(f"/api/tables/{table_id}").json()["round"]["done_order"] == []


def test_four_players_the_lookout_does_not_build(client, make_table):
    table_id, secret = make_table(players=("A", "B", "C", "D"), stations=("D03", "D04", "D03"),
                                  first_lookout=2)
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D04-01")
    assert client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["lookout"] == 2
    assert [(b["seat"], b["place"]) for b in view["round"]["builders"]] == [(0, 0), (1, 1),
                                                                           (3, 2)]
    r = client.post(f"/api/tables/{table_id}/done/2", headers=h,
                    files={"photo": ("c.jpg", scene_photo("D04-01"), "image/jpeg")})
    assert r.status_code == 409 and "lookout" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/done/3", headers=h,
                    files={"photo": ("d.jpg", scene_photo("D03-07"), "image/jpeg")})
    assert r.status_code == 200
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["places"][2]["camera"]["state"] == "live"  # D's phone photo is place 3's frame


def test_camera_preview(client, make_table):
    r = client.get("/api/tables/demo/places/0/preview.jpg")
    assert r.status_code == 200 and r.content[:3] == b"\xff\xd8\xff"
    import cv2
    import numpy as np

    img = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
    assert max(img.shape[:2]) <= 480
    table_id, _ = make_table()
    r = client.get(f"/api/tables/{table_id}/places/0/preview.jpg")  # a phone place, no photo
    assert r.status_code == 409 and "no frame" in r.json()["detail"]
    assert client.get("/api/tables/demo/places/7/preview.jpg").status_code == 404
