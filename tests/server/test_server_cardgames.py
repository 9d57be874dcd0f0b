"""Card-game tables (TAKI, Tukki Tukki, Tokaido) on the server: creation, seats, bots,
restarts, the end of a game, strict request bodies (test_server_card_moves.py: moves and refusals;
test_server_card_secrecy.py: what each key sees and may do; test_server_card_limits.py: the
box's limits)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.server.app import create_app
from referee.server.settings import Settings

from .conftest import (
    local_client,
    make_game,
    play_seat_to_the_end,
    seat_key,
    wait_for,
    words_fit,
)


def test_card_pages_are_headed_as_card_tables(c: TestClient) -> None:
    """A card table's page is titled with its name and game and headed with the game (not
    "Tuki referee"), its header's link makes a new card game (not a Tuki table); the new-game
    and join pages are headed "Card games". Tuki's pages keep their own."""
    import re

    g = make_game(c, "tukki", ["Ava", "Ben"], name="Friday")
    html = c.get(g["view"]).text
    assert re.search(r"<title>Friday · Tukki Tukki</title>", html)
    assert '<a class="brand" href="/?lang=en">Tukki Tukki</a>' in html
    assert 'href="/games/new?lang=en"' in html and 'href="/new?lang=en"' not in html
    plain = make_game(c, "taki", ["Ava", "Ben"])
    assert "<title>TAKI</title>" in c.get(plain["view"]).text
    assert "Tuki referee" not in html.split("<main>")[0]  # the title and the header
    from referee.server.i18n import messages

    he = c.get("/games/join?lang=he").text.split("<main>")[0]  # the title and the header
    assert messages("he")["app.title"] not in he
    assert f'<a class="brand" href="/?lang=he">{messages("he")["nav.games"]}</a>' in he
    assert 'href="/new?lang=' in c.get("/").text  # Tuki's pages keep "New table"


def test_a_card_games_name_is_in_the_pages_language(c: TestClient) -> None:
    """A new user's trial: a Hebrew phone's page of a Tukki Tukki table was headed "Tukki
    Tukki", though its rules text names it "תוכי תוכי", and the new-game form listed the
    games in Latin letters. A name the table was given stays as it was typed."""
    plain = make_game(c, "tukki", ["Ava", "Ben"], listed=True)
    he = c.get(plain["view"] + "&lang=he").text
    assert "<title>תוכי תוכי</title>" in he and ">תוכי תוכי</a>" in he
    assert '<h1 id="table-name">תוכי תוכי</h1>' in he and "Tukki" not in he
    named = make_game(c, "tokaido", ["Ava", "Ben"], name="Friday", listed=True)
    fa = c.get(named["view"] + "&lang=fa").text
    assert "<title>Friday · توکایدو</title>" in fa and '"table-name">Friday<' in fa
    form = c.get("/games/new?lang=he").text
    assert '<option value="tukki">תוכי תוכי</option>' in form
    assert '<option value="taki">טאקי</option>' in form
    index = c.get("/?lang=fa").text
    assert "Friday (توکایدو)" in index and "توکی توکی" in index
    assert "Friday (Tokaido)" in c.get("/?lang=en").text


@pytest.mark.parametrize("body", [
    {"game": "chess", "players": ["A", "B"]},
    {"game": "taki", "players": ["A"]},
    {"game": "tokaido", "players": ["A", "B", "C", "D", "E", "F"]},
    {"game": "taki", "players": ["A", "a"]},
    {"game": "taki", "players": ["A", "B"], "bots": {"5": "easy"}},
    {"game": "taki", "players": ["A", "B"], "bots": {"1": "genius"}},
    {"game": "taki", "players": ["A", "B"], "options": {"rounds": 3}},
    {"game": "tokaido", "players": ["A", "B"], "options": {"characters": ["zz", "yy"]}},
    {"game": "taki", "players": ["A\u202eB", "C"]},
    {"game": "taki", "players": ["A", "B"], "secret": "x"},
])
def test_bad_tables_are_refused_in_words(c: TestClient, body: dict) -> None:
    r = c.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]


def test_options_reach_the_engine(c: TestClient) -> None:
    g = make_game(c, "tukki", ["Ava", "Ben"], options={"rounds": 2})
    v = c.get(f"/api/games/{g['id']}").json()
    assert v["table"]["rounds"] == 2
    g = make_game(c, "tokaido", ["Ava", "Ben"], options={"characters": ["priest", "painter"]})
    assert c.get(f"/api/games/{g['id']}").json()["table"]["characters"] == ["priest", "painter"]
    g = make_game(c, "taki", ["Ava", "Ben"], options={"tournament": True})
    assert c.get(f"/api/games/{g['id']}/seats/0",
                 headers=seat_key(g, 0)).json()["view"]["me"]["tournament"] is True


def test_bots_answer_and_the_game_ends(c: TestClient) -> None:
    g = make_game(c, players=["Ava", None], bots={"1": "heuristic"})
    gid = g["id"]
    assert g["seats"][1] == {"seat": 1, "name": "Bot 2", "bot": "heuristic", "open": False,
                             "joined": False, "key": None, "link": None}
    play_seat_to_the_end(c, g)
    v = c.get(f"/api/games/{gid}").json()
    assert v["over"] and v["scores"] is not None and sorted(v["returns"]) != [0, 0]
    # the owner's end once it is over is refused in words a phone has in its language
    r = c.post(f"/api/games/{gid}/end", headers={"X-Table-Secret": g["secret"]})
    assert r.status_code == 409 and r.json()["code"] == "table.game-over"
    # a rematch from a seat once it is over; the owner may end it
    assert c.post(f"/api/games/{gid}/rematch", headers=seat_key(g, 0)).status_code == 200
    v = c.get(f"/api/games/{gid}").json()
    assert not v["over"] and v["game_no"] == 2 and v["moves"] == 0 or v["moves"] >= 0
    assert c.post(f"/api/games/{gid}/rematch", headers=seat_key(g, 0)).status_code == 409
    r = c.post(f"/api/games/{gid}/end", headers={"X-Table-Secret": g["secret"]})
    assert r.status_code == 200 and c.get(f"/api/games/{gid}").json()["ended"]


def _at_once(c: TestClient, url: str, headers: list[dict[str, str]]) -> list[int]:
    """POST `url` once per headers, all at the same moment (threads behind a barrier); the
    status codes, sorted."""
    import threading

    codes: list[int] = []
    go = threading.Barrier(len(headers))

    def tap(h: dict[str, str]) -> None:
        go.wait()
        codes.append(c.post(url, headers=h).status_code)

    threads = [threading.Thread(target=tap, args=(h,)) for h in headers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(codes)


def test_seats_tapping_rematch_at_once_deal_one_game(c: TestClient, monkeypatch) -> None:
    """A break-it trial: two "Play again" taps 5 ms apart dealt two games (the checks ran
    before the table's lock). Six seats' taps at once deal one; the others are refused."""
    from referee.server.cardtable import CardTable

    g = make_game(c, players=["Ava", "Ben"])
    gid = g["id"]
    # the first game is over (as by its rules) until a new one is dealt
    monkeypatch.setattr(CardTable, "over", property(lambda t: t.games == 1))
    seats = [seat_key(g, i % 2) for i in range(6)]
    assert _at_once(c, f"/api/games/{gid}/rematch", seats) == [200, 409, 409, 409, 409, 409]
    assert c.get(f"/api/games/{gid}").json()["game_no"] == 2
    # the owner may start a game any time, but taps that name the game they saw (as the
    # pages do) deal one: the owner's double tap, or the owner's and a seat's at once
    owner = {"X-Table-Secret": g["secret"]}
    monkeypatch.setattr(CardTable, "over", property(lambda t: True))
    mixed = [owner if i % 2 else seat_key(g, 0) for i in range(6)]
    assert _at_once(c, f"/api/games/{gid}/rematch?after=2", mixed) == [200, 409, 409, 409,
                                                                        409, 409]
    r = c.post(f"/api/games/{gid}/rematch?after=2", headers=owner)
    assert r.status_code == 409 and r.json()["code"] == "table.rematch-started"
    assert c.get(f"/api/games/{gid}").json()["game_no"] == 3


def test_join_with_the_room_code(c: TestClient) -> None:
    g = make_game(c, players=["Ava", None, None])
    gid, code = g["id"], g["code"]
    early = c.post(f"/api/games/{gid}/rematch", headers=seat_key(g, 0))
    assert early.status_code == 409 and early.json()["code"] == "table.not-over"
    words_fit("table.not-over", {})
    assert len(code) == 5 and g["seats"][1]["open"] and g["seats"][1]["key"] is None
    qr = c.get(f"/api/games/{gid}/join.svg")  # the view cookie: the table screen's QR code
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")
    assert local_client(c.app).get(f"/api/games/{gid}/join.svg").status_code == 401
    r = c.post("/api/games/join", json={"code": "ZZZZZ", "name": "Cy"})
    # said as a room code, in the phone's language (it was "no such table, or seat, or
    # photo; check the link" on a Hebrew join page)
    assert r.status_code == 404 and r.json()["code"] == "table.code-unknown"
    for typed in ("АВСD", "@@@@", "שלום"):  # another keyboard's letters: no such code either
        r = c.post("/api/games/join", json={"code": typed, "name": "Cy"})
        assert r.status_code == 404 and r.json()["code"] == "table.code-unknown", typed
    # refusals a phone says in its own language (the table full came out as the camera
    # referee's "not at this step ... send a photo" in Persian and Arabic)
    same = c.post("/api/games/join", json={"code": code, "name": "ava"})
    assert same.status_code == 409 and same.json()["code"] == "table.name-taken"
    words_fit("table.name-taken", {})
    a = c.post("/api/games/join", json={"code": code.lower(), "name": "Cy"})
    assert a.status_code == 200 and a.json()["seat"] == 1
    b = c.post("/api/games/join", json={"code": code, "name": "Dan"}).json()
    assert b["seat"] == 2
    full = c.post("/api/games/join", json={"code": code, "name": "Eve"})
    assert full.status_code == 409 and full.json()["code"] == "table.no-open-seat"
    words_fit("table.no-open-seat", {})
    # each joined key opens its own seat only; the owner's list keeps it to itself
    ka = {"X-Seat-Key": a.json()["key"]}
    assert c.get(f"/api/games/{gid}/seats/1", headers=ka).status_code == 200
    assert c.get(f"/api/games/{gid}/seats/2", headers=ka).status_code == 403
    seats = c.get(f"/api/games/{gid}/seats", headers={"X-Table-Secret": g["secret"]}).json()
    assert [s["name"] for s in seats] == ["Ava", "Cy", "Dan"] and seats[1]["key"] is None
    assert c.get(f"/api/games/{gid}").json()["code"] is None
    assert c.get(f"/api/games/{gid}/join.svg").status_code == 409
    # bounded: a dozen tries a minute from one address
    codes = [c.post("/api/games/join", json={"code": "QQQQQ", "name": "X"}).status_code
             for _ in range(12)]
    assert codes[-1] == 429


def test_a_seat_changes_hands(c: TestClient) -> None:
    g = make_game(c, players=["Ava", "Ben"])
    gid, owner = g["id"], {"X-Table-Secret": g["secret"]}
    assert c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"},
                  headers=seat_key(g, 1)).status_code == 401
    r = c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"}, headers=owner)
    assert r.status_code == 200 and r.json()["key"] is None
    assert c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 1)).status_code == 403
    r = c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": None}, headers=owner)
    invite = r.json()["key"]  # an invitation: the phone that opens it takes the seat
    assert invite and invite != g["seats"][1]["key"]
    new = c.post(f"/api/games/{gid}/claim", headers={"X-Seat-Key": invite}).json()["key"]
    assert c.get(f"/api/games/{gid}/seats/1", headers={"X-Seat-Key": new}).status_code == 200
    assert c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 1)).status_code == 403


def test_a_table_survives_a_restart(csettings: Settings) -> None:
    with local_client(create_app(csettings)) as c:
        g = make_game(c, players=["Ava", "Ben", None], bots={"1": "random"})
        gid = g["id"]
        for _ in range(6):  # Ava plays, the bot answers, until the open seat is to play
            (cur,) = wait_for(lambda: (lambda v: (v["current_player"],) if v["current_player"]
                                       != 1 else None)(c.get(f"/api/games/{gid}").json()))
            if cur == 2:
                break
            me = c.get(f"/api/games/{gid}/seats/0", headers=seat_key(g, 0)).json()
            c.post(f"/api/games/{gid}/seats/0/act", headers=seat_key(g, 0),
                   json={"action": me["legal"][-1]}).raise_for_status()
        before = c.get(f"/api/games/{gid}").json()
        mine = c.get(f"/api/games/{gid}/seats/0", headers=seat_key(g, 0)).json()
    with local_client(create_app(csettings)) as c:
        assert c.get(f"/api/games/{gid}", headers=seat_key(g, 0)).json() == before
        assert c.get(f"/api/games/{gid}/seats/0", headers=seat_key(g, 0)).json() == mine
        health = c.get("/healthz").json()
        assert health["damaged"] == 0  # the Tuki service left the card table alone


@pytest.mark.parametrize("body, code, params", [
    ({"players": ["Ava", "Ben", "ava"]}, "table.same-name", {"a": 1, "b": 3}),
    ({"players": ["Cy", None, "cy"], "bots": {"1": "easy"}}, "table.same-name",
     {"a": 1, "b": 3}),
    ({"game": "tokaido", "players": ["A", "B", "C"],
      "options": {"characters": ["priest", "painter", "priest"]}}, "table.same-character",
     {"a": 1, "b": 3}),
    ({"game": "tokaido", "players": ["A", "B", "C"], "options": {"characters": ["priest",
                                                                             "painter"]}},
     "table.characters", {"n": 3}),
    ({"game": "tokaido", "players": list("ABCDEF")}, "table.player-count",
     {"game": "Tokaido", "min": 2, "max": 5, "n": 6}),
    ({"players": ["A", "B"], "bots": {"5": "easy"}}, "table.bot-seat", {"seat": 6, "n": 2}),
    ({"players": ["A", "B"], "options": {"rounds": 3}}, "table.option", {"game": "TAKI"}),
    ({"game": "tokaido", "players": ["A", "B"], "options": {"characters": ["priest", "ninja"]}},
     "table.setup", {}),
])
def test_a_new_table_the_rules_refuse_says_which_seats(c: TestClient, body, code,
                                                       params) -> None:
    """The new-game form's refusals carry a code and params (seats counted from 1, as the
    form numbers its rows), so that every language says what is wrong, not a general
    sentence; the answer never repeats the names typed."""
    r = c.post("/api/games", json={"game": "taki", **body})
    assert r.status_code == 422, r.text
    out = r.json()
    assert (out["error"], out["code"], out["params"]) == ("TableSetupError", code, params)
    assert "ava" not in out["detail"].lower()
    words_fit(code, params)


def test_a_seat_nobody_named_is_named_unlike_the_others(c: TestClient) -> None:
    """A break-it trial: a player who typed "Bot 2" beside a bot nobody named was refused
    (the same name as the bot's "Bot 2"), and an open seat handed to a person beside a player
    named "Player 2" made two seats named alike, though seats' names must differ."""
    from referee.server.text import name_key

    g = make_game(c, "taki", ["bot 2", None], bots={"1": "easy"})
    names = [p["name"] for p in c.get(f"/api/games/{g['id']}?v={g['view'].split('?v=')[1]}")
             .json()["players"]]
    assert names == ["bot 2", "Bot 2 (2)"]
    g = make_game(c, "taki", ["Player 2", None])
    r = c.post(f"/api/games/{g['id']}/seats/1/bot", json={"bot": None},
               headers={"X-Table-Secret": g["secret"]})
    assert r.status_code == 200 and r.json()["name"] == "Player 2 (2)"
    view = c.get(f"/api/games/{g['id']}?v={g['view'].split('?v=')[1]}").json()
    assert len({name_key(p["name"]) for p in view["players"]}) == 2
    # a page shows "Bot  2" as "Bot 2": the same name (the re-trial's two "Bot 2" seats)
    assert name_key("Bot  2") == name_key("bot\u00a02") == name_key(" Bot 2 ")
    r = c.post("/api/games", json={"game": "taki", "players": ["Bot  2", None],
                                   "bots": {"1": "easy"}})
    assert r.status_code == 201
    names = [s["name"] for s in r.json()["seats"]]
    assert names[1] == "Bot 2 (2)", names
    # nor as a page's own words for an unnamed seat: a Hebrew page shows the bot "Bot 2" as
    # "בוט 2", a Persian one as "ربات ۲" (a re-trial joined as "בוט 2" beside it)
    assert name_key("בוט 2") == name_key("ربات ۲") == name_key("Bot 2") != name_key("Bot 3")
    r = c.post("/api/games", json={"game": "taki", "players": ["שחקן 2", None, "בוט 2"],
                                   "bots": {"1": "easy"}})
    assert r.status_code == 201
    assert [s["name"] for s in r.json()["seats"]][1] == "Bot 2 (2)"


def test_final_ranks_put_the_winner_first() -> None:
    from referee.server.card_views import final_ranks

    # TAKI: the winner has shed every card; then fewer cards left first, level ones share
    assert final_ranks([0, 0, 1, 0], [5, 3, 0, 3], True) == [4, 2, 1, 2]
    # Tokaido: more points first; the winner (its tie-breaks) before one level on points
    assert final_ranks([0, 0, 1], [10, 12, 12], False) == [3, 2, 1]
    assert final_ranks([1, 1, 0], [-3, -3, 9], True) == [1, 1, 3]  # Tukki's shared win


@pytest.mark.parametrize("game", ["taki", "tukki"])
def test_the_end_gives_each_seat_its_place(c: TestClient, game: str) -> None:
    """A game's end ranks the seats (the view's `ranks`, 1 the winner), so that the page
    numbers its list by place, not by seat (TAKI's winner read "3." in seat order)."""
    g = make_game(c, game, players=[None, None, None], options={"rounds": 1} if game == "tukki"
             else {}, bots={"0": "heuristic", "1": "heuristic", "2": "heuristic"})
    view = wait_for(lambda: (v := c.get(g["view"].replace("/g/", "/api/games/")).json())
                    ["over"] and v, 60)
    assert view, "the bots did not finish"
    ranks, returns, scores = view["ranks"], view["returns"], view["scores"]
    winners = [i for i, r in enumerate(returns) if r == max(returns)]
    assert [i for i, r in enumerate(ranks) if r == 1] == winners
    order = sorted(range(3), key=lambda i: ranks[i])
    assert [scores[i] for i in order if i not in winners] == \
        sorted(scores[i] for i in range(3) if i not in winners)  # fewer cards, fewer points


def test_pages_render(c: TestClient) -> None:
    g = make_game(c, players=["Ava", None])
    for lang in ("en", "fa", "he", "ar"):
        assert c.get(f"/games/new?lang={lang}").status_code == 200
        assert c.get(f"/games/join?lang={lang}").status_code == 200
        r = c.get(f"{g['view']}&lang={lang}")
        assert r.status_code == 200
        assert ('dir="rtl"' in r.text) == (lang != "en")
    fresh = local_client(c.app)
    assert fresh.get(f"/g/{g['id']}").status_code == 401
    assert fresh.get("/g/nope").status_code == 404


def test_the_bot_pause_is_a_setting(monkeypatch) -> None:
    from referee.server.settings import SettingsError

    monkeypatch.setenv("REFEREE_BOT_PAUSE_S", "0")
    assert Settings.from_env().bot_pause_s == 0
    monkeypatch.setenv("REFEREE_BOT_PAUSE_S", "1.5")
    assert Settings.from_env().bot_pause_s == 1.5
    monkeypatch.delenv("REFEREE_BOT_PAUSE_S")
    assert Settings.from_env().bot_pause_s == 0.8
    for bad in ("abc", "-1", "99"):
        monkeypatch.setenv("REFEREE_BOT_PAUSE_S", bad)
        with pytest.raises(SettingsError, match="REFEREE_BOT_PAUSE_S"):
            Settings.from_env()


@pytest.mark.parametrize("typed", ["{a} {b}", "{a}-{b}", " {a} - {b} ", "{a}{b}",
                                   "{lower}"])
def test_a_room_code_is_read_as_people_type_it(c: TestClient, typed: str) -> None:
    """A room code typed with spaces or hyphens (read aloud in two parts), or in lower case,
    finds its table; it used to be a 404 that also cost one of the dozen tries a minute."""
    g = make_game(c, players=["Ava", None])
    code = g["code"]
    text = typed.format(a=code[:2], b=code[2:], lower=code.lower())
    r = c.post("/api/games/join", json={"code": text, "name": "Cy"})
    assert r.status_code == 200, r.text
    assert r.json()["id"] == g["id"] and r.json()["seat"] == 1


@pytest.mark.parametrize("extra, field", [
    ({"game": "tukki", "options": {"rounds": "3"}}, ["body", "options", "rounds"]),
    ({"game": "tukki", "options": {"rounds": 3.0}}, ["body", "options", "rounds"]),
    ({"game": "taki", "options": {"tournament": "yes"}}, ["body", "options", "tournament"]),
    ({"game": "taki", "options": {"tournament": 1}}, ["body", "options", "tournament"]),
    ({"game": "taki", "listed": "yes"}, ["body", "listed"]),
    ({"game": "taki", "listed": 1}, ["body", "listed"]),
])
def test_a_wrong_type_is_a_clear_422(c: TestClient, extra: dict, field: list) -> None:
    """Request bodies are strict: "3" is not the number 3 and "yes" is not true (they were
    taken as such); the answer names the field."""
    r = c.post("/api/games", json={"players": ["Ava", "Ben"], **extra})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "RequestValidationError"
    assert [p["loc"] for p in r.json()["problems"]] == [field]
    # the same with the right types is a table
    right = json.loads(json.dumps(extra).replace('"3"', "3").replace("3.0", "3")
                       .replace('"yes"', "true").replace(": 1}", ": true}"))
    assert c.post("/api/games", json={"players": ["Ava", "Ben"], **right}).status_code == 201


def test_tuki_request_bodies_are_strict_too(client) -> None:
    body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
    for wrong in ({"listed": "yes"}, {"first_lookout": "1"}, {"first_lookout": True}):
        r = client.post("/api/tables", json={**body, **wrong})
        assert r.status_code == 422, (wrong, r.text)
        assert r.json()["problems"][0]["loc"] == ["body", next(iter(wrong))]
    assert client.post("/api/tables", json={**body, "listed": True, "first_lookout": 1}
                       ).status_code == 201


def test_a_bad_bot_seat_is_named_alike_in_words_and_params(c: TestClient) -> None:
    """The English sentence and the code's params name one seat, counted from 1 as people
    read seats (the sentence said seat 5, counted from 0, and a phone's words seat 6)."""
    r = c.post("/api/games", json={"game": "taki", "players": ["A", "B"],
                                   "bots": {"5": "easy"}})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["params"] == {"seat": 6, "n": 2}
    assert "seat 6" in body["detail"] and "seat 5" not in body["detail"], body["detail"]


def test_a_seat_cannot_restart_a_game_the_owner_ended(c: TestClient) -> None:
    """The owner's end stands: a seat's "play again" is for a game over by its rules, not
    for one the owner ended (it started a new game behind the owner's back); the owner may
    still start one."""
    g = make_game(c, players=["Ava", "Ben"])
    gid, owner = g["id"], {"X-Table-Secret": g["secret"]}
    c.post(f"/api/games/{gid}/end", headers=owner).raise_for_status()
    r = c.post(f"/api/games/{gid}/rematch", headers=seat_key(g, 1))
    assert r.status_code == 409, r.text
    assert r.json()["code"] == "table.ended-by-owner"
    words_fit("table.ended-by-owner", {})
    v = c.get(f"/api/games/{gid}").json()
    assert v["ended"] and v["game_no"] == 1
    assert c.post(f"/api/games/{gid}/rematch", headers=owner).status_code == 200
    v = c.get(f"/api/games/{gid}").json()
    assert not v["ended"] and v["game_no"] == 2


def test_a_seat_handed_to_a_bot_is_one_transaction(csettings: Settings, monkeypatch) -> None:
    """The seat's new key and its `seat_bot` event are stored together: a failure while
    storing the event leaves the seat as it was, in memory and after a restart (the key was
    stored first, on its own: the seat became a person's seat that no link opened)."""
    from referee.server.storage import EventStore

    with local_client(create_app(csettings)) as c:
        g = make_game(c, players=["Ava", "Ben"])
        gid = g["id"]
        real = EventStore._insert_events

        def crash(self, *args, **kwargs):  # the power goes while the event is written
            raise RuntimeError("power cut")

        monkeypatch.setattr(EventStore, "_insert_events", crash)
        with pytest.raises(RuntimeError):
            c.app.state.cards.set_bot(gid, 1, "random", g["secret"])
        monkeypatch.setattr(EventStore, "_insert_events", real)
        assert c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 1)).status_code == 200
    with local_client(create_app(csettings)) as c:
        r = c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 1))
        assert r.status_code == 200, r.text
        assert c.get(f"/api/games/{gid}", headers=seat_key(g, 0)).json()["players"][1]["bot"] \
            is None


def test_bots_at_different_tables_pause_side_by_side(tmp_path: Path) -> None:
    """A bot's pause (for people to see each move) holds up only its own table: with four
    all-bot tables each plays a move about every pause (the pauses were slept one after the
    other in the one bot thread: each table moved every 4 pauses)."""
    pause = 0.3
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=pause)
    with local_client(create_app(s)) as c:
        bots = {str(i): "heuristic" for i in range(3)}
        games = [make_game(c, players=[None] * 3, bots=bots) for _ in range(4)]
        time.sleep(8 * pause)
        moves = [c.get(f"/api/games/{g['id']}", headers={"X-Table-Secret": g["secret"]})
                 .json()["moves"] for g in games]
    # side by side: about 8 moves each; one after the other: 8 in all, 2 each
    assert min(moves) >= 4, moves


def test_bots_play_on_after_a_restart(tmp_path: Path) -> None:
    """A bot's move that was due when the server stopped (killed during the pause) is
    scheduled again when the server starts: the table plays on by itself."""
    data = tmp_path / "d"
    bots = {str(i): "heuristic" for i in range(2)}
    with local_client(create_app(Settings(data_dir=data, demo=False, bot_pause_s=10))) as c:
        g = make_game(c, players=[None] * 2, bots=bots)
        owner = {"X-Table-Secret": g["secret"]}
        assert c.get(f"/api/games/{g['id']}", headers=owner).json()["moves"] == 0
    with local_client(create_app(Settings(data_dir=data, demo=False, bot_pause_s=0))) as c:
        assert wait_for(lambda: c.get(f"/api/games/{g['id']}", headers=owner).json()
                        ["moves"] >= 3)


def test_an_action_with_a_direction_override_is_refused_unread(c: TestClient) -> None:
    """A re-trial sent `take story-blue` + U+202E: the refusal quoted the override back raw
    in its words and its params. Text with control characters or direction overrides is
    refused up front (422), as the Tuki endpoints refuse it; the game does not move."""
    g = make_game(c, game="tokaido", players=["Ava", "Ben"])
    gid = g["id"]
    before = c.get(f"/api/games/{gid}").json()["moves"]
    for text in ("take story-blue\u202e", "move 3\x00", "\u2066move 3"):
        r = c.post(f"/api/games/{gid}/seats/0/act", headers=seat_key(g, 0),
                   json={"action": text})
        assert r.status_code == 422, (text, r.text)
        assert "\u202e" not in r.text and "\u2066" not in r.text
    assert c.get(f"/api/games/{gid}").json()["moves"] == before
