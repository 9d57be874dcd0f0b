"""The box's limits on card tables and Tuki tables alike: per phone, per box, and a table
idle for the idle minutes no longer counting (a family that lost a control link)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import local_client, make_game, seat_key, words_fit


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
