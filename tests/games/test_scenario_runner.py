"""The scenario runner reports a malformed scenario as a failure with its reason; it never
crashes (ENGINES.md "Scenario files")."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.games.engine import GAMES
from referee.games.scenarios import run_file, run_scenario


def _sc(**over) -> dict:
    return {"name": "t", "game": "tukki", "players": 2, "steps": []} | over


@pytest.mark.parametrize("over, words", [
    ({"steps": None}, "'steps' must be a list of steps, got null"),
    ({"steps": "do take deck"}, "'steps' must be a list of steps, got text"),
    ({"steps": {"do": "x"}}, "'steps' must be a list of steps, got an object"),
    ({"steps": [None]}, "step 1: expected an object with do, illegal or expect, got null"),
    ({"steps": ["do x"]}, "step 1: expected an object"),
    ({"steps": [{"do": 5}]}, "step 1: 'do' must be an action as text, got a number"),
    ({"steps": [{"illegal": None}]}, "step 1: 'illegal' must be an action as text, got null"),
    ({"steps": [{"expect": None}]}, "step 1: 'expect' must be an object of facts, got null"),
    ({"steps": [{"expect": {"legal_includes": 3}}]}, "legal_includes: expected a list"),
    ({"steps": [{"expect": {"legal_excludes": [None]}}]}, "legal_excludes: expected a list"),
])
def test_a_malformed_scenario_is_a_failure_with_a_reason(over, words):
    r = run_scenario(_sc(**over))
    assert not r.passed and words in r.why


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("options", [1.5, ["rounds"], "x"])
def test_options_that_are_no_object_are_refused(game, options):
    r = run_scenario(_sc(game=game, options=options))
    assert not r.passed and "setup refused" in r.why and "options must be an object" in r.why


def test_a_tokaido_setup_that_is_no_object_is_refused():
    r = run_scenario(_sc(game="tokaido", setup=[]))
    assert not r.passed and "a Tokaido setup is an object" in r.why


def test_deep_nesting_non_utf8_and_null_steps_are_fail_lines(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"game": "taki", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "caf\xe9", "game": "taki"}')
    null = tmp_path / "null.json"
    null.write_text(json.dumps(_sc(steps=None)))
    assert run_file(deep).why == "cannot read: JSON too deeply nested"
    assert run_file(latin).why == "cannot read: not UTF-8 text (byte 13)"
    res = CliRunner().invoke(app, ["rules", "check", str(deep), str(latin), str(null)])
    assert res.exit_code == 1
    assert "0 passed, 3 failed" in res.output and "Traceback" not in res.output
    assert "FAIL t: 'steps' must be a list of steps, got null" in res.output


def test_deep_nesting_after_parsing_is_a_failure():
    """A value nested deep enough to break a message or a comparison, but not the parser."""
    deep: object = "x"
    for _ in range(5000):
        deep = [deep]
    r = run_scenario(_sc(game=deep))
    assert not r.passed and "too deeply nested" in r.why
