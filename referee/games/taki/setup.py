"""Starting a TAKI game: a seeded deal (`new_game`) or an explicit one (`from_setup`).

Setup keys (ENGINES.md "TAKI", docs/taki.md): `hands`, `deck` (top first), `discard` (bottom
first, the last being the leading card), `active_color`, `direction`, `current`; and, for
scenarios, `pending_draw`, `taki_open` and `stages`. Options (models/taki/options.json):
`tournament`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from referee.games.engine import SetupError
from referee.games.taki.cards import (
    CARD_NAMES,
    COLOR_BY_NAME,
    COLOR_OF,
    DECK_COUNTS,
    FULL_DECK,
    HAND_SIZE,
    is_number,
    parse_card,
)
from referee.games.taki.state import TakiState
from referee.paths import MODELS

OPTION_DEFAULTS: dict[str, Any] = json.loads(
    (MODELS / "taki" / "options.json").read_text(encoding="utf-8"))["defaults"]
SETUP_KEYS = ("hands", "deck", "discard", "active_color", "direction", "current",
              "pending_draw", "taki_open", "stages")


def read_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The rule options with defaults filled in.

    :raises SetupError: an unknown option, or a value of the wrong type.
    """
    if options is not None and not isinstance(options, dict):
        raise SetupError(f"TAKI options must be an object of option values, not {options!r}")
    out = dict(OPTION_DEFAULTS)
    for key, value in (options or {}).items():
        if key not in OPTION_DEFAULTS:
            raise SetupError(f"unknown TAKI option {key!r}: expected one of "
                             f"{', '.join(OPTION_DEFAULTS)}")
        if type(value) is not type(OPTION_DEFAULTS[key]):
            raise SetupError(f"TAKI option {key!r} = {value!r}: expected a "
                             f"{type(OPTION_DEFAULTS[key]).__name__}")
        out[key] = value
    return out


def new_game(players: int, seed: int = 0, options: dict[str, Any] | None = None) -> TakiState:
    """Shuffle, deal 8 cards each, flip the leading card (again while it is no number card).

    Seat 0 starts and play passes left (direction 1). Source: seed "Setup"; RULINGS.md TAKI
    "Setup".

    :raises SetupError: players outside 2-10, or a bad option.
    """
    n = TakiState.game.check_players(players)
    opts = read_options(options)
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)  # the top is the end of the list
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(HAND_SIZE):
        for h in hands:
            h.append(deck.pop())
    lead = deck.pop()
    while not is_number(lead):  # shuffle it back and flip again
        deck.append(lead)
        rng.shuffle(deck)
        lead = deck.pop()
    return TakiState(hands, deck, [lead], COLOR_OF[lead], rng=rng,
                     tournament=opts["tournament"])


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise SetupError(f"setup {where}: expected a list of cards, got {value!r}")
    return [parse_card(c) if isinstance(c, str) else _not_card(c, where) for c in value]


def _not_card(value: Any, where: str) -> int:
    raise SetupError(f"setup {where}: expected card notation such as 'R5', got {value!r}")


def from_setup(setup: dict[str, Any], seed: int = 0, options: dict[str, Any] | None = None,
               players: int | None = None) -> TakiState:
    """A game from an explicit deal; `current` starts a fresh turn. Later shuffles use `seed`.

    The setup may hold fewer cards than the deck; it is refused when a card appears more often
    than the deck holds it (ENGINES.md "Scenario files").

    :raises SetupError: unknown keys, bad values, too many copies of a card, or `players`
        disagreeing with the number of hands.
    :raises NotationError: a card that is not in the notation.
    """
    if not isinstance(setup, dict):
        raise SetupError(f"a TAKI setup is an object with keys {', '.join(SETUP_KEYS)}")
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise SetupError(f"unknown TAKI setup keys {unknown}: expected {', '.join(SETUP_KEYS)}")
    opts = read_options(options)
    raw_hands = setup.get("hands")
    if not isinstance(raw_hands, list):
        raise SetupError(f"setup hands: expected a list of card lists, got {raw_hands!r}")
    n = TakiState.game.check_players(len(raw_hands))
    if players is not None and players != n:
        raise SetupError(f"the scenario says {players} players but the setup deals {n} hands")
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(raw_hands)]
    deck = _cards(setup.get("deck", []), "deck")
    discard = _cards(setup.get("discard"), "discard")
    if not discard:
        raise SetupError("setup discard: expected at least the leading card")
    seen = Counter(k for part in (*hands, deck, discard) for k in part)
    over = [f"{CARD_NAMES[k]} x{c} (the deck has {DECK_COUNTS[k]})"
            for k, c in sorted(seen.items()) if c > DECK_COUNTS[k]]
    if over:
        raise SetupError(f"setup holds cards more often than the deck: {', '.join(over)}")
    lead = discard[-1]
    color_text = setup.get("active_color")
    if color_text is None:
        if COLOR_OF[lead] < 0:
            raise SetupError(f"setup active_color: required, the leading card "
                             f"{CARD_NAMES[lead]} has no colour")
        color = COLOR_OF[lead]
    elif color_text in COLOR_BY_NAME:
        color = COLOR_BY_NAME[color_text]
    else:
        raise SetupError(f"setup active_color {color_text!r}: expected R, G, B or Y")
    direction = setup.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool):
        raise SetupError(f"setup direction {direction!r}: expected 1 or -1")
    current = setup.get("current", 0)
    if not isinstance(current, int) or isinstance(current, bool) or not 0 <= current < n:
        raise SetupError(f"setup current {current!r}: expected a seat 0..{n - 1}")
    pending = setup.get("pending_draw", 0)
    if not isinstance(pending, int) or isinstance(pending, bool) or pending < 0 or pending % 2:
        raise SetupError(f"setup pending_draw {pending!r}: expected an even number >= 0")
    taki_open = setup.get("taki_open", False)
    if not isinstance(taki_open, bool):
        raise SetupError(f"setup taki_open {taki_open!r}: expected true or false")
    stages = setup.get("stages")
    if stages is not None and (not isinstance(stages, list) or len(stages) != n or not all(
            isinstance(s, int) and 1 <= s <= HAND_SIZE for s in stages)):
        raise SetupError(f"setup stages {stages!r}: expected one stage 1..{HAND_SIZE} per hand")
    return TakiState(hands, deck[::-1], discard, color, rng=random.Random(seed),
                     direction=direction, current=current, pending=pending,
                     taki_open=taki_open, tournament=opts["tournament"], stages=stages)
