"""Tuki's phone pages in a real browser (Debian's Chromium, a 360 × 640 touch phone), in each
of the four languages, as a new user's trial found them (the new-table form has its own file,
test_server_new_table_browser.py): a view link without the lines of a questioned verdict,
the file field's "Choose File" in the browser's language, the done order's numbers pulled to
the wrong names by names in Latin letters on a right-to-left page; and the check that no word
is broken over two lines, which let a break at a hyphen or a slash pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cardplay import BROKEN_WORDS, PHONE
from .conftest import round_started, two_verdicts
from .test_server_browser import CHROMIUM, server  # noqa: F401  (a fixture)

LANGS = ("en", "fa", "he", "ar")

# where the element of a CSS selector is on the screen (its box's edges, in CSS pixels), or
# with words=true where its words are (from its first words to its last)
BOXES = """([sel, words]) => {
  const e = document.querySelector(sel);
  let r = e.getBoundingClientRect();
  if (words) {
    const texts = [], walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.textContent.trim()) texts.push(n);
    const range = document.createRange();
    range.setStart(texts[0], 0);
    range.setEnd(texts[texts.length - 1], texts[texts.length - 1].length);
    r = range.getBoundingClientRect();
  }
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_view_link_shows_the_lines_of_a_questioned_verdict(server):  # noqa: F811
    """A viewer (the view link, read only) reads that a verdict was questioned and then the
    lookout's answer, in its own language, as the players' phones do (it showed nothing);
    still no button, and no key of the table or of a seat anywhere on its page."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    created, view = two_verdicts(server)
    h = {"X-Table-Secret": created["secret"]}
    url = f"{server}/api/tables/{created['id']}"
    assert view["round"]["builders"][0]["verdict"]["verdict"] != "unsure"
    assert not view["round"]["builders"][0]["decided"]
    keys = [created["secret"]] + [s["key"] for s in httpx.get(url + "/seats", headers=h).json()]
    assert httpx.post(url + "/dispute", json={"seat": 0}, headers=h).is_success
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        viewers = {}
        for lang in LANGS:
            page = browser.new_context(**PHONE).new_page()
            page.goto(server + created["viewer_path"] + f"&lang={lang}")
            ava = page.locator("li.builder[data-seat='0']")
            # who answers, by name: the round's lookout, or the table's owner when the
            # build is the lookout's own (Ava's, the first lookout, builds too)
            looks = view["round"].get("lookout", view["lookout"])
            expect(ava).to_contain_text(messages(lang)["verdict.disputed_owner"] if looks == 0
                                        else messages(lang)["verdict.disputed"].replace(
                                            "{name}", "\u2068" + view["players"][looks]["name"]
                                            + "\u2069"))
            expect(page.locator("li.builder button.button")).to_have_count(0)
            viewers[lang] = page
        said = "correct" if view["round"]["builders"][0]["verdict"]["verdict"] == "wrong" \
            else "wrong"
        assert httpx.post(url + "/confirm", json={"seat": 0, "correct": said == "correct"},
                          headers=h).is_success
        for lang, page in viewers.items():  # the answer comes by the live feed
            words = messages(lang)
            ava = page.locator("li.builder[data-seat='0']")
            expect(ava).to_contain_text(words["verdict.card_stays"])
            expect(ava).to_contain_text(
                words["verdict.confirmed"].replace("{v}", words["verdict." + said]))
            expect(page.locator("li.builder button.button")).to_have_count(0)
            seen = page.content() + page.evaluate("JSON.stringify(localStorage) + "
                                                  "document.cookie + location.href")
            assert not any(k in seen for k in keys), lang
            assert page.evaluate(BROKEN_WORDS) == [], lang
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_photo_button_speaks_the_pages_language(server):  # noqa: F811
    """A phone place's photo field: a button in the page's words (the browser's own file
    field said "Choose File" in the browser's language) and the chosen photo's name beside
    it, or "no photo chosen"; the keyboard still reaches it (Tab, then Space opens the
    chooser, its focus shown on the button), a tap on it opens the chooser, and DONE sends the
    photo chosen, as before."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    from .conftest import SCENES, scene_card

    body = {"name": "Family", "players": ["Ava", "Ben"],
            "places": [{"station": "D03"}, {"station": "D04"}]}
    created = httpx.post(server + "/api/tables", json=body).json()
    grid, die = scene_card("D03-02")
    assert httpx.post(f"{server}/api/tables/{created['id']}/rounds", json={"grid": grid,
                      "die": die}, headers={"X-Table-Secret": created["secret"]}).is_success
    photo = SCENES / "D03-02" / "image.jpg"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--lang=en-US"])
        for lang in ("fa", "he", "ar", "en"):
            page = browser.new_context(**PHONE, locale="en-US").new_page()
            words = messages(lang)
            page.goto(server + created["control_path"].replace("#", f"&lang={lang}#"))
            ava = page.locator("li.builder[data-seat='0']")
            button = ava.locator(".file-field label.file-pick")
            expect(button).to_have_text(words["ctl.choose_photo"])
            name = ava.locator(".file-field .file-name")
            expect(name).to_have_text(words["ctl.no_photo"])
            field = ava.locator("input[type=file]")
            box = field.bounding_box()
            assert box is not None and box["width"] <= 1 and box["height"] <= 1, lang
            # a photo already taken can be chosen: no `capture`, which opens the camera
            # alone on Android phones
            assert field.get_attribute("capture") is None, lang
            b = button.bounding_box()
            assert b is not None and b["height"] >= 44 and b["x"] >= 0 and \
                b["x"] + b["width"] <= 360, (lang, b)
            # the keyboard: Tab reaches the field, its focus is drawn on the button, and
            # Space opens the chooser
            for _ in range(80):
                if field.evaluate("e => e === document.activeElement"):
                    break
                page.keyboard.press("Tab")
            else:
                raise AssertionError(f"{lang}: Tab never reaches the photo field")
            assert button.evaluate("e => getComputedStyle(e).outlineStyle") != "none", lang
            # Space activates the input (its click, which opens the chooser). Whether
            # Chromium then shows a chooser is the browser's: on a headless Chromium the
            # click came and, 1 run in 8, no chooser (as in Playwright's issue 28023)
            field.evaluate("e => { e.clicks = 0; e.count = (ev) => { e.clicks++;"
                           " ev.preventDefault(); }; e.addEventListener('click', e.count); }")
            page.keyboard.press("Space")
            assert field.evaluate("e => e.clicks") == 1, lang
            field.evaluate("e => e.removeEventListener('click', e.count)")
            with page.expect_file_chooser() as chooser:  # and a tap on the button
                button.click()
            assert chooser.value.element.evaluate("e => e.id") == field.get_attribute("id")
            # answered, as a phone's chooser is
            chooser.value.set_files(photo)
            expect(name).to_have_text("image.jpg")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, lang
            assert page.evaluate(BROKEN_WORDS) == [], lang
            assert page.locator("html").get_attribute("dir") == ("ltr" if lang == "en"
                                                                 else "rtl")
        # DONE sends the photo chosen: judged, a verdict on the page
        ava.locator("button.done").click()
        expect(ava.locator(".verdict")).to_be_visible(timeout=30000)
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_broken_word_check_counts_a_break_at_a_hyphen_or_a_slash():
    """BROKEN_WORDS (the browser tests' check that no word is split over two lines) counts a
    line that ends at a hyphen or a slash inside a word (it took them for the ends of words,
    so "admin-/key" on the new-table form passed); words that wrap at spaces, a word kept
    whole on one line and the words of another element than #app are not counted."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.set_content(
            '<div id="app" style="font: 16px/1.4 sans-serif">'
            # a slash never ends a line in Chromium but where any place may (a builder's
            # words, overflow-wrap: anywhere): exactly there, in letters all one width
            '<p style="width: 9ch; font-family: monospace; overflow-wrap: anywhere">'
            'blackish/whitish</p>'
            '<p style="width: 7ch">well-known</p>'
            '<p style="width: 6ch">one two three four</p>'
            '<p style="width: 4ch; white-space: nowrap">unbroken-word</p></div>'
            '<div id="other" style="width: 7ch">left-right</div>')
        heights = page.evaluate("[...document.querySelectorAll('#app p')].map("
                                "(p) => p.getClientRects()[0].height)")
        assert heights[0] > 30 and heights[1] > 30  # the two words do take two lines
        assert sorted(page.evaluate(BROKEN_WORDS)) == ["blackish/whitish", "well-known"]
        assert page.evaluate(BROKEN_WORDS, "#other") == ["left-right"]
        page.set_content('<div id="app"><p>Show this table in the box’s list</p></div>')
        assert page.evaluate(BROKEN_WORDS) == []
        browser.close()


# where each of `words` is on the screen, in the element of a CSS selector: {word: [left, right]}
WHERE = """([sel, words]) => {
  const out = {}, walk = document.createTreeWalker(document.querySelector(sel),
                                                   NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) for (const w of words) {
    const at = n.textContent.indexOf(w);
    if (at < 0 || out[w]) continue;
    const r = document.createRange();
    r.setStart(n, at);
    r.setEnd(n, at + w.length);
    const box = r.getBoundingClientRect();
    out[w] = [box.left, box.right];
  }
  return out;
}"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_done_order_reads_right_to_left_with_latin_names(server):  # noqa: F811
    """"1. Ava · 2. Ben" on a right-to-left page: the first at the right, each number at the
    right of its name (an Arabic phone read "Ava · 2. Ben .1": the names in Latin letters
    pulled the next number to their side); left to right on an English page."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from .conftest import SCENES

    created, h, url = round_started(server, {
        "name": "Family", "players": ["Ava", "Ben", "Cy"],
        "places": [{"station": "D03"}, {"station": "D04"}, {"station": "D03"}]})
    for seat, scene in ((0, "D03-02"), (1, "D04-01")):  # three builders: two "done"s
        # (each its own photo: one frozen for another builder is refused)
        photo = {"photo": ("p.jpg", (SCENES / scene / "image.jpg").read_bytes(), "image/jpeg")}
        r = httpx.post(f"{url}/done/{seat}", files=photo, headers=h, timeout=30)
        assert r.is_success, r.text
    assert httpx.get(url, headers=h).json()["round"]["done_order"] == [0, 1]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in LANGS:
            page = browser.new_context(**PHONE).new_page()
            page.goto(server + created["viewer_path"] + f"&lang={lang}")
            expect(page.locator("#done-order")).to_contain_text("Ben")
            one, two = ("۱", "۲") if lang == "fa" else ("1", "2")
            at = page.evaluate(WHERE, ["#done-order", ["Ava", "Ben", one, two]])
            if lang == "en":  # 1 Ava 2 Ben, from the left
                assert at[one][1] <= at["Ava"][0] <= at[two][0] <= at["Ben"][0], at
            else:  # from the right: 1 Ava 2 Ben
                assert at[one][0] >= at["Ava"][1] >= at[two][1] >= at["Ben"][1], (lang, at)
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_names_of_one_long_word_keep_a_phones_page_its_width(server):  # noqa: F811
    """A table's name of one word (60 letters, the most) and players' of one word (30, the
    most: a nickname, an e-mail address) break inside the screen of a 360 px phone: the
    table's heading, the round's title (the lookout), the done order, the penalty cards, the
    players' links of the control page, the start page's list and a card table's page. Each
    made the page scroll sideways, to 736 px (a card table's to 1157 px)."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from .conftest import SCENES

    table, ava, ben = "T" * 60, "Ava" + "m" * 27, "ben.cohen.family@example.com"
    created, h, url = round_started(server, {
        "name": table, "players": [ava, ben], "listed": True,
        "places": [{"station": "D03"}, {"station": "D04"}]})
    photo = {"photo": ("p.jpg", (SCENES / "D03-02" / "image.jpg").read_bytes(), "image/jpeg")}
    assert httpx.post(f"{url}/done/1", files=photo, headers=h, timeout=30).is_success
    game = httpx.post(server + "/api/games", json={"game": "taki", "name": table,
                      "players": [ava, ben, None], "bots": {"2": "easy"}}).json()
    pages = [("control", created["control_path"], "#seats:not([hidden]) img[src]"),
             ("view", created["viewer_path"], "#done-order bdi"),
             ("start page", "/?", ".tables li"),
             ("card table", game["control"], "#owner:not([hidden]) .seat-link")]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in ("en", "he"):
            page = browser.new_context(**PHONE).new_page()
            for what, path, ready in pages:
                at = path.replace("#", f"&lang={lang}#") if "#" in path else \
                    path + f"&lang={lang}"
                page.goto(server + at)
                expect(page.locator(ready).first).to_be_visible()
                expect(page.locator("main")).to_contain_text(ben)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, (lang, what, width)
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_lists_of_names_take_the_languages_comma(server):  # noqa: F811
    """refereeUI.names (winners, the admin page's players, refusals) joins names with the
    language's list comma, as the card games' lists do ("،" in Persian and Arabic; it was ","
    in every language), each name isolated."""
    from playwright.sync_api import sync_playwright

    from referee.server.i18n import messages

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        for lang in LANGS:
            page.goto(f"{server}/games/new?lang={lang}")
            sep = messages(lang)["g.sep"]
            t = "JSON.parse(document.getElementById('i18n').textContent)"
            got = page.evaluate(f"window.refereeUI.names(['Ava', 'Ben', 'Cy'], {t})")
            assert got == sep.join(f"\u2068{n}\u2069" for n in ("Ava", "Ben", "Cy")), lang
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_after_a_demo_round_the_page_names_one_lookout(server, tmp_path):  # noqa: F811
    """After the demo's round, Ben takes the penalty card and so is the lookout of the next
    round (RULINGS.md Tuki: "the player who took the last penalty card"); the round's box
    said "Lookout: Ava" (the finished round's) while the players' list said "Ben · Lookout".
    Now both name Ben, in each language: the box as the next round's lookout."""
    import time

    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    secret = (tmp_path / "data" / "demo-secret.txt").read_text().strip()
    h = {"X-Table-Secret": secret}
    url = f"{server}/api/tables/demo"
    assert httpx.post(url + "/rounds/demo", headers=h).is_success
    assert httpx.post(url + "/done/0", headers=h, timeout=30).is_success
    end = time.monotonic() + 30
    while (view := httpx.get(url, headers=h).json())["round"]["taker"] is None:
        assert time.monotonic() < end, view["round"]
        time.sleep(0.1)
    names = [p["name"] for p in view["players"]]
    round_lookout, lookout = view["round"]["lookout"], view["lookout"]
    assert lookout == view["round"]["taker"] != round_lookout  # the case the user met
    path = {t["id"]: t for t in httpx.get(server + "/api/tables").json()}["demo"]["view_path"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in LANGS:
            words = messages(lang)
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{server}{path}&lang={lang}#k={secret}")
            title = page.locator("#round-title")
            expect(title).to_contain_text(
                words["table.next_lookout"].replace("{name}", names[lookout]))
            assert names[round_lookout] not in title.inner_text(), lang
            marked = page.locator("#players li.lookout")
            expect(marked).to_have_count(1)
            expect(marked).to_contain_text(names[lookout])
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_decided_verdict_says_the_decision_and_each_reason_once(server, lang):  # noqa: F811
    """A new user's trial: a verdict listed "The gray stone was not found." twice (and the
    orange twice), and after the lookout's "Count as correct" the page showed a green
    "correct" badge over a red "Wrong". Each sentence is shown once, and the heading says
    the decision, with what the referee measured beside it. (The table's live view is
    rewritten on its way to the page to hold such a verdict.)"""
    import json

    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    words = messages(lang)
    created, h, url = round_started(server, {
        "name": "Family", "players": ["Ava", "Ben"],
        "places": [{"station": "D03"}, {"station": "D04"}]})

    def rewrite(text):
        msg = json.loads(text)
        if msg.get("type") == "view" and (msg["view"].get("round") or {}).get("builders"):
            b = msg["view"]["round"]["builders"][0]
            b["verdict"] = {"verdict": "wrong", "faults": [], "reasons": [
                {"code": "stone:not-found:G"}, {"code": "stone:not-found:G"},
                {"code": "stone:not-found:O"}, {"code": "stone:not-found:O"}]}
            b["decided"], b["state"] = "correct", "settled"
        return json.dumps(msg)

    def route(ws):
        srv = ws.connect_to_server()
        srv.on_message(lambda m: ws.send(rewrite(m) if isinstance(m, str) else m))

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.route_web_socket("**/ws/tables/**", route)
        path, key = created["control_path"].split("#", 1)
        page.goto(f"{server}{path}&lang={lang}#{key}")
        ava = page.locator("li.builder[data-seat='0']")
        expect(ava.locator("p.verdict")).to_have_text(words["verdict.correct"], timeout=10000)
        assert "v-correct" in ava.locator("p.verdict").get_attribute("class")
        assert ava.locator("li.reason").count() == 2
        decided = ava.locator("p.decided").inner_text()
        measured = words["verdict.measured"].replace("{v}", words["verdict.wrong"])
        assert measured in decided, decided
        ava.scroll_into_view_if_needed()
        page.screenshot(path=f"/tmp/hcam-shots/decided-{lang}.png")
        browser.close()
