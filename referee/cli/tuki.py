"""`referee cards list|show|generate`, `referee judge-grid`, `referee bench judge` (Tuki)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer
from rich.console import Console

if TYPE_CHECKING:
    from referee.tuki.cards import Card
    from referee.tuki.die import DieFace
    from referee.tuki.grid import Rows

T = TypeVar("T")
console = Console(emoji=False, highlight=False, soft_wrap=True)  # no breaks inside codes
cards_app = typer.Typer(no_args_is_help=True, help="Tuki cards: list, show, generate the deck.")


def _grid(rows: tuple[str, ...] | list[str], indent: str = "  ") -> str:
    return "\n".join(indent + r for r in rows)


LIST_HEADER = ("# card, level, width x height, then each stone: its colour, H lying or V standing, "
               "@ column,row of its lower-left cell (counted from the card's lower-left)")


@cards_app.command("list")
def cards_list(level: str = typer.Option("all", help="normal, advanced or all.")) -> None:
    """List the cards of the shipped decks.

    Each card's id, level, width x height, and each stone as colour, H/V and its lower-left
    cell (x right, z up, from the card's lower-left)."""
    from referee.tuki.cards import Deck
    from referee.tuki.grid import stones_of
    from referee.tuki.pieces import level_stones, pieces

    levels = list(pieces()["levels"]) if level == "all" else [level]
    for lv in levels:
        level_stones(lv)  # an unknown level is refused before the header is printed
    console.print(LIST_HEADER, soft_wrap=True)
    for lv in levels:
        for c in Deck.load(lv).cards:
            w, h = len(c.grid[0]), len(c.grid)
            stones = " ".join(f"{k}{s.orientation}@{s.x},{s.z}"
                              for k, s in sorted(stones_of(c.grid).items()))
            console.print(f"{c.id}  {c.level:<8}  {w}x{h}  {stones}")


@cards_app.command("show")
def cards_show(card_id: str = typer.Argument(..., help="Card id, e.g. N01."),
               die: str = typer.Option(None, "--die", help="Die face: bear, fish, eagle, "
                                       "with +white, e.g. fish+white."),
               as_json: bool = typer.Option(False, "--json", help="Print one JSON object.")
               ) -> None:
    """Print a card as printed, and the target turned by the die face."""
    from referee.tuki.cards import find_card, turn
    from referee.tuki.die import DieFace

    card = find_card(card_id)
    face = DieFace.parse(die) if die is not None else None
    target = turn(card, face) if face else None
    if as_json:
        out = card.to_dict()
        if face:
            out |= {"die": str(face), "target": list(target or ())}
        print(json.dumps(out))
        return
    console.print(f"card {card.id} ({card.level}), as printed:", highlight=False)
    console.print(_grid(card.grid), highlight=False)
    if face:
        rule = ("no stone may touch the table" if face.white_square
                else "at least one stone touches the table")
        console.print(f"target for {face} ({rule}):", highlight=False)
        console.print(_grid(target or ()), highlight=False)


# The deck spec (models/tuki/README.md): the sample decks hold 40 cards a level; ids have two
# digits (N01..N99), so a deck holds at most 99.
MIN_DECK_CARDS, MAX_DECK_CARDS = 40, 99


@cards_app.command("generate")
def cards_generate(level: str = typer.Option("all", help="normal, advanced or all."),
                   count: int = typer.Option(40, help=f"Cards per deck, {MIN_DECK_CARDS}-"
                                             f"{MAX_DECK_CARDS}."),
                   seed: int = typer.Option(1, help="Random seed."),
                   out: Path = typer.Option(None, help="Folder (default models/tuki/decks).")
                   ) -> None:
    """Write the sample deck(s) made by the project's generator."""
    from referee.tuki.cards import DECKS, CardError, Deck, format_deck
    from referee.tuki.generate import generate_deck
    from referee.tuki.pieces import level_stones, pieces

    if not MIN_DECK_CARDS <= count <= MAX_DECK_CARDS:
        raise CardError(f"--count {count}: a deck holds {MIN_DECK_CARDS}-{MAX_DECK_CARDS} cards "
                        f"a level")
    levels = list(pieces()["levels"]) if level == "all" else [level]
    for lv in levels:
        level_stones(lv)  # an unknown level is refused before the header is printed
    console.print(LIST_HEADER)
    for lv in levels:
        level_stones(lv)
    texts = {}
    for lv in levels:  # all decks are made and checked before any file is written
        deck = generate_deck(lv, count, seed)
        header = (f"Tuki sample deck, {lv} level: {count} cards made by\n"
                  f"`referee cards generate --level {lv} --count {count} --seed {seed}`.\n"
                  "Grids: rows top to bottom, '.' empty, G B P O stone cells (WORLD.md §2).")
        text = format_deck(deck, header) + "\n"
        if Deck.parse(text, lv).cards != deck.cards or len(deck.cards) != count:
            raise CardError(f"the generated {lv} deck does not load back as {count} cards; "
                            f"nothing was written")
        texts[lv] = text
    folder = out or DECKS
    folder.mkdir(parents=True, exist_ok=True)
    for lv, text in texts.items():
        path = folder / f"{lv}.txt"
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        console.print(f"wrote {count} cards to {path}", highlight=False)


def _read_text(path: Path, what: str) -> str:
    """The text of a grid file, without the byte order mark that Windows Notepad writes
    first. :raises RefereeError: it is not UTF-8 text, or too large to be a grid."""
    from referee.errors import RefereeError
    from referee.files import FileTooLargeError, read_small_text

    try:
        return read_small_text(path, "utf-8-sig")
    except FileTooLargeError as e:
        raise RefereeError(f"the {what} file: {e}") from None
    except UnicodeDecodeError as e:
        from referee.vision.photo import is_photo_file

        if is_photo_file(path):
            raise RefereeError(f"{path} is a photo, not a {what} file: a {what} is a text "
                               "file of rows of letters (README, \"Cards, die faces and "
                               "build grids\")") from None
        raise RefereeError(f"the {what} file {path} is not UTF-8 text (byte {e.start}); "
                           f"save it as plain text") from None


def resolve_target(card: str | None, card_grid: Path | None, die: str, level: str | None
                   ) -> tuple[Card, DieFace, Rows]:
    """(Card, DieFace, target rows) from `--card ID` or `--card-grid FILE` and `--die`; a grid
    file is read as a card of `level` (either level when None).

    :raises RefereeError: neither or both card options, an unknown card or face, a bad grid.
    """
    from referee.errors import RefereeError
    from referee.tuki.cards import Card, find_card, turn
    from referee.tuki.die import DieFace

    if (card is None) == (card_grid is None):
        raise RefereeError("give exactly one of --card ID or --card-grid FILE")
    face = DieFace.parse(die)
    if card is not None:
        c = find_card(card)
    else:
        grid_file = Path(str(card_grid))
        text = _read_text(grid_file, "card grid")
        if text.lstrip().startswith(("{", "[")):  # a label.json of a photo set, say
            raise RefereeError(f"{grid_file} looks like a JSON file; a card grid file is the "
                               "card's rows of letters, . G B P O, one row per line (such "
                               "as B.....P..), or give the card's id with --card")
        c = _in_file(grid_file, lambda: Card.parse(str(grid_file), text, level), text)
    return c, face, turn(c, face)


def _in_file(path: Path, read: Callable[[], T], text: str) -> T:
    """`read()` of a grid file's `text`, its grid error said with the file's name, and where
    its rows are not all one length, that too (a new user's trial: a cell deleted in one row
    was only "stone P has 2 cells")."""
    from referee.tuki.grid import GridError

    try:
        return read()
    except GridError as e:
        lengths = sorted({len(r.rstrip()) for r in text.splitlines() if r.strip()})
        ragged = (f" (its rows are not all one length: {', '.join(map(str, lengths))} "
                  "cells; write every row in full, '.' for an empty cell)"
                  if len(lengths) > 1 else "")
        err = type(e)(f"{path}: {e}{ragged}")
        err.__dict__.update(e.__dict__)  # a card of the other level stays one
        raise err from None


def judge_grid(card: str = typer.Option(None, "--card", help="Card id, e.g. N01."),
               card_grid: Path = typer.Option(None, "--card-grid", help="A card grid file."),
               die: str = typer.Option(..., "--die", help="Die face: bear, fish or eagle, "
                                       "+white when the white square is up (fish+white)."),
               build_grid: Path = typer.Option(..., "--build-grid", help="The build as a grid."),
               lifted: float = typer.Option(0, "--lifted", help="Units the lowest row stands "
                                            "above the table, on snow."),
               level: str = typer.Option(None, "--level", help="normal or advanced (default: "
                                         "from the card)."),
               unit_mm: float = typer.Option(16.0, "--unit-mm", help="The unit u in mm."),
               as_json: bool = typer.Option(False, "--json", help="Print one JSON object.")
               ) -> None:
    """Judge a build given as a text grid (exact placement) against a card and die face."""
    from referee.tuki.buildgrid import build_from_grid
    from referee.tuki.judge import judge

    c, face, target = resolve_target(card, card_grid, die, level)
    lv = level or c.level
    text = _read_text(build_grid, "build grid")
    build = _in_file(build_grid, lambda: build_from_grid(text, lifted, unit_mm), text)
    verdict = judge(target, face, build, lv)
    if as_json:
        print(json.dumps(verdict.to_dict() | {"target": list(target)}))
        return
    colour = {"correct": "green", "wrong": "red", "unsure": "yellow"}[verdict.verdict]
    console.print(f"[bold {colour}]{verdict.verdict}[/]")
    for f in verdict.faults:
        console.print(f"  fault {f.code}: {f.text}", highlight=False)
    for r in verdict.reasons:
        console.print(f"  unsure {r.code}: {r.text}", highlight=False)
    console.print(f"target ({c.id}, {face}):", highlight=False)
    console.print(_grid(target), highlight=False)


def bench_judge(n: int = typer.Option(2000, help="Judgements to time."),
                seed: int = typer.Option(1, help="Random seed.")) -> None:
    """Time the judge on deck cards with jittered and displaced builds (ms per verdict)."""
    import random
    import time
    from dataclasses import replace

    from referee.build import MeasuredBuild
    from referee.tuki.buildgrid import build_from_grid
    from referee.tuki.cards import Deck, turn
    from referee.tuki.die import FACES
    from referee.tuki.judge import judge

    rng = random.Random(seed)
    cards = Deck.load("normal").cards + Deck.load("advanced").cards
    cases = []
    for _ in range(n):
        c = rng.choice(cards)
        face = rng.choice(FACES)
        target = turn(c, face)
        b = build_from_grid(target, lifted_u=1 if face.white_square else 0)
        stones = [replace(s, x_u=s.x_u + rng.uniform(-0.6, 0.6)) for s in b.stones]
        cases.append((target, face, MeasuredBuild(tuple(stones), b.unit_mm), c.level))
    counts: dict[str, int] = {}
    t0 = time.perf_counter()
    for target, face, build, lv in cases:
        v = judge(target, face, build, lv).verdict
        counts[v] = counts.get(v, 0) + 1
    ms = (time.perf_counter() - t0) * 1000 / n
    said = ", ".join(f"{counts.get(v, 0)} {v}" for v in ("correct", "wrong", "unsure"))
    console.print(f"judge: {n} verdicts, {ms:.3f} ms each ({said}; the builds are jittered "
                  "on purpose, so most are wrong or unsure)", highlight=False)


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add the Tuki commands to the `referee` app."""
    app.add_typer(cards_app, name="cards")
    app.command("judge-grid")(judge_grid)
    bench_app.command("judge")(bench_judge)
