"""Verdicts people can question, and the labelled photo set that grows from them."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import scene_card, scene_photo


def _photo(scene: str) -> dict:
    return {"photo": (f"{scene}.jpg", scene_photo(scene), "image/jpeg")}


def _three_players_round(client, make_table, lookout: int):
    """Ava, Ben and Cy at phone places (D03, D04, D03), seat `lookout` the lookout, who has
    started a round of D03-02's card: (table id, the table key's headers, its API URL, the
    three seat keys, the die)."""
    table_id, secret = make_table(players=("Ava", "Ben", "Cy"),
                                  stations=("D03", "D04", "D03"), first_lookout=lookout)
    h = {"X-Table-Secret": secret}
    url = f"/api/tables/{table_id}"
    keys = [s["key"] for s in client.get(f"{url}/seats", headers=h).json()]
    grid, die = scene_card("D03-02")
    assert client.post(f"{url}/rounds", json={"grid": grid, "die": die},
                       headers={"X-Seat-Key": keys[lookout]}).status_code == 200
    return table_id, h, url, keys, die


def test_a_questioned_verdict_is_decided_by_the_lookout_and_labels_the_photo(
        client, make_table, wait_view, settings, tmp_path):
    table_id, h, url, (ava, ben, cy), die = _three_players_round(client, make_table, 2)
    assert client.post(f"{url}/done/0", files=_photo("D03-02"),
                       headers={"X-Seat-Key": ava}).status_code == 200
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    first = view["round"]["builders"][0]["verdict"]["verdict"]
    # a verdict not given yet cannot be questioned
    r = client.post(f"{url}/dispute", json={"seat": 1}, headers={"X-Seat-Key": ava})
    assert r.status_code == 409
    # Ben's "done" closes the round; Cy (the lookout, who builds too) still owes a photo
    assert client.post(f"{url}/done/1", files=_photo("D04-06"),
                       headers={"X-Seat-Key": ben}).status_code == 200
    assert client.get(url, headers=h).json()["phase"] == "settling"
    # Ben questions Ava's verdict; a view link cannot, nor Ben twice
    client.cookies.clear()
    r = client.post(f"{url}/dispute", json={"seat": 0}, headers={"X-Seat-Key": ben})
    assert r.status_code == 200, r.text
    assert client.post(f"{url}/dispute", json={"seat": 0},
                       headers={"X-Seat-Key": ben}).status_code == 409
    view = client.get(url, headers=h).json()
    assert view["round"]["builders"][0]["disputed_by"] == [1]
    # only the lookout answers
    r = client.post(f"{url}/confirm", json={"seat": 0, "correct": False},
                    headers={"X-Seat-Key": ava})
    assert r.status_code == 403
    r = client.post(f"{url}/confirm", json={"seat": 0, "correct": False},
                    headers={"X-Seat-Key": cy})
    assert r.status_code == 200, r.text
    view = client.get(url, headers=h).json()
    a = view["round"]["builders"][0]
    assert a["confirmed"] == "wrong"
    assert a["card_stays"] is False  # no card given yet: the answer counts, or only labels
    counted = first != "unsure"
    events = client.get(f"{url}/events", headers=h).json()
    note = next(e for e in events if e["kind"] == "server:confirmed")
    assert note["data"]["counted"] is counted
    if counted:  # the penalty is not given yet: it counts as the lookout's decision
        assert any(e["kind"] == "decision" and e["data"].get("overrule") for e in events)
    # the set: Ava's photo labelled wrong, as the lookout decided
    out = tmp_path / "set"
    r = subprocess.run([sys.executable, "-m", "referee", "dataset", "export", str(out),
                        "--data", str(settings.data_dir)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    labels = [json.loads(p.read_text()) for p in (out / "scenes").glob("*/label.json")]
    mine = [lab for lab in labels if lab["source"]["seat"] == 0]
    assert len(mine) == 1 and mine[0]["verdict"] == "wrong"
    assert mine[0]["station"] == "D03" and mine[0]["die"]["animal"] == die.split("+")[0]
    assert (out / "stations" / "D03" / "station.json").is_file()
    # and `referee eval` runs it
    r = subprocess.run([sys.executable, "-m", "referee", "eval", str(out), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["scenes"] == len(labels) >= 1


def test_a_photo_without_the_mat_is_taken_again(client, make_table, wait_view):
    """The builder's photo missed the mat: unsure, and the builder retakes it; the new photo
    is judged and counts."""
    from referee.paths import FIXTURES

    nomat = next((FIXTURES / "real-nomat").glob("*.jpg")).read_bytes()
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    url = f"/api/tables/{table_id}"
    grid, die = scene_card("D03-02")
    client.post(f"{url}/rounds", json={"grid": grid, "die": die}, headers=h)
    r = client.post(f"{url}/done/0", headers=h,
                    files={"photo": ("nomat.jpg", nomat, "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    first = view["round"]["builders"][0]["verdict"]
    assert first["verdict"] == "unsure"
    assert all(x["code"].split(":")[0] in ("mat", "photo", "camera") for x in first["reasons"])
    r = client.post(f"{url}/done/0", headers=h, files=_photo("D03-02"))
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: (b := v["round"]["builders"][0])["verdict"] is not None
                     and b["verdict"] != first)
    assert view["round"]["builders"][0]["verdict"]["verdict"] in ("correct", "unsure")
    kinds = [e["kind"] for e in client.get(f"{url}/events", headers=h).json()]
    assert "retake" in kinds and kinds.count("done") == 1  # the done itself stays one


def test_exporting_with_nothing_decided_says_so_and_writes_nothing(tmp_path):
    from referee.server.storage import EventStore

    data = tmp_path / "data"
    data.mkdir()
    EventStore(data / "referee.sqlite3").close()  # a box that has served, nothing decided
    out = tmp_path / "myset"
    r = subprocess.run([sys.executable, "-m", "referee", "dataset", "export", str(out),
                        "--data", str(data)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout == ""
    assert r.stderr.startswith("error: nothing to export yet") and "Traceback" not in r.stderr
    assert "referee eval" not in r.stderr + r.stdout
    assert not out.exists()


def test_an_answer_against_a_card_already_given_says_the_card_stays(
        client, make_table, wait_view):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    url = f"/api/tables/{table_id}"
    grid, die = scene_card("D03-02")
    assert client.post(f"{url}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    for seat, scene in ((0, "D03-02"), (1, "D04-06")):
        assert client.post(f"{url}/done/{seat}", files=_photo(scene),
                           headers=h).status_code == 200
    view = wait_view(table_id, lambda v: all(b["verdict"] for b in v["round"]["builders"]))
    for b in view["round"]["builders"]:  # unsure builds: the lookout decides
        for by in b["deciders"] if b["state"] == "unsure" else []:
            assert client.post(f"{url}/decide", headers=h,
                               json={"seat": b["seat"], "correct": True, "by": by}
                               ).status_code == 200
    view = client.get(url, headers=h).json()
    assert view["round"]["taker"] is not None  # the penalty card is given
    said = {b["seat"]: b["decided"] or b["verdict"]["verdict"]
            for b in view["round"]["builders"]}
    # Ava's verdict questioned after the card: the lookout says otherwise; Ben's: the same
    for seat, correct in ((0, said[0] != "correct"), (1, said[1] == "correct")):
        assert client.post(f"{url}/dispute", json={"seat": seat},
                           headers=h).status_code == 200
        r = client.post(f"{url}/confirm", json={"seat": seat, "correct": correct},
                        headers=h)
        assert r.status_code == 200, r.text
    view = client.get(url, headers=h).json()
    ava, ben = view["round"]["builders"]
    assert ava["confirmed"] and ava["card_stays"] is True
    assert ben["confirmed"] and ben["card_stays"] is False
    assert sum(p["penalties"] for p in view["players"]) == 1  # no card moved


def test_only_the_rounds_lookout_answers_once_and_never_on_their_own_build(
        client, make_table, wait_view):
    """A break-it trial: the player just given the penalty card (the lookout from then on)
    answered the question on their own build "correct", as often as they liked, and the
    round's lookout was refused. Now the round's lookout answers, once; nobody answers for
    their own build; and once the owner ends the game, no question or answer is taken,
    and only the owner starts another game."""
    table_id, h, url, (ava, ben, cy), _ = _three_players_round(client, make_table, 0)
    # Ava's photo misses the mat (unsure; the others decide it right): Cy's photo sent
    # again would be refused as his (test_server_photo_reuse)
    from referee.paths import FIXTURES

    nomat = next((FIXTURES / "real-nomat").glob("*.jpg")).read_bytes()
    for seat, key, photo in ((1, ben, _photo("D04-06")), (2, cy, _photo("D03-02")),
                             (0, ava, {"photo": ("nomat.jpg", nomat, "image/jpeg")})):
        assert client.post(f"{url}/done/{seat}", files=photo,
                           headers={"X-Seat-Key": key}).status_code == 200
    view = wait_view(table_id, lambda v: all(b["verdict"] for b in v["round"]["builders"]))
    for b in view["round"]["builders"]:  # Ben's build is the wrong one, the others right
        for by in b["deciders"] if b["state"] == "unsure" else []:
            assert client.post(f"{url}/decide", headers=h, json={
                "seat": b["seat"], "correct": b["seat"] != 1, "by": by}).status_code == 200
    view = client.get(url, headers=h).json()
    assert view["round"]["taker"] == 1 and view["lookout"] == 1  # Ben took the card
    assert view["round"]["lookout"] == 0  # Ava ran that round
    assert client.post(f"{url}/dispute", json={"seat": 1},
                       headers={"X-Seat-Key": cy}).status_code == 200
    # Ben, lookout now, answers nothing on his own build; Cy is no lookout
    for key in (ben, cy):
        r = client.post(f"{url}/confirm", json={"seat": 1, "correct": True},
                        headers={"X-Seat-Key": key})
        assert r.status_code == 403, r.text
    r = client.post(f"{url}/confirm", json={"seat": 1, "correct": False},
                    headers={"X-Seat-Key": ava})
    assert r.status_code == 200, r.text
    r = client.post(f"{url}/confirm", json={"seat": 1, "correct": True},
                    headers={"X-Seat-Key": ava})
    assert r.status_code == 409  # answered once
    events = client.get(f"{url}/events", headers=h).json()
    assert [e["data"]["by"] for e in events if e["kind"] == "server:confirmed"] == [0]
    # the owner ends the game: no question, no answer, and a seat starts no new game
    assert client.post(f"{url}/end-game", headers=h).status_code == 200
    assert client.post(f"{url}/dispute", json={"seat": 2},
                       headers={"X-Seat-Key": ben}).status_code == 409
    assert client.post(f"{url}/confirm", json={"seat": 1, "correct": True},
                       headers=h).status_code == 409
    view = client.get(url, headers=h).json()
    assert view["over"] and view["ended_by_table"]
    r = client.post(f"{url}/rematch", headers={"X-Seat-Key": cy})
    assert r.status_code == 409 and r.json()["code"] == "table.ended-by-owner"
    assert client.post(f"{url}/rematch", headers=h).status_code == 200
    assert client.get(url, headers=h).json()["ended_by_table"] is False
