"""Every scenario file in tests/scenarios/tokaido/ passes (ENGINES.md "Scenario files")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games.scenarios import run_file, run_scenario

FILES = sorted((Path(__file__).parents[2] / "scenarios" / "tokaido").glob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path) -> None:
    r = run_file(path)
    assert r.passed, f"{r.name}: {r.why}"


def test_a_wrong_expectation_fails() -> None:
    """The scenarios can fail: the same file with one expected number changed does."""
    sc = json.loads((FILES[0].parent / "score_tie_more_money.json").read_text())
    sc["steps"][0]["expect"]["winner"] = 0
    assert not run_scenario(sc).passed
