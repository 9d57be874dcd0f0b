"""docs/tukki.md names a test or scenario for every rule sentence; each name must exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[3]
DOC = ROOT / "docs" / "tukki.md"
HERE = Path(__file__).parent
SCENARIOS = ROOT / "tests" / "scenarios" / "tukki"


def rule_rows() -> list[tuple[str, list[str]]]:
    text = DOC.read_text(encoding="utf-8").split("## Rule traceability", 1)[1]
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.search(r"\b[ST]:", cells[1]):
            rows.append((cells[0], [n.strip() for n in cells[1].split(",")]))
    return rows


def test_every_rule_row_names_existing_tests_or_scenarios():
    tests = "".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py"))
    rows = rule_rows()
    assert len(rows) >= 40
    for rule, names in rows:
        assert names, rule
        for name in names:
            kind, _, ident = name.partition(":")
            if kind == "S":
                assert (SCENARIOS / f"{ident}.json").is_file(), f"{rule}: no scenario {ident}"
            else:
                assert kind == "T" and f"def {ident}(" in tests, f"{rule}: no test {ident}"


def test_every_scenario_is_named_in_the_doc():
    named = {n[2:] for _, names in rule_rows() for n in names if n.startswith("S:")}
    assert {p.stem for p in SCENARIOS.glob("*.json")} <= named
