"""What each key of a card table sees and may do: a key opens only its own seat or table,
no public view and nothing sent to a seat (over HTTP or the live feed) holds what that seat
may not know, a socket gets its own seat's view, and a seat that changes hands takes its
live feed and its moves with it."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from referee.games.engine import get_game
from referee.server.card_views import CardViews
from referee.server.cardtable import CardTable, public_table

from .conftest import local_client, make_game, seat_key


def test_keys_open_only_their_own(c: TestClient) -> None:
    g = make_game(c, players=["Ava", "Ben", "Cy"])
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
    # every seat taken by its phone: the owner's list holds no key of any
    assert [(s["key"], s["joined"]) for s in seats] == [(None, True)] * 3
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
    g = make_game(c, "tukki", ["Ava", "Ben"])
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

def test_live_feed_gives_each_socket_its_own_view(c: TestClient) -> None:
    g = make_game(c, players=["Ava", "Ben"])
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

    g = make_game(c, players=["Ava", "Ben"])
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

def test_a_seat_handed_to_a_bot_loses_its_live_feed(c: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    g = make_game(c, players=["Ava", "Ben"])
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

def test_a_move_sent_with_a_key_that_changes_hands_meanwhile_is_refused(c: TestClient) -> None:
    """The seat's key is checked under the lock that applies the move: a move sent with the
    old key while the owner gives the seat a new key (to a bot, or a new phone) plays nothing
    (it was checked before the lock, so it could still be applied once)."""
    import threading

    from referee.errors import RefereeError

    g = make_game(c, players=["Ava", "Ben"])
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


def test_the_table_key_never_gets_a_key_that_reads_a_persons_hand(c: TestClient) -> None:
    """The break-it trial's way in: the owner's seat list gave Ben's key, and it read Ben's
    hand; a seat taken with the room code, handed to a bot and back, gave the owner its new
    key too. Now the owner's list has only invitations, which open nothing but the claim;
    a claim gives the phone a key of its own (not derived from the table key: no generation
    of it opens the seat) and kills the invitation; a seat taken is listed without a key; a
    new link from the owner (back from a bot, or for a lost phone) is an invitation again,
    and it cuts off the old key, so the player notices."""
    from referee.server.keys import seat_key as derived

    created = c.post("/api/games", json={"game": "taki", "players": ["Ava", "Ben", None],
                                         "bots": {"2": "heuristic"}}).json()
    gid, owner = created["id"], {"X-Table-Secret": created["secret"]}
    url = f"/api/games/{gid}"
    invite = c.get(f"{url}/seats", headers=owner).json()[1]
    assert invite["key"] and not invite["joined"]
    # the invitation reads nothing: not the seat, not the public view, not the live feed
    for path in (f"{url}/seats/1", url):
        r = c.get(path, headers={"X-Seat-Key": invite["key"]})
        assert r.status_code == 403 and r.json()["code"] == "table.invitation", r.text
    # Ben's phone takes the seat: a key of its own; the invitation is spent
    ben = c.post(f"{url}/claim", headers={"X-Seat-Key": invite["key"]}).json()
    assert ben["seat"] == 1 and ben["key"] != invite["key"]
    assert ben["link"].endswith("#s=" + ben["key"])
    mine = c.get(f"{url}/seats/1", headers={"X-Seat-Key": ben["key"]})
    assert mine.status_code == 200 and mine.json()["view"]["me"]["hand"]
    r = c.post(f"{url}/claim", headers={"X-Seat-Key": invite["key"]})  # a second phone
    assert r.status_code == 403 and r.json()["code"] == "table.link-taken", r.text
    # opened again on Ben's phone: the same key back, nothing changes
    again = c.post(f"{url}/claim", headers={"X-Seat-Key": ben["key"]}).json()
    assert again["key"] == ben["key"] and again["seat"] == 1
    listed = c.get(f"{url}/seats", headers=owner).json()[1]
    assert listed["joined"] and listed["key"] is None and listed["link"] is None
    assert c.get(f"{url}/seats/1/qr.svg", headers=owner).status_code == 404
    assert c.get(url, headers=owner).json()["players"][1]["joined"] is True
    # nothing the table key derives opens Ben's seat
    for gen in range(0, 8):
        r = c.get(f"{url}/seats/1",
                  headers={"X-Seat-Key": derived(created["secret"], 1, gen)})
        assert r.status_code == 403, gen
    # the owner's new link (a lost phone; or a bot and back) is an invitation that cuts Ben
    # off: the owner cannot read the seat without Ben's link failing
    new = c.post(f"{url}/seats/1/bot", json={"bot": None}, headers=owner).json()
    assert new["key"] and new["name"] == "Ben"
    assert c.get(f"{url}/seats/1", headers={"X-Seat-Key": ben["key"]}).status_code == 403
    assert c.get(f"{url}/seats/1", headers={"X-Seat-Key": new["key"]}).status_code == 403
    assert not c.get(f"{url}/seats", headers=owner).json()[1]["joined"]
    # a seat taken with the room code, handed to a bot and back: an invitation, not its key
    made = c.post("/api/games", json={"game": "taki", "players": ["Ava", None]}).json()
    joined = c.post("/api/games/join", json={"code": made["code"], "name": "Cy"}).json()
    h = {"X-Table-Secret": made["secret"]}
    for bot in ("easy", None):
        c.post(f"/api/games/{made['id']}/seats/1/bot", json={"bot": bot},
               headers=h).raise_for_status()
    back = c.get(f"/api/games/{made['id']}/seats", headers=h).json()[1]
    assert back["key"] and not back["joined"]
    r = c.get(f"/api/games/{made['id']}/seats/1", headers={"X-Seat-Key": back["key"]})
    assert r.status_code == 403
    assert c.get(f"/api/games/{made['id']}/seats/1",
                 headers={"X-Seat-Key": joined["key"]}).status_code == 403
