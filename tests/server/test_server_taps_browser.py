"""How Tuki's phone pages take taps and the keyboard, in a real browser (Debian's Chromium, a
360 × 640 touch phone): a double tap does a thing once, a new view leaves the keyboard's focus
where it was, and a phone holding both the table's key and a seat's keeps both."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cardplay import PHONE
from .conftest import round_started
from .test_server_browser import CHROMIUM, server  # noqa: F401  (a fixture)


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_new_view_keeps_the_keyboards_place(server):  # noqa: F811
    """Another builder's DONE redraws the list of builders. The keyboard's focus stays where
    it was: on Ava's photo field (kept across redraws), or on her DONE button (drawn anew, the
    same button found again); before, it fell to the page's start, and Space opened nothing.
    (The photo button's test failed in CI on this when a view came between Tab and Space.)"""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from .conftest import SCENES

    created, h, url = round_started(server, {
        "name": "Family", "players": ["Ava", "Ben"],
        "places": [{"station": "D03"}, {"station": "D04"}]})
    active = "() => [document.activeElement.tagName, document.activeElement.className]"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.goto(server + created["control_path"])
        ava, ben = (page.locator(f"li.builder[data-seat='{s}']") for s in (0, 1))
        field = ava.locator("input[type=file]")
        field.focus()
        photo = {"photo": ("p.jpg", (SCENES / "D04-06" / "image.jpg").read_bytes(),
                           "image/jpeg")}
        assert httpx.post(f"{url}/done/1", files=photo, headers=h, timeout=30).is_success
        expect(ben.locator(".verdict")).to_be_visible(timeout=30000)
        assert field.evaluate("e => e === document.activeElement"), page.evaluate(active)
        # a second redraw while Ava's DONE button has the focus: the table questions Ben's
        # verdict, or decides it when it is unsure
        ava.locator("button.done").focus()
        b = httpx.get(url, headers=h).json()["round"]["builders"][1]
        if b["state"] == "unsure":
            sent = httpx.post(url + "/decide", headers=h,
                              json={"seat": 1, "correct": True, "by": b["deciders"][0]})
            expect(ben.locator(".verdict + p.muted.decided")).to_be_visible()
        else:
            sent = httpx.post(url + "/dispute", headers=h, json={"seat": 1})
            expect(ben.locator(".dispute p.muted")).to_be_visible()
        assert sent.is_success, sent.text
        assert page.evaluate(active) == ["BUTTON", "button done"]
        assert ava.locator("button.done").evaluate("e => e === document.activeElement")
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_double_tap_on_create_makes_one_table(server):  # noqa: F811
    """A double tap on "Create" (a thumb, or a second tap while a Raspberry Pi answers) makes
    one table, Tuki's or a card game's: it made two, the first one's links never shown but
    the table listed and counted against the phone's five. While the box answers, the button
    is off; a box out of reach says so under the form (it said nothing)."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    def listed(path: str) -> int:
        return len(httpx.get(server + path).json())

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.goto(server + "/new?lang=en")
        page.fill("textarea[name=players]", "Ava\nBen")
        page.check("input[name=listed]")
        before = listed("/api/tables")
        page.dblclick("#new-table button[type=submit]")
        expect(page.locator("#control-link")).to_be_visible()
        page.wait_for_timeout(1500)  # a second table would be made by now
        assert listed("/api/tables") == before + 1
        page.goto(server + "/games/new?lang=en")
        names = page.locator("#seat-rows input[name=name]")
        names.nth(0).fill("Ava")
        names.nth(1).fill("Ben")
        page.check("#game-form input[name=listed]")
        before = listed("/api/games")
        page.dblclick("#game-form button[type=submit]")
        expect(page.locator("#control-link")).to_be_visible()
        page.wait_for_timeout(1500)
        assert listed("/api/games") == before + 1
        # the box out of reach: its words under the form, the button on again
        page.goto(server + "/new?lang=he")
        page.fill("textarea[name=players]", "Ava\nBen")
        page.route("**/api/tables", lambda route: route.abort())
        page.click("#new-table button[type=submit]")
        expect(page.locator("#error")).to_have_text(messages("he")["g.net_error"])
        expect(page.locator("#new-table button[type=submit]")).to_be_enabled()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_double_tap_on_a_round_control_does_it_once_without_an_error(server):  # noqa: F811
    """The lookout double-taps "Draw and roll for me", then "End round": each is done once
    and no error line shows, and the page goes up to the round started. The round started,
    and then its controls said "Not done: a round is already under way" (the second tap,
    sent before the page showed the round)."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    body = {"name": "Family", "players": ["Ava", "Ben"],
            "places": [{"station": "D03"}, {"station": "D04"}]}
    created = httpx.post(server + "/api/tables", json=body).json()
    url = f"{server}/api/tables/{created['id']}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.goto(server + created["control_path"])
        expect(page.locator("#live")).to_have_class("pill on")
        page.dblclick("#draw-round")
        expect(page.locator("#end-round")).to_be_visible()
        page.wait_for_timeout(1000)  # the second tap's answer would be shown by now
        expect(page.locator("#ctl-error")).to_have_text("")
        # the phone is scrolled up to the round's card and die (it stayed at the controls)
        top = page.evaluate("document.getElementById('round').getBoundingClientRect().top")
        assert abs(top) < 2 and page.evaluate("window.scrollY") > 0, top
        # "End round" asks first (a tap by mistake lost a round): each tap's question is
        # answered yes, and the round is still voided once, without an error
        page.on("dialog", lambda d: d.accept())
        page.dblclick("#end-round")
        expect(page.locator("#round-result")).to_have_text(messages("en")["table.void"])
        page.wait_for_timeout(1000)
        expect(page.locator("#ctl-error")).to_have_text("")
        kinds = [e["kind"] for e in httpx.get(
            url + "/events", headers={"X-Table-Secret": created["secret"]}).json()]
        assert kinds.count("round_started") == 1, kinds
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_seat_link_on_the_owners_phone_keeps_the_table_key(server):  # noqa: F811
    """The owner opens their own seat's link on the phone that holds the table's key: the
    page is the seat's (the last link opened decides, a reload too), and it offers the
    table's controls back (in the page's language); one tap, and the phone is the table's
    controls again. Before, the seat link dropped the table's key from the phone for good."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    created, h, url = round_started(server, {"name": "Family", "players": ["Ava", "Ben"],
                                             "places": [{"station": "D03"}, {"station": "D04"}]})
    seat = httpx.get(url + "/seats", headers=h).json()[0]["path"]
    words = messages("fa")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.goto(server + created["control_path"].replace("#", "&lang=fa#"))
        bens = page.locator("li.builder[data-seat='1'] button.done")  # the table's alone
        expect(bens).to_be_visible()
        switch = page.locator("#key-switch")
        expect(switch).to_be_hidden()
        page.goto(server + seat.replace("#", "&lang=fa#"))
        expect(page.locator("#bigdone")).to_be_visible()
        expect(bens).to_be_hidden()
        expect(switch).to_be_visible()
        expect(switch.locator("span")).to_have_text(words["ctl.also_table"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.reload()  # no key in the address: the seat's, as last opened
        expect(page.locator("#bigdone")).to_be_visible()
        switch.locator("button").click()
        expect(bens).to_be_visible()
        expect(page.locator("#bigdone")).to_be_hidden()
        expect(switch).to_be_hidden()
        page.reload()  # and stays so
        expect(bens).to_be_visible()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_keeping_focus_finds_a_redrawn_button_by_its_key(server):  # noqa: F811
    """refereeUI.keepingFocus (the Tuki and card pages' redraw on each new view): a button
    drawn anew gets the focus back by its data-focus key, an element moved in the page keeps
    it, and a redrawn button now disabled (a card no longer playable) does not take it."""
    from playwright.sync_api import sync_playwright

    redraw = """([key, disabled]) => {
      if (!document.getElementById('t-old')) {
        const b = document.createElement('div'); b.id = 't-box';
        b.innerHTML = '<button data-focus="move:draw">draw</button><input id="t-old">';
        document.body.append(b);
      }
      const box2 = document.getElementById('t-box');
      box2.querySelector(key === 'input' ? '#t-old' : 'button').focus();
      window.refereeUI.keepingFocus(() => {
        const b = document.createElement('button');
        b.dataset.focus = 'move:draw'; b.textContent = 'draw'; b.disabled = disabled;
        box2.replaceChildren(b, document.getElementById('t-old'));
      });
      const a = document.activeElement;
      return a === document.body ? 'body' : a.tagName + ':' + (a.dataset.focus || a.id);
    }"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{server}/games/new?lang=en")
        assert page.evaluate(redraw, ["button", False]) == "BUTTON:move:draw"
        assert page.evaluate(redraw, ["input", False]) == "INPUT:t-old"
        assert page.evaluate(redraw, ["button", True]) == "body"
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_voiding_a_round_is_asked_first(server):  # noqa: F811
    """"End round (void)" loses the round: a tap by mistake voided it at once (a new user's
    trial). The page asks first, in its language; "cancel" leaves the round as it was."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    created, h, url = round_started(server, {
        "name": "Family", "players": ["Ava", "Ben"],
        "places": [{"station": "D03"}, {"station": "D04"}]})
    asked: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        path, key = created["control_path"].split("#", 1)
        page.goto(f"{server}{path}&lang=he#{key}")
        answer = {"ok": False}

        def on_dialog(d):
            asked.append(d.message)
            d.accept() if answer["ok"] else d.dismiss()

        page.on("dialog", on_dialog)
        page.locator("#end-round").click()
        page.wait_for_timeout(500)
        assert asked == [messages("he")["ctl.end_confirm"]]
        assert httpx.get(url, headers=h).json()["round"]["status"] == "building"
        answer["ok"] = True
        page.locator("#end-round").click()
        expect(page.locator("#end-round")).to_be_hidden(timeout=10000)
        assert len(asked) == 2
        assert httpx.get(url, headers=h).json()["round"] is None  # voided
        browser.close()
