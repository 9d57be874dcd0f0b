"""A Tokaido traveller whom the inn's meals pass over (they can afford no meal, or none is
left) is named in the phones' last moves with the engine's reason, in words, in all four
languages; it was passed over without a word, so the table did not know why that traveller
bought nothing. And a seat's own offer at the inn lists each meal it may buy with its price.
Played in Debian's Chromium on 360 x 640 phones, through the server."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.games.tokaido import TokaidoState
from referee.games.tokaido.state import NO_MONEY

from .cardplay import BROKEN_WORDS, CHROMIUM, NOTATION, open_phone, replayed
from .conftest import claim_seats

NAMES = ["Hiroshige", "Ben", "Cy"]
# the painter starts with 2 coins: spending on the road, it reaches the first inn with none
CHARACTERS = ["painter", "merchant", "priest"]
# each meal's name and (if it costs anything) its price, in the page's words
OFFER_WORDS = """(meals) => {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const W = window.refereeCardWords(T, "tokaido", () => []);
  const coins = (n) => n ? window.refereeUI.tr(T, "g.coins", {n: n}) : null;
  return meals.map(([code, n]) => [W.card(code), coins(n)]);
}"""



def said_last(page: Any, where: str, name: str, said: str, other: str) -> None:
    """The page's last moves say `said` of `name` (an automatic entry) and its newest move
    says it; never `other` (the engine's other reason)."""
    auto = page.locator("#last li.auto").all_inner_texts()
    assert [x for x in auto if name in x and said in x], (where, auto)
    assert said in page.locator("#last-move").inner_text(), where  # the newest
    assert not [x for x in page.locator("#last li").all_inner_texts() if other in x], where


def words_only(page: Any, where: str) -> None:
    """The page shows words: no engine notation, key or reason code, no word broken across
    lines, nothing wider than the phone."""
    text = page.locator("#app").inner_text()
    assert not NOTATION.search(text), (where, NOTATION.search(text))
    assert "tokaido." not in text and NO_MONEY not in text, where
    assert page.evaluate(BROKEN_WORDS) == [], where
    assert page.evaluate("document.documentElement.scrollWidth") == 360, where


def plan_to_a_pass(st: TokaidoState) -> tuple[list[tuple[int, str]], TokaidoState]:
    """Actions (seat, notation) from `st` after which the first inn passes a traveller over
    because they cannot pay (every seat buys the dearest thing it can on the way), ending
    where a seat chooses its meal at that inn; and the state they lead to. The engine is
    the server's, and its seed is the table's, so the server plays the same game."""
    return spend_until(st, 80, "passes", lambda s, a, acts: s.passes[0][2] == NO_MONEY
                       and s.phase.value == "meal", "an inn passes a traveller over")


def spend_until(st: TokaidoState, limit: int, record: str, found: Any, what: str
                ) -> tuple[list[tuple[int, str]], TokaidoState]:
    """Actions (seat, notation) from `st`, every seat buying the dearest thing it can (else
    a random legal action), up to the first entry of the engine's public `record`
    (`passes`, `idle`) for which `found(state, action, actions)` holds; tried on up to 200
    seeds, each stopped at that record's first entry or after `limit` actions."""
    for attempt in range(200):
        rng = random.Random(attempt)
        s = st.clone()
        acts: list[tuple[int, str]] = []
        while not s.is_terminal() and len(acts) < limit:
            legal = s.legal_actions()
            takes = [a for a in legal if a.verb == "take"]
            a = max(takes, key=lambda x: (s.cost(x), rng.random())) if takes else \
                rng.choice(legal)
            acts.append((s.current_player(), str(a)))
            s.apply_action(a)
            if getattr(s, record):
                if found(s, a, acts):
                    return acts, s
                break
    raise AssertionError(f"no plan found in which {what}")


def play(base: str, g: dict[str, Any], acts: list[tuple[int, str]]) -> dict[str, Any]:
    """The actions through the API, each by its seat's key; the public view after them."""
    import httpx

    api = base + f"/api/games/{g['id']}"
    for seat, action in acts:
        r = httpx.post(f"{api}/seats/{seat}/act", headers={"X-Seat-Key": g["seats"][seat]["key"]},
                       json={"action": action})
        assert r.status_code == 200, (seat, action, r.text)
    return httpx.get(api, headers={"X-Table-Secret": g["secret"]}).json()


def start(base: str) -> dict[str, Any]:
    import httpx

    body = {"game": "tokaido", "players": NAMES, "options": {"characters": CHARACTERS}}
    r = httpx.post(base + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return claim_seats(httpx, r.json(), base)


def played(base: str, data: Path, plan: Any) -> tuple[dict[str, Any], list[tuple[int, str]],
                                                    TokaidoState, dict[str, Any], TokaidoState]:
    """A new game played through the server along `plan(its true state)`: the game, the
    actions, the state the plan expects, the last public view and the true state after."""
    g = start(base)
    acts, want = plan(replayed(data, g["id"]))
    view = play(base, g, acts)
    return g, acts, want, view, replayed(data, g["id"])


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_traveller_passed_over_at_the_inn_is_said_with_why(base, tmp_path):
    import httpx
    from playwright.sync_api import sync_playwright

    from referee.server.i18n import messages

    g, acts, want, view, st = played(base, tmp_path / "data", plan_to_a_pass)
    assert st.passes == want.passes and st.current_player() == want.current_player()
    after, passed, why = st.passes[0]
    assert after == len(acts) and why == NO_MONEY
    # the API: the pass follows the action after which it came, with its reason
    entry = {"seat": passed, "name": NAMES[passed], "passed": why}
    assert entry in view["last"][-1]["then"], view["last"][-1]
    chooser = st.current_player()
    assert st.phase.value == "meal" and chooser != passed
    # the chooser's own offer: each meal it may buy, and its price, both from the engine
    key = {"X-Seat-Key": g["seats"][chooser]["key"]}
    mine = httpx.get(base + f"/api/games/{g['id']}/seats/{chooser}", headers=key).json()
    meals = [a for a in st.legal_actions() if a.verb == "take"]
    assert meals and mine["legal"] == [str(a) for a in st.legal_actions()]
    assert {str(a): st.cost(a) for a in meals if st.cost(a)} == mine["costs"]
    # nothing of another seat's key in it
    assert all(s["key"] not in json.dumps(mine) for i, s in enumerate(g["seats"])
               if i != chooser)

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        # (seat or None: the view link, language): the chooser's phone, the passed one's,
        # the table screen
        for seat, lang in [(chooser, "en"), (chooser, "fa"), (passed, "he"), (None, "ar")]:
            t = messages(lang)
            page = open_phone(browser, base, g, seat, lang, view["seq"], errors)
            where = f"{lang} {'view' if seat is None else f'seat {seat}'}"
            # the last moves: the traveller passed over, by name, with the engine's reason
            said_last(page, where, NAMES[passed], t[f"tokaido.passed.{why}"],
                      t["tokaido.passed.none-left"])
            # the chooser's phone: a button per meal it can buy, its name and price in words
            if seat == chooser:
                buttons = page.locator("#moves button").all_inner_texts()
                assert len(buttons) == len(meals) + 1, (where, buttons)  # and skip
                said = page.evaluate(OFFER_WORDS, [[str(a.arg), st.cost(a)] for a in meals])
                for name, price in said:
                    assert [b for b in buttons if name in b and (price or "") in b], \
                        (where, name, price, buttons)
            words_only(page, where)
            page.context.close()
        browser.close()
    assert errors == []
