"""A new user's trial of TAKI with two phones, in Debian's Chromium at 360 × 640: the "last
card" checkbox shown with a move that could not need it, "TAKI run open" unexplained, a hand
of cards left-aligned on right-to-left pages, a vibration tried before any tap (a console
notice), direction marks read out in cards' spoken labels, and two language menus on the
new-game pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .cardplay import CHROMIUM, PHONE
from .conftest import seat_key, submit_new_card_game

LANGS = ("en", "he", "fa", "ar")
MARKS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
# navigator.vibrate said on the console, not done; and "mine" each time the page draws its
# seat's turn. Read by the console alone: Playwright's own queries of a page (a locator, an
# evaluate) count as a person's gesture there, so a page that must stay untouched is never
# queried.
COUNT_BUZZ = """
navigator.vibrate = () => { console.log("buzz"); return true; };
document.addEventListener("DOMContentLoaded", () => {
  const turn = document.getElementById("turn");
  new MutationObserver(() => { if (turn.classList.contains("mine")) console.log("mine"); })
    .observe(turn, {attributes: true, attributeFilter: ["class"]});
});
"""


def _seq(page) -> int:
    return int(page.locator("#app").get_attribute("data-seq") or -1)


def _first(legal: list[str]) -> str:
    """The first card that may be played, else the first other move; never the call."""
    plain = [a for a in legal if not a.endswith(" last")]
    return next((a for a in plain if a.startswith("play ")), plain[0])


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
@pytest.mark.parametrize("lang", ["he"])  # right to left; one language (a game takes 15-30 s)
def test_two_phones_play_taki_as_a_new_user_met_it(base, lang):  # noqa: F811
    """Ava and Ben play TAKI on two phones (their moves sent for them: first card that may be
    played, never the call). At each of Ava's turns her phone shows the "last card" checkbox
    exactly when a move would end the turn with one card (the server's `calls`), and an open
    TAKI in plain words with its color; the hand starts at the line's start (the right on a
    Hebrew page); no spoken label holds a direction mark; and the phone vibrates for its
    turn only once its person has touched it (it vibrated at once, which the browser blocks
    with a console notice)."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    words = messages(lang)
    g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", "Ben"]}).json()
    for s in g["seats"]:  # each phone takes its seat as its link does
        r = httpx.post(f"{base}/api/games/{g['id']}/claim", headers={"X-Seat-Key": s["key"]})
        s["key"], s["link"] = r.json()["key"], r.json()["link"]
    seen = {"call": 0, "no call": 0, "open": 0}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        phones, said = [], [[], []]
        for s, log in zip(g["seats"], said, strict=True):
            ctx = browser.new_context(**PHONE)
            ctx.add_init_script(COUNT_BUZZ)
            page = ctx.new_page()
            page.on("console", lambda m, log=log: log.append(m.text))
            page.goto(base + s["link"].replace("#", f"&lang={lang}#"))
            phones.append(page)
        ava = phones[0]
        for _ in range(100):  # Ava's turn shown, before any tap
            if "mine" in said[0]:
                break
            ava.wait_for_timeout(50)
        assert "mine" in said[0] and "buzz" not in said[0], said[0]  # no vibration yet
        ava.locator("#who").click()  # Ava touches her phone
        # the hand: the first card at the line's start
        hand = ava.locator("#mine .hand").bounding_box()
        first = ava.locator("#mine .hand .tcard").first.bounding_box()
        assert hand and first
        if lang == "en":
            assert abs(first["x"] - hand["x"]) <= 1, (first, hand)
        else:
            assert abs(first["x"] + first["width"] - hand["x"] - hand["width"]) <= 1, (first, hand)
        buzzed_after_touch = False
        for _ in range(600):
            views = [httpx.get(f"{base}/api/games/{g['id']}/seats/{i}",
                               headers=seat_key(g, i)).json() for i in range(2)]
            if min(seen.values()) >= 1 and buzzed_after_touch:
                break
            me = next((v for v in views if v["legal"]), None)
            if me is None:  # the game is over: another (the phones follow by their feeds)
                assert views[0]["over"], views[0]
                httpx.post(f"{base}/api/games/{g['id']}/rematch",
                           headers=seat_key(g, 0)).raise_for_status()
                continue
            page = phones[me["seat"]]
            if me["seat"] == 1:  # Ben's phone stays untouched (never queried): it just plays
                httpx.post(f"{base}/api/games/{g['id']}/seats/1/act", headers=seat_key(g, 1),
                           json={"action": _first(me["legal"])}).raise_for_status()
                continue
            page.wait_for_function(f"+document.getElementById('app').dataset.seq >= "
                                   f"{me['view']['seq']}", timeout=10000)
            offered = any(a.endswith(" last") for a in me["legal"])
            assert page.locator("#call-last").count() == (1 if me["calls"] else 0), \
                (me["view"]["me"]["hand"], me["legal"], me["calls"])
            if offered:
                seen["call" if me["calls"] else "no call"] += 1
            t = me["view"]["table"]
            if t["taki_open"]:
                seen["open"] += 1
                told = words["g.taki_open"].replace(
                    "{c}", words["g.color." + (t["run_color"] or t["active_color"])])
                expect(page.locator("#board .taki-open")).to_have_text(told)
            labels = page.evaluate("[...document.querySelectorAll('[aria-label]')]"
                                   ".map((e) => e.getAttribute('aria-label'))")
            assert not [x for x in labels if MARKS.search(x)], labels
            buzzed_after_touch = "buzz" in said[0]
            r = httpx.post(f"{base}/api/games/{g['id']}/seats/0/act", headers=seat_key(g, 0),
                           json={"action": _first(me["legal"])})
            assert r.status_code == 200, r.text
        assert min(seen.values()) >= 1, seen
        assert buzzed_after_touch, said[0]  # Ava's later turns, once she touched her phone
        # Ben never touched his phone: his turns were shown, and it never vibrated
        assert "mine" in said[1] and "buzz" not in said[1], said[1]
        # a card's spoken label: its name without the marks that keep "+3" in order on screen
        spoken = ava.evaluate("""() => {
          const T = JSON.parse(document.getElementById("i18n").textContent);
          const W = window.refereeCardWords(T, "taki", () => []);
          return ["+3", "BREAKER", "R+2"].map((c) => [W.card(c),
            window.refereeUI.el("button", {"aria-label": W.card(c)}).getAttribute("aria-label")]);
        }""")
        for shown, said in spoken:
            assert said == MARKS.sub("", shown) and "+" in said, (shown, said)
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_new_table_page_has_one_language_menu(base):  # noqa: F811
    """The new card game page (and Tuki's new table page) show one language menu, the
    header's: the form's own second menu is gone, and the table is made in the language the
    page is shown in (the fallback for phones that choose none)."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    menus = "[...document.querySelectorAll('select')].filter((s) => " \
            "[...s.options].some((o) => o.value === 'fa')).length"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in LANGS:
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{base}/games/new?lang={lang}")
            assert page.evaluate(menus) == 1, lang
            submit_new_card_game(page)
            expect(page.locator("#view-link")).to_be_visible()
            control = page.locator("#control-link").inner_text()
            gid, key = control.split("/g/")[1].split("?")[0], control.split("#k=")[1]
            made = httpx.get(f"{base}/api/games/{gid}", headers={"X-Table-Secret": key})
            assert made.json()["language"] == lang, made.text
            page.goto(f"{base}/new?lang={lang}")
            assert page.evaluate(menus) == 1, lang
            page.context.close()
        browser.close()
