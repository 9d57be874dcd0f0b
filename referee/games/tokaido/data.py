"""The Tokaido data of models/tokaido/ (board, decks, characters, numbers), loaded once, frozen.

Every value the seed does not give is a fill-in in these files, listed in docs/tokaido.md;
the engine holds no game numbers of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from referee.games.engine import RulesError
from referee.paths import MODELS

DECKS = ("meal", "panorama", "encounter", "temple", "souvenir", "story")
SPACE_TYPES = ("kyoto", "meal", "panorama", "encounter", "temple", "souvenir", "hotspring",
               "inn", "edo")


class TokaidoDataError(RulesError):
    """models/tokaido/ holds data the engine cannot use; the message names file and field."""


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of identical cards: `code` is its notation, `count` its copies in the deck."""

    idx: int
    code: str
    deck: str
    name: str
    count: int
    price: int = 0
    points: int = 0
    coins: int = 0
    group: int = 0  # temples: 1-3, else 0
    colour: str = ""  # souvenirs and stories
    famous: bool = False


@dataclass(frozen=True, slots=True)
class Ability:
    """Acts when its owner takes a card of `deck` (characters.json)."""

    deck: str
    discount: int
    points: int
    coins: int
    text: str


@dataclass(frozen=True, slots=True)
class Character:
    """A character card (characters.json): its starting points and coins, and its ability."""

    code: str
    name: str
    points: int
    coins: int
    ability: Ability


@dataclass(frozen=True)
class Rules:
    """Everything the engine reads from models/tokaido/; `segment_of[i]` is 1-3 on the road."""

    spaces: tuple[str, ...]
    kinds: tuple[Kind, ...]
    by_code: dict[str, Kind]
    deck_kinds: dict[str, tuple[int, ...]]
    characters: tuple[Character, ...]
    min_players: int
    max_players: int
    coins_per_point: int
    inn_leave_distance: int
    meal_rows: tuple[int, ...]
    panorama_rows: tuple[int, ...]
    encounter_face_up: int
    story_face_up: int
    temple_prices: tuple[int, ...]
    temple_bonus: tuple[int, ...]
    souvenir_sets: dict[str, int]
    story_sets: dict[str, int]
    optional_spaces: frozenset[str]
    segment_of: tuple[int, ...]
    next_stop: tuple[int, ...]  # per space: the next inn or Edo strictly ahead (Edo: itself)
    inns: tuple[int, ...]
    edo: int

    def character(self, code: str) -> Character:
        """:raises TokaidoDataError: no character has this code."""
        for c in self.characters:
            if c.code == code:
                return c
        raise TokaidoDataError(f"unknown character {code!r}: expected one of "
                               + ", ".join(c.code for c in self.characters))


def _read(folder: Path, name: str) -> dict[str, Any]:
    path = folder / name
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    except (OSError, json.JSONDecodeError) as e:
        raise TokaidoDataError(f"cannot read {path}: {e}") from e


def _kinds(decks: dict[str, Any]) -> tuple[Kind, ...]:
    out: list[Kind] = []
    for deck in DECKS:
        for e in decks.get(deck, []):
            try:
                out.append(Kind(
                    idx=len(out), code=e["code"], deck=deck, name=e.get("name", e["code"]),
                    count=int(e["count"]), price=int(e.get("price", 0)),
                    points=int(e.get("points", 0)), coins=int(e.get("coins", 0)),
                    group=int(e.get("group", 0)), colour=e.get("colour", ""),
                    famous=bool(e.get("famous", False))))
            except (KeyError, TypeError, ValueError) as err:
                raise TokaidoDataError(f"decks.json {deck} entry {e!r}: {err}") from err
    codes = [k.code for k in out]
    dup = {c for c in codes if codes.count(c) > 1}
    if dup or "blind" in codes:
        raise TokaidoDataError(f"decks.json: card codes must be unique and not 'blind': {dup}")
    bad = [k.code for k in out if k.coins < 0 or k.price < 0 or k.count < 0]
    if bad:
        raise TokaidoDataError(f"decks.json: negative count, price or coins on {bad}")
    return tuple(out)


def _road(spaces: list[str]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    bad = [s for s in spaces if s not in SPACE_TYPES]
    if bad or spaces[0] != "kyoto" or spaces[-1] != "edo" or spaces.count("edo") != 1 \
            or spaces.count("kyoto") != 1:
        raise TokaidoDataError(f"board.json: spaces must run from kyoto to edo with types "
                               f"{SPACE_TYPES}; got unknown {bad}")
    inns = tuple(i for i, s in enumerate(spaces) if s == "inn")
    edo = len(spaces) - 1
    segment_of, next_stop = [], []
    seg = 1
    for i, s in enumerate(spaces):
        segment_of.append(min(seg, len(inns)) if s != "kyoto" else 0)
        if s == "inn":
            seg += 1
        next_stop.append(next((j for j in (*inns, edo) if j > i), edo))
    return tuple(segment_of), tuple(next_stop), inns, edo


@cache
def load_rules(folder: Path = MODELS / "tokaido") -> Rules:
    """Read and check models/tokaido/.

    :raises TokaidoDataError: a file is missing, unreadable or inconsistent.
    """
    board, rules = _read(folder, "board.json"), _read(folder, "rules.json")
    decks, chars = _read(folder, "decks.json"), _read(folder, "characters.json")
    kinds = _kinds(decks)
    spaces = tuple(board["spaces"])
    segment_of, next_stop, inns, edo = _road(list(spaces))
    deck_kinds = {d: tuple(k.idx for k in kinds if k.deck == d) for d in DECKS}
    try:
        characters = tuple(Character(
            code=c["code"], name=c["name"], points=int(c.get("points", 0)),
            coins=int(c.get("coins", rules["start_coins"])),
            ability=Ability(**c["ability"])) for c in chars["characters"])
        r = Rules(
            spaces=spaces, kinds=kinds, by_code={k.code: k for k in kinds},
            deck_kinds=deck_kinds, characters=characters,
            min_players=int(rules["min_players"]), max_players=int(rules["max_players"]),
            coins_per_point=int(rules["coins_per_point"]),
            inn_leave_distance=int(rules["inn_leave_distance"]),
            meal_rows=tuple(rules["meal_rows"]), panorama_rows=tuple(rules["panorama_rows"]),
            encounter_face_up=int(rules["encounter_face_up"]),
            story_face_up=int(rules["story_face_up"]),
            temple_prices=tuple(rules["temple_prices"]), temple_bonus=tuple(rules["temple_bonus"]),
            souvenir_sets=dict(rules["souvenir_sets"]), story_sets=dict(rules["story_sets"]),
            optional_spaces=frozenset(rules["optional_spaces"]),
            segment_of=segment_of, next_stop=next_stop, inns=inns, edo=edo)
    except (KeyError, TypeError, ValueError) as e:
        raise TokaidoDataError(f"models/tokaido: missing or bad field: {e}") from e
    n_inns = len(inns)
    if len(r.meal_rows) != n_inns or len(r.panorama_rows) != n_inns or len(r.temple_bonus) != 3:
        raise TokaidoDataError(f"rules.json: one meal and panorama row per inn ({n_inns}) and "
                               f"3 temple bonuses expected")
    for deck, rows in (("meal", r.meal_rows), ("panorama", r.panorama_rows)):
        total = sum(kinds[i].count for i in deck_kinds[deck])
        if sum(rows) > total:
            raise TokaidoDataError(f"rules.json {deck}_rows {list(rows)} need more than the "
                                   f"{total} cards of decks.json")
    if len(characters) < r.max_players:
        raise TokaidoDataError(f"characters.json: {len(characters)} characters for "
                               f"{r.max_players} players")
    return r
