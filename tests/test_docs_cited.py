"""Every file a docstring or comment of the package cites is in the repo, so a newcomer with
only the repo can follow a ruling to its source; a rules text (a seed, not shipped) is cited
by its file name, with its English in docs/RULINGS.md."""

import re
from pathlib import Path

import referee

PKG = Path(referee.__file__).parent
ROOT = PKG.parent
MD = re.compile(r"\b([A-Za-z_][A-Za-z0-9_-]*\.md)\b")
SEED_FILE = re.compile(r"seed file (\d{3}_[0-9a-f]{16}\.txt)")
SEEDS = {"000_6f55b70a1dca9dfe.txt", "001_929e361541e1c2de.txt", "002_e681b164576ed2f3.txt",
         "003_9e33af30550492fe.txt"}
NOT_CITED = {"STYLE.md", "ARCHITECTURE.md"}  # development guidance outside the product


def sources():
    return sorted(PKG.rglob("*.py"))


def test_every_cited_page_is_in_the_repo():
    missing = []
    for p in sources():
        for name in set(MD.findall(p.read_text(encoding="utf-8"))):
            if name in NOT_CITED:
                missing.append(f"{p.relative_to(ROOT)} cites {name}, which is not product docs")
            elif not ((ROOT / "docs" / name).exists() or (ROOT / name).exists()
                      or (ROOT / "docs" / name.lower()).exists()):
                missing.append(f"{p.relative_to(ROOT)} cites {name}")
    assert missing == []


def test_a_seed_is_cited_by_its_file_name():
    bad = []
    for p in sources():
        text = p.read_text(encoding="utf-8")
        named = set(SEED_FILE.findall(text))
        assert named <= SEEDS, (p, named - SEEDS)
        for m in re.finditer(r"seeds?/\d{3}|seed \d{3}\b", text):
            bad.append(f"{p.relative_to(ROOT)}: {m.group(0)!r} does not name the seed's file")
    assert bad == []


def test_the_scan_sees_citations():
    text = (PKG / "tuki" / "judge.py").read_text(encoding="utf-8")
    assert "WORLD.md" in MD.findall(text)
