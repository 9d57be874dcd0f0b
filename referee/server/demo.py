"""The demo table: two builders whose "cameras" are folders of dev-scene photos.

models/demo/demo.yaml holds the table (players, level, places) and the scripted rounds: each
takes its card and die from one scene's label and names the photo each place's camera shows.
Rounds repeat in order; `referee serve` creates the table on a fresh data folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import yaml

from referee.paths import ROOT
from referee.server.stations import DEMO


@dataclass(frozen=True)
class DemoRound:
    scene: str
    die: str
    card: tuple[str, ...]
    photos: tuple[str, ...]


@dataclass(frozen=True)
class DemoScript:
    name: str
    level: str
    language: str
    players: tuple[str, ...]
    places: tuple[dict, ...]
    rounds: tuple[DemoRound, ...]


@cache
def script() -> DemoScript:
    """The parsed models/demo/demo.yaml (trusted project data)."""
    raw = yaml.safe_load((DEMO / "demo.yaml").read_text(encoding="utf-8"))
    rounds = tuple(DemoRound(r["scene"], r["die"], tuple(x for x in r["card"].split() if x),
                             tuple(r["photos"])) for r in raw["rounds"])
    return DemoScript(raw["name"], raw["level"], raw["language"], tuple(raw["players"]),
                      tuple(raw["places"]), rounds)


def table_spec() -> dict:
    """The demo table as a TableCreate body."""
    s = script()
    places = [{"station": p["station"].split("/")[-1],
               "camera": {"kind": "folder",
                          "path": (DEMO / p["photos"]).relative_to(ROOT).as_posix()}}
              for p in s.places]
    return {"name": s.name, "players": list(s.players), "level": s.level,
            "language": s.language, "places": places, "listed": True}
