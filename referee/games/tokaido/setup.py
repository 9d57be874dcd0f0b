"""Starting a Tokaido game: the seeded deal (`new_game`) or an explicit table (`from_setup`).

Setup (seed "setup" and step 1, RULINGS.md Setup): characters dealt at random unless chosen,
coins from the character card, no souvenirs in hand, every traveller in Kyoto; meals and
panoramas face up in one row per road segment, temples and souvenirs face up, 2 encounters and
2 story cards face up on their shuffled piles.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.games.engine import SetupError
from referee.games.tokaido.data import Rules, TokaidoDataError, load_rules
from referee.games.tokaido.state import ACTION, TokaidoState

SETUP_KEYS = ("players", "characters", "position", "arrival", "coins", "collected",
              "meal_rows", "panorama_rows", "temples", "souvenirs", "encounter_face",
              "encounter_deck", "story_face", "story_deck", "action", "edo_order", "current")
OPTION_KEYS = ("characters",)


def _characters(rules: Rules, n: int, chosen: object, rng: random.Random) -> list[str]:
    if chosen is None:
        return rng.sample([c.code for c in rules.characters], n)
    if not isinstance(chosen, list) or len(chosen) != n or len(set(chosen)) != n:
        raise SetupError(f"characters {chosen!r}: expected {n} different character codes")
    try:
        for c in chosen:
            rules.character(c)
    except TokaidoDataError as e:
        raise SetupError(str(e)) from e
    return list(chosen)


def _deal(state: TokaidoState, pools: dict[str, list[int]], given: dict[str, Any]) -> None:
    """Lay out every display the setup does not give, from the cards left in `pools`."""
    rules, rng = state.rules, state._rng
    for deck, key, rows, sizes in (("meal", "meal_rows", state.meal_rows, rules.meal_rows),
                                   ("panorama", "panorama_rows", state.pano_rows,
                                    rules.panorama_rows)):
        if key in given:
            continue
        pool = pools[deck]
        rng.shuffle(pool)
        for row, size in zip(rows, sizes, strict=True):
            for _ in range(min(size, len(pool))):
                row[pool.pop()] += 1
    for deck, key in (("temple", "temples"), ("souvenir", "souvenirs")):
        if key not in given:
            for i in pools[deck]:
                state.supply[i] += 1
    for deck, face, pile, up in (("encounter", state.enc_face, state.enc_deck,
                                  rules.encounter_face_up),
                                 ("story", state.story_face, state.story_deck,
                                  rules.story_face_up)):
        if f"{deck}_deck" in given and f"{deck}_face" in given:
            continue
        pool = pools[deck]
        rng.shuffle(pool)
        if f"{deck}_deck" not in given:
            pile[:0] = pool  # under whatever was given; the top is the list's end
            pool.clear()
        if f"{deck}_face" not in given:
            while len(face) < up and pile:
                face.append(pile.pop())


def new_game(players: int, seed: int = 0, options: dict[str, Any] | None = None) -> TokaidoState:
    """A new seeded game for 2-5 players (models/tokaido/rules.json); option `characters`
    chooses one code per seat.

    :raises SetupError: a player count, option or character the game does not have.
    """
    return from_setup({}, seed=seed, options=options, players=players)


def _codes(rules: Rules, value: object, key: str) -> list[int]:
    """A list of card codes, or a {code: count} map, as kind indices."""
    if isinstance(value, dict):
        value = [c for c, n in value.items() for _ in range(int(n))]
    if not isinstance(value, list):
        raise SetupError(f"{key}: expected a list of card codes, got {value!r}")
    bad = [c for c in value if c not in rules.by_code]
    if bad:
        raise SetupError(f"{key}: unknown card codes {bad}; see models/tokaido/decks.json")
    return [rules.by_code[c].idx for c in value]


def _place(state: TokaidoState, setup: dict[str, Any]) -> list[int]:
    """Put the given cards in their places; returns every placed kind index."""
    rules, n = state.rules, state.num_players
    placed: list[int] = []

    def cards(key: str) -> list[int]:
        out = _codes(rules, setup[key], key)
        placed.extend(out)
        return out

    if "collected" in setup:
        if len(setup["collected"]) != n:
            raise SetupError(f"collected: expected one list per player ({n})")
        for p, held in enumerate(setup["collected"]):
            for i in _codes(rules, held, f"collected[{p}]"):
                state.held[p][i] += 1
                placed.append(i)
    for key, rows, deck in (("meal_rows", state.meal_rows, "meal"),
                            ("panorama_rows", state.pano_rows, "panorama")):
        if key in setup:
            if not isinstance(setup[key], list) or len(setup[key]) != len(rows):
                raise SetupError(f"{key}: expected {len(rows)} rows of card codes")
            for r, row in enumerate(setup[key]):
                for i in _codes(rules, row, f"{key}[{r}]"):
                    if rules.kinds[i].deck != deck:
                        raise SetupError(f"{key}: {rules.kinds[i].code!r} is no {deck} card")
                    rows[r][i] += 1
                    placed.append(i)
    for key, deck in (("temples", "temple"), ("souvenirs", "souvenir")):
        if key in setup:
            for i in cards(key):
                if rules.kinds[i].deck != deck:
                    raise SetupError(f"{key}: {rules.kinds[i].code!r} is no {deck} card")
                state.supply[i] += 1
    for key, target, deck, rev in (("encounter_face", state.enc_face, "encounter", False),
                                   ("encounter_deck", state.enc_deck, "encounter", True),
                                   ("story_face", state.story_face, "story", False),
                                   ("story_deck", state.story_deck, "story", True)):
        if key in setup:
            got = cards(key)
            if any(rules.kinds[i].deck != deck for i in got):
                raise SetupError(f"{key}: only {deck} cards, got {setup[key]!r}")
            target.extend(got[::-1] if rev else got)  # piles are given top first
    return placed


def from_setup(setup: dict[str, Any], seed: int = 0, options: dict[str, Any] | None = None,
               players: int | None = None) -> TokaidoState:
    """A game from an explicit table (docs/tokaido.md "Setup keys"); displays not given are
    dealt from the cards left, with `seed`.

    :raises SetupError: an unknown key, a card more often than the deck holds, a shared road
        space, a negative coin count, or a player count the game does not have.
    """
    rules = load_rules()
    if not isinstance(setup, dict):
        raise SetupError(f"a Tokaido setup is an object with keys {', '.join(SETUP_KEYS)}, "
                         f"not {setup!r}")
    if options is not None and not isinstance(options, dict):
        raise SetupError(f"Tokaido options must be an object of option values, not {options!r}")
    options = options or {}
    unknown = [k for k in setup if k not in SETUP_KEYS] + \
        [k for k in options if k not in OPTION_KEYS]
    if unknown:
        raise SetupError(f"unknown setup/option keys {unknown}: expected setup keys "
                         f"{', '.join(SETUP_KEYS)}; options {', '.join(OPTION_KEYS)}")
    sized = [len(setup[k]) for k in ("characters", "position", "coins", "collected")
             if isinstance(setup.get(k), list)]
    n = TokaidoState.game.check_players(players if players is not None else
                                        setup.get("players", sized[0] if sized else None))
    rng = random.Random(seed)
    chars = _characters(rules, n, setup.get("characters", options.get("characters")), rng)
    state = TokaidoState(rules, chars, rng)
    _layout(state, setup)
    placed = Counter(_place(state, setup))
    over = [f"{rules.kinds[i].code} x{c} (deck has {rules.kinds[i].count})"
            for i, c in placed.items() if c > rules.kinds[i].count]
    if over:
        raise SetupError(f"cards placed more often than the deck holds: {', '.join(over)}")
    pools = {d: [i for i in rules.deck_kinds[d]
                 for _ in range(rules.kinds[i].count - placed[i])] for d in rules.deck_kinds}
    _deal(state, pools, setup)
    if "action" in setup:
        p = setup["action"]
        if p not in range(n) or rules.spaces[state.pos[p]] in ("kyoto", "inn", "edo"):
            raise SetupError(f"action: {p!r} must be a seat standing on a road space")
        state.phase, state.actor = ACTION, p
        if not state.legal_actions():
            raise SetupError(f"action: seat {p} can do nothing at space {state.pos[p]}")
    else:
        state._advance()
    if "current" in setup and setup["current"] != state.current_player():
        raise SetupError(f"current {setup['current']!r}: on this table the rules give the turn "
                         f"to seat {state.current_player()} (rearmost first, seed step 2)")
    return state


def _layout(state: TokaidoState, setup: dict[str, Any]) -> None:
    """Travellers, arrival order, coins and Edo order from the setup."""
    rules, n = state.rules, state.num_players
    if "position" in setup:
        pos = setup["position"]
        if not isinstance(pos, list) or len(pos) != n or \
                any(not isinstance(x, int) or not 0 <= x <= rules.edo for x in pos):
            raise SetupError(f"position {pos!r}: expected {n} space indices 0-{rules.edo}")
        shared = {x for x in pos if pos.count(x) > 1 and rules.spaces[x] not in
                  ("kyoto", "inn", "edo")}
        if shared:
            raise SetupError(f"position {pos!r}: road spaces {sorted(shared)} hold two "
                             f"travellers; only Kyoto, inns and Edo are shared")
        state.pos = list(pos)
    if "arrival" in setup:
        order = setup["arrival"]
        if sorted(order) != list(range(n)):
            raise SetupError(f"arrival {order!r}: expected every seat 0-{n - 1} once")
        for t, p in enumerate(order):
            state.stamp[p] = t
    if "coins" in setup:
        coins = setup["coins"]
        if not isinstance(coins, list) or len(coins) != n or \
                any(not isinstance(c, int) or c < 0 for c in coins):
            raise SetupError(f"coins {coins!r}: expected {n} counts >= 0")
        state.coins = list(coins)
    at_edo = [p for p in range(n) if state.pos[p] == rules.edo]
    order = setup.get("edo_order", sorted(at_edo, key=lambda p: state.stamp[p]))
    if sorted(order) != sorted(at_edo):
        raise SetupError(f"edo_order {order!r}: expected the seats in Edo {at_edo}")
    state.edo_order = list(order)
