"""Every card, colour, place, road space, character and move an engine can produce has a name
in each of the four languages, in that language's own message file (static/cardwords.js
reads these keys; the browser tests check that no notation reaches a screen)."""

from __future__ import annotations

import json
import re

import pytest

from referee.server.i18n import _DIR, LANGUAGES

# a name in Persian, Hebrew or Arabic is written in its script; TAKI's card names may keep
# the Latin words of the Arabic seed (TAKI, SUPER TAKI, Plus, +3 Breaker)
SCRIPT = {"fa": "\u0600-\u06ff", "he": "\u0590-\u05ff", "ar": "\u0600-\u06ff"}
LATIN_OK = {"ar": re.compile(r"^g\.(rank|card)\.")}


def own(lang: str) -> dict[str, str]:
    return json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))


def taki_keys() -> set[str]:
    from referee.games.taki.actions import VERBS
    from referee.games.taki.cards import CARD_NAMES, COLORS, RANKS, is_number

    keys = {"g.card_of", "g.color_to", "g.last_card", "g.call_last"}
    keys |= {f"g.color.{c}" for c in COLORS}
    keys |= {f"g.rank.{r}" for i, r in enumerate(RANKS) if not is_number(i)}
    keys |= {f"g.card.{n}" for n in CARD_NAMES if n[0] not in COLORS or len(n) == 1}
    return keys | {f"g.{m}.{v}" for v in VERBS for m in ("verb", "do")}


def tukki_keys() -> set[str]:
    from referee.games.tukki.actions import ALL_ACTIONS
    from referee.games.tukki.cards import PLACES, card_name

    keys = {"g.tukki.parrot", "g.stock", "g.bin_top", "g.drawn", "g.taken"}
    keys |= {f"g.tukki.row.{p[0]}" for p in PLACES}
    assert {card_name(c) for c in range(14)} - {str(v) for v in range(13)} == {"P"}
    for a in ALL_ACTIONS:
        verb = a.kind + ("_land" if a.land >= 0 else "")
        keys |= {f"g.verb.{verb}", f"g.do.{verb}"}
        if a.source:
            keys.add(f"g.thing.{a.source}")
    return keys


def tokaido_keys() -> set[str]:
    from referee.games.tokaido.actions import BLIND
    from referee.games.tokaido.data import SPACE_TYPES, load_rules
    from referee.games.tokaido.state import NO_MONEY, NONE_LEFT, PAID_SPACES

    rules = load_rules()
    keys = {"g.road_space", "g.your_things", f"g.tk.{BLIND}", "tokaido.walk_on"}
    # why an inn's meals passed a traveller over (the engine's reasons), in the last moves
    keys |= {f"tokaido.passed.{why}" for why in (NO_MONEY, NONE_LEFT)}
    # why a road space did nothing for whoever stopped there: nothing left, anywhere; no
    # money where cards have a price
    keys |= {f"tokaido.stopped.{kind}.{NONE_LEFT}" for kind in rules.spaces
             if kind not in ("kyoto", "inn", "edo")}
    keys |= {f"tokaido.stopped.{kind}.{NO_MONEY}" for kind in PAID_SPACES}
    keys |= {f"g.offer.{d}" for d in ("encounter", "story", "souvenir", "temple")}
    keys |= {f"g.tk.{k.code}" for k in rules.kinds}
    keys |= {f"g.space.{s}" for s in (*SPACE_TYPES, *rules.spaces)}
    keys |= {f"g.char.{c.code}" for c in rules.characters}
    return keys | {f"g.{m}.{v}" for v in ("move", "take", "skip") for m in ("verb", "do")}


@pytest.mark.parametrize("game", ["taki", "tukki", "tokaido"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_thing_an_engine_makes_has_a_name(game, lang):
    keys = {"taki": taki_keys, "tukki": tukki_keys, "tokaido": tokaido_keys}[game]()
    words = own(lang)
    missing = sorted(k for k in keys if not words.get(k, "").strip())
    assert not missing, f"{lang}: no words for {missing}"
    if lang in SCRIPT:
        letters = re.compile(f"[{SCRIPT[lang]}]")
        bare = {k: re.sub(r"\{\w+\}", "", words[k]) for k in keys}  # without placeholders
        latin = [k for k in keys if re.search("[A-Za-z]", bare[k]) and not letters.search(
            bare[k]) and not (lang in LATIN_OK and LATIN_OK[lang].match(k))]
        assert not latin, f"{lang}: English left in {latin}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tokaido_cards_and_spaces_are_told_apart(lang):
    """Two kinds of card (or of space) never share a name: a family tells them by it."""
    words = own(lang)
    for prefix in ("g.tk.", "g.space.", "g.char.", "g.color.", "g.tukki.row."):
        names = [v for k, v in words.items() if k.startswith(prefix)]
        assert len(names) == len(set(names)), (lang, prefix, names)
    # Tokaido's cards are listed (what one holds, what is on offer): no name holds the list's comma
    sep = words["g.sep"].strip()
    assert not [v for k, v in words.items() if k.startswith("g.tk.") and k != "g.tk.blind"
                and sep in v], lang


def test_the_seeds_words_are_used():
    """Persian Tokaido, Hebrew Tukki Tukki and Arabic TAKI name things as their rules texts do
    (seeds 002, 001, 003)."""
    fa, he, ar = own("fa"), own("he"), own("ar")
    assert fa["g.space.inn"] == "مسافرخانه" and fa["g.space.souvenir"] == "سوغاتی"
    assert fa["g.space.encounter"] == "ملاقات" and fa["g.tk.monk"] == "راهب"
    assert fa["g.char.priest"] != fa["g.tk.monk"]
    assert he["g.tukki.parrot"] == "תוכי" and "קופה" in he["g.stock"] and "פח" in he["g.bin_top"]
    assert ar["g.rank.STOP"] == "توقف" and "البطاقة الأخيرة" in ar["g.call_last"]


def test_the_page_loads_the_words_before_the_game():
    from pathlib import Path

    page = (Path(_DIR).parent / "templates" / "game.html").read_text(encoding="utf-8")
    assert page.index("/static/cardwords.js") < page.index("/static/game.js")


def test_arabic_counts_have_their_zero_form():
    """Arabic's plural rules give 0 a form of its own (CLDR `zero`); without it the page fell
    back on the 3–10 form: "0 قطع نقدية" for a traveller with no coin (a helper's look at the
    Tokaido page). Every Arabic count with plural forms has it."""
    ar = own("ar")
    bases = {k.rsplit(".", 1)[0] for k in ar if k.rsplit(".", 1)[-1] in ("one", "two", "many")}
    assert bases >= {"g.coins", "g.points", "g.cards_n"}
    for base in bases:
        assert f"{base}.zero" in ar, base
