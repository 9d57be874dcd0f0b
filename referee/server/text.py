"""One check for every text the API takes in: it can be stored, shown and compared.

`clean_text` is the one validator; `Text(n)`, `Text(n, multiline=True)` and `Name` are the
pydantic types built on it (`Annotated[str, ..., AfterValidator(...)]`) that every text field
of the API uses; their JSON schema gives the length limits and the rule in words.
A text must be:

- well-formed Unicode (no lone surrogate such as "\\ud800", which JSON can carry but no page or
  answer can encode);
- NFC (it is normalised, so that "é" typed two ways is one name);
- at most n characters (counted after normalising), with at least one visible character (a
  letter, digit, punctuation or symbol that shows: not a Hangul filler), so that a name of
  zero-width spaces or fillers is refused;
- without more than `MAX_MARKS` combining marks in a row on one letter;
- free of control characters (a multi-line field keeps its line breaks), direction overrides
  and isolates (U+202A–U+202E, U+2066–U+2069) and other invisible format characters. The
  zero-width joiner and non-joiner and the direction marks (U+200C, U+200D, U+200E, U+200F,
  U+061C) stay allowed: Persian, Hebrew and Arabic names need them.

Leading and trailing white space is dropped. Errors name the rule and the character's code
point, never the text sent. `name_key` is the form in which names are compared (NFKC, case
folded, look-alike letters folded).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, partial
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, WithJsonSchema

# format characters (category Cf) that names in right-to-left scripts need
ALLOWED_FORMAT = frozenset("\u200c\u200d\u200e\u200f\u061c")
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# letters and symbols that show nothing (Unicode's Default_Ignorable_Code_Point letters:
# the Hangul fillers, Khmer's inherent vowels; and the blank Braille pattern): allowed, but
# no visible character, so that a name of them alone is refused like one of spaces
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800")
# combining marks in a row on one letter: Hebrew's points (shin dot, dagesh, a vowel, a
# cantillation mark) and Arabic's harakat (shadda and a vowel) need a few; a break-it trial
# joined as "B" under 29 strokes
MAX_MARKS = 4
# letters that look like others in the scripts our players write, folded for `name_key`:
# Arabic's yeh and kaf and Persian's (one name typed on an Arabic and on a Persian keyboard),
# heh goal and teh marbuta's look-alikes, and the Cyrillic and Greek letters drawn as Latin
# ones (a break-it trial joined as "Bоb", with a Cyrillic о, beside "Bob")
LOOKALIKE = str.maketrans({
    "ي": "ی", "ى": "ی", "ك": "ک", "ہ": "ه",
    "ە": "ه",
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j"})
_WHAT = {"Cc": "a control character", "Cf": "an invisible format character",
         "Cs": "a lone surrogate (not well-formed Unicode)", "Co": "a private-use character",
         "Cn": "an unassigned character", "Zl": "a line separator",
         "Zp": "a paragraph separator"}


def problem(text: str, max_len: int, multiline: bool = False) -> str | None:
    """What is wrong with an already normalised text, in plain words, or None."""
    if len(text) > max_len:
        return f"at most {max_len} characters, got {len(text)}"
    visible, run = False, 0
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in BIDI_CONTROLS:
            return (f"contains U+{ord(ch):04X}, a direction override or isolate, which can "
                    "make text look like something else")
        if multiline and ch == "\n":
            continue
        if cat == "Cf" and ch in ALLOWED_FORMAT:
            continue
        if cat in _WHAT:
            return f"contains U+{ord(ch):04X}, {_WHAT[cat]}"
        visible = visible or (cat[0] in "LNPS" and ch not in BLANK_LETTERS)
        if cat in ("Mn", "Me"):
            run += 1
            if run > MAX_MARKS:
                return (f"stacks more than {MAX_MARKS} marks (such as U+{ord(ch):04X}) on one "
                        "letter, which can run over the lines around it")
        else:
            run = 0
    if not visible:
        return "needs at least one visible character"
    return None


def clean_text(value: str, max_len: int, multiline: bool = False) -> str:
    """The text, NFC-normalised and stripped, when it can be stored, shown and compared.

    :raises ValueError: (pydantic makes it a 422 problem) what is wrong, never the text.
    """
    # a lone surrogate first: NFC and every later step would carry it through
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise ValueError("is not well-formed Unicode (it holds a lone surrogate)")
    if multiline:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", value).strip()
    why = problem(text, max_len, multiline)
    if why is not None:
        raise ValueError(why)
    return text


def _bounded(value: Any, max_len: int) -> Any:
    """Refuse a text far over its limit before normalising it (NFC is linear, but a megabyte
    needs no work); the precise limit is checked after normalising."""
    if isinstance(value, str) and len(value) > 4 * max_len:
        raise ValueError(f"at most {max_len} characters, got {len(value)}")
    return value


def Text(max_len: int, multiline: bool = False) -> Any:  # noqa: N802  (a type, by use)
    """The text type of an API field of at most `max_len` characters (see the module)."""
    schema = {"type": "string", "minLength": 1, "maxLength": max_len,
              "description": "well-formed Unicode (NFC), at least one visible character, no "
                             "control characters or direction overrides"
                             + ("; line breaks allowed" if multiline else "")}
    return Annotated[str, BeforeValidator(partial(_bounded, max_len=max_len)),
                     AfterValidator(partial(clean_text, max_len=max_len, multiline=multiline)),
                     WithJsonSchema(schema)]


Name = Text(30)  # a player's name


def _ignorable(ch: str) -> bool:
    """Whether a character shows nothing by itself (Unicode's Default_Ignorable_Code_Point,
    as far as names can hold it): format characters (the direction marks, the joiners), the
    grapheme joiner U+034F, variation selectors, Mongolian's free variation selectors and the
    blank letters."""
    o = ord(ch)
    return (unicodedata.category(ch) == "Cf" or ch in BLANK_LETTERS or o == 0x034F
            or 0xFE00 <= o <= 0xFE0F or 0x180B <= o <= 0x180F or 0xE0100 <= o <= 0xE01EF)


def default_seat_name(bot: bool, seat: int, taken: list[str | None]) -> str:
    """The name of a seat (counted from 0) nobody named: "Bot 2" or "Player 2", made unlike
    the `taken` names ("Player 2 (2)" beside a player who typed "Player 2"): seats' names
    must differ (a break-it trial gave an open seat to a person beside "Player 2", and two
    seats were named alike; a player named "Bot 2" was refused as the same name as the bot
    nobody named)."""
    base = f"{'Bot' if bot else 'Player'} {seat + 1}"
    keys = {name_key(n) for n in taken if n}
    name, k = base, 2
    while name_key(name) in keys:
        name, k = f"{base} ({k})", k + 1
    return name


def name_key(name: str) -> str:
    """The form in which two names are the same name: NFKC, case folded, without the
    characters that show nothing, with look-alike letters folded (`LOOKALIKE`), so that
    "Ava", "ava", "Ａｖａ", "Аva" (a Cyrillic А) and "Ava" with a direction mark or a
    grapheme joiner are one player (a break-it trial joined as "Ava\u200f" beside "Ava"),
    and so are "علي" and "علی"."""
    shown = " ".join("".join(ch for ch in unicodedata.normalize("NFKC", name).casefold()
                             if not _ignorable(ch)).translate(LOOKALIKE).split())
    # a page shows an unnamed seat's "Bot 2" in its own words ("בוט 2"): a person named so
    # is that seat's name (a re-trial joined as "בוט 2" beside the bot "Bot 2")
    for pattern, english in _seat_name_forms():
        m = pattern.fullmatch(shown)
        if m:
            return f"{english} {int(m.group(1))}"
    return shown


@cache
def _seat_name_forms() -> list[tuple[re.Pattern[str], str]]:
    """The pages' words for an unnamed seat in every language (`g.bot_name`, `g.name_n`), as
    `name_key` forms with the number's digits in any script, and the English word each is."""
    from referee.server.i18n import LANGUAGES, messages

    out = []
    for code in LANGUAGES:
        for key, english in (("g.bot_name", "bot"), ("g.name_n", "player")):
            words = " ".join(unicodedata.normalize("NFKC", messages(code)[key]).casefold()
                             .split())
            if "{n}" in words:
                before, _, after = words.partition("{n}")
                out.append((re.compile(re.escape(before) + r"(\d+)" + re.escape(after)),
                            english))
    return out


def file_label(name: str, limit: int = 40) -> str:
    """An uploaded file's name as words may name it: without control, format or direction
    characters (a name is the sender's to choose: NUL, ESC or U+202E would reach every phone
    that shows the error), at most `limit` characters; "upload" when nothing is left."""
    kept = "".join(ch for ch in str(name) if ch not in BIDI_CONTROLS and (
        unicodedata.category(ch) not in _WHAT or ch in ALLOWED_FORMAT)).strip()
    if len(kept) > limit:
        kept = kept[:limit] + "…"
    return kept or "upload"


def shown(text: object, limit: int = 40) -> str:
    """`text` as an error message may quote it: repr'd, at most `limit` characters of it (an
    id in a URL may be 10,000 characters long; messages never repeat long input)."""
    s = str(text)
    return repr(s) if len(s) <= limit else repr(s[:limit]) + f"… ({len(s)} characters)"

