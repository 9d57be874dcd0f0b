"""The judge and turning against the labelled dev scenes (fixtures/dev-scenes).

- turning: each label's card grid turned by its die equals its target (WORLD.md §2, §6);
- judging: the renderer's `truth` bars, used as a perfect vision (debugging only, as §6
  allows; the referee itself never reads truth), give the label's verdict and fault codes.
"""

import json

import pytest

from referee.build import MeasuredBuild, StoneMeasurement
from referee.paths import FIXTURES
from referee.tuki.buildgrid import with_gaps
from referee.tuki.cards import parse_grid, turn
from referee.tuki.die import DieFace
from referee.tuki.judge import judge

DEV = FIXTURES / "dev-scenes"
LABELS = sorted(DEV.glob("scenes/*/label.json"))


def test_the_dev_scenes_are_in_the_fixtures():
    assert len(LABELS) == 42


def _label(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", LABELS, ids=lambda p: p.parent.name)
def test_card_turned_by_die_is_the_labelled_target(path):
    d = _label(path)
    card = parse_grid(d["card"]["grid"], d["level"])
    assert turn(card, DieFace.from_dict(d["die"])) == parse_grid(d["target"], d["level"])


@pytest.mark.parametrize("path", LABELS, ids=lambda p: p.parent.name)
def test_perfectly_measured_build_gets_the_labelled_verdict(path):
    d = _label(path)
    station = json.loads((DEV / "stations" / d["station"] / "station.json").read_text())
    u = station["unit_mm"]
    stones = [StoneMeasurement(b["colour"], b["orientation"], b["x"] + b["dx_mm"] / u,
                               b["h"] + b["lift_mm"] / u, 0.0, {}, b["h"] * u + b["lift_mm"])
              for b in d["truth"]["bars"]]
    v = judge(d["target"], DieFace.from_dict(d["die"]),
              MeasuredBuild(tuple(with_gaps(stones, u)), u), d["level"])
    assert v.verdict == d["verdict"]
    codes = [f.code for f in v.faults]
    assert codes[:len(d["faults"])] == d["faults"]
