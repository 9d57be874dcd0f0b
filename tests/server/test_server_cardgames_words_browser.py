"""The card games' pages in words and in shape, in Debian's Chromium: names and numbers in
each page's language (Persian digits, a bot's given name), no word broken inside itself, the
new-game form's errors, whole last moves, and the table screen's landscape grid. (Whole games
played on four phones: test_server_cardgames_browser.py.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .cardplay import (
    BROKEN_WORDS,
    CHROMIUM,
    new_table,
)
from .conftest import claim_seats


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_bots_given_name_is_in_the_pages_language(base):
    """A bot seat nobody named is "Bot 2" to the server; a Persian page says "ربات ۲" in the
    players' list (it read "Bot 2" on every page); a name a person typed stays as typed."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    r = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", None, "Bo"],
                                              "bots": {"1": "heuristic", "2": "heuristic"}},
                   timeout=30)
    assert [s["name"] for s in r.json()["seats"]] == ["Ava", "Bot 2", "Bo"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.goto(base + r.json()["view"] + "&lang=fa")
        players = page.locator("#players")
        expect(players).to_contain_text("ربات ۲", timeout=15000)
        expect(players).to_contain_text("Bo")
        assert "Bot 2" not in players.inner_text()
        browser.close()

@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_new_game_form_says_what_is_wrong(base):
    """The new-game form says a refusal in its language with what is wrong: on a Persian
    page which seats clash (in Persian digits, both rows marked), not a general sentence
    about stations; on an English page the limit per phone in plain words with its way out,
    not the server's text."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    def fill(text: str, **values: int) -> str:
        for k, v in values.items():
            text = text.replace("{" + k + "}", str(v))
        return text

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.goto(base + "/games/new?lang=fa")
        names = page.locator("#seat-rows input[name=name]")
        names.nth(0).fill("Ava")
        names.nth(1).fill("ava")
        page.click("button[type=submit]")
        expect(page.locator("#form-error")).to_have_text(
            fill(messages("fa")["refusal.table.same-name"], a="۱", b="۲"))
        expect(page.locator("#seat-rows li.clash")).to_have_count(2)
        for _ in range(5):  # this address's most tables in play
            httpx.post(base + "/api/games", json={"game": "taki", "players": ["A", "B"]},
                       timeout=30).raise_for_status()
        page.goto(base + "/games/new?lang=en")
        names.nth(0).fill("Ava")
        names.nth(1).fill("Ben")
        page.click("button[type=submit]")
        expect(page.locator("#form-error")).to_have_text(
            fill(messages("en")["refusal.table.too-many-mine"], most=5, minutes=30))
        browser.close()

NUMBERED = """() => {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const el = window.refereeUI.el;
  const face = (W, code) => W.takiFace(code, el).map((e) => e.textContent);
  const taki = window.refereeCardWords(T, "taki", () => []);
  const tukki = window.refereeCardWords(T, "tukki", () => []);
  const tk = window.refereeCardWords(T, "tokaido", () => ["kyoto", "inn"]);
  return [taki.card("R4"), taki.card("G+2"), taki.action("play B7 last"), ...face(taki, "Y9"),
    ...face(taki, "R+2"), tukki.card("12"), tukki.action("place a3 land b2"),
    tukki.action("reveal b4"), tk.counted("sushi", 3), tk.action("move 1")].join(" | ");
}"""


# whether a negative score after a name (the end's list) shows its minus before its digits
MINUS_FIRST = """() => {
  const el = window.refereeUI.el;
  const li = el("li", {}, el("bdi", {}, "Cy"), ": " + window.refereeUI.num(-2));
  document.getElementById("app").append(li);
  const t = li.lastChild, at = (re) => {
    const r = document.createRange(), i = t.textContent.search(re);
    r.setStart(t, i);
    r.setEnd(t, i + 1);
    return r.getBoundingClientRect().left;
  };
  return at(/[-\u2212]/) < at(/[2\u06f2]/);
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_persian_pages_write_every_number_in_persian_digits(base):
    """Cards, box places, counts ("×3") and road spaces in the page's digits: Persian digits
    on a Persian page (no "کارت 4"), 0-9 on Arabic and Hebrew pages as their texts write them;
    a negative number keeps its minus in front on right-to-left pages; a room code typed in
    Persian digits joins (the code is sent as 0-9)."""
    from playwright.sync_api import sync_playwright

    g = new_table(base, "taki")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        for lang in ("fa", "ar", "he"):
            page.goto(base + g["view"] + f"&lang={lang}")
            assert page.evaluate(MINUS_FIRST), lang  # "Cy: -2", not "2- :Cy"
            shown = page.evaluate(NUMBERED)
            if lang == "fa":
                assert not re.search("[0-9]", shown), shown
                assert "۱۲" in shown and "×۳" in shown, shown
            else:
                assert not re.search("[۰-۹]", shown) and "12" in shown, shown
        import httpx

        for _ in range(3):  # a code with a digit in it (most have one)
            code = httpx.post(base + "/api/games", json={"game": "taki", "players": [
                "Ava", None]}).json()["code"]
            if re.search("[0-9]", code):
                break
        typed = code.translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
        page.goto(base + "/games/join?lang=fa")
        page.fill("input[name=code]", typed)
        page.fill("input[name=name]", "Bita")
        page.click("button[type=submit]")
        page.wait_for_url("**/g/**")
        browser.close()


# every Tukki Tukki cell on the page a parrot (the longest word a cell holds), and every
PARROTS_AND_FACES = """() => {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const parrot = window.refereeCardWords(T, "tukki", () => []).card("P");
  for (const c of document.querySelectorAll(".tcell")) {
    c.className = "tcell parrot";
    c.textContent = parrot;
  }
  const W = window.refereeCardWords(T, "taki", () => []), el = window.refereeUI.el;
  const hand = el("div", {class: "hand"});
  for (const code of CODES) hand.append(el("button", {class: "tcard c" + W.takiColour(code)},
    ...W.takiFace(code, el)));
  // and as the pile's top card, large (a CI run at a game's end: "TAKI", "direction" split)
  for (const code of CODES) hand.append(el("button", {class: "tcard big c" +
    W.takiColour(code)}, ...W.takiFace(code, el)));
  document.getElementById("board").append(hand);
  return [...document.querySelectorAll(".tcell")].filter((c) => c.scrollWidth > c.clientWidth)
    .map((c) => c.closest(".pbox") ? "small" : "own");
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_no_word_breaks_inside_itself_on_a_phone(base):
    """At 360 px, in every language, no word is split over two lines: the parrot's name in
    the small boxes of the other seats (it read "par / rot") and in the seat's own box, and
    every TAKI card's name; each parrot fits its cell."""
    import httpx
    from playwright.sync_api import sync_playwright

    from referee.games.taki.cards import CARD_NAMES

    from .cardplay import PHONE

    g = httpx.post(base + "/api/games", json={"game": "tukki", "players": ["Ava", "Ben", "Cy"]},
                   timeout=30).json()  # no bot: nothing redraws the page meanwhile
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        for lang in ("en", "fa", "he", "ar"):
            page.goto(base + g["seats"][0]["link"].replace("#", f"&lang={lang}#"))
            page.wait_for_function("!document.getElementById('mine').hidden")
            script = PARROTS_AND_FACES.replace("CODES", json.dumps(list(CARD_NAMES)))
            assert page.evaluate(script) == [], lang  # every parrot fits its cell
            assert page.evaluate(BROKEN_WORDS) == [], lang
        browser.close()

LAST_MOVES = """() => {
  const list = document.getElementById("last"), box = list.getBoundingClientRect();
  const items = [...list.children].map((li) => li.getBoundingClientRect());
  return {shown: items.length, cut: items.filter((r) => r.bottom > box.bottom + 0.5).length,
          scrolls: list.scrollHeight > list.clientHeight + 1,
          page: document.documentElement.scrollHeight - window.innerHeight};
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_table_screen_shows_whole_last_moves(base):
    """On a 1280 × 720 laptop and a 1920 × 1080 TV the last moves are whole entries (the
    oldest that do not fit are left out), never a line cut in half, also when long names
    wrap them over two lines; the phone keeps every move in its scrolled list."""
    import httpx
    from playwright.sync_api import sync_playwright

    names = ["Alexandra Maria", "Benjamin Jonathan"]  # moves over two lines
    made = httpx.post(base + "/api/games", json={"game": "taki", "players": names}, timeout=30)
    g = claim_seats(httpx, made.json(), base)
    url = base + f"/api/games/{g['id']}/seats"
    for _ in range(12):  # the view keeps the last 12 moves
        seat = httpx.get(base + g["view"].replace("/g/", "/api/games/")).json()[
            "current_player"]
        key = {"X-Seat-Key": g["seats"][seat]["key"]}
        legal = httpx.get(f"{url}/{seat}", headers=key).json()["legal"]
        httpx.post(f"{url}/{seat}/act", headers=key, json={"action": legal[0]}
                   ).raise_for_status()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for (width, height), lang in (((1280, 720), "en"), ((1920, 1080), "fa"),
                                      ((1280, 720), "he")):
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(base + g["view"] + f"&lang={lang}")
            page.wait_for_function("document.getElementById('app').dataset.seq !== undefined")
            at = page.evaluate(LAST_MOVES)
            assert at["cut"] == 0 and not at["scrolls"] and 2 <= at["shown"] < 12, at
            assert at["page"] <= 0, at  # as many as fit above the screen's bottom edge
            page.context.close()
        phone = browser.new_context(viewport={"width": 360, "height": 640}).new_page()
        phone.goto(base + g["view"])
        phone.wait_for_function("document.getElementById('app').dataset.seq !== undefined")
        assert phone.evaluate(LAST_MOVES)["shown"] == 12
        browser.close()

LAYOUT = """() => {
  const box = (id) => document.getElementById(id).getBoundingClientRect();
  const b = box("board"), side = document.querySelector(".side").getBoundingClientRect();
  return {board: [b.left, b.right, b.width], side: [side.left, side.right, side.top],
          turn: parseFloat(getComputedStyle(document.getElementById("turn")).fontSize),
          mine: box("mine"), top: b.top, bottom: b.bottom,
          bar: document.querySelector(".bar").getBoundingClientRect().height,
          scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
@pytest.mark.parametrize("game, lang", [("taki", "ar"), ("tukki", "en"), ("tokaido", "fa"),
                                        ("tukki", "he")])
def test_the_table_screen_is_a_large_landscape_grid(base, game, lang):
    """The view link on a 1280 × 720 laptop and a 1920 × 1080 TV: the board large on one side
    (over half the width), the players, whose turn and the last moves beside it (on its left
    on a right-to-left page), the turn in large letters, the whole of it on the screen
    without scrolling; a seat's phone (360 × 640) keeps its one column."""
    from playwright.sync_api import sync_playwright

    g = new_table(base, game)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for width, height in ((1280, 720), (1920, 1080)):
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(base + g["view"] + f"&lang={lang}")
            page.wait_for_function("document.getElementById('app').dataset.seq !== undefined")
            at = page.evaluate(LAYOUT)
            left, right, wide = at["board"]
            assert wide > 0.55 * width, at
            if lang == "en":
                assert at["side"][0] >= right, at  # beside the board, not below it
            else:
                assert at["side"][1] <= left, at
            assert at["side"][2] < at["bottom"]
            assert at["turn"] >= 0.025 * width, at  # 32 px on a laptop, 48 on a TV
            assert at["scroll"] == [width, height], at  # all of it on the screen
            page.context.close()
        phone = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                    has_touch=True).new_page()
        phone.goto(base + g["seats"][0]["link"].replace("#", f"&lang={lang}#"))
        phone.wait_for_function("document.getElementById('app').dataset.seq !== undefined")
        phone.wait_for_function("!document.getElementById('mine').hidden")
        at = phone.evaluate(LAYOUT)
        assert at["scroll"][0] == 360 and at["board"][2] > 300, at  # one column, full width
        assert at["mine"]["bottom"] <= at["top"], at  # its own cards above the table
        assert at["bar"] < 60, at  # the header (the game, "New card game") in one line
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_plus_reads_left_to_right_and_a_stack_says_how_many(base):
    """A new user's trial: "Take the +3" read "3+" on Hebrew and Arabic pages (the sign was
    in the message, outside the isolate a card's "+2" gets), and on a +2 stack the button
    said "Draw a card" and took 4. Each "+n" is isolated left to right (once), and the draw
    on a stack of n says "Take n cards"."""
    import httpx
    from playwright.sync_api import sync_playwright

    r = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", None],
                                              "bots": {"1": "heuristic"}}, timeout=30)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        for lang in ("he", "ar", "fa", "en"):
            page.goto(base + r.json()["view"] + "&lang=" + lang)
            said = page.evaluate("""() => {
              const T = JSON.parse(document.getElementById("i18n").textContent);
              const W = window.refereeCardWords(T, "taki", () => []);
              return [W.action("pass", true), W.action("break"), W.action("play R+2"),
                      W.card("B+2")];
            }""")
            for text in said:
                plus = re.findall("\u2066*[+][0-9\u06f0-\u06f9]+\u2069*", text)
                assert plus and all(m.count("\u2066") == 1 and m.startswith("\u2066") and
                                    m.endswith("\u2069") for m in plus), (lang, text)
        browser.close()
    from referee.server.i18n import LANGUAGES, messages

    for lang in LANGUAGES:  # the stack's button, in every language, with its count
        assert "{n}" in messages(lang)["g.do.draw_n"]


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_player_who_has_not_opened_their_link_is_waited_for_by_name(base):
    """A new user's trial waited on "Noa is playing" while Noa had not opened her seat's
    link. The table says whom it waits for, until that phone takes the seat."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", "Ben"]},
                   timeout=30).json()
    view = httpx.get(base + f"/api/games/{g['id']}", timeout=30,
                     headers={"X-Table-Secret": g["secret"]}).json()
    cur = view["current_player"]
    who = "\u2068" + ["Ava", "Ben"][cur] + "\u2069"  # a name is isolated in any words
    en = messages("en")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.goto(base + g["view"] + "&lang=en")
        expect(page.locator("#turn")).to_have_text(
            en["g.waiting_link"].replace("{name}", who), timeout=15000)
        claim_seats(httpx, g, base)
        expect(page.locator("#turn")).to_have_text(
            en["g.turn_of"].replace("{name}", who), timeout=15000)
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_tukki_says_what_to_do_first_and_how_a_round_ended(base):
    """A new user's trial: the first turn showed eight face-down cards and "Your turn!",
    and at a new round every total jumped with all cards face down again. A seat in the
    opening is told to turn over its cards; from the second round the table shows the round
    before, its points and each box as it ended, folded under one line."""
    import random

    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    g = httpx.post(base + "/api/games", json={"game": "tukki", "players": ["Ava", None],
                                              "bots": {"1": "random"},
                                              "options": {"rounds": 2}}, timeout=30).json()
    g = claim_seats(httpx, g, base)
    url, ava = base + f"/api/games/{g['id']}", {"X-Seat-Key": g["seats"][0]["key"]}
    en = messages("en")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.goto(base + g["seats"][0]["link"])
        for _ in range(200):  # Ava's first turn (the bot's opening may come first)
            me = httpx.get(f"{url}/seats/0", headers=ava, timeout=30).json()
            if me["legal"]:
                break
            page.wait_for_timeout(50)
        assert me["view"]["table"]["phase"] == "opening"
        expect(page.locator("#mine-body .hint")).to_have_text(
            en["g.tukki.opening_hint"].replace("{n}", "2"), timeout=15000)
        rng = random.Random(5)
        for _ in range(400):  # Ava plays until the second round has begun
            me = httpx.get(f"{url}/seats/0", headers=ava, timeout=30).json()
            if me["view"]["table"]["round"] >= 2 or me["over"]:
                break
            if me["legal"]:
                httpx.post(f"{url}/seats/0/act", headers=ava, timeout=30,
                           json={"action": rng.choice(me["legal"])})
            else:
                page.wait_for_timeout(50)  # the bot's turn
        assert me["view"]["table"]["round"] == 2, me["view"]["table"]
        summary = page.locator("details.last-round summary")
        expect(summary).to_contain_text(en["g.tukki.round_ended"].replace("{n}", "1"),
                                        timeout=15000)
        page.locator("details.last-round summary").click()
        expect(page.locator("details.last-round figure")).to_have_count(2)
        # every card of the round before shows face up
        assert page.locator("details.last-round .tcell.down").count() == 0
        browser.close()
