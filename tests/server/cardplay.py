"""A whole card game played in Debian's Chromium: four phones (360 × 640) on one table, the
two people's seats tapping random legal cards and buttons, two bots answering in the server,
the table screen (the control link) and a viewer (the view link) watching. Shared by the
browser tests and tools/card_shots.py (the screenshots a person looks at)."""

from __future__ import annotations

import random
import re
import shutil
import time
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def digits(lang: str, n: int) -> str:
    """n as the page writes it: Persian digits on Persian pages (words.js), else 0-9."""
    return str(n).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) if lang == "fa" \
        else str(n)


def plain(text: str) -> str:
    """Text without the direction marks and isolates around an RTL page's negative numbers
    (Intl's, words.js's) and the typographic minus."""
    for mark in "\u200e\u200f\u2066\u2069":
        text = text.replace(mark, "")
    return text.replace("\u2212", "-")


def _notation() -> re.Pattern[str]:
    """Engine notation that must never be shown as text (only sent by a button): TAKI card
    codes, Tukki Tukki places and sources, Tokaido spaces by number and card codes."""
    from referee.games.taki.cards import CARD_NAMES
    from referee.games.tokaido.data import load_rules

    taki = [re.escape(c) for c in CARD_NAMES if c[0] in "RGBY" or c.isalpha()]
    codes = [re.escape(k.code) for k in load_rules().kinds]
    odd = [c for c in codes if "-" in c or c[-1].isdigit()]  # no word of any language
    return re.compile(r"(?<![\w+])(?:" + "|".join(taki) + r")(?!\w)|\b[ab][1-4]\b"
                      r"|\b(?:move \d+|take (?:bin|deck|blind|" + "|".join(codes) + r"))\b"
                      r"|\b(?:" + "|".join(odd) + r")\b")


NOTATION = _notation()
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}


# The words shown broken inside themselves over two lines, on a page as laid out now (its
# #app, or the element of the CSS selector given); [] when every word is whole. A word is what
# lies between spaces (and bidi marks): a line that ends at a hyphen or a slash inside one
# ("black/" over "white", "well-" over "known") breaks it too.
BROKEN_WORDS = """(root) => {
  const out = [];
  const walk = document.createTreeWalker(document.querySelector(root || "#app"),
                                         NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.parentElement || !n.parentElement.getClientRects().length) continue;  // not shown
    const word = /[^\\s\u200b\u2066-\u2069\u200e\u200f]{2,}/g;
    for (let m = word.exec(n.textContent); m; m = word.exec(n.textContent)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      if (rects.length < 2) continue;
      const tops = rects.map((x) => x.top), h = Math.min(...rects.map((x) => x.height));
      if (Math.max(...tops) - Math.min(...tops) > h / 2) out.push(m[0]);
    }
  }
  return out;
}"""


def new_table(base: str, game: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A 4-seat table: Ava and Ben are people, seats 3 and 4 bots."""
    import httpx

    body = {"game": game, "players": ["Ava", "Ben", "Cy", "Dee"],
            "bots": {"2": "heuristic", "3": "heuristic"}, "options": options or {}}
    r = httpx.post(base + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def open_phones(browser, base: str, g: dict[str, Any], langs: tuple[str, str, str, str],
                errors: list[str]) -> list:
    """The four phones: seat 0, seat 1, the table screen (control link), a viewer."""
    links = [g["seats"][0]["link"], g["seats"][1]["link"], g["control"], g["view"]]
    pages = []
    for link, lang in zip(links, langs, strict=True):
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        url = link.replace("#", f"&lang={lang}#") if "#" in link else link + f"&lang={lang}"
        page.goto(base + url)
        pages.append(page)
    for page in pages:
        page.wait_for_function("document.getElementById('app').dataset.seq !== undefined",
                               timeout=15000)
    return pages


def seq(page) -> int:
    return int(page.locator("#app").get_attribute("data-seq") or -1)


def tap_once(page, rng: random.Random) -> int | None:
    """One random legal tap on a seat's phone whose turn it is: the view it shows once the
    move is in (its answer, or a newer one the live feed brought), or None when it had no
    button to tap."""
    before = seq(page)
    last = page.locator("#call-last")
    if last.count() and rng.random() < 0.7 and not last.is_checked():
        last.check()
    buttons = page.locator("#mine button:enabled")
    n = buttons.count()
    if n == 0:
        return None
    pick = buttons.nth(rng.randrange(n))
    what = pick.get_attribute("aria-label") or pick.inner_text()
    pick.click()
    colours = page.locator("#colours button")
    if colours.count():  # a Change Color asks for its colour first
        what += " → " + colours.first.inner_text()
        colours.nth(rng.randrange(colours.count())).click()
    try:
        page.wait_for_function(
            # the move shown (the live feed may bring it before the answer) and the answer in
            f"(+document.getElementById('app').dataset.seq > {before} || "
            "document.getElementById('act-error').textContent !== '') && "
            "!document.getElementById('app').dataset.busy", timeout=10000)
    except Exception as e:
        raise AssertionError(f"a tap on {what!r} changed nothing: seq {seq(page)}, turn "
                             f"{page.locator('#turn').inner_text()!r}, buttons "
                             f"{page.locator('#mine button:enabled').all_inner_texts()}") from e
    error = page.locator("#act-error").inner_text()
    assert error == "", error  # every button shown is a legal move
    return seq(page)


PHONES = ("first seat's", "second seat's", "table screen's", "viewer's")


def follow(pages, shown: int, what: str, timeout_ms: float = 15000) -> None:
    """Every phone comes to show view `shown` (a person's move just made) or a newer one, by
    its live feed alone, within `timeout_ms`: a waited condition, not a count of views caught
    in passing (bots answer without a pause, so a slow machine's phones skip views between
    two people's moves: the feed sends the newest view, by design)."""
    for name, page in zip(PHONES, pages, strict=True):
        try:
            page.wait_for_function(
                f"+document.getElementById('app').dataset.seq >= {shown}", timeout=timeout_ms)
        except Exception as e:
            raise AssertionError(f"the {name} phone did not follow the game: a move ({what!r}, "
                                 f"view {shown}) was not shown within {timeout_ms / 1000:g} s; "
                                 f"it shows view {seq(page)}") from e


def play_to_the_end(pages, seed: int, limit_s: float = 120.0,
                    shots: Path | None = None, tag: str = "",
                    screens: dict[str, Any] | None = None) -> dict[str, Any]:
    """Random legal taps on the two seats until every phone shows the scores; after each tap
    every phone must come to show that move (`follow`). Returns `taps` by seat and
    `views_seen`, the different views each phone was seen showing (at least one more than
    the taps: its first and one after each tap). `shots`: a folder for screenshots of each
    phone mid-game (full page), and of each of `screens` (name -> page: the table screen at
    a landscape size) as its screen shows it."""
    rng = random.Random(seed)
    seats = pages[:2]
    seen = [{seq(p)} for p in pages]  # the views each phone showed
    taps = [0, 0]
    shot_mid = False
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        if all(p.locator("#result").is_visible() for p in pages):
            break
        acted = False
        if shots is not None and not shot_mid and sum(taps) >= 6 and \
                seats[0].locator("#turn.mine").count():  # the first seat's turn, its moves shown
            for name, p in zip(("seat", "seat2", "table", "viewer"), pages, strict=True):
                p.screenshot(path=str(shots / f"{tag}-{name}-play.png"), full_page=True)
            for name, p in (screens or {}).items():
                p.screenshot(path=str(shots / f"{tag}-{name}-play.png"))
            shot_mid = True
        for k, page in enumerate(seats):
            if page.locator("#turn.mine").count():
                shown = tap_once(page, rng)
                if shown is None:
                    continue
                acted = True
                taps[k] += 1
                follow(pages, shown, f"{PHONES[k]} tap {taps[k]}")
                for i, p in enumerate(pages):
                    seen[i].add(seq(p))
        if not acted:
            pages[0].wait_for_timeout(40)
    else:
        raise AssertionError(f"no end within {limit_s} s after {taps} taps: "
                             + " | ".join(p.locator("#turn").inner_text() for p in pages))
    return {"taps": taps, "views_seen": [len(s) for s in seen]}


def replayed(data: Path, table_id: str) -> Any:
    """A Tokaido table's true state (`TokaidoState`), from its stored events (its seed and
    every action): what the server knows and never shows, such as the face-down piles'
    order."""
    import json
    import sqlite3

    from referee.games.tokaido import GAME, TokaidoState
    from referee.server.cardtable import CardTable

    with sqlite3.connect(f"file:{data / 'referee.sqlite3'}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT kind, payload FROM events WHERE table_id = ? ORDER BY seq",
                          (table_id,)).fetchall()
    table = CardTable(table_id, {"game": "tokaido"}, "", GAME)
    for kind, payload in rows:
        if kind in ("game_started", "action"):
            table.fold(kind, json.loads(payload))
    assert isinstance(table.state, TokaidoState)
    return table.state


def open_phone(browser: Any, base: str, game: dict[str, Any], seat: int | None, lang: str,
               seq: int, errors: list[str]) -> Any:
    """A phone's page (360 × 640) on a card table: `seat`'s private link, or the view link
    (None), in `lang`, once it shows the table at `seq` or later; its page errors go to
    `errors`."""
    page = browser.new_context(**PHONE).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    link = game["view"] + f"&lang={lang}" if seat is None else \
        game["seats"][seat]["link"].replace("#", f"&lang={lang}#")
    page.goto(base + link)
    page.wait_for_function(f"+document.getElementById('app').dataset.seq >= {seq}",
                           timeout=15000)
    return page
