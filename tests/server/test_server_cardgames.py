"""Card-game tables (TAKI, Tukki Tukki, Tokaido) on the server: creation, keys, seats, bots,
moves, restarts, the live feed, and that no answer holds what its key may not see."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.games.engine import get_game
from referee.server.app import create_app
from referee.server.card_views import CardViews
from referee.server.cardtable import CardTable, public_table
from referee.server.settings import Settings

from .conftest import local_client


def make(c: TestClient, game: str = "taki", players=("Ava", "Ben", None), bots=None,
         **extra) -> dict:
    body = {"game": game, "players": list(players), "bots": bots or {}, **extra}
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def seat_key(g: dict, seat: int) -> dict[str, str]:
    return {"X-Seat-Key": g["seats"][seat]["key"]}


def wait_for(pred, timeout_s: float = 10.0):
    end = time.monotonic() + timeout_s
    while True:
        out = pred()
        if out or time.monotonic() > end:
            return out
        time.sleep(0.02)


def test_create_play_and_refuse(c: TestClient) -> None:
    g = make(c, players=["Ava", "Ben"])
    assert g["code"] is None and g["view"].startswith(f"/g/{g['id']}?v=")
    assert [s["name"] for s in g["seats"]] == ["Ava", "Ben"]
    me = c.get(f"/api/games/{g['id']}/seats/0", headers=seat_key(g, 0)).json()
    assert me["current_player"] == 0 and me["legal"] and me["view"]["me"]["hand"]
    # not this seat's turn: 409; an illegal action: 422 with the engine's reason; nothing lost
    r = c.post(f"/api/games/{g['id']}/seats/1/act", headers=seat_key(g, 1),
               json={"action": "draw"})
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]
    hand = me["view"]["me"]["hand"]
    unplayable = [f"play {h}" for h in hand if f"play {h}" not in me["legal"]]
    for bad in ["play Z9", *unplayable[:1]]:
        r = c.post(f"/api/games/{g['id']}/seats/0/act", headers=seat_key(g, 0),
                   json={"action": bad})
        assert r.status_code == 422, r.text
        assert r.json()["error"] == "IllegalMoveError" and "cannot be played now" in \
            r.json()["detail"]
    again = c.get(f"/api/games/{g['id']}/seats/0", headers=seat_key(g, 0)).json()
    assert again == me
    r = c.post(f"/api/games/{g['id']}/seats/0/act", headers=seat_key(g, 0),
               json={"action": me["legal"][0]})
    assert r.status_code == 200
    assert r.json()["view"]["last"][-1] == {"seat": 0, "name": "Ava",
                                            "action": me["legal"][0]}


def test_a_seat_is_told_what_its_moves_cost(c: TestClient) -> None:
    """Tokaido: each legal action that costs coins comes with its price (for the button);
    TAKI's actions cost nothing, so a TAKI seat gets no prices."""
    g = make(c, game="tokaido", players=["Ava", "Ben"])
    for _ in range(60):  # play the current seat's first legal move until one costs coins
        seats = [c.get(f"/api/games/{g['id']}/seats/{i}", headers=seat_key(g, i)).json()
                 for i in range(2)]
        me = next(s for s in seats if s["legal"])
        if me["costs"]:
            break
        c.post(f"/api/games/{g['id']}/seats/{me['seat']}/act", headers=seat_key(g, me["seat"]),
               json={"action": me["legal"][0]}).raise_for_status()
    assert me["costs"] and set(me["costs"]) <= set(me["legal"])
    assert all(a.startswith("take ") and n > 0 for a, n in me["costs"].items())
    assert all(n <= me["view"]["me"]["coins"][me["seat"]] for n in me["costs"].values())
    t = make(c, players=["Ava", "Ben"])
    assert c.get(f"/api/games/{t['id']}/seats/0", headers=seat_key(t, 0)).json()["costs"] == {}


def test_a_refusal_carries_its_code_and_params(c: TestClient) -> None:
    """A 422 for an action says it in plain English and, for the phone's language, with the
    engine's code and parameters (i18n refusal.<code>)."""
    g = make(c, players=["Ava", "Ben"])
    url, key = f"/api/games/{g['id']}/seats/0/act", seat_key(g, 0)
    r = c.post(url, headers=key, json={"action": "close"})  # nothing to close at a turn's start
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "IllegalMoveError" and "(rule a turn)" in body["detail"]
    assert (body["code"], body["params"]) == ("taki.not-at-turn-start", {"action": "close"})
    r = c.post(url, headers=key, json={"action": "play Z9"})
    assert r.status_code == 422
    assert (r.json()["code"], r.json()["params"]) == ("taki.card-unknown", {"text": "Z9"})
    # not this seat's turn: a 409 with its own code, which names the seat to play
    r = c.post(f"/api/games/{g['id']}/seats/1/act", headers=seat_key(g, 1),
               json={"action": "draw"})
    assert r.status_code == 409 and r.json()["error"] == "NotYourTurnError"
    assert (r.json()["code"], r.json()["params"]) == ("table.not-your-turn", {"seat": 0})
    c.post(f"/api/games/{g['id']}/end", headers={"X-Table-Secret": g["secret"]}
           ).raise_for_status()
    r = c.post(url, headers=key, json={"action": "draw"})
    assert r.status_code == 409
    assert (r.json()["code"], r.json()["params"]) == ("table.game-over", {})
    from referee.server.i18n import LANGUAGES, messages

    for lang in LANGUAGES:  # words in every language, naming the seat where the English does
        for code in ("table.not-your-turn", "table.game-over"):
            said = messages(lang)[f"refusal.{code}"]
            assert ("{seat}" in said) == (code == "table.not-your-turn"), (lang, said)


def test_card_pages_are_headed_as_card_tables(c: TestClient) -> None:
    """A card table's page is titled with its name and game and headed with the game (not
    "Tuki referee"), its header's link makes a new card game (not a Tuki table); the new-game
    and join pages are headed "Card games". Tuki's pages keep their own."""
    import re

    g = make(c, "tukki", ["Ava", "Ben"], name="Friday")
    html = c.get(g["view"]).text
    assert re.search(r"<title>Friday · Tukki Tukki</title>", html)
    assert '<a class="brand" href="/?lang=en">Tukki Tukki</a>' in html
    assert 'href="/games/new?lang=en"' in html and 'href="/new?lang=en"' not in html
    plain = make(c, "taki", ["Ava", "Ben"])
    assert "<title>TAKI</title>" in c.get(plain["view"]).text
    assert "Tuki referee" not in html.split("<main>")[0]  # the title and the header
    from referee.server.i18n import messages

    he = c.get("/games/join?lang=he").text.split("<main>")[0]  # the title and the header
    assert messages("he")["app.title"] not in he
    assert f'<a class="brand" href="/?lang=he">{messages("he")["nav.games"]}</a>' in he
    assert 'href="/new?lang=' in c.get("/").text  # Tuki's pages keep "New table"


def test_unknown_routes_answer_in_the_servers_error_shape(c: TestClient) -> None:
    """No such route (404) or a method a route does not take (405): `detail` in plain words
    and an `error` kind that every language has words for, like every other error."""
    from referee.server.i18n import LANGUAGES, messages

    for path, method, status, kind in (("/api/nothing", "GET", 404, "UnknownRouteError"),
                                       ("/static/nothing.js", "GET", 404, "UnknownRouteError"),
                                       ("/api/games", "DELETE", 405, "MethodNotAllowedError")):
        r = c.request(method, path)
        assert r.status_code == status, (path, r.text)
        body = r.json()
        assert body["error"] == kind and body["detail"] != "Not Found", body
        assert set(body) == {"detail", "error"}
        assert all(f"err.kind.{kind}" in messages(lang) for lang in LANGUAGES)


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
    g = make(c, "tukki", ["Ava", "Ben"], options={"rounds": 2})
    v = c.get(f"/api/games/{g['id']}").json()
    assert v["table"]["rounds"] == 2
    g = make(c, "tokaido", ["Ava", "Ben"], options={"characters": ["priest", "painter"]})
    assert c.get(f"/api/games/{g['id']}").json()["table"]["characters"] == ["priest", "painter"]
    g = make(c, "taki", ["Ava", "Ben"], options={"tournament": True})
    assert c.get(f"/api/games/{g['id']}/seats/0",
                 headers=seat_key(g, 0)).json()["view"]["me"]["tournament"] is True


def test_keys_open_only_their_own(c: TestClient) -> None:
    g = make(c, players=["Ava", "Ben", "Cy"])
    gid = g["id"]
    # a seat key reading or acting for another seat: 403
    assert c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 0)).status_code == 403
    r = c.post(f"/api/games/{gid}/seats/0/act", headers=seat_key(g, 1),
               json={"action": "draw"})
    assert r.status_code == 403
    # the table key never reads a hand nor acts for a seat
    table = {"X-Table-Secret": g["secret"]}
    assert c.get(f"/api/games/{gid}/seats/0", headers=table).status_code == 401
    assert c.get(f"/api/games/{gid}/seats/0",
                 headers={"X-Seat-Key": g["secret"]}).status_code == 403
    assert c.post(f"/api/games/{gid}/seats/0/act", headers=table,
                  json={"action": "draw"}).status_code == 401
    # the id alone opens nothing; a wrong view token is 403; the view link reads the public
    fresh = local_client(c.app)
    assert fresh.get(f"/api/games/{gid}").status_code == 401
    assert fresh.get(f"/api/games/{gid}?v=nope").status_code == 403
    token = g["view"].split("?v=")[1]
    pub = fresh.get(f"/api/games/{gid}?v={token}")
    assert pub.status_code == 200
    assert fresh.get(f"/api/games/{gid}/seats").status_code == 401
    assert fresh.get(f"/api/games/{gid}/seats", headers=seat_key(g, 0)).status_code == 401
    # no hand in the public view, the view link's page or the owner's seat list
    hands = [c.get(f"/api/games/{gid}/seats/{i}", headers=seat_key(g, i)).json()
             ["view"]["me"]["hand"] for i in range(3)]
    text = pub.text
    assert '"hand"' not in text and '"me"' not in text and "seed" not in text
    page = fresh.get(f"/g/{gid}?v={token}").text
    assert all(json.dumps(h) not in page for h in hands) and '"hand"' not in page
    seats = c.get(f"/api/games/{gid}/seats", headers=table).json()
    assert [s["key"] for s in seats] == [s["key"] for s in g["seats"]]
    assert "hand" not in json.dumps(seats)
    # the stored events (with the seed) are served to no one
    assert c.get(f"/api/games/{gid}/events").status_code in (404, 405)
    assert c.get(f"/api/tables/{gid}").status_code == 404


def test_public_view_never_holds_a_hidden_card() -> None:
    """For random reachable states of every game: the public table does not change when
    what any one seat cannot know is dealt anew (so it holds nothing hidden from anyone),
    and a seat's own observation does not change when what it cannot know is dealt anew."""
    for name in ("taki", "tukki", "tokaido"):
        game = get_game(name)
        rng = random.Random(7)
        checked = 0
        for g in range(6):
            st = game.new_game(2 + g % 2, seed=g)
            for _ in range(rng.randrange(0, 120)):
                if st.is_terminal():
                    break
                st.apply_action(rng.choice(st.legal_actions()))
                if rng.random() < 0.15:
                    pub = public_table(st)
                    for p in range(st.num_players):
                        other = st.determinize(p, random.Random(rng.random()))
                        assert public_table(other) == pub, name
                        assert other.observation(p) == st.observation(p), name
                    checked += 1
        assert checked >= 10, name


def test_tukki_drawn_card_is_only_the_drawers(c: TestClient) -> None:
    g = make(c, "tukki", ["Ava", "Ben"])
    gid = g["id"]
    for _ in range(200):  # the opening reveals, then a take from the deck
        v = c.get(f"/api/games/{gid}").json()
        cur = v["current_player"]
        me = c.get(f"/api/games/{gid}/seats/{cur}", headers=seat_key(g, cur)).json()
        if "take deck" in me["legal"]:
            c.post(f"/api/games/{gid}/seats/{cur}/act", headers=seat_key(g, cur),
                   json={"action": "take deck"}).raise_for_status()
            break
        c.post(f"/api/games/{gid}/seats/{cur}/act", headers=seat_key(g, cur),
               json={"action": me["legal"][0]}).raise_for_status()
    else:
        pytest.fail("no take from the deck")
    drawer = c.get(f"/api/games/{gid}/seats/{cur}", headers=seat_key(g, cur)).json()
    other = c.get(f"/api/games/{gid}/seats/{1 - cur}", headers=seat_key(g, 1 - cur)).json()
    assert drawer["view"]["me"]["drawn"] not in (None, "?")
    assert other["view"]["me"]["drawn"] == "?"
    assert c.get(f"/api/games/{gid}").json()["table"]["drawn"] is None
    assert other["view"]["table"]["drawn"] is None


def test_bots_answer_and_the_game_ends(c: TestClient) -> None:
    g = make(c, players=["Ava", None], bots={"1": "heuristic"})
    gid = g["id"]
    assert g["seats"][1] == {"seat": 1, "name": "Bot 2", "bot": "heuristic", "open": False,
                             "key": None, "link": None}
    for _ in range(400):
        me = wait_for(lambda: (lambda m: m if m["legal"] or m["over"] else None)(
            c.get(f"/api/games/{gid}/seats/0", headers=seat_key(g, 0)).json()))
        assert me, "the bot did not answer"
        if me["over"]:
            break
        r = c.post(f"/api/games/{gid}/seats/0/act", headers=seat_key(g, 0),
                   json={"action": random.Random(len(me["view"]["last"])).choice(me["legal"])})
        assert r.status_code == 200, r.text
    else:
        pytest.fail("no end")
    v = c.get(f"/api/games/{gid}").json()
    assert v["over"] and v["scores"] is not None and sorted(v["returns"]) != [0, 0]
    # a rematch from a seat once it is over; the owner may end it
    assert c.post(f"/api/games/{gid}/rematch", headers=seat_key(g, 0)).status_code == 200
    v = c.get(f"/api/games/{gid}").json()
    assert not v["over"] and v["game_no"] == 2 and v["moves"] == 0 or v["moves"] >= 0
    assert c.post(f"/api/games/{gid}/rematch", headers=seat_key(g, 0)).status_code == 409
    r = c.post(f"/api/games/{gid}/end", headers={"X-Table-Secret": g["secret"]})
    assert r.status_code == 200 and c.get(f"/api/games/{gid}").json()["ended"]


def test_join_with_the_room_code(c: TestClient) -> None:
    g = make(c, players=["Ava", None, None])
    gid, code = g["id"], g["code"]
    assert len(code) == 5 and g["seats"][1]["open"] and g["seats"][1]["key"] is None
    qr = c.get(f"/api/games/{gid}/join.svg")  # the view cookie: the table screen's QR code
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")
    assert local_client(c.app).get(f"/api/games/{gid}/join.svg").status_code == 401
    assert c.post("/api/games/join", json={"code": "ZZZZZ", "name": "Cy"}).status_code == 404
    assert c.post("/api/games/join", json={"code": code, "name": "ava"}).status_code == 409
    a = c.post("/api/games/join", json={"code": code.lower(), "name": "Cy"})
    assert a.status_code == 200 and a.json()["seat"] == 1
    b = c.post("/api/games/join", json={"code": code, "name": "Dan"}).json()
    assert b["seat"] == 2
    assert c.post("/api/games/join", json={"code": code, "name": "Eve"}).status_code == 409
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
    g = make(c, players=["Ava", "Ben"])
    gid, owner = g["id"], {"X-Table-Secret": g["secret"]}
    assert c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"},
                  headers=seat_key(g, 1)).status_code == 401
    r = c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "random"}, headers=owner)
    assert r.status_code == 200 and r.json()["key"] is None
    assert c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 1)).status_code == 403
    r = c.post(f"/api/games/{gid}/seats/1/bot", json={"bot": None}, headers=owner)
    new = r.json()["key"]
    assert new and new != g["seats"][1]["key"]
    assert c.get(f"/api/games/{gid}/seats/1", headers={"X-Seat-Key": new}).status_code == 200
    assert c.get(f"/api/games/{gid}/seats/1", headers=seat_key(g, 1)).status_code == 403


def test_a_table_survives_a_restart(csettings: Settings) -> None:
    with local_client(create_app(csettings)) as c:
        g = make(c, players=["Ava", "Ben", None], bots={"1": "random"})
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


def test_card_tables_count_against_the_limits(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables_per_client=2)
    with local_client(create_app(s)) as c:
        make(c, players=["Ava", "Ben"])
        body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        assert c.post("/api/tables", json=body).status_code == 201
        assert c.post("/api/games", json={"game": "taki", "players": ["A", "B"]}
                      ).status_code == 429
        assert c.post("/api/tables", json=body).status_code == 429


def _words_fit(code: str, params: dict) -> None:
    """`refusal.<code>` reads in every language, translated, with no placeholder the server
    leaves unfilled."""
    import string

    from referee.server.i18n import LANGUAGES, messages

    en = messages("en")[f"refusal.{code}"]
    for lang in LANGUAGES:
        said = messages(lang)[f"refusal.{code}"]
        assert {f for _, f, _, _ in string.Formatter().parse(said) if f} <= set(params), said
        assert lang == "en" or said != en, (lang, code)


def test_a_table_whose_links_were_lost_stops_counting_once_idle(tmp_path: Path) -> None:
    """A family that lost a control link cannot end that game, so the limit per phone says
    what to do in plain words (a code with words in every language: end one, or wait), and a
    table where nothing has happened for the idle minutes no longer counts. It is not opened
    to anyone by that: its keys stay its own, it can be played on, and then counts again."""
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables_per_client=2)
    with local_client(create_app(s)) as c:
        lost, kept = make(c, players=["Ava", "Ben"]), make(c, players=["Ava", "Ben"])
        r = c.post("/api/games", json={"game": "taki", "players": ["A", "B"]})
        assert r.status_code == 429, r.text
        body = r.json()
        assert (body["code"], body["params"]) == ("table.too-many-mine",
                                                  {"n": 2, "most": 2, "minutes": 30})
        _words_fit(body["code"], body["params"])
        c.app.state.cards.tables[lost["id"]].touched -= 31 * 60  # nothing for 31 minutes
        third = make(c, players=["Ava", "Ben"])
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
        make(c, players=["Ava", "Ben"])
        body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        tuki = c.post("/api/tables", json=body)
        assert tuki.status_code == 201
        assert c.post("/api/tables", json=body).json()["code"] == "table.too-many-mine"
        c.app.state.service.tables[tuki.json()["id"]].touched -= 31 * 60
        assert c.post("/api/tables", json=body).status_code == 201


def test_the_box_limit_says_what_to_do(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "d", demo=False, bot_pause_s=0, max_tables=1)
    with local_client(create_app(s)) as c:
        make(c, players=["Ava", "Ben"])
        r = c.post("/api/games", json={"game": "taki", "players": ["A", "B"]})
        assert r.status_code == 429
        assert (r.json()["code"], r.json()["params"]) == ("table.too-many-box",
                                                          {"n": 1, "most": 1, "minutes": 30})
        _words_fit(r.json()["code"], r.json()["params"])


@pytest.mark.parametrize("body, code, params", [
    ({"players": ["Ava", "Ben", "ava"]}, "table.same-name", {"a": 1, "b": 3}),
    ({"players": [None, "bot 1", "Cy"], "bots": {"0": "easy"}}, "table.same-name",
     {"a": 1, "b": 2}),
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
    _words_fit(code, params)


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
    g = make(c, game, players=[None, None, None], options={"rounds": 1} if game == "tukki"
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


def test_live_feed_gives_each_socket_its_own_view(c: TestClient) -> None:
    g = make(c, players=["Ava", "Ben"])
    gid = g["id"]
    hands = [c.get(f"/api/games/{gid}/seats/{i}", headers=seat_key(g, i)).json()
             ["view"]["me"]["hand"] for i in range(2)]
    with c.websocket_connect(f"ws://localhost/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": g["seats"][1]["key"]}))
        assert ws.receive_json() == {"type": "welcome", "role": "seat", "seat": 1}
        msg = ws.receive_json()
        assert msg["type"] == "seat" and msg["view"]["me"]["hand"] == hands[1]
        assert json.dumps(hands[0]) not in json.dumps(msg) or hands[0] == hands[1]
        assert '"hand"' not in json.dumps(msg["view"]["table"])
        me = c.get(f"/api/games/{gid}/seats/0", headers=seat_key(g, 0)).json()
        c.post(f"/api/games/{gid}/seats/0/act", headers=seat_key(g, 0),
               json={"action": me["legal"][0]}).raise_for_status()
        msg = ws.receive_json()
        assert msg["view"]["last"][-1]["action"] == me["legal"][0]
        # the turn passes to Ben unless the move keeps it (a TAKI run, a +2 answered...)
        now = c.get(f"/api/games/{gid}").json()["current_player"]
        assert msg["current_player"] == now and bool(msg["legal"]) == (now == 1)
    # a phone that reconnects gets its own view back at once
    with c.websocket_connect(f"ws://localhost/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": g["seats"][1]["key"]}))
        assert ws.receive_json()["seat"] == 1
        back = ws.receive_json()
        assert back["view"]["me"]["hand"] == hands[1] and back["legal"] == msg["legal"]
    # the view cookie (set by the creation) gives the public view, with no "me"
    with c.websocket_connect(f"ws://localhost/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": None}))
        assert ws.receive_json()["role"] == "view"
        msg = ws.receive_json()
        assert msg["type"] == "view" and "me" not in msg["view"]
        assert '"hand"' not in json.dumps(msg)
    # the table key's socket sees the public view too, never a hand
    with c.websocket_connect(f"ws://localhost/ws/games/{gid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": g["secret"]}))
        assert ws.receive_json()["role"] == "table"
        assert '"hand"' not in json.dumps(ws.receive_json())


def test_live_feed_needs_a_hello_and_the_right_origin(c: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    g = make(c, players=["Ava", "Ben"])
    with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()  # no hello within the limit (1 s in the tests)
        assert e.value.code == 4400
    with pytest.raises(WebSocketDisconnect) as e:
        with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}",
                                 headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    assert e.value.code == 4403
    with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": "wrong"}))
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4403


def test_pages_render(c: TestClient) -> None:
    g = make(c, players=["Ava", None])
    for lang in ("en", "fa", "he", "ar"):
        assert c.get(f"/games/new?lang={lang}").status_code == 200
        assert c.get(f"/games/join?lang={lang}").status_code == 200
        r = c.get(f"{g['view']}&lang={lang}")
        assert r.status_code == 200
        assert ('dir="rtl"' in r.text) == (lang != "en")
    fresh = local_client(c.app)
    assert fresh.get(f"/g/{g['id']}").status_code == 401
    assert fresh.get("/g/nope").status_code == 404


def test_a_seat_handed_to_a_bot_loses_its_live_feed(c: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    g = make(c, players=["Ava", "Ben"])
    with c.websocket_connect(f"ws://localhost/ws/games/{g['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "key": g["seats"][1]["key"]}))
        assert ws.receive_json()["seat"] == 1
        assert ws.receive_json()["type"] == "seat"
        c.post(f"/api/games/{g['id']}/seats/1/bot", json={"bot": "random"},
               headers={"X-Table-Secret": g["secret"]}).raise_for_status()
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(5):
                ws.receive_json()
        assert e.value.code == 4403


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


class _Views(CardViews):
    """The card service's views over one table, as the routes call them (`seat_view` for
    GET /seats/<seat> and the act answer, `feed_view` for the live feed), without keys."""

    def __init__(self, table: CardTable) -> None:
        self.tables = {table.id: table}

    def get(self, table_id: str) -> CardTable:
        return self.tables[table_id]

    def _seat_of(self, table: CardTable, seat: int, seat_key_text: str | None) -> None:
        pass  # the key is the routes' business; here every seat reads its own

    def _apply(self, table: CardTable, seat: int, text: str) -> None:  # pragma: no cover
        raise AssertionError("the views only read")


def _sent_to(views: _Views, table: CardTable, seat: int) -> tuple[str, str]:
    """What the server sends to `seat`: the HTTP seat answer as its route serialises it
    (`SeatState`), and the live feed's message for that seat's socket, as JSON text."""
    from referee.server.keys import Access
    from referee.server.routes.games import SeatState

    table.public = None  # built anew from the state now in the table (no cached view)
    http = SeatState(**views.seat_view(table.id, seat, "key")).model_dump_json()
    ws = json.dumps(views.feed_view(table.id, Access(role="seat", seat=seat)))
    return http, ws


@pytest.mark.parametrize("name", ["taki", "tukki", "tokaido"])
def test_what_a_seat_is_sent_does_not_change_when_its_unknowns_are_dealt_anew(name) -> None:
    """Issue 13, item 7: over 10,000 random reachable states per game (random games of every
    player count), everything the server sends to a seat stays the same when all that seat
    cannot know is re-dealt (the others' hands, face-down cards, in Tukki Tukki its own
    too, the deck order): the HTTP seat answer (its observation, legal moves and their
    costs, the public table, the last moves, ...) and the live feed's message for that seat,
    both built by the functions the routes call; on a difference, the engine's parts are
    compared on their own, so that the failure says where. (The moves are the table's
    history, the same in both by construction: each is an action its seat chose from its
    own legal ones.)"""
    game = get_game(name)
    rng = random.Random(13)
    counts = range(game.min_players, game.max_players + 1)
    states, g = 0, 0
    while states < 10_000:
        n = counts[g % len(counts)]
        table = CardTable(f"t{g}", {"game": name, "name": "T", "language": "en"}, "", game)
        table.fold("game_started", {"seed": 1000 + g, "players": [f"P{i}" for i in range(n)]})
        views = _Views(table)
        g += 1
        stop = states + rng.randrange(50, 400)  # early, middle and late states of many games
        while states < min(stop, 10_000):
            st = table.state
            assert st is not None
            seat = st.current_player()
            action = rng.choice(st.legal_actions())
            st.apply_action(action)
            table.fold("action", {"seat": seat, "action": str(action)}, applied=st)
            if st.is_terminal():
                break
            p = rng.randrange(st.num_players)
            other = st.determinize(p, random.Random(rng.random()))
            sent = _sent_to(views, table, p)
            table.state = other
            again = _sent_to(views, table, p)
            table.state = st
            if again != sent:  # say which part gives the hidden away
                assert other.observation(p) == st.observation(p)
                assert public_table(other) == public_table(st)
                if st.current_player() == p:
                    assert other.legal_actions() == st.legal_actions()
                assert again == sent, (name, g, p)
            states += 1
    assert g >= 20  # many games, not one long one


@pytest.mark.parametrize("typed", ["{a} {b}", "{a}-{b}", " {a} - {b} ", "{a}{b}",
                                   "{lower}"])
def test_a_room_code_is_read_as_people_type_it(c: TestClient, typed: str) -> None:
    """A room code typed with spaces or hyphens (read aloud in two parts), or in lower case,
    finds its table; it used to be a 404 that also cost one of the dozen tries a minute."""
    g = make(c, players=["Ava", None])
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


def test_a_move_sent_with_a_key_that_changes_hands_meanwhile_is_refused(c: TestClient) -> None:
    """The seat's key is checked under the lock that applies the move: a move sent with the
    old key while the owner gives the seat a new key (to a bot, or a new phone) plays nothing
    (it was checked before the lock, so it could still be applied once)."""
    import threading

    from referee.errors import RefereeError

    g = make(c, players=["Ava", "Ben"])
    cards = c.app.state.cards
    table = cards.get(g["id"])
    old = g["seats"][0]["key"]
    move = c.get(f"/api/games/{g['id']}/seats/0", headers=seat_key(g, 0)).json()["legal"][0]
    checked = threading.Event()
    check = cards._seat_of

    def seat_of(*args):  # note when the key has been checked
        check(*args)
        checked.set()

    cards._seat_of = seat_of
    out: dict = {}

    def send() -> None:
        try:
            out["view"] = cards.act(g["id"], 0, old, move)
        except RefereeError as e:
            out["error"] = e

    with table.lock:  # the owner's change holds the table; the move comes meanwhile
        sender = threading.Thread(target=send)
        sender.start()
        checked.wait(1.0)  # a key checked outside the lock is checked now
        cards.set_bot(g["id"], 0, None, g["secret"])  # seat 0 gets a new key
        moves = len(table.moves)
    sender.join(10)
    assert "view" not in out, "a move with the old key was applied"
    assert type(out["error"]).__name__ == "WrongSecretError"
    assert len(table.moves) == moves == 0
