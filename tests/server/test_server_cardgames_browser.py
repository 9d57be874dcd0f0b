"""Whole TAKI, Tukki Tukki and Tokaido games in Debian's Chromium: four phones at 360 × 640
(two people's seats tapping random legal cards and buttons, the table screen, a viewer), two
bots answering without a pause; every phone follows the game to its scores, in words. Also
two phones on their seats' links playing TAKI against a bot (moved from
test_server_browser.py, the Tuki table's pages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .cardplay import (
    BROKEN_WORDS,
    CHROMIUM,
    NOTATION,
    digits,
    new_table,
    open_phones,
    plain,
    play_to_the_end,
    seq,
)
from .conftest import free_port, serve


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
@pytest.mark.parametrize("game, options, langs, seed", [
    ("taki", {}, ("en", "ar", "he", "fa"), 1),
    # a table of 2 rounds (the game's own option): 5 take ~26 s here, too long for the suite
    ("tukki", {"rounds": 2}, ("he", "en", "fa", "ar"), 2),
    ("tokaido", {}, ("fa", "he", "en", "ar"), 3),
])
def test_four_phones_play_a_whole_game(base, tmp_path, game, options, langs, seed):
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    g = new_table(base, game, options)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        pages = open_phones(browser, base, g, langs, errors)
        for page, lang in zip(pages, langs, strict=True):
            expect(page.locator("html")).to_have_attribute("dir", "ltr" if lang == "en"
                                                           else "rtl")
        expect(pages[0].locator("#mine")).to_be_visible()
        expect(pages[2].locator("#owner")).to_be_visible()  # the control link's screen
        expect(pages[3].locator("#mine")).to_be_hidden()
        out = play_to_the_end(pages, seed)
        final = httpx.get(base + f"/api/games/{g['id']}", params={"v": g["view"].split("v=")[1]}
                          ).json()
        assert final["over"] and final["scores"] is not None
        for page, lang in zip(pages, langs, strict=True):
            expect(page.locator("#result")).to_be_visible()
            expect(page.locator("#result .scores li")).to_have_count(4)
            assert seq(page) == final["seq"]  # every phone shows the last view
            # by place at the end, the winner first and numbered 1 (not by seat)
            shown = [plain(t) for t in page.locator("#result .scores li").all_inner_texts()]
            order = sorted(range(4), key=lambda i: (final["ranks"][i], i))
            names = ("Ava", "Ben", "Cy", "Dee")
            # a TAKI score is the cards still in hand, and says so
            unit = messages(lang)["g.cards_left"] if game == "taki" else "{n}"
            assert shown == [f"{names[i]}: " + unit.format(n=digits(lang, final["scores"][i]))
                             for i in order]
            assert [int(v) for v in page.locator("#result .scores li").evaluate_all(
                "(lis) => lis.map((li) => li.value)")] == [final["ranks"][i] for i in order]
            assert final["ranks"][order[0]] == 1
            if game == "tokaido":  # the points by part, whose totals are the scores
                totals = page.locator("#result table.points tr.total td")
                expect(totals).to_have_count(4)
                assert [plain(t) for t in totals.all_inner_texts()] == \
                    [digits(lang, n) for n in final["scores"]]
            # the last moves of others, in words: no engine notation on any screen
            text = page.locator("#app").inner_text()
            assert not NOTATION.search(text), NOTATION.search(text)
            assert "null" not in text.split(), text  # nothing missing drawn as "null"
            if lang == "fa":  # Persian's zero is a dot: "merchant · 4 coins" reads "40 coins"
                assert "·" not in text, text
                assert not re.search("[0-9]", text), text  # every number in Persian digits
            assert page.locator("#last li").count() > 0
            assert page.evaluate(BROKEN_WORDS) == [], lang  # no word split over two lines
        # each phone followed the game, not only its start and end: every move a person made
        # came to all four phones by their live feeds (play_to_the_end waits for it after each
        # tap and fails when one does not), so each showed a view after each tap; and both
        # people played from their phones. No count of moves: the deal is random, and about
        # one TAKI deal in thirty ends within four rounds of the people's turns (a 3-round game
        # read {'taps': 5, 'views_seen': [4, 4, 4, 4]}, failing "more than 5 views")
        assert min(out["taps"]) >= 1, out
        assert min(out["views_seen"]) > sum(out["taps"]), out
        pages[0].screenshot(path=str(tmp_path / f"{game}-end.png"), full_page=True)
        browser.close()
    assert errors == []


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_seat_link_whose_key_does_not_open_the_table_says_so(base):
    """An old or mistyped seat link (a new user's trial: `#s=garbage`) opened the table screen
    without a word; it says that its key does not open the table, in the page's language."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    r = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", None],
                                              "bots": {"1": "heuristic"}}, timeout=30)
    view = r.json()["view"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.goto(base + view + "&lang=fa#s=garbage")
        expect(page.locator("#link-note")).to_have_text(messages("fa")["err.link_key"],
                                                        timeout=15000)
        # the right key says nothing of the kind
        seat = r.json()["seats"][0]["link"]
        page = browser.new_page(viewport={"width": 360, "height": 640})
        page.goto(base + seat.replace("#", "&lang=fa#"))
        expect(page.locator("#who")).to_contain_text("Ava", timeout=15000)
        expect(page.locator("#link-note")).to_be_hidden()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_view_link_shows_the_public_view_whatever_keys_the_browser_holds(base):
    """A break-it trial: a laptop that once opened Ava's seat link showed "You play as Ava …
    Your cards" on the table's view link, and after the control link the owner's controls
    with the unclaimed seats' keys. The view link is the table's screen: public, always; the
    seat's own page (its key saved) still opens as hers on a reload."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", "Ben"]},
                   timeout=30).json()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        laptop = browser.new_context(viewport={"width": 360, "height": 640})
        page = laptop.new_page()
        page.goto(base + g["seats"][0]["link"])
        expect(page.locator("#who")).to_contain_text("Ava", timeout=15000)
        expect(page.locator("#mine")).to_be_visible()
        assert "v=" not in page.url and "#" not in page.url  # this phone's own page now
        page.reload()
        expect(page.locator("#mine")).to_be_visible(timeout=15000)
        screen = laptop.new_page()
        screen.goto(base + g["view"])
        expect(screen.locator("#live")).to_have_class("pill on", timeout=15000)
        expect(screen.locator("#mine")).to_be_hidden()
        expect(screen.locator("#owner")).to_be_hidden()
        assert "Ava" not in screen.locator("#who").inner_text()
        # the owner's controls on the same laptop: still not on the view link
        owner = laptop.new_page()
        owner.goto(base + g["control"])
        expect(owner.locator("#owner")).to_be_visible(timeout=15000)
        screen.reload()
        expect(screen.locator("#live")).to_have_class("pill on", timeout=15000)
        expect(screen.locator("#owner")).to_be_hidden()
        assert g["seats"][1]["link"].split("#s=")[1] not in screen.content()
        browser.close()



@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_owner_sees_a_seat_link_only_until_its_phone_takes_it(base):
    """The owner's page lists each person's seat link to hand out; once Ben's phone opens
    his, it is Ben's: the owner's page says he has taken the seat and shows no link of it,
    a second phone opening the same link is told it was taken, and Ben plays on."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", "Ben"]},
                   timeout=30).json()
    ben = g["seats"][1]["link"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        owner = browser.new_page(viewport={"width": 360, "height": 640})
        owner.goto(base + g["control"])
        links = owner.locator("#seat-links a")
        expect(links).to_have_count(2, timeout=15000)
        phone = browser.new_page(viewport={"width": 360, "height": 640})
        phone.goto(base + ben)
        expect(phone.locator("#who")).to_contain_text("Ben", timeout=15000)
        expect(links).to_have_count(1, timeout=15000)  # Ava's only
        expect(owner.locator("#seat-links")).to_contain_text(messages("en")["g.joined"])
        assert ben.split("#s=")[1] not in owner.content()
        other = browser.new_page(viewport={"width": 360, "height": 640})
        other.goto(base + ben)
        expect(other.locator("#link-note")).to_have_text(
            messages("en")["refusal.table.link-taken"], timeout=15000)
        expect(other.locator("#mine")).to_be_hidden()
        phone.reload()  # Ben's phone keeps its own key
        expect(phone.locator("#who")).to_contain_text("Ben", timeout=15000)
        expect(phone.locator("#mine")).to_be_visible()
        # Ben opens his link again (the tab was closed): his phone plays on, with no warning
        # that another phone took it (it was this one)
        phone.goto("about:blank")
        phone.goto(base + ben)
        expect(phone.locator("#mine")).to_be_visible(timeout=15000)
        expect(phone.locator("#who")).to_contain_text("Ben")
        assert phone.locator("#link-note").is_hidden()
        # the owner makes Ben's seat a new link (a lost phone): Ben's old phone says so at
        # once and shows the table, never a page stuck reconnecting
        r = httpx.post(base + f"/api/games/{g['id']}/seats/1/bot", json={"bot": None},
                       headers={"X-Table-Secret": g["secret"]}, timeout=30)
        assert r.status_code == 200, r.text
        expect(phone.locator("#link-note")).to_have_text(messages("en")["g.seat_replaced"],
                                                         timeout=15000)
        expect(phone.locator("#live")).to_have_text(messages("en")["live.on"], timeout=15000)
        expect(phone.locator("#mine")).to_be_hidden()
        # Ben's new phone takes the new link; the owner gives the seat to a bot: that phone
        # is told a bot took it (it was told of a new link that nobody made)
        new = browser.new_page(viewport={"width": 360, "height": 640})
        new.goto(base + r.json()["link"])
        expect(new.locator("#mine")).to_be_visible(timeout=15000)
        r = httpx.post(base + f"/api/games/{g['id']}/seats/1/bot", json={"bot": "easy"},
                       headers={"X-Table-Secret": g["secret"]}, timeout=30)
        assert r.status_code == 200, r.text
        expect(new.locator("#link-note")).to_have_text(messages("en")["g.seat_to_bot"],
                                                       timeout=15000)
        expect(new.locator("#mine")).to_be_hidden()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_owner_is_asked_before_a_game_in_play_is_lost(base):
    """A new user's trial: the owner's Rematch in the middle of a game started a new one at
    once, the game in play gone. A game in play is lost by a new game or by ending it only
    when the owner says so again; cancelled, it plays on."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", "Ben"]},
                   timeout=30).json()
    game = lambda: httpx.get(base + f"/api/games/{g['id']}",  # noqa: E731
                             headers={"X-Table-Secret": g["secret"]}, timeout=30).json()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        owner = browser.new_page(viewport={"width": 360, "height": 640})
        owner.goto(base + g["control"])
        expect(owner.locator("#seat-links a")).to_have_count(2, timeout=15000)
        asked: list[str] = []
        answer = {"yes": False}

        def on_dialog(d) -> None:
            asked.append(d.message)
            d.accept() if answer["yes"] else d.dismiss()

        owner.on("dialog", on_dialog)
        for button in ("#owner-rematch", "#owner-end"):
            owner.click(button)
            owner.wait_for_timeout(500)
        assert len(asked) == 2 and all(a for a in asked)
        assert game()["game_no"] == 1 and not game()["ended"]  # cancelled: it plays on
        answer["yes"] = True
        owner.click("#owner-rematch")
        for _ in range(50):
            if game()["game_no"] == 2:
                break
            owner.wait_for_timeout(100)
        assert game()["game_no"] == 2 and len(asked) == 3
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_join_page_takes_its_language_to_the_seat(base):
    """A Persian phone joining an English table: its seat's page is in Persian (its browser's
    language wins over the table's); a Hebrew choice made on the join page goes on to the
    seat's page too."""
    import httpx
    from playwright.sync_api import sync_playwright

    r = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", None, None],
                                              "language": "en"}, timeout=30)
    code = r.json()["code"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for name, query, want in (("Bita", "", "fa"), ("Dana", "&lang=he", "he")):
            page = browser.new_context(locale="fa-IR").new_page()
            page.goto(base + f"/games/join?code={code}{query}")
            assert page.locator("html").get_attribute("lang") == want
            page.fill("input[name=name]", name)
            page.click("button[type=submit]")
            page.wait_for_url("**/g/**")
            page.wait_for_function("document.getElementById('app').dataset.seq !== undefined",
                                   timeout=15000)
            assert page.locator("html").get_attribute("lang") == want, name
            assert page.locator("html").get_attribute("dir") == "rtl"
            page.context.close()
        browser.close()



# TAKI card face below them, in the page's language


def test_every_chromium_test_skips_without_chromium_and_no_helper_does() -> None:
    """A machine without chromium skips the browser tests (with the reason) instead of
    failing them: the skip sits on each test that launches it, never on a helper (where
    pytest ignores it)."""
    import importlib
    import inspect

    names = sorted(f.stem for f in Path(__file__).parent.glob("test_*browser*.py"))
    assert len(names) >= 6  # every browser test file of this folder, new ones too
    for module in (importlib.import_module(f"{__package__}.{n}") for n in names):
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ != module.__name__:
                continue
            marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "skipif"]
            if not name.startswith("test_"):
                assert not marks, f"{module.__name__}.{name}: a skip on a helper does nothing"
            elif re.search(r"chromium\.launch\(|_round_on_a_phone\(|_phone\(\)",
                           inspect.getsource(fn)):
                assert marks and "chromium" in marks[0].kwargs.get("reason", ""), \
                    f"{module.__name__}.{name} fails instead of skipping without chromium"


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_two_phones_play_taki_and_a_bot_answers(tmp_path, monkeypatch):
    """Two phones (360 × 640) on their seats' links tap legal cards and buttons of a TAKI
    table; the bot's seat answers in the server; each phone shows only its own hand."""
    import httpx
    from playwright.sync_api import expect, sync_playwright

    monkeypatch.setenv("REFEREE_BOT_PAUSE_S", "0")
    port = free_port()
    proc = serve(tmp_path / "data", port, tmp_path / "server.log", "--no-demo")
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    try:
        g = httpx.post(base + "/api/games", json={"game": "taki", "players": ["Ava", "Ben", None],
                                                   "bots": {"2": "heuristic"}}).json()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            phones = []
            for seat, lang in ((0, "en"), (1, "he")):
                ctx = browser.new_context(viewport={"width": 360, "height": 640},
                                          is_mobile=True, has_touch=True)
                page = ctx.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(base + g["seats"][seat]["link"].replace("#", f"&lang={lang}#"))
                expect(page.locator("#live")).to_have_class("pill on")
                expect(page.locator("#mine")).to_be_visible()
                phones.append(page)
            expect(phones[1].locator("html")).to_have_attribute("dir", "rtl")
            moves = 0
            bot_moved = phones[0].locator("#last li", has_text="Bot 3")
            for _ in range(120):
                # six taps, and a turn of the bot's (a TAKI run or a plus keeps the turn, so
                # six taps alone may never reach it)
                if moves >= 6 and bot_moved.count():
                    break
                for page in phones:
                    if page.locator("#turn.mine").count():
                        # a plain card where there is one: a Stop or a change of direction
                        # may skip the bot's seat for a long time (a failed run: Ben's
                        # change of direction, then Ava's Stop, and so on)
                        enabled = page.locator("#mine button:enabled")
                        plain = page.locator("#mine button:enabled:has(span.num)").filter(
                            has_not_text="+")  # a number card, in any language
                        (plain if plain.count() else enabled).first.click()
                        swatches = page.locator("#colours button")
                        if swatches.count():  # a Change Color tapped asks its colour first:
                            # no move until one is tapped (a failed run tapped Change Color
                            # over and over, counting each as a move, and nothing was played)
                            swatches.first.click()
                        # the tap's answer is shown (waited for, not slept on: the box may be
                        # busy); until then "your turn" is the old view's, and a second tap
                        # would be dropped
                        page.wait_for_function(
                            "!document.getElementById('app').dataset.busy", timeout=15000)
                        moves += 1
                        assert page.locator("#act-error").inner_text() == ""
                        break
                else:
                    phones[0].wait_for_timeout(150)
            assert moves >= 6, [p.locator("#turn").inner_text() for p in phones]
            # the bot's seat has answered, in words, on both phones
            for page, bot in zip(phones, ("Bot 3", "בוט 3"), strict=True):  # en, he
                expect(page.locator("#last li", has_text=bot).first).to_be_visible(
                    timeout=20000)  # a bot's pause and move, on a machine under load
            # each phone's hand is its own (the server's view of each seat)
            for seat, page in enumerate(phones):
                # the seat's own key, which the phone got for its link's invitation (the
                # invitation itself opens nothing more)
                key = page.evaluate(f"localStorage.getItem('referee.game.seat.{g['id']}')")
                assert key and key != g["seats"][seat]["key"]
                mine = httpx.get(base + f"/api/games/{g['id']}/seats/{seat}",
                                 headers={"X-Seat-Key": key}).json()
                expect(page.locator("#mine .hand .tcard")).to_have_count(
                    len(mine["view"]["me"]["hand"]))
            phones[0].screenshot(path=str(tmp_path / "taki-ava.png"), full_page=True)
            phones[1].screenshot(path=str(tmp_path / "taki-ben-he.png"), full_page=True)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert errors == []
