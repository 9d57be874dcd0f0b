"""A Tokaido traveller who stops on a road space whose action cannot be done (souvenirs
with no coin for any, say) is named in the phones' last moves with the engine's reason, in
words, in all four languages: "Hiroshige stopped at the souvenir shop but could afford
nothing". The move seemed to have no effect, and nothing said why. Played in Debian's
Chromium on 360 x 640 phones, through the server."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games.tokaido import TokaidoState
from referee.games.tokaido.state import NO_MONEY

from .cardplay import CHROMIUM, open_phone
from .test_server_tokaido_inn_browser import NAMES, played, said_last, spend_until, words_only


def plan_to_an_idle_stop(st: TokaidoState) -> tuple[list[tuple[int, str]], TokaidoState]:
    """Actions (seat, notation) from `st`, every seat buying the dearest thing it can, the
    last one a move to a souvenir space where its traveller can afford nothing; and the state
    they lead to. The engine is the server's, and its seed the table's, so the server plays
    the same game."""
    def found(s: TokaidoState, a: object, acts: list[tuple[int, str]]) -> bool:
        after, _, space, why = s.idle[0]
        # by this move itself (not a walk from the inn it reached)
        return (str(a) == f"move {space}" and after == len(acts) and why == NO_MONEY
                and s.rules.spaces[space] == "souvenir")

    return spend_until(st, 60, "idle", found, "a souvenir space does nothing")


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="needs Debian's chromium (.ci/run installs it with apt)")
def test_a_stop_that_did_nothing_is_said_with_why(base, tmp_path):
    from playwright.sync_api import sync_playwright

    from referee.server.i18n import messages

    g, acts, want, view, st = played(base, tmp_path / "data", plan_to_an_idle_stop)
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
            page = open_phone(browser, base, g, seat, lang, view["seq"], errors)
            where = f"{lang} {'view' if seat is None else f'seat {seat}'}"
            said_last(page, where, NAMES[who], t[f"tokaido.stopped.souvenir.{why}"],
                      t["tokaido.stopped.souvenir.none-left"])
            words_only(page, where)
            page.locator("#last").scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / f"stop-{lang}.png"))
            page.screenshot(path=str(tmp_path / f"stop-{lang}-full.png"), full_page=True)
            page.context.close()
        browser.close()
    assert errors == []
