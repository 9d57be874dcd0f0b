"""The TAKI scenario files pass, and every rule id of docs/taki.md is named by a scenario
(`"rules"`) or a test (`[rule:ID]`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.games.scenarios import run_file, run_scenario

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "taki").glob("*.json"))
DOC = ROOT / "docs" / "taki.md"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_passes(path):
    r = run_file(path)
    assert r.passed, f"{r.name}: {r.why}"


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 30


def _rule_ids() -> list[str]:
    index = DOC.read_text(encoding="utf-8").split("## Rule index", 1)[1]
    return re.findall(r"^\| `([a-z0-9-]+)` \|", index, re.M)


def test_every_rule_is_named_by_a_scenario_or_test():
    ids = _rule_ids()
    assert len(ids) >= 40
    named: set[str] = set()
    for path in SCENARIOS:
        named.update(json.loads(path.read_text(encoding="utf-8")).get("rules", []))
    for path in Path(__file__).parent.glob("test_*.py"):
        named.update(re.findall(r"\[rule:([a-z0-9-]+)\]", path.read_text(encoding="utf-8")))
    unknown = sorted(named - set(ids))
    assert not unknown, f"tests name rules that docs/taki.md does not list: {unknown}"
    missing = [i for i in ids if i not in named]
    assert not missing, f"rules without a scenario or test: {missing}"


def _base(steps: list) -> dict:
    return {"name": "t", "game": "taki", "players": 2,
            "setup": {"hands": [["R5", "R6", "R7"], ["B3", "B4"]], "deck": ["Y1"],
                      "discard": ["R1"]}, "steps": steps}


def test_a_wrong_expectation_fails():
    """The runner reports a false fact instead of passing it."""
    r = run_scenario(_base([{"do": "play R5"}, {"expect": {"current_player": 0}}]))
    assert not r.passed and "current_player" in r.why


def test_an_accepted_illegal_step_fails():
    r = run_scenario(_base([{"illegal": "play R5"}]))
    assert not r.passed and "accepted" in r.why


def test_an_illegal_step_names_the_rule():
    r = run_scenario(_base([{"do": "play R5"}, {"do": "play B3"}]))
    assert not r.passed and "rule matching" in r.why
