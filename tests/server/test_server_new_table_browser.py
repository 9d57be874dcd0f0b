"""The new-table form and the links it gives, in a real browser (Debian's Chromium, a
360 × 640 touch phone), in the four languages, as new users' trials found them: the "show
this table" checkbox above its words, no word on which station to pick for phone photos,
"this is the table's key" pointing at nothing, what is wrong with the players said in
words, both new links opening on a phone, and the form fitting the camera and stations."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cardplay import BROKEN_WORDS, PHONE
from .conftest import submit_new_card_game
from .test_server_browser import CHROMIUM, server  # noqa: F401  (a fixture)
from .test_server_pages_browser import BOXES, LANGS


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_new_table_form_has_a_tidy_checkbox_row_and_a_station_hint(server):  # noqa: F811
    """"Show this table" is one row: the box at the line's start (left, or right on a
    right-to-left page), its words beside it on the box's line, the row a thumb's height;
    the build places say which station to pick for phone photos, in the page's language,
    inside the places' box and read out with each station's list. No word of the form (nor
    of the admin page's key form) is broken over two lines."""
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in LANGS:
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{server}/new?lang={lang}")
            row = page.locator("label", has=page.locator("input[name=listed]"))
            box = page.evaluate(BOXES, ["input[name=listed]", False])
            words = page.evaluate(BOXES, ["label:has(input[name=listed])", True])
            assert row.inner_text().strip() == messages(lang)["new.listed"], lang
            # side by side, the box at the line's start
            if lang == "en":
                assert box["right"] <= words["left"], (lang, box, words)
            else:
                assert box["left"] >= words["right"], (lang, box, words)
            # on one line: the box's middle within the words' first line
            middle = (box["top"] + box["bottom"]) / 2
            assert words["top"] <= middle <= words["top"] + 30, (lang, box, words)
            assert 24 <= box["bottom"] - box["top"] <= 30, (lang, box)  # a box to tap
            height = row.bounding_box()["height"]
            assert 44 <= height <= 60, (lang, height)  # one row, a thumb's height
            # the station hint, in the build places' box, and with each station list
            hint = page.locator("fieldset #station-hint")
            assert hint.is_visible() and hint.inner_text() == messages(lang)["new.station_hint"]
            for i in range(2):
                assert page.locator(f"select[name=station{i}]").get_attribute(
                    "aria-describedby") == "station-hint"
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, lang
            assert page.evaluate(BROKEN_WORDS, "main") == [], lang  # "admin-/key" was
            page.goto(f"{server}/admin?lang={lang}")  # the same command in the admin's words
            expect(page.locator("#admin-key")).to_be_visible()
            assert page.evaluate(BROKEN_WORDS, "main") == [], lang
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_sentence_about_the_tables_key_sits_with_the_control_link(server):  # noqa: F811
    """Once the table is made, the sentence about its key (shown once) is in the control
    link's own box, between the link's name and the link (it said "this is the table's key"
    above both links, pointing at nothing), and is the link's description for a screen
    reader; the viewer link, in a box of its own, has no such sentence."""
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang in LANGS:
            words = messages(lang)
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{server}/new?lang={lang}")
            page.fill("textarea[name=players]", "Ava\nBen")
            page.click("button[type=submit]")
            link = page.locator("#control-link")
            expect(link).to_be_visible()
            assert "#k=" in link.inner_text()  # the key is in this link
            # and the page's language, which the box's network address does not know (a
            # hint: a phone that chose its own keeps it, test_server_pages)
            assert f"hl={lang}#k=" in link.inner_text(), lang
            keep = page.get_by_text(words["secret.keep"], exact=True)
            expect(keep).to_be_visible()
            box = page.locator(".key-box")
            assert box.locator("#control-link").count() == 1
            assert box.get_by_text(words["secret.keep"], exact=True).count() == 1
            assert box.get_by_text(words["secret.control"], exact=True).count() == 1
            name, said, at = (page.locator(s).bounding_box()
                              for s in ("#control-label", "#control-keep", "#control-link"))
            assert name and said and at
            assert name["y"] + name["height"] <= said["y"] + 1, lang
            assert said["y"] + said["height"] <= at["y"] + 1, lang
            assert link.get_attribute("aria-describedby") == "control-keep"
            assert keep.get_attribute("id") == "control-keep", lang
            viewer = page.locator(".link-box", has=page.locator("#viewer-link"))
            assert viewer.count() == 1 and words["secret.keep"] not in viewer.inner_text()
            assert "#k=" not in page.locator("#viewer-link").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, lang
            page.context.close()
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_new_table_form_says_what_is_wrong_with_the_players(server):  # noqa: F811
    """One player or five, a name over 30 letters, the same name twice ("Ava", "ava"): the
    form says which, in the page's language, and sends nothing. Each said only "Something in
    the form is not valid: check the names and fields", in every language."""
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import messages

    def words(lang: str, key: str, **params: int) -> str:
        text = messages(lang)[key]
        for k, v in params.items():
            digits = str(v).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) \
                if lang == "fa" else str(v)
            text = text.replace("{" + k + "}", digits)
        return text.replace("{game}", messages(lang)["new.game_name"])

    cases = [("Ava", "refusal.table.player-count", {"min": 2, "max": 4, "n": 1}),
             ("Ava\nBen\nCy\nDan\nEve", "refusal.table.player-count",
              {"min": 2, "max": 4, "n": 5}),
             ("Ava\n" + "B" * 31, "new.name_long", {"n": 2, "most": 30}),
             ("Ava\nBen\nava", "refusal.table.same-name", {"a": 1, "b": 3})]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        sent = []
        page.on("request", lambda r: sent.append(r.url) if "/api/tables" in r.url else None)
        for lang in LANGS:
            page.goto(f"{server}/new?lang={lang}")
            for players, key, params in cases:
                page.fill("textarea[name=players]", players)
                page.click("#new-table button[type=submit]")
                expect(page.locator("#error")).to_have_text(words(lang, key, **params))
            assert page.evaluate(BROKEN_WORDS, "main") == [], lang
        assert sent == []
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_the_new_tables_links_both_open_on_a_phone(server):  # noqa: F811
    """"Your table is ready" told the owner to send the control link to themselves, and
    showed it as http://localhost:PORT/… (the page was opened on the box) while the view
    link had the box's network address: both links have the address a phone reaches (the
    page's <meta name="referee-base">), a Tuki table's and a card game's alike."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{server}/new?lang=en")
        base = page.locator('meta[name="referee-base"]').get_attribute("content")
        assert base
        page.fill("textarea[name=players]", "Ava\nBen")
        page.click("button[type=submit]")
        expect(page.locator("#control-link")).to_be_visible()
        control = page.locator("#control-link").inner_text()
        assert control.startswith(base + "/t/") and "#k=" in control, (control, base)
        assert page.locator("#control-link").get_attribute("href") == control
        assert page.locator("#viewer-link").inner_text().startswith(base + "/")
        page.goto(f"{server}/games/new?lang=en")
        submit_new_card_game(page)
        expect(page.locator("#control-link")).to_be_visible()
        control = page.locator("#control-link").inner_text()
        assert control.startswith(base + "/g/") and "#k=" in control, (control, base)
        browser.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_new_table_form_fits_the_camera_and_the_stations(tmp_path, monkeypatch, lang):
    """A new user's trial of /new: "Folder of photos" still read "Device, file or URL" with
    an rtsp example; an advanced station (its stones include orange) chosen at a table left
    at the normal level was refused; whether a station's colours were calibrated was not
    said. The field's words fit the camera's kind, stations all of the advanced level set
    the table's Level to Advanced (and say so), and a station on the default colours says
    so beside it."""
    import shutil

    from playwright.sync_api import expect, sync_playwright

    import referee.paths
    from referee.server.i18n import messages

    from .conftest import free_port, serve

    home = tmp_path / "home"  # the project's folders, with an advanced station of a user's
    home.mkdir()
    for name in ("models", "fixtures"):
        (home / name).symlink_to(referee.paths.ROOT / name)
    (home / "calibration" / "stations").mkdir(parents=True)
    text = (referee.paths.CALIBRATION / "stations" / "example-webcam-640.yaml").read_text()
    assert "level: normal" in text
    (home / "calibration" / "stations" / "kitchen.yaml").write_text(
        text.replace("level: normal", "level: advanced"))
    shutil.copy(referee.paths.CALIBRATION / "stations" / "example-webcam-640.yaml",
                home / "calibration" / "stations" / "den.yaml")
    monkeypatch.setenv("REFEREE_HOME", str(home))
    port = free_port()
    proc = serve(tmp_path / "data", port, tmp_path / "server.log")
    words = messages(lang)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"http://127.0.0.1:{port}/new?lang={lang}")
            place = page.locator(".place[data-place='0']")
            label = place.locator(".device-label")
            device = page.locator("input[name=device0]")
            page.select_option("select[name=camera0]", "folder")
            expect(label).to_have_text(words["new.device_folder"])
            assert device.get_attribute("placeholder") == "table1"
            page.select_option("select[name=camera0]", "capture")
            expect(label).to_have_text(words["new.device_capture"])
            assert "rtsp" in device.get_attribute("placeholder")
            page.select_option("select[name=camera0]", "folder")
            # the demo station learned its colours; den runs on the default ones
            page.select_option("select[name=station0]", "D03")
            expect(place.locator(".station-colours")).to_be_hidden()
            page.select_option("select[name=station0]", "den")
            expect(place.locator(".station-colours")).to_have_text(words["new.colours_default"])
            page.fill("textarea[name=players]", "Ava\nBen")
            assert page.locator("select[name=level]").input_value() == "normal"
            page.select_option("select[name=station0]", "kitchen")
            assert page.locator("select[name=level]").input_value() == "normal"  # one of two
            page.select_option("select[name=station1]", "kitchen")
            assert page.locator("select[name=level]").input_value() == "advanced"
            expect(page.locator("#level-switched")).to_have_text(
                words["new.level_switched"].replace("{level}", words["level.advanced"]))
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.locator("select[name=level]").scroll_into_view_if_needed()
            page.screenshot(path=f"/tmp/hcam-shots/new-{lang}.png")
            page.locator(".place[data-place='0']").scroll_into_view_if_needed()
            page.screenshot(path=f"/tmp/hcam-shots/new-place-{lang}.png")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
