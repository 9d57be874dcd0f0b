"""A Tokaido traveller who stops on a road space whose action cannot be done (souvenirs
with no coin for any, say) is named in the phones' last moves with the engine's reason, in
words, in all four languages: "Hiroshige stopped at the souvenir shop but could afford
nothing". The move seemed to have no effect, and nothing said why. Played in Debian's
Chromium on 360 x 640 phones, through the server."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.games.tokaido import TokaidoState
from referee.games.tokaido.state import NO_MONEY

from .cardplay import BROKEN_WORDS, CHROMIUM, NOTATION, PHONE
from .test_server_tokaido_inn_browser import NAMES, play, replayed, start


def plan_to_an_idle_stop(st: TokaidoState) -> tuple[list[tuple[int, str]], TokaidoState]:
    """Actions (seat, notation) from `st`, every seat buying the dearest thing it can, the
    last one a move to a souvenir space where its traveller can afford nothing; and the state
    they lead to. The engine is the server's, and its seed the table's, so the server plays
    the same game."""
    for attempt in range(200):
        rng = random.Random(attempt)
        s = st.clone()
        acts: list[tuple[int, str]] = []
        while not s.is_terminal() and len(acts) < 60:
            legal = s.legal_actions()
            takes = [a for a in legal if a.verb == "take"]
            a = max(takes, key=lambda x: (s.cost(x), rng.random())) if takes else \
                rng.choice(legal)
            acts.append((s.current_player(), str(a)))
            s.apply_action(a)
            if s.idle:
                after, _, space, why = s.idle[0]
                # by this move itself (not a walk from the inn it reached)
                if (str(a) == f"move {space}" and after == len(acts) and why == NO_MONEY
                        and s.rules.spaces[space] == "souvenir"):
                    return acts, s
                break
    raise AssertionError("no plan found in which a souvenir space does nothing")


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_stop_that_did_nothing_is_said_with_why(base, tmp_path):
    from playwright.sync_api import sync_playwright

    from referee.server.i18n import messages

    g = start(base)
    acts, want = plan_to_an_idle_stop(replayed(tmp_path / "data", g["id"]))
    view = play(base, g, acts)
    st = replayed(tmp_path / "data", g["id"])
    assert st.idle == want.idle and st.current_player() == want.current_player()
    _, who, space, why = st.idle[0]
    # the API: the stop follows the move that led there, with the space and the reason
    assert view["last"][-1]["action"] == f"move {space}"
    assert view["last"][-1]["then"] == [{"seat": who, "name": NAMES[who], "stopped": space,
                                         "why": why}]
    other = next(p for p in range(len(NAMES)) if p != who)

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        # (seat or None: the view link, language): the stopped one's phone, another's, the
        # table screen
        for seat, lang in [(who, "en"), (who, "he"), (other, "fa"), (None, "ar")]:
            t = messages(lang)
            page = browser.new_context(**PHONE).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            link = g["view"] + f"&lang={lang}" if seat is None else \
                g["seats"][seat]["link"].replace("#", f"&lang={lang}#")
            page.goto(base + link)
            page.wait_for_function(
                f"+document.getElementById('app').dataset.seq >= {view['seq']}", timeout=15000)
            where = f"{lang} {'view' if seat is None else f'seat {seat}'}"
            said = t[f"tokaido.stopped.souvenir.{why}"]
            auto = page.locator("#last li.auto").all_inner_texts()
            assert [x for x in auto if NAMES[who] in x and said in x], (where, auto)
            assert said in page.locator("#last-move").inner_text(), where  # the newest
            # the reason is that of the engine, never the other one
            wrong = t["tokaido.stopped.souvenir.none-left"]
            assert not [x for x in page.locator("#last li").all_inner_texts() if wrong in x]
            text = page.locator("#app").inner_text()
            assert not NOTATION.search(text), (where, NOTATION.search(text))
            assert "tokaido." not in text and NO_MONEY not in text, where
            assert page.evaluate(BROKEN_WORDS) == [], where
            assert page.evaluate("document.documentElement.scrollWidth") == 360, where
            page.locator("#last").scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / f"stop-{lang}.png"))
            page.screenshot(path=str(tmp_path / f"stop-{lang}-full.png"), full_page=True)
            page.context.close()
        browser.close()
    assert errors == []
