"""The Tokaido phone page during play, after a new user's trial: every traveller's points
(the scoring track is public) and coins show during play, not only at the end; a player's
character says in words what its power does; the walks the game makes on its own (leaving an
inn) are among the last moves, in words. In all four languages, nothing hidden (the order of
the face-down piles, another seat's key) in the page or the API."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

from referee.games.tokaido import TokaidoState

from .cardplay import (
    BROKEN_WORDS,
    CHROMIUM,
    NOTATION,
    PHONE,
    digits,
    open_phone,
    plain,
    replayed,
)
from .conftest import claim_seats

CHARACTERS = ["merchant", "priest", "gourmet", "painter"]
# the phones: (seat or None for the view link, language)
PHONES = [(0, "en"), (1, "fa"), (0, "he"), (1, "ar"), (None, "fa")]


def play_past_a_walk(base: str, g: dict, seed: int) -> dict:
    """Random legal moves of Ava and Ben (the bots answer at once) until the last moves hold
    a walk the game made on its own and it is a person's turn again (nothing moves until a
    phone taps); the public view then."""
    import httpx

    rng = random.Random(seed)
    api = base + f"/api/games/{g['id']}"
    end = time.monotonic() + 90
    while time.monotonic() < end:
        view = httpx.get(api, headers={"X-Table-Secret": g["secret"]}).json()
        assert not view["over"], "the game ended before any walk from an inn"
        cur = view["current_player"]
        if cur in (0, 1) and any(mv.get("then") for mv in view["last"]):
            return view
        if cur in (0, 1):
            key = {"X-Seat-Key": g["seats"][cur]["key"]}
            me = httpx.get(f"{api}/seats/{cur}", headers=key).json()
            if me["legal"] and me["current_player"] == cur:
                httpx.post(f"{api}/seats/{cur}/act", headers=key,
                           json={"action": rng.choice(me["legal"])}).raise_for_status()
        else:
            time.sleep(0.05)
    raise AssertionError("no walk from an inn within 90 s")



def pile_orders(st: TokaidoState) -> list[str]:
    """The face-down piles' orders (top first and bottom first) as JSON lists of card codes,
    in both spacings: none of these may appear anywhere a phone reads."""
    out = []
    for pile in (st.enc_deck, st.story_deck):
        codes = [st.rules.kinds[i].code for i in pile]
        for seq in (codes[::-1], codes):
            if len(seq) >= 3:
                out += [json.dumps(seq[:3]), json.dumps(seq[:3], separators=(",", ":"))]
    return out


PAGE_WORDS = """([points, coins]) => {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  return points.map((n, i) => [window.refereeUI.tr(T, "g.points", {n: n}),
                               window.refereeUI.tr(T, "g.coins", {n: coins[i]})]);
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_points_powers_and_walks_show_during_play_and_nothing_hidden(base, tmp_path):
    import httpx
    from playwright.sync_api import sync_playwright

    from referee.server.i18n import messages

    body = {"game": "tokaido", "players": ["Ava", "Ben", "Cy", "Dee"],
            "bots": {"2": "heuristic", "3": "heuristic"}, "options": {"characters": CHARACTERS}}
    g = claim_seats(httpx, httpx.post(base + "/api/games", json=body, timeout=30).json(), base)
    view = play_past_a_walk(base, g, seed=11)
    st = replayed(tmp_path / "data", g["id"])
    assert st.current_player() == view["current_player"] and st.walks
    # the API: every traveller's points by part during play, the true ones, in the public view
    totals, coins = st.scores(), st.coins
    assert [r["total"] for r in view["table"]["points"]] == totals
    assert view["table"]["coins"] == coins and not view["over"]
    walks = [(w["seat"], int(w["action"].split()[1]))
             for mv in view["last"] for w in mv.get("then", [])]
    # the walks among the last moves: the true ones, after the actions shown
    assert walks == [(p, n) for after, p, n in st.walks if after > st.turns - len(view["last"])]
    # nothing hidden in any answer a key opens: no pile order, no seed, no other seat's key
    keys = [s["key"] for s in g["seats"][:2]]
    answers = {"public": httpx.get(base + f"/api/games/{g['id']}",
                                   headers={"X-Table-Secret": g["secret"]}).text}
    for seat in (0, 1):
        answers[f"seat {seat}"] = httpx.get(base + f"/api/games/{g['id']}/seats/{seat}",
                                            headers={"X-Seat-Key": keys[seat]}).text
        assert json.loads(answers[f"seat {seat}"])["view"]["table"] == view["table"]
        assert keys[1 - seat] not in answers[f"seat {seat}"]
    hidden = pile_orders(st)
    for who, text in answers.items():
        for word in ('"encounter_deck"', '"story_deck"', '"seed"', '"rng"', '"stamp"'):
            assert word not in text, (who, word)
        assert not [h for h in hidden if h in text], who

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for seat, lang in PHONES:
            t = messages(lang)
            page = open_phone(browser, base, g, seat, lang, view["seq"], errors)
            where = f"{lang} {'view' if seat is None else f'seat {seat}'}"
            said = page.evaluate(PAGE_WORDS, [totals, coins])
            # 1. the players list and the road's travellers: each one's points and coins
            players = page.locator("#players li").all_inner_texts()
            travellers = page.locator(".travellers li").all_inner_texts()
            for i, (pts, cns) in enumerate(said):
                assert pts in players[i] and cns in players[i], (where, players[i], pts)
                assert pts in travellers[i] and cns in travellers[i], (where, travellers[i])
            # the points by part so far, folded away: its totals are the true ones
            page.click("details.points-now summary")
            shown = page.locator(".points-now tr.total td").all_inner_texts()
            assert [plain(x) for x in shown] == [digits(lang, n) for n in totals], where
            # 2. each character's power in words: one's own in one's cards, all on the road
            for i, code in enumerate(CHARACTERS):
                assert t[f"tokaido.power.{code}"] in travellers[i], (where, travellers[i])
            if seat is not None:
                own = page.locator("#mine .character").inner_text()
                code = CHARACTERS[seat]
                assert t[f"g.char.{code}"] in own and t[f"tokaido.power.{code}"] in own, own
            else:
                assert page.locator("#mine").is_hidden()
            # 3. each walk from an inn among the last moves, in words
            auto = page.locator("#last li.auto").all_inner_texts()
            assert len(auto) == len(walks), (where, auto)
            before, _, after = t["tokaido.walk_on"].partition("{x}")
            for text, (who, space) in zip(auto, reversed(walks), strict=True):
                assert ["Ava", "Ben", "Cy", "Dee"][who] in text and before.strip() in text \
                    and after.strip() in text, (where, text)
                assert re.search(rf"(?<![0-9۰-۹]){digits(lang, space)}(?![0-9۰-۹])",
                                 plain(text)), (where, text, space)
            # in words, whole, on the phone's width, nothing left in English or as notation
            text = page.locator("#app").inner_text()
            assert not NOTATION.search(text), (where, NOTATION.search(text))
            assert "null" not in text.split() and "undefined" not in text, where
            if lang == "fa":
                assert "·" not in text and not re.search("[0-9]", text), (where, text)
            if lang != "en":
                assert "tokaido." not in text and "Souvenirs cost" not in text, where
            assert page.evaluate(BROKEN_WORDS) == [], where
            assert page.evaluate("document.documentElement.scrollWidth") == 360, where
            # nothing hidden in the page's source either
            html = page.content()
            assert not [h for h in hidden if h in html], where
            assert all(k not in html for i, k in enumerate(keys) if i != seat), where
            page.context.close()
        # the points so far, opened, stay open when the next move draws the page anew
        cur = view["current_player"]
        page = browser.new_context(**PHONE).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + g["seats"][cur]["link"])
        page.wait_for_function("!document.getElementById('mine').hidden", timeout=15000)
        page.click("details.points-now summary")
        page.locator("#moves button").first.click()
        page.wait_for_function(f"+document.getElementById('app').dataset.seq > {view['seq']}")
        assert page.locator("#act-error").inner_text() == ""
        assert page.locator("details.points-now").get_attribute("open") is not None
        browser.close()
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "fa", "he", "ar"])
def test_every_character_has_its_power_in_words(lang):
    """Each character of models/tokaido/characters.json has a short sentence of what its power
    does, in every language, in its own script; the English one names the power's numbers."""
    from referee.games.tokaido.data import load_rules
    from referee.server.i18n import messages

    t = messages(lang)
    own = json.loads((Path(__file__).parents[2] / "referee" / "server" / "i18n"
                      / f"{lang}.json").read_text(encoding="utf-8"))
    rules = load_rules()
    said = [own.get(f"tokaido.power.{c.code}", "") for c in rules.characters]
    assert all(s.strip() for s in said) and len(set(said)) == len(said), (lang, said)
    if lang != "en":
        assert not [s for s in said if re.search("[A-Za-z]", s)], said
        return
    for c, s in zip(rules.characters, said, strict=True):
        ab = c.ability
        number = ab.discount or ab.coins or ab.points
        assert re.search(rf"\b{number} (more )?(coin|point)", s), (c.code, s)
        assert ("less" in s) == bool(ab.discount), (c.code, s)
    assert "{x}" in t["tokaido.walk_on"] and "{c}" in t["tokaido.your_character"]
