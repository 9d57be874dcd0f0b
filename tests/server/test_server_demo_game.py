"""The demo table plays a whole 2-player game to its end with the real referee."""

from __future__ import annotations


def test_demo_game_to_the_winner(client, demo_secret, wait_view, settings, tmp_path):
    h = {"X-Table-Secret": demo_secret}
    rounds = 0
    view = client.get("/api/tables/demo").json()
    while not view["over"]:
        assert rounds < 12, "a 2-player game ends by the 9th penalty card"
        assert client.post("/api/tables/demo/rounds/demo", headers=h).status_code == 200
        rounds += 1
        first = rounds % 2  # alternate who declares first
        assert client.post(f"/api/tables/demo/done/{first}", headers=h).status_code == 200
        view = wait_view("demo", lambda v: all(b["verdict"] for b in v["round"]["builders"]))
        for b in view["round"]["builders"]:
            for by in b["deciders"] if b["state"] == "unsure" else []:
                r = client.post("/api/tables/demo/decide", headers=h,
                                json={"seat": b["seat"], "correct": False, "by": by})
                assert r.status_code == 200, r.text
        view = client.get("/api/tables/demo").json()
        assert view["round"]["taker"] in (0, 1)
        assert sum(p["penalties"] for p in view["players"]) == rounds
    pens = [p["penalties"] for p in view["players"]]
    assert max(pens) == 5 and view["winners"] == [pens.index(min(pens))]
    assert client.post("/api/tables/demo/rounds/demo", headers=h).status_code == 409
    # every lookout decision on an unsure build left a labelled photo
    from referee.server.dataset import export

    decided = [e for e in client.get("/api/tables/demo/events").json()
               if e["kind"] == "decision" and "correct" in e["data"]]
    summary = export(settings.data_dir, tmp_path / "set")
    assert decided, "the demo script has unsure builds for the lookout to decide"
    assert summary["scenes"] == len({(e["data"]["builder"], e["seq"]) for e in decided})
    for label in (tmp_path / "set" / "scenes").glob("*/label.json"):
        assert '"verdict": "wrong"' in label.read_text()  # as decided above
    # the exported set is one `referee eval` reads: the demo's cards are grids typed in,
    # written as printed (the target turned back by the die), never an empty grid
    from referee.evaluate import evaluate

    judged = evaluate(tmp_path / "set")
    assert len(judged.results) == summary["scenes"]
    assert not [r.id for r in judged.results if "label:unreadable" in r.reasons]
    # a rematch at the same table: the same players, no penalties, the last lookout first
    last = client.get("/api/tables/demo").json()
    client.cookies.clear()
    assert client.post("/api/tables/demo/rematch").status_code == 401
    r = client.post("/api/tables/demo/rematch", headers=h)
    assert r.status_code == 200, r.text
    again = client.get("/api/tables/demo", headers=h).json()
    assert not again["over"] and again["winners"] == [] and again["round"] is None
    assert [p["penalties"] for p in again["players"]] == [0, 0]
    assert again["lookout"] == last["lookout"]
    assert client.post("/api/tables/demo/rematch", headers=h).status_code == 409
    assert client.post("/api/tables/demo/rounds/demo", headers=h).status_code == 200
    rnd = client.get("/api/tables/demo", headers=h).json()["round"]
    assert rnd["number"] == rounds + 1  # round numbers go on, so every photo keeps its own


def test_bench_server_plays_timed_rounds():
    from referee.server.bench import run

    r = run(rounds=2)
    assert r["rounds"] == 2
    for key in ("done_request_ms", "done_to_feed_ms", "done_to_all_verdicts_on_feed_ms"):
        assert 0 < r[key]["median"] <= r[key]["max"]
    assert r["done_to_feed_ms"]["max"] < r["done_to_all_verdicts_on_feed_ms"]["max"]
    assert r["done_request_ms"]["max"] < r["done_to_all_verdicts_on_feed_ms"]["max"]
