"""Starting a Tukki Tukki game: a fresh deal (`new_game`) or an explicit one (`from_setup`).

Setup keys (ENGINES.md "Tukki Tukki", docs/tukki.md):
- `boxes`: per player a map from place (`a1`-`b4`, all 8) to card (`0`-`12`, `P`);
- `up`: per player the list of face-up places (default none);
- `deck` (top first), `bin` (bottom first), `round` (from 1), `totals`, `current`.

If every player has at least the 2 opening reveals face up, the game starts at `current`'s
turn (take a card); otherwise it starts in the opening, where the players still owing reveals
reveal in seat order from `current`, and the starter follows from the reveals.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.games.engine import SetupError
from referee.games.tukki.cards import (
    PLACES,
    Card,
    Rules,
    card_name,
    load_rules,
    parse_card,
    parse_place,
)
from referee.games.tukki.state import OPENING, TAKE, TukkiState

OPTIONS = ("rounds",)


def _rounds(options: dict[str, Any] | None, rules: Rules) -> int:
    if options is not None and not isinstance(options, dict):
        raise SetupError(f"Tukki Tukki options must be an object of option values, "
                         f"not {options!r}")
    options = options or {}
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise SetupError(f"unknown Tukki Tukki options {unknown}: expected only {list(OPTIONS)}")
    rounds = options.get("rounds", rules.rounds)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise SetupError(f"option rounds={rounds!r}: expected a whole number >= 1")
    return rounds


def new_game(players: int, seed: int = 0, options: dict[str, Any] | None = None) -> TukkiState:
    """A new game: round 1 dealt from a deck shuffled by `random.Random(seed)`.

    :raises SetupError: a player count outside 2-6 (rules data), or a bad option.
    """
    rules = load_rules()
    n = TukkiState.game.check_players(players)
    state = TukkiState(n, rules, random.Random(seed), _rounds(options, rules))
    state.deal_round()
    return state


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise SetupError(f"setup {what}: expected a list of cards, got {value!r}")
    try:
        return [parse_card(str(c)) for c in value]
    except ValueError as e:
        raise SetupError(f"setup {what}: {e}") from None


def from_setup(setup: dict[str, Any], seed: int = 0, options: dict[str, Any] | None = None,
               players: int | None = None) -> TukkiState:
    """A game from an explicit deal; later shuffles and deals use `random.Random(seed)`.

    :raises SetupError: a missing or malformed key, a box without all 8 places, a card more
        often than the deck holds, a box already all face up, or nothing to take.
    """
    rules = load_rules()
    if not isinstance(setup, dict) or not isinstance(setup.get("boxes"), list):
        raise SetupError(f"setup needs 'boxes': a list of place-to-card maps, got {setup!r}")
    n = TukkiState.game.check_players(len(setup["boxes"]))
    if players is not None and players != n:
        raise SetupError(f"setup has {n} boxes but players is {players}")
    state = TukkiState(n, rules, random.Random(seed), _rounds(options, rules))
    for p, raw in enumerate(setup["boxes"]):
        if not isinstance(raw, dict) or sorted(raw) != sorted(PLACES):
            raise SetupError(f"setup box {p}: expected all 8 places a1-a4, b1-b4, got {raw!r}")
        try:
            state.boxes.append([parse_card(str(raw[name])) for name in PLACES])
        except ValueError as e:
            raise SetupError(f"setup box {p}: {e}") from None
    ups = setup.get("up", [[] for _ in range(n)])
    if not isinstance(ups, list) or len(ups) != n:
        raise SetupError(f"setup up: expected one list of places per player, got {ups!r}")
    for p, places in enumerate(ups):
        row = [False] * 8
        try:
            for name in places:
                row[parse_place(str(name))] = True
        except (ValueError, TypeError) as e:
            raise SetupError(f"setup up of player {p}: {e}") from None
        if all(row):
            raise SetupError(f"setup up: player {p}'s box is all face up; a setup starts "
                             f"before anyone has finished")
        state.up.append(row)
    state.deck = _cards(setup.get("deck", []), "deck")[::-1]
    state.bin = _cards(setup.get("bin", []), "bin")
    have = Counter(state.all_cards())
    over = {card_name(c): k for c, k in have.items() if k > rules.counts.get(c, 0)}
    if over:
        raise SetupError(f"setup has more cards than the deck holds: {over} "
                         f"(the deck has {rules.counts[0]} of each number and "
                         f"{rules.counts.get(13, 0)} parrots)")
    if not state.deck and not state.bin:
        raise SetupError("setup has an empty deck and an empty bin: nothing to take")
    state.round = _int(setup.get("round", 1), "round", 1, state.rounds)
    totals = setup.get("totals", [0] * n)
    if not isinstance(totals, list) or len(totals) != n:
        raise SetupError(f"setup totals: expected one number per player, got {totals!r}")
    state.totals = [_int(t, "totals", -10**6, 10**6) for t in totals]
    current = _int(setup.get("current", 0), "current", 0, n - 1)
    owed = [max(0, rules.opening_reveals - sum(u)) for u in state.up]
    state.current = current
    if any(owed):
        state.phase, state.opening_left = OPENING, owed
        if not owed[current]:
            state._next_opener()
    else:
        state.phase = TAKE
    return state


def _int(value: object, key: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SetupError(f"setup {key}={value!r}: expected a whole number {low}-{high}")
    return value
