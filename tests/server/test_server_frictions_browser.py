"""A new user's trial at a 360 × 640 phone, in Debian's Chromium and the four languages: an
error after a tap drawn below the buttons, off the screen (a Tokaido seat's stale tap, a
refused card grid on Tuki's controls); the seat's fixed DONE bar covering the page's end; the
new lookout's phone opening on the controls, the round's result ~900 px down; "the lookout
decides" naming nobody; a new card table giving two raw links only; a bot's badge read as
"Bot 2bot"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cardplay import PHONE
from .conftest import round_started, submit_new_card_game, two_verdicts
from .test_server_browser import CHROMIUM, server  # noqa: F401  (a fixture)

LANGS = ("en", "fa", "he", "ar")
ISO = "\u2068{}\u2069"  # a name as words.js isolates it inside words

# the element's box against the screen: [top, bottom, the screen's height, the DONE bar's top]
WHERE = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const bar = document.getElementById("bigdone");
  const top = bar && !bar.hidden ? bar.getBoundingClientRect().top : innerHeight;
  return [r.top, r.bottom, innerHeight, top];
}"""


def _in_sight(page, sel: str) -> None:
    top, bottom, height, bar = page.evaluate(WHERE, sel)
    assert top >= 0 and bottom <= min(height, bar) + 0.5, (sel, top, bottom, height, bar)


def _lang(link: str, lang: str) -> str:
    return link.replace("#", f"&lang={lang}#") if "#" in link else link + f"&lang={lang}"


def _each_language(origin: str, path: str):
    """For each of LANGS: (lang, a 360×640 phone's page opened at `path` in it); each page's
    context is closed once the next is asked for, the browser at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in LANGS:
            page = browser.new_context(**PHONE).new_page()
            page.goto(origin + _lang(path, lang))
            yield lang, page
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_stale_taps_error_is_on_the_screen(base):
    """A Tokaido seat taps a move the table has moved on from (its `plays` one behind): "The
    table has moved on since" is said, in the page's language, and is on the screen (it was
    drawn ~350 px below it, under the move buttons, and the page did not move)."""
    import httpx

    from referee.server.i18n import messages

    g = httpx.post(base + "/api/games", json={"game": "tokaido", "players": ["Ava", "Ben"]},
                   timeout=30).json()
    for s in g["seats"]:
        r = httpx.post(f"{base}/api/games/{g['id']}/claim", headers={"X-Seat-Key": s["key"]})
        s["key"], s["link"] = r.json()["key"], r.json()["link"]
    views = [httpx.get(f"{base}/api/games/{g['id']}/seats/{i}",
                       headers={"X-Seat-Key": g["seats"][i]["key"]}).json() for i in range(2)]
    me = next(v for v in views if v["legal"])

    def stale(route) -> None:  # the tap was chosen on the view before another move
        body = json.loads(route.request.post_data)
        body["plays"] += 1
        route.continue_(post_data=json.dumps(body))

    for lang, page in _each_language(base, g["seats"][me["seat"]]["link"]):
        page.wait_for_selector("#moves button")
        assert page.evaluate(WHERE, "#act-error")[0] > 640  # below the screen, at first
        page.route("**/act", stale)
        page.locator("#moves button").first.click()
        page.wait_for_function("document.getElementById('act-error').textContent !== ''")
        assert page.locator("#act-error").inner_text() == \
            messages(lang)["refusal.table.moved-on"], lang
        _in_sight(page, "#act-error")


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_refused_card_grid_is_said_on_the_screen(server):  # noqa: F811
    """Tuki's controls: a card grid typed wrong and "Start" tapped; the refusal, below the die
    faces and the buttons, is on the screen in every language."""
    import httpx

    body = {"name": "Family", "players": ["Ava", "Ben"],
            "places": [{"station": "D03"}, {"station": "D04"}]}
    created = httpx.post(server + "/api/tables", json=body).json()
    for _, page in _each_language(server, created["control_path"]):
        page.wait_for_selector("#start-form:not([hidden])")
        page.click("#start-form details summary")
        page.fill("#start-form textarea[name=card]", "GGX\nQQ")
        page.click("#start-form input[name=die] + .die-icon")
        page.click("#start-form button[type=submit]")
        page.wait_for_function("document.getElementById('ctl-error').textContent !== ''")
        _in_sight(page, "#ctl-error")


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_done_bar_hides_nothing_at_the_pages_end(server):  # noqa: F811
    """A builder's seat phone, its DONE bar at the bottom: scrolled to the page's end, all of
    the page is above the bar, also once the bar holds a refused photo's words (taller), in
    every language; and an error line after a tap in the page is scrolled above the bar, not
    under it."""
    import httpx
    from playwright.sync_api import expect

    created, h, url = round_started(server, {"name": "Family", "players": ["Ava", "Ben"],
                                             "places": [{"station": "D03"}, {"station": "D04"}]})
    seat = httpx.get(url + "/seats", headers=h).json()[0]["path"]
    lowest = """() => Math.max(...[...document.querySelectorAll('#app > *')]
      .filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().bottom))"""
    to_end = "window.scrollTo(0, document.documentElement.scrollHeight)"
    for lang, page in _each_language(server, seat):
        expect(page.locator("#bigdone")).to_be_visible()
        page.wait_for_timeout(200)
        page.evaluate(to_end)
        bar = page.locator("#bigdone").bounding_box()
        assert bar and page.evaluate(lowest) <= bar["y"], lang
        with page.expect_file_chooser() as fc:
            page.click("#bigdone-btn")
        fc.value.set_files(files=[{"name": "x.txt", "mimeType": "text/plain",
                                   "buffer": b"not a photo"}])
        expect(page.locator("#bigdone-error")).not_to_be_empty()
        page.wait_for_timeout(200)  # the bar grew: the room below the page grows with it
        page.evaluate(to_end)
        bar = page.locator("#bigdone").bounding_box()
        assert bar and bar["height"] > 140 and page.evaluate(lowest) <= bar["y"], lang
        # a line in the page shown after a tap (refereeUI.reveal, as an error is) ends
        # above the bar, not under it
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(WHERE, "#players")[1] > 640 - bar["height"]  # hidden at first
        page.evaluate("window.refereeUI.reveal(document.getElementById('players'))")
        _in_sight(page, "#players")


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_round_over_shows_its_result_first_and_names_the_lookout(server):  # noqa: F811
    """A round played (Ava and Ben, both build): the new lookout's phone opens on who takes
    the penalty card and each builder's verdict, on the screen, the controls below the
    verdicts, and a button that leads there (it opened on the card pictures and die faces,
    the result ~900 px down). A questioned verdict says who decides, by name: the round's
    lookout, or the table's owner for the lookout's own build ("the lookout decides")."""
    import httpx
    from playwright.sync_api import expect

    from referee.server.i18n import messages

    created, view = two_verdicts(server)
    h = {"X-Table-Secret": created["secret"]}
    url = f"{server}/api/tables/{created['id']}"
    assert view["round"]["status"] == "over", view["round"]
    looks = view["round"].get("lookout", 0)
    asked = [b["seat"] for b in view["round"]["builders"]
             if b["verdict"]["verdict"] != "unsure" and not b["decided"]]
    for seat in asked:
        assert httpx.post(url + "/dispute", json={"seat": seat}, headers=h).is_success
    seats = httpx.get(url + "/seats", headers=h).json()
    view = httpx.get(url, headers=h).json()
    new_lookout = view["lookout"]
    for lang, page in _each_language(server, seats[new_lookout]["path"]):
        words = messages(lang)
        expect(page.locator("#round-verdicts li")).to_have_count(2)
        expect(page.locator("#round-result")).to_have_text(
            words["table.taker"].replace("{name}", view["players"][view["round"]["taker"]]
                                         ["name"]))
        _in_sight(page, "#round-result")
        _in_sight(page, "#round-verdicts")
        _in_sight(page, "#to-controls")
        for b in view["round"]["builders"]:
            state = b["decided"] or b["state"]
            expect(page.locator("#round-verdicts")).to_contain_text(words["state." + state])
        order = page.evaluate("""() => ['round-result', 'builders', 'controls'].map(
          (id) => document.getElementById(id).getBoundingClientRect().top)""")
        assert order == sorted(order), (lang, order)
        page.click("#to-controls")
        expect(page.locator("#start-form")).to_be_in_viewport()
        # who answers a question, by name
        for seat in asked:
            said = words["verdict.disputed_owner"] if seat == looks else \
                words["verdict.disputed"].replace(
                    "{name}", ISO.format(view["players"][looks]["name"]))
            expect(page.locator(f"li.builder[data-seat='{seat}'] .dispute")
                   ).to_contain_text(said)
    # the wording itself: every language names the lookout
    for lang in LANGS:
        assert "{name}" in messages(lang)["verdict.disputed"], lang


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_new_card_table_opens_the_makers_seat_or_its_controls(base, lang):
    """Once a card table is made: a button opens the table's controls on this phone, one per
    person's seat opens that seat ("Play as Ava"), keeping the table's key on the phone (the
    seat's page offers the controls back), and each link has a "Copy link" button that copies
    it; the control link (its key) is still shown once."""
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    words = messages(lang)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        ctx = browser.new_context(**PHONE, permissions=["clipboard-read", "clipboard-write"])
        page = ctx.new_page()
        page.goto(f"{base}/games/new?lang={lang}")
        submit_new_card_game(page)
        expect(page.locator("#open-table")).to_be_visible()
        _in_sight(page, "#open-table")
        control = page.locator("#control-link").inner_text()
        key = control.split("#k=")[1]
        assert page.locator("#created").inner_text().count(key) == 1  # shown once
        assert page.locator("#open-table").get_attribute("href").startswith(base + "/g/")
        plays = page.locator("#open-here .play-as")
        expect(plays).to_have_count(2)  # Ava and Ben, the people's seats
        expect(plays.first).to_have_text(words["made.play_as"].replace("{name}",
                                                                       ISO.format("Ava")))
        # copy: the control link, then the view link
        copies = page.locator("#created button.copy")
        expect(copies).to_have_count(2)
        expect(copies.first).to_have_text(words["ui.copy"])
        copies.first.click()
        expect(page.locator("#created .copy-said").first).to_have_text(words["ui.copied"])
        assert page.evaluate("navigator.clipboard.readText()") == control
        copies.nth(1).click()
        assert page.evaluate("navigator.clipboard.readText()") == \
            page.locator("#view-link").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # Ava's seat on this phone, the table's controls kept on it
        ava = plays.first.get_attribute("href")
        plays.first.click()
        expect(page.locator("#who")).to_contain_text("Ava", timeout=15000)
        expect(page.locator("#mine")).to_be_visible()
        expect(page.locator("#key-switch")).to_be_visible()
        page.locator("#key-switch button").click()
        expect(page.locator("#owner")).to_be_visible(timeout=15000)
        # and back: Ava's link opened again on this phone plays her seat (a new user's trial:
        # it stayed on the controls, "already opened on another phone")
        page.goto(ava if ava.startswith("http") else base + ava)
        expect(page.locator("#who")).to_contain_text("Ava", timeout=15000)
        expect(page.locator("#mine")).to_be_visible()
        expect(page.locator("#link-note")).to_be_hidden()
        # the table's controls straight from the new table's page
        page.goto(f"{base}/games/new?lang={lang}")
        submit_new_card_game(page, ("Cy", "Dee"))
        page.click("#open-table")
        expect(page.locator("#owner")).to_be_visible(timeout=15000)
        expect(page.locator("#who")).to_have_text(words["g.you_own"])
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_new_tuki_table_opens_the_makers_seat_or_its_controls(server):  # noqa: F811
    """Tuki's new table page too: "Open the table's controls", "Play as …" for each player,
    a "Copy link" button by each link; the control link shown once."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in ("he", "ar"):
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{server}/new?lang={lang}")
            page.fill("textarea[name=players]", "Ava\nBen")
            page.click("button[type=submit]")
            expect(page.locator("#open-table")).to_be_visible()
            _in_sight(page, "#open-table")
            expect(page.locator("#open-here .play-as")).to_have_count(2)
            expect(page.locator("#created button.copy")).to_have_count(2)
            key = page.locator("#control-link").inner_text().split("#k=")[1]
            assert page.locator("#created").inner_text().count(key) == 1
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.locator("#open-here .play-as").nth(1).click()
            expect(page.locator("#me")).to_contain_text("Ben", timeout=15000)
            expect(page.locator("#key-switch")).to_be_visible()
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_bots_badge_reads_apart_from_its_name(base):
    """The players' list: a bot's "bot" badge and each seat's count read as words of their
    own, to a screen reader and in copied text ("Bot 2, bot, 8 cards"; it read "Bot 2bot8
    cards"), and the separator is not seen."""
    import httpx
    from playwright.sync_api import expect

    from referee.server.i18n import messages

    g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", None],
                                              "bots": {"1": "easy"}}, timeout=30).json()
    for lang, page in _each_language(base, g["view"]):
        words = messages(lang)
        bot = page.locator("#players li").nth(1)
        expect(bot.locator(".pill")).to_be_visible()
        name = words["g.bot_name"].replace("{n}", "۲" if lang == "fa" else "2")
        text = bot.evaluate("(e) => e.textContent")
        assert text.startswith(name + words["g.sep"] + words["g.bot"] + words["g.sep"]), \
            (lang, text)
        assert (name + words["g.bot"]) not in bot.inner_text(), lang
        # the separator takes no room on the screen
        sep = bot.locator(".pill .sr-only").bounding_box()
        assert sep and sep["width"] <= 1 and sep["height"] <= 1, sep
