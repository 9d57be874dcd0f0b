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


@pytest.fixture(scope="session")
def d04():
    return station("D04")
