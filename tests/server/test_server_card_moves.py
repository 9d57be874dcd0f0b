"""Moves at a card table on the server: a seat plays, the rules refuse in words with their
code and params, what a move costs, the "last card" call offered where it counts, and a
late retry of a tap that plays nothing (test_server_cardgames.py: tables, seats, bots)."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from .conftest import make_game, seat_key


def test_create_play_and_refuse(c: TestClient) -> None:
    g = make_game(c, players=["Ava", "Ben"])
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
    g = make_game(c, game="tokaido", players=["Ava", "Ben"])
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
    t = make_game(c, players=["Ava", "Ben"])
    assert c.get(f"/api/games/{t['id']}/seats/0", headers=seat_key(t, 0)).json()["costs"] == {}


def test_a_refusal_carries_its_code_and_params(c: TestClient) -> None:
    """A 422 for an action says it in plain English and, for the phone's language, with the
    engine's code and parameters (i18n refusal.<code>)."""
    g = make_game(c, players=["Ava", "Ben"])
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


def test_the_last_card_call_is_offered_where_it_counts(c: TestClient) -> None:
    """TAKI's engine takes "last card" with every move of a hand of 2 cards or fewer; a
    seat's view names the moves with which the call counts (`calls`: those that end the turn
    with one card), and the phone offers the checkbox with those only. A counted move played
    without the call draws 4 (RULINGS.md "Last card"); a draw is one only from an empty hand
    (after a Plus as the last card). Both
    seats play their first card (drawing only when they must) and never call."""
    seen = {"with": 0, "without": 0}
    for _ in range(20):  # random deals, until each kind of view was seen twice
        g = make_game(c, players=["Ava", "Ben"])
        for _ in range(400):
            seats = [c.get(f"/api/games/{g['id']}/seats/{i}", headers=seat_key(g, i)).json()
                     for i in range(2)]
            me = next((s for s in seats if s["legal"]), None)
            if me is None:
                break
            legal, calls = set(me["legal"]), me["calls"]
            plain = [a for a in me["legal"] if not a.endswith(" last")]
            move = next((a for a in plain if a.startswith("play ")), plain[0])
            if any(a.endswith(" last") for a in legal):
                assert all(a in legal and a + " last" in legal for a in calls), (calls, legal)
                # a draw ends a turn with one card only from an empty hand (a Plus played
                # as the last card must be followed: the draw brings one)
                assert "draw" not in calls or not me["view"]["me"]["hand"], me["view"]["me"]
                if len(me["view"]["me"]["hand"]) == 1:  # a card wins, a draw leaves two
                    assert set(calls) <= {"end", "close"}, calls
                seen["with" if calls else "without"] += 1
                move = calls[0] if calls else move
            r = c.post(f"/api/games/{g['id']}/seats/{me['seat']}/act",
                       headers=seat_key(g, me["seat"]), json={"action": move})
            assert r.status_code == 200, r.text
            if move in calls:  # one card left at the turn's end, without the call: 4 more
                assert r.json()["view"]["table"]["hand_size"][me["seat"]] == 1 + 4, move
        if min(seen.values()) >= 2:
            break
    assert min(seen.values()) >= 2, seen


def test_the_move_list_shows_a_last_card_call_only_where_it_counts():
    """Bots always declare "last card", and the engine takes the call with any move of a
    hand of 2 cards or fewer: the table's list read "Bot 3 drew · last card!". The list
    shows the call only with a move that ends the turn with one card; the game's record
    (the folded events) keeps every action as played, and replays alike."""
    from referee.games.engine import get_game
    from referee.server.cardtable import CardTable

    game = get_game("taki")
    assert game.call_counts is not None
    rng = random.Random(5)
    shown = {True: 0, False: 0}
    for g in range(30):
        table = CardTable(f"t{g}", {"game": "taki", "name": "T", "language": "en"}, "", game)
        table.fold("game_started", {"seed": 700 + g, "players": ["A", "B"]})
        record = []
        while table.state is not None and not table.state.is_terminal():
            st = table.state
            legal = st.legal_actions()
            called = [a for a in legal if getattr(a, "last", False)]
            action = rng.choice(called or legal)  # a bot's habit: call whenever offered
            counts = bool(called) and game.call_counts(st, action)
            seat = st.current_player()
            table.fold("action", {"seat": seat, "action": str(action)})
            record.append((seat, str(action)))
            said = table.moves[-1][1]
            if called:
                assert said == (str(action) if counts else str(action)[:-len(" last")])
                shown[counts] += 1
            else:
                assert said == str(action)
        replay = CardTable("r", {"game": "taki", "name": "T", "language": "en"}, "", game)
        replay.fold("game_started", {"seed": 700 + g, "players": ["A", "B"]})
        for seat, text in record:
            replay.fold("action", {"seat": seat, "action": text})
        assert replay.moves == table.moves and replay.state.to_dict() == table.state.to_dict()
    assert shown[True] and shown[False]


def test_a_late_retry_of_a_move_plays_nothing(c: TestClient) -> None:
    """A break-it trial: a "draw" sent again 1.5 s later, after the other seat had moved,
    drew again. A move sent with the view's `plays` it was chosen on is refused once
    another move has come (409 `table.moved-on`, words in every language); a seat taken
    meanwhile is no move (a re-trial: a join refused the next tap); without `plays` a move
    is played as before. A refusal quotes a long move at 40 characters."""
    from referee.server.i18n import LANGUAGES, messages

    g = make_game(c, players=["Ava", "Ben", None])
    url, key = f"/api/games/{g['id']}/seats/0/act", seat_key(g, 0)
    me = c.get(f"/api/games/{g['id']}/seats/0", headers=key).json()
    plays = me["view"]["plays"]
    # someone takes the open seat: Ava's tap, chosen before, still plays
    joined = c.post("/api/games/join", json={"code": g["code"], "name": "Cy"})
    assert joined.status_code == 200, joined.text
    cy = {"X-Seat-Key": joined.json()["key"]}
    r = c.post(url, headers=key, json={"action": "draw", "plays": plays})
    assert r.status_code == 200, r.text
    # Ben moves; Ava's phone sends its first tap again, with the plays it was chosen on
    c.post(f"/api/games/{g['id']}/seats/1/act", headers=seat_key(g, 1),
           json={"action": "draw"}).raise_for_status()
    hand = len(c.get(f"/api/games/{g['id']}/seats/0", headers=key).json()["view"]["me"]["hand"])
    r = c.post(url, headers=key, json={"action": "draw", "plays": plays})
    assert r.status_code == 409 and r.json()["code"] == "table.moved-on", r.text
    after = c.get(f"/api/games/{g['id']}/seats/0", headers=key).json()
    assert len(after["view"]["me"]["hand"]) == hand
    for lang in LANGUAGES:
        assert messages(lang)["refusal.table.moved-on"]
    r = c.post(f"/api/games/{g['id']}/seats/2/act", headers=cy,  # Cy's turn
               json={"action": "play " + "A" * 70})
    assert r.status_code == 422, r.text
    body = r.json()
    assert "A" * 41 not in body["detail"] and "A" * 39 + "…" in body["detail"]
    assert all(len(v) <= 40 for v in body["params"].values() if isinstance(v, str))
