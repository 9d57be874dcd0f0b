"""The box's limits on card tables and Tuki tables alike: per phone, per box, and a table
idle for the idle minutes no longer counting (a family that lost a control link)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import local_client, make_game, play_seat_to_the_end, seat_key, words_fit


def test_card_tables_count_against_the_limits(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables_per_client=2)
    with local_client(create_app(s)) as c:
        make_game(c, players=["Ava", "Ben"])
        body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        assert c.post("/api/tables", json=body).status_code == 201
        assert c.post("/api/games", json={"game": "taki", "players": ["A", "B"]}
                      ).status_code == 429
        assert c.post("/api/tables", json=body).status_code == 429


def test_a_table_whose_links_were_lost_stops_counting_once_idle(tmp_path: Path) -> None:
    """A family that lost a control link cannot end that game, so the limit per phone says
    what to do in plain words (a code with words in every language: end one, or wait), and a
    table where nothing has happened for the idle minutes no longer counts. It is not opened
    to anyone by that: its keys stay its own, it can be played on, and then counts again."""
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables_per_client=2)
    with local_client(create_app(s)) as c:
        lost, kept = make_game(c, players=["Ava", "Ben"]), make_game(c, players=["Ava", "Ben"])
        r = c.post("/api/games", json={"game": "taki", "players": ["A", "B"]})
        assert r.status_code == 429, r.text
        body = r.json()
        assert (body["code"], body["params"]) == ("table.too-many-mine",
                                                  {"n": 2, "most": 2, "minutes": 30})
        words_fit(body["code"], body["params"])
        c.app.state.cards.tables[lost["id"]].touched -= 31 * 60  # nothing for 31 minutes
        third = make_game(c, players=["Ava", "Ben"])
        # the idle table's keys open only what they opened: no key of another table does
        r = c.post(f"/api/games/{lost['id']}/end", headers={"X-Table-Secret": third["secret"]})
        assert r.status_code == 403
        # played on, it is in play again: the limit holds once more
        c.post(f"/api/games/{lost['id']}/seats/0/act", headers=seat_key(lost, 0),
               json={"action": "draw"}).raise_for_status()
        assert c.post("/api/games", json={"game": "taki", "players": ["A", "B"]}
                      ).status_code == 429
        # a Tuki table goes idle the same way (the limits count both kinds)
        for g in (kept, third, lost):
            c.post(f"/api/games/{g['id']}/end", headers={"X-Table-Secret": g["secret"]}
                   ).raise_for_status()
        make_game(c, players=["Ava", "Ben"])
        body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        tuki = c.post("/api/tables", json=body)
        assert tuki.status_code == 201
        assert c.post("/api/tables", json=body).json()["code"] == "table.too-many-mine"
        c.app.state.service.tables[tuki.json()["id"]].touched -= 31 * 60
        assert c.post("/api/tables", json=body).status_code == 201


def test_the_box_limit_says_what_to_do(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables=1)
    with local_client(create_app(s)) as c:
        make_game(c, players=["Ava", "Ben"])
        r = c.post("/api/games", json={"game": "taki", "players": ["A", "B"]})
        assert r.status_code == 429
        assert (r.json()["code"], r.json()["params"]) == ("table.too-many-box",
                                                          {"n": 1, "most": 1, "minutes": 30})
        words_fit(r.json()["code"], r.json()["params"])


def test_the_idle_minutes_are_a_setting(monkeypatch) -> None:
    from referee.server.settings import SettingsError

    monkeypatch.delenv("REFEREE_IDLE_MIN", raising=False)
    assert Settings.from_env().idle_min == 30
    monkeypatch.setenv("REFEREE_IDLE_MIN", "120")
    assert Settings.from_env().idle_min == 120
    for bad in ("abc", "0", "1.5"):
        monkeypatch.setenv("REFEREE_IDLE_MIN", bad)
        with pytest.raises(SettingsError, match="REFEREE_IDLE_MIN"):
            Settings.from_env()


def test_tables_made_and_ended_at_once_are_bounded_too(tmp_path: Path) -> None:
    """A break-it trial made and ended 30 listed tables in 0.2 s: ended ones count against no
    limit of tables in play, yet each stays on the box's disk (and was on its start page). One
    address may make `max_new_tables_per_hour`, Tuki and card tables together; another
    address is not held back by it, and the refusal says when to try again."""
    import time

    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_new_tables_per_hour=3)
    with local_client(create_app(s)) as c:
        for _ in range(2):
            g = make_game(c, players=["Ava", "Ben"])
            c.post(f"/api/games/{g['id']}/end", headers={"X-Table-Secret": g["secret"]}
                   ).raise_for_status()
        body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        assert c.post("/api/tables", json=body).status_code == 201  # the third of the hour
        r = c.post("/api/games", json={"game": "taki", "players": ["A", "B"]})
        assert r.status_code == 429, r.text
        code, params = r.json()["code"], r.json()["params"]
        assert code == "table.too-many-new" and params["n"] == 3 and params["most"] == 3
        assert 1 <= params["minutes"] <= 61
        words_fit(code, params)
        assert c.post("/api/tables", json=body).json()["code"] == "table.too-many-new"
        made = c.app.state.service.new_tables
        made.take("192.0.2.7", 3, time.time())  # another phone makes its own
        for q in made._made.values():  # an hour on, the address may make tables again
            for i in range(len(q)):
                q[i] -= 3601
        assert c.post("/api/games", json={"game": "taki", "players": ["A", "B"]}
                      ).status_code == 201


def test_a_game_its_owner_ended_leaves_the_public_list(tmp_path: Path) -> None:
    """The break-it trial's ended tables stayed on the start page, each said to be "playing".
    An owner-ended game leaves the public list and the page; the admin's list keeps it, as
    "ended"."""
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0)
    with local_client(create_app(s)) as c:
        kept = make_game(c, players=["Ava", "Ben"], listed=True, name="Kept game")
        gone = make_game(c, players=["Ava", "Ben"], listed=True, name="Gone game")
        public = lambda: {g["id"]: g["phase"] for g in c.get("/api/games").json()}  # noqa
        assert public() == {kept["id"]: "playing", gone["id"]: "playing"}
        c.post(f"/api/games/{gone['id']}/end", headers={"X-Table-Secret": gone["secret"]}
               ).raise_for_status()
        assert public() == {kept["id"]: "playing"}
        page = c.get("/").text
        assert "Kept game" in page and "Gone game" not in page
        admin = {"X-Admin-Key": c.app.state.service.admin_key}
        every = {g["id"]: g["phase"] for g in c.get("/api/games", headers=admin).json()}
        assert every == {kept["id"]: "playing", gone["id"]: "ended"}


def test_the_owner_of_a_tuki_table_can_end_its_game(tmp_path: Path) -> None:
    """A break-it trial: the limit's words said to end a table from its control link, but a
    Tuki table's control link could only void the round. Its owner ends the game now (no
    winner); it then no longer counts, and a rematch may follow."""
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables_per_client=1)
    body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
    with local_client(create_app(s)) as c:
        made = c.post("/api/tables", json=body).json()
        url, owner = f"/api/tables/{made['id']}", {"X-Table-Secret": made["secret"]}
        assert c.post("/api/tables", json=body).json()["code"] == "table.too-many-mine"
        seats = c.get(f"{url}/seats", headers=owner).json()
        assert c.post(f"{url}/end-game", headers={"X-Seat-Key": seats[0]["key"]}
                      ).status_code == 403
        assert c.post(f"{url}/end-game").status_code in (401, 403)
        assert c.post(f"{url}/end-game", headers=owner).status_code == 200
        view = c.get(url).json()
        assert view["over"] and view["winners"] == []
        assert c.post(f"{url}/end-game", headers=owner).status_code == 409  # over already
        second = c.post("/api/tables", json=body).json()
        c.post(f"/api/tables/{second['id']}/end-game",
               headers={"X-Table-Secret": second["secret"]}).raise_for_status()
        assert c.post(f"{url}/rematch", headers=owner).status_code == 200


def test_a_tuki_rematch_counts_against_the_limits(tmp_path: Path) -> None:
    """A re-trial: made, ended and rematched 30 times from one address, the box was full
    for everyone; a rematch after the end is a table in play again, and asks the limits."""
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables_per_client=1)
    body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
    with local_client(create_app(s)) as c:
        first = c.post("/api/tables", json=body).json()
        c.post(f"/api/tables/{first['id']}/end-game",
               headers={"X-Table-Secret": first["secret"]}).raise_for_status()
        c.post("/api/tables", json=body).raise_for_status()  # its place, taken
        r = c.post(f"/api/tables/{first['id']}/rematch",
                   headers={"X-Table-Secret": first["secret"]})
        assert r.status_code == 429 and r.json()["code"] == "table.too-many-mine"
        assert c.get(f"/api/tables/{first['id']}").json()["over"]


def test_bots_alone_and_long_finished_games_leave_the_public_list(tmp_path: Path) -> None:
    """A break-it trial filled the start page with listed games of bots alone: they ended by
    themselves within a minute, so never counted against the limits, and stayed listed for
    good. A game of bots alone is not listed (its view link still shows it); a finished game
    stays listed for the idle minutes after its last move, then leaves the list (the admin's
    list keeps both)."""
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0)
    with local_client(create_app(s)) as c:
        bots = make_game(c, "tukki", players=[None, None], bots={"0": "random", "1": "random"},
                         listed=True, options={"rounds": 1})
        played = make_game(c, "tukki", players=["Ava", None], bots={"1": "random"},
                           listed=True, options={"rounds": 1})
        public = lambda: {g["id"]: g["phase"] for g in c.get("/api/games").json()}  # noqa
        assert public() == {played["id"]: "playing"}
        assert c.get(bots["view"]).status_code == 200
        gid = played["id"]
        play_seat_to_the_end(c, played)
        assert public() == {gid: "over"}  # the table sees its result from the start page
        c.app.state.cards.tables[gid].touched -= 31 * 60  # its last move 31 minutes ago
        assert public() == {}
        admin = {"X-Admin-Key": c.app.state.service.admin_key}
        every = {g["id"]: g["phase"] for g in c.get("/api/games", headers=admin).json()}
        assert every[gid] == "over" and bots["id"] in every
