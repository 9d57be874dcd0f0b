"""Positional arguments that start with "-" (issue 10 item 6): a Tukki Tukki box that starts
with a negative number is the calculator's to refuse, in its own plain sentence, never "No such
option"; a scenario file whose name starts with "-" is a file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.errors import RefereeError

runner = CliRunner()
SCENARIO = sorted((Path(__file__).parents[1] / "scenarios" / "tukki").glob("*.json"))[0]
NO_NEGATIVE = "Tukki Tukki has no negative cards"


@pytest.mark.parametrize("args", [
    ["tukki", "-2 5 5 9 / 5 5 7 9"],
    ["tukki", "-2 5 5 9 / 5 5 7 9", "--json"],
    ["tukki", "--json", "-2 5 5 9 / 5 5 7 9"],
    ["tukki", "--", "-2 5 5 9 / 5 5 7 9"],
    ["tukki", "5 5 P 9 / 5 -1 7 9"],  # inside the box too
    ["tukki", "-5"],
])
def test_a_negative_card_gets_the_calculators_sentence(args):
    res = runner.invoke(app, ["rules", "score", *args])
    assert isinstance(res.exception, RefereeError), res.output
    assert NO_NEGATIVE in str(res.exception)
    assert "No such option" not in res.output


def test_other_boxes_starting_with_a_dash_are_read_as_boxes():
    res = runner.invoke(app, ["rules", "score", "tukki", "-P 5 5 9 / 5 5 7 9"])
    assert isinstance(res.exception, RefereeError)
    assert "unknown card '-P'" in str(res.exception)
    res = runner.invoke(app, ["rules", "score", "-x", "1 2 3 4 / 5 6 7 8"])
    assert isinstance(res.exception, RefereeError) and "not '-x'" in str(res.exception)


def test_options_still_work_on_either_side_of_the_box():
    for args in (["tukki", "--json", "1 2 3 4 / 5 6 7 8"],
                 ["tukki", "1 2 3 4 / 5 6 7 8", "--json"]):
        res = runner.invoke(app, ["rules", "score", *args])
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["score"] == 36


def test_a_scenario_file_named_with_a_dash(tmp_path, monkeypatch):
    shutil.copy(SCENARIO, tmp_path / "-old.json")
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["rules", "check", "-old.json"])
    assert res.exit_code == 0, res.output
    assert "PASS" in res.output and "1 passed, 0 failed" in res.output
