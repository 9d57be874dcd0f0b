"""Message files for the phone pages: en, fa, he, ar (the last three right-to-left).

Each `<lang>.json` maps message keys to text with `{name}` placeholders; `_name` and `_dir`
give the language's own name and writing direction. Missing keys fall back to English.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("en", "fa", "he", "ar")
_DIR = Path(__file__).parent


PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")  # CLDR plural categories


def plural_base(key: str) -> str:
    """The message a plural form belongs to ("g.coins.one" → "g.coins"), else `key`. A
    language adds the forms it needs; the pages pick one by `Intl.PluralRules` (words.js)."""
    head, _, tail = key.rpartition(".")
    return head if tail in PLURAL_FORMS else key


@cache
def messages(lang: str) -> dict[str, str]:
    """All messages of `lang` (unknown languages give English), English filling any gap,
    but never with its plural forms: "1 coin" on a Persian page would be English words."""
    en = json.loads((_DIR / "en.json").read_text(encoding="utf-8"))
    if lang not in LANGUAGES or lang == "en":
        return en
    own = json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return {**{k: v for k, v in en.items() if plural_base(k) == k}, **own}


def known_language(value: str | None) -> str | None:
    """The language `value` names, if it is one of ours, else None. Accept-Language style
    values ("fa-IR,fa;q=0.9") count by their parts' first two letters, in order."""
    for part in (value or "").split(","):
        code = part.strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return None


def pick_language(*candidates: str | None) -> str:
    """The first candidate that is a known language (e.g. ?lang=, cookie, Accept-Language,
    table), else en."""
    for c in candidates:
        code = known_language(c)
        if code is not None:
            return code
    return "en"


_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def local_digits(value: object, lang: str) -> str:
    """`value` as text with its digits 0-9 in the language's own (Persian pages: ۰-۹, as
    fa.json's texts and the pages' scripts write them; the others keep 0-9)."""
    text = str(value)
    return text.translate(_PERSIAN_DIGITS) if lang == "fa" else text
