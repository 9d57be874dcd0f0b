"""Screenshots of the card pages for a person to look at: for each game and language, a seat's
phone and the table screen during play, and the end screen, at 360 × 640 (full page), and the
landscape table screen (the view link) at 1280 × 720 and 1920 × 1080 as the screen shows it
(`<game>-<lang>-screen1280-play.png`, `...-screen1920-end.png`), under /tmp/hui-shots/ (or
the folder given). Plays whole games as tests/server/cardplay.py does, and prints any page
error and any word split over two lines on the phones at the end.

    python tools/card_shots.py [folder] [game ... | none]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.cardplay import (  # noqa: E402
    BROKEN_WORDS,
    new_table,
    open_phones,
    play_to_the_end,
)
from tests.server.conftest import free_port, serve  # noqa: E402

GALLERY = """(codes) => {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const W = window.refereeCardWords(T, "taki", () => []);
  const el = window.refereeUI.el;
  const box = el("div", {class: "hand", id: "gallery"});
  for (const code of codes) box.append(el("button", {class: "tcard c" + W.takiColour(code)},
    ...W.takiFace(code, el)));
  document.getElementById("app").replaceChildren(box);
}"""


def gallery(browser, base: str, out: Path, lang: str) -> None:
    """Every TAKI card face in `lang`, on a page of the box (its styles and words)."""
    from referee.games.taki.cards import CARD_NAMES
    from tests.server.cardplay import PHONE

    g = new_table(base, "taki")
    page = browser.new_context(**PHONE).new_page()
    page.goto(base + g["view"] + f"&lang={lang}")
    page.evaluate(GALLERY, list(CARD_NAMES))
    page.screenshot(path=str(out / f"taki-{lang}-cards.png"), full_page=True)
    page.context.close()


SCREENS = ((1280, 720), (1920, 1080))  # a laptop, a TV


def landscape(browser, url: str, lang: str, width: int, height: int, errors: list[str]):
    """The table screen (the view link) on a landscape screen of `width` × `height`."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + f"&lang={lang}")
    page.wait_for_function("document.getElementById('app').dataset.seq !== undefined",
                           timeout=15000)
    return page


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/hui-shots")
    games = sys.argv[2:] or ["taki", "tukki", "tokaido"]  # "none": the card faces only
    out.mkdir(parents=True, exist_ok=True)
    os.environ["REFEREE_BOT_PAUSE_S"] = "0"
    tmp = Path(tempfile.mkdtemp())
    port = free_port()
    proc = serve(tmp / "data", port, tmp / "server.log", "--no-demo")
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            for game in (g for g in games if g != "none"):
                for lang in ("en", "fa", "he", "ar"):
                    errors: list[str] = []
                    g = new_table(base, game, {"rounds": 1} if game == "tukki" else {})
                    pages = open_phones(browser, base, g, (lang,) * 4, errors)
                    screens = {f"screen{w}": landscape(browser, base + g["view"], lang, w, h,
                                                       errors) for w, h in SCREENS}
                    tag = f"{game}-{lang}"
                    play_to_the_end(pages, 1, shots=out, tag=tag, screens=screens)
                    pages[0].screenshot(path=str(out / f"{tag}-seat-end.png"), full_page=True)
                    pages[2].screenshot(path=str(out / f"{tag}-table-end.png"), full_page=True)
                    for name, page in screens.items():
                        page.wait_for_function("!document.getElementById('result').hidden")
                        page.screenshot(path=str(out / f"{tag}-{name}-end.png"))
                    broken = sorted({w for page in pages for w in page.evaluate(BROKEN_WORDS)})
                    for page in [*pages, *screens.values()]:
                        page.context.close()
                    print(tag, "errors:", errors or "none", "| words split over two lines:",
                          broken or "none")
            for lang in ("en", "fa", "he", "ar"):
                gallery(browser, base, out, lang)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
