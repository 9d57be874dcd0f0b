"""The labelled photos a table's play leaves behind, as a photo set `referee eval` runs.

Every lookout decision on an unsure build, and every questioned verdict the lookout answered,
keeps the build's photo with what the table decided: the station, the card, the die, the
turned target and the decided verdict. `export` writes them in the labelled-set format of
WORLD.md §6 (stations/<S>/station.json, scenes/<id>/image.jpg and label.json), so that
`referee eval DIR` measures the referee on a table's own hard cases, and a table can send its
set to the project.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.server.storage import EventStore
from referee.server.table import Table
from referee.tuki.die import DieFace


class DatasetError(RefereeError):
    """The data folder has no database, or the set cannot be written; in plain words."""


@dataclass(frozen=True)
class Labelled:
    """One decided build: where it was, what the table decided, and why it is labelled."""

    table: str
    round_no: int
    seat: int
    station: str
    photo: Path
    level: str
    card_id: str
    target: tuple[str, ...]
    die: str
    verdict: str  # correct | wrong
    how: str  # decision (an unsure build) | dispute (a questioned verdict)

    @property
    def scene_id(self) -> str:
        return f"{self.station}-{self.table}-r{self.round_no}-p{self.seat}"


def labelled_builds(data_dir: Path) -> list[Labelled]:
    """Every decided build of every Tuki table in the data folder, the last word winning.

    :raises DatasetError: no database there.
    """
    db = data_dir / "referee.sqlite3"
    if not db.is_file():
        raise DatasetError(f"no referee database in {str(data_dir)!r}; give the server's data "
                           "folder with --data")
    store = EventStore(db)
    out: list[Labelled] = []
    try:
        for table_id in store.table_ids():
            try:
                out += _labels_of(store, table_id, data_dir)
            except Exception:  # a damaged table gives no labels; the others still do
                continue
    finally:
        store.close()
    return out


def _labels_of(store: EventStore, table_id: str, data_dir: Path) -> list[Labelled]:
    row = store.table(table_id)
    if row is None or row.config.get("game", "tuki") != "tuki":
        return []
    table = Table(table_id, row.config, row.admin_hash, [])
    found: dict[tuple[int, int], Labelled] = {}
    for ev in store.events(table_id):
        table.fold(ev)
        p = ev.payload
        if ev.kind == "decision" and "correct" in p:
            seat, how = int(p["builder"]), "dispute" if p.get("overrule") else "decision"
        elif ev.kind == "server:confirmed":
            seat, how = int(p["player"]), "dispute"
        else:
            continue
        st = table.state
        b = st.builder(seat)
        shot = table.shots.get((st.round_no, seat))
        if b is None or shot is None or st.die is None:
            continue
        station = str(table.config["places"][b.place]["station"])
        found[(st.round_no, seat)] = Labelled(
            table_id, st.round_no, seat, station, data_dir / "photos" / table_id / shot.photo,
            st.level, st.card_id or "typed", tuple(st.target), st.die,
            "correct" if p["correct"] else "wrong", how)
    return list(found.values())


def export(data_dir: Path, out: Path) -> dict[str, Any]:
    """Write the labelled builds of `data_dir` to `out` (WORLD.md §6); a summary.

    :raises DatasetError: no database, `out` is a file, nothing decided yet, or none of the
        decided builds could be written (photo or station missing).
    """
    from referee.server.judging import load_station
    from referee.server.stations import station_path

    if out.exists() and not out.is_dir():
        raise DatasetError(f"{str(out)!r} is a file; give a folder for the photo set")
    labels = labelled_builds(data_dir)
    if not labels:
        raise DatasetError(f"nothing to export yet: no build in {str(data_dir)!r} was decided "
                           "by a lookout (an unsure verdict) or questioned and answered; play "
                           "rounds first, or give the server's data folder with --data")
    written, skipped = 0, 0
    stations: set[str] = set()
    for lab in labels:
        if not lab.photo.is_file():
            skipped += 1
            continue
        if lab.station not in stations:
            try:
                profile = load_station(station_path(lab.station)).to_profile()
            except RefereeError:
                skipped += 1
                continue
            (out / "stations" / lab.station).mkdir(parents=True, exist_ok=True)
            (out / "stations" / lab.station / "station.json").write_text(
                json.dumps(profile, indent=1), encoding="utf-8")
            stations.add(lab.station)
        scene = out / "scenes" / lab.scene_id
        scene.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lab.photo, scene / "image.jpg")
        face = DieFace.parse(lab.die)
        label = {"id": lab.scene_id, "station": lab.station, "level": lab.level,
                 "card": {"id": lab.card_id,
                          "grid": _printed(lab.card_id, lab.level, lab.target, lab.die)},
                 "die": {"animal": face.animal, "white_square": face.white_square},
                 "target": list(lab.target), "verdict": lab.verdict, "faults": [],
                 "source": {"table": lab.table, "round": lab.round_no, "seat": lab.seat,
                            "how": lab.how}}
        (scene / "label.json").write_text(json.dumps(label, indent=1, ensure_ascii=False),
                                          encoding="utf-8")
        written += 1
    if written == 0:
        raise DatasetError(f"nothing exported: the {len(labels)} decided builds in "
                           f"{str(data_dir)!r} have lost their photos or their stations")
    return {"scenes": written, "skipped": skipped, "stations": sorted(stations),
            "folder": str(out)}


def _printed(card_id: str, level: str, target: tuple[str, ...], die: str) -> list[str]:
    """The card's grid as printed (WORLD.md §6): a deck card's; for a grid typed in (or the
    demo's), the one grid that the die turns into the round's `target` (`cards.turn` with a
    plain grid's edges; a new user's export had an empty grid, which `referee eval` could
    not read); empty when neither is to be had."""
    from referee.tuki.cards import CardError, Deck, turn
    from referee.tuki.grid import mirror, rotate_ccw, rotate_cw

    with contextlib.suppress(CardError, RefereeError):
        return list(Deck.load(level).get(card_id).grid)
    rows = tuple(target)
    for back in (rows, rotate_cw(rows), rotate_ccw(rows), mirror(tuple(reversed(rows)))):
        try:
            if tuple(turn(back, die)) == rows:
                return list(back)
        except RefereeError:
            return []
    return []
