"""A phone place (its camera: a photo from the phone) on the Tuki table page, in a real
browser (Debian's Chromium, 360 × 640), in all four languages: "waiting for a photo" once.
Before its first photo the place's camera is "idle", and the page put the camera's words
("waiting for a photo") under the builder's badge, which said the same words."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import SCENES, free_port, round_started, serve
from .test_server_browser import CHROMIUM


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_phone_place_says_waiting_for_a_photo_once(tmp_path):
    import httpx
    from playwright.sync_api import expect, sync_playwright

    from referee.server.i18n import LANGUAGES, messages

    port = free_port()
    proc = serve(tmp_path / "data", port, tmp_path / "server.log", "--no-demo")
    base = f"http://127.0.0.1:{port}"
    try:
        created, h, url = round_started(base, {"name": "Family", "players": ["Ava", "Ben"],
                                               "places": [{"station": "D03"},
                                                          {"station": "D04"}]})
        assert all(p["camera"]["kind"] == "upload" and p["camera"]["state"] == "idle"
                   for p in httpx.get(url, headers=h).json()["places"])

        def pages(stage: str):
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                try:
                    for lang in LANGUAGES:
                        page = browser.new_page(viewport={"width": 360, "height": 640},
                                                is_mobile=True, has_touch=True)
                        page.goto(f"{base}{created['viewer_path']}&lang={lang}"
                                  f"#k={created['secret']}")
                        ben = page.locator("li.builder[data-seat='1']")
                        yield lang, page, ben
                        page.screenshot(path=str(tmp_path / f"{stage}-{lang}.png"))
                        page.close()
                finally:
                    browser.close()

        # building: the badge says so, and nothing says a photo is awaited yet
        for lang, _page, ben in pages("building"):
            words = messages(lang)
            expect(ben.locator(".pill")).to_have_text(words["state.building"])
            expect(ben.locator("button.done")).to_have_text(words["ctl.done"])
            assert words["state.waiting"] not in ben.inner_text(), lang

        # Ava's "done" ends the round; Ben's place waits for the photo from his phone
        photo = {"photo": ("p.jpg", (SCENES / "D03-02" / "image.jpg").read_bytes(),
                           "image/jpeg")}
        assert httpx.post(f"{url}/done/0", files=photo, headers=h, timeout=30).is_success
        for lang, page, ben in pages("waiting"):
            words = messages(lang)
            expect(ben.locator(".pill")).to_have_text(words["state.waiting"])
            expect(ben.locator("button.done")).to_have_text(words["ctl.photo"])
            assert ben.inner_text().count(words["state.waiting"]) == 1, (lang, ben.inner_text())
            assert page.locator("li.builder p.cam").count() == 0, lang
    finally:
        proc.terminate()
        proc.wait(timeout=10)
