"""Every reason code the referee can give reads in plain words in all four languages
(issue: no raw codes, no English on a Persian page)."""

import re
from pathlib import Path

import pytest

import referee
from referee.server.i18n import LANGUAGES, messages

ROOT = Path(referee.__file__).parent
CODE = re.compile(r'f?"((?:mat|photo|camera|stone|band):[a-z-]+)')


def emitted_codes() -> set[str]:
    """Reason codes written in the vision, the judge and the server (a stone's colour, the
    `:X` of `stone:hidden:X`, is filled in at run time)."""
    out = set()
    for p in [*(ROOT / "vision").glob("*.py"), ROOT / "tuki" / "judge.py",
              *(ROOT / "server").glob("*.py")]:
        out |= set(CODE.findall(p.read_text(encoding="utf-8")))
    return out


def test_the_scan_finds_the_codes():
    codes = emitted_codes()
    assert {"mat:not-found", "photo:colours", "stone:unsupported", "band:position"} <= codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_code_has_words(lang):
    words = messages(lang)
    missing = sorted(c for c in emitted_codes() if f"reason.{c}" not in words)
    assert missing == []
