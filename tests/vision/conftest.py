"""Shared fixtures for the vision tests: the dev-scene photo set copied into fixtures/."""

from __future__ import annotations

import json
from functools import cache

import pytest

from referee.paths import FIXTURES

DEV = FIXTURES / "dev-scenes"
NOMAT = FIXTURES / "real-nomat"


@cache
def station(sid: str):
    from referee.vision.station import load_station

    return load_station(DEV / "stations" / sid / "station.json")


def label(scene: str) -> dict:
    return json.loads((DEV / "scenes" / scene / "label.json").read_text(encoding="utf-8"))


def photo(scene: str):
    from referee.vision.photo import read_photo

    return read_photo(DEV / "scenes" / scene / "image.jpg")


def die_text(lab: dict) -> str:
    return lab["die"]["animal"] + ("+white" if lab["die"]["white_square"] else "")


def scene_check(root, scene: str, **kw):
    """`check_photo` on a labelled set's scene, with its station, target and die face
    (keywords: intrinsics, settings; no overlay)."""
    from referee.check import check_photo
    from referee.vision.photo import read_photo
    from referee.vision.station import load_station

    lab = json.loads((root / "scenes" / scene / "label.json").read_text(encoding="utf-8"))
    st = load_station(root / "stations" / lab["station"] / "station.json")
    return check_photo(read_photo(root / "scenes" / scene / "image.jpg"), st, lab["target"],
                       die_text(lab), lab["level"], overlay=False, **kw)


@pytest.fixture(scope="session")
def d04():
    return station("D04")
