"""The Tokaido state: the seed's variant with the rulings of RULINGS.md (Tokaido).

Flow (seed steps 2-9): the rearmost traveller moves (ties: earlier arrival first; in Kyoto seat
order), forward to an empty space, never past the next inn; then does that space's action.
When every traveller stands at the inn, they choose meals in arrival order, then in arrival
order each walks to the first free space at least 3 ahead and does its action. The game ends
when all stand in Edo. Actions: see actions.py; cards are kind indices into `Rules.kinds`.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from referee.games.engine import (
    TERMINAL,
    IllegalActionError,
    RulesError,
    SetupError,
    State,
    register_refusals,
    rng_from_json,
    rng_to_json,
)
from referee.games.tokaido.actions import BLIND, SKIP, Action
from referee.games.tokaido.data import Character, Kind, Rules, load_rules
from referee.games.tokaido.scoring import breakdown


class Phase(StrEnum):
    """TokaidoState.phase; its value is the name facts() and views give."""

    MOVE = "move"
    ACTION = "action"
    MEAL = "meal"
    END = "end"


MOVE = Phase.MOVE
ACTION = Phase.ACTION
MEAL = Phase.MEAL
END = Phase.END

# Why an action is refused (IllegalActionError codes): `action` in notation, `seat` the
# acting seat, `space` and `at` road space indices, `kind` a space's type (temple, inn, ...),
# `card` a card code, `legal` the actions allowed instead (notation).
register_refusals("tokaido", {
    "tokaido.not-an-action": "not a Tokaido action: {action}",
    "tokaido.game-over": "{action}: the game is over (all travellers are in Edo)",
    "tokaido.must-move": "{action}: seat {seat} must move now (seed step 2); expected 'move N'",
    "tokaido.move-back": ("move {space}: seat {seat} stands on {at}; travellers move forward "
                          "only, never back (seed step 2)"),
    "tokaido.past-stop": ("move {space}: the {kind} at {at} comes first; nobody walks past an "
                          "inn (seed step 7)"),
    "tokaido.space-taken": ("move {space}: space {space} is taken by seat {seat}; only inns "
                            "are shared (seed step 10)"),
    "tokaido.finish-space": ("{action}: seat {seat} must first finish the {kind} at {at}; "
                             "expected one of: {legal}"),
    "tokaido.finish-meal": ("{action}: seat {seat} must first finish the inn meal; expected one "
                            "of: {legal}"),
    "tokaido.no-skip": ("skip: the {kind} at {at} cannot be skipped; the seed says one must "
                        "take a card (steps 3-4); expected one of: {legal}"),
    "tokaido.no-such-card": "{action}: no card is called '{card}'; expected one of: {legal}",
    "tokaido.too-dear": ("{action}: it costs {cost} coins and seat {seat} has {coins}; expected "
                         "one of: {legal}"),
    "tokaido.not-on-offer": ("{action}: not on offer at the {kind} at {at}; expected one of: "
                             "{legal}"),
    "tokaido.not-on-offer-meal": ("{action}: not on offer at the inn meal; expected one of: "
                                  "{legal}"),
})
_MOVES: dict[int, Action] = {}
_TAKES: dict[str, Action] = {}


def _move(n: int) -> Action:
    a = _MOVES.get(n)
    if a is None:
        a = _MOVES[n] = Action("move", n)
    return a


def _take(code: str) -> Action:
    a = _TAKES.get(code)
    if a is None:
        a = _TAKES[code] = Action("take", code)
    return a


# why an inn passed a traveller over at its meals (`passes`, `passed_over()`), or a road
# space did nothing for the traveller who stopped there (`idle`, `idle_stops()`)
NO_MONEY = "no-money"  # cards are left (meals in the row), but none the traveller can pay for
NONE_LEFT = "none-left"  # nothing is left to take (the segment's meal row is empty)


def _why(text: object) -> str:
    """A stored pass's or idle stop's reason, checked (`from_dict`)."""
    if text not in (NO_MONEY, NONE_LEFT):
        raise ValueError(f"no such reason for a pass or a stop: {str(text)[:40]!r}")
    return str(text)


# the road spaces whose cards have a price, where a traveller may find cards yet afford none;
# at the others (panorama, encounter, hot spring) a card is free, so only running out stops
# one (`idle`, `idle_stops()`)
PAID_SPACES = ("meal", "temple", "souvenir")


class TokaidoState(State):
    """One game. Decks: encounter and story piles keep their top at the END of the list."""

    _lists = ("pos", "stamp", "coins", "supply", "enc_face", "enc_deck", "story_face",
              "story_deck", "queue", "edo_order", "characters", "_chars")
    _nested = ("held", "meal_rows", "pano_rows")

    def __init__(self, rules: Rules, characters: list[str], rng: random.Random) -> None:
        n = len(characters)
        nk = len(rules.kinds)
        self.rules = rules
        self.num_players = n
        self.characters = list(characters)
        self._chars: list[Character] = [rules.character(c) for c in characters]
        self._rng = rng
        self.pos = [0] * n
        self.stamp = list(range(n))  # arrival order on one's space: seat order in Kyoto
        self.clock = n
        self.coins = [c.coins for c in self._chars]
        self.held = [[0] * nk for _ in range(n)]
        self.meal_rows = [[0] * nk for _ in rules.meal_rows]
        self.pano_rows = [[0] * nk for _ in rules.panorama_rows]
        self.supply = [0] * nk  # temples and souvenirs, all face up
        self.enc_face: list[int] = []
        self.enc_deck: list[int] = []
        self.story_face: list[int] = []
        self.story_deck: list[int] = []
        self.phase: Phase = MOVE
        self.actor = 0
        self.inn_stage = 0  # 0: none, 1: meals, 2: departures
        self.queue: list[int] = []
        self.edo_order: list[int] = []
        self.turns = 0  # actions applied so far
        # the walks the game made on its own (leaving an inn, RULINGS.md Inns): (actions
        # applied before it, seat, space), oldest first; a tuple, so clones share it safely
        self.walks: tuple[tuple[int, int, int], ...] = ()
        # the travellers an inn passed over at its meals, who could have none (RULINGS.md
        # Inns, step 10): (actions applied before it, seat, why: NO_MONEY or NONE_LEFT),
        # oldest first; a tuple too. All of an inn's passes come before its walks
        self.passes: tuple[tuple[int, int, str], ...] = ()
        # the road spaces where a traveller stopped (by a move, or walking on from an inn) and
        # whose action could not be done, so nothing happened (RULINGS.md Unplayable space,
        # step 10): (actions applied before it, seat, space, why: NO_MONEY, cards left but
        # none affordable, or NONE_LEFT, nothing left to take), oldest first; a tuple too
        self.idle: tuple[tuple[int, int, int, str], ...] = ()

    # ----- the State API -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase is END else self.actor

    def is_terminal(self) -> bool:
        return self.phase is END

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase is END or (player is not None and player != self.actor):
            return []
        p = self.actor
        if self.phase is MOVE:
            start = self.pos[p]
            stop = self.rules.next_stop[start]
            taken = set(self.pos)
            return [_move(i) for i in range(start + 1, stop) if i not in taken] + [_move(stop)]
        opts = self._options(p)
        if self.phase is MEAL or self.rules.spaces[self.pos[p]] in self.rules.optional_spaces:
            opts.append(SKIP)
        return opts

    def apply_action(self, action: Any) -> None:
        if not isinstance(action, Action):
            raise IllegalActionError("tokaido.not-an-action", action=repr(action))
        if self.phase is END:
            raise IllegalActionError("tokaido.game-over", action=str(action))
        p = self.actor
        if self.phase is MOVE:
            if action.verb != "move" or not isinstance(action.arg, int):
                raise IllegalActionError("tokaido.must-move", action=str(action), seat=p)
            self._check_move(p, action.arg)
            self.turns += 1
            self._arrive(p, action.arg)
        else:
            if action not in self.legal_actions():
                raise self._why_not(p, action)
            self.turns += 1
            if action.verb == "take":
                self._do_take(p, str(action.arg))
            self.phase = MOVE
        self._advance()

    def returns(self) -> list[float]:
        out = [0.0] * self.num_players
        winner = self.winner()  # None before the end
        if winner is not None:
            out[winner] = 1.0
        return out

    def scores(self) -> list[int]:
        return [row["total"] for row in self.breakdown()]

    def auto_moves(self) -> list[tuple[int, int, str]]:
        """The moves the game made on its own, oldest first: (actions played before it, seat,
        the move in notation). Tokaido's walks from an inn: not decisions, so no action of
        their own, yet every traveller sees them (the phones' last moves)."""
        return [(after, p, f"move {space}") for after, p, space in self.walks]

    def passed_over(self) -> list[tuple[int, int, str]]:
        """The travellers an inn passed over at its meals, oldest first: (actions played
        before it, seat, why: NO_MONEY, meals left but none affordable, or NONE_LEFT, the
        row is empty). No decision, so no action of its own; every traveller sees it (the
        phones' last moves say why that traveller bought nothing). An inn's passes come
        before its walks (`auto_moves`) of the same count: meals end before anyone leaves."""
        return list(self.passes)

    def idle_stops(self) -> list[tuple[int, int, int, str]]:
        """The road spaces where a traveller stopped and got nothing, its action undoable
        (RULINGS.md Unplayable space), oldest first: (actions played before it, seat, space,
        why: NO_MONEY, cards left there but none the traveller can pay for, or NONE_LEFT,
        nothing left to take). No decision, so no action of its own; every traveller sees it
        (the phones' last moves say why that stop did nothing). A stop after a walk from an
        inn has that walk's count, and comes right after it."""
        return list(self.idle)

    def character(self, p: int) -> Character:
        """Seat p's character card (starting points, coins, ability)."""
        return self._chars[p]

    def breakdown(self) -> list[dict[str, int]]:
        """Per player, the points of each part as if the game ended now (scoring.PARTS)."""
        return breakdown(self.rules, self.held, self.coins, self.characters)

    def winner(self) -> int | None:
        """Most points, then more coins, then earlier in Edo (RULINGS.md Ties); None before end."""
        if self.phase is not END:
            return None
        pts = self.scores()
        return max(range(self.num_players),
                   key=lambda p: (pts[p], self.coins[p], -self.edo_order.index(p)))

    def determinize(self, player: int, rng: random.Random) -> TokaidoState:
        """A copy consistent with `observation(player)`: the encounter and story piles (all
        that is hidden, and from everyone) reshuffled from their cards in sorted order, with a
        fresh RNG drawn from `rng`.

        :raises RulesError: no such player.
        """
        self.check_seat(player)
        c = self.clone()
        c.enc_deck = sorted(self.enc_deck)
        rng.shuffle(c.enc_deck)
        c.story_deck = sorted(self.story_deck)
        rng.shuffle(c.story_deck)
        c._rng = random.Random(rng.getrandbits(64))
        return c

    # ----- moving and the inns -------------------------------------------------------------

    def _check_move(self, p: int, n: int) -> None:
        start, stop = self.pos[p], self.rules.next_stop[self.pos[p]]
        if n <= start:
            raise IllegalActionError("tokaido.move-back", space=n, seat=p, at=start)
        if n > stop:
            raise IllegalActionError("tokaido.past-stop", space=n, kind=self.rules.spaces[stop],
                                     at=stop)
        if n != stop and n in self.pos:
            raise IllegalActionError("tokaido.space-taken", space=n, seat=self.pos.index(n))

    def _arrive(self, p: int, n: int) -> None:
        self.pos[p] = n
        self.stamp[p] = self.clock
        self.clock += 1
        if n == self.rules.edo:
            self.edo_order.append(p)
        elif self.rules.spaces[n] != "inn":
            if self._options(p):
                self.phase, self.actor = ACTION, p
            else:  # an undoable space does nothing (step 10); the state says why
                self.idle += ((self.turns, p, n, self._why_nothing(p)),)

    def _depart(self, p: int) -> None:
        """Leave the inn for the first free space at least 3 ahead (RULINGS.md Inns)."""
        start = self.pos[p]
        stop = self.rules.next_stop[start]
        target = next((i for i in range(start + self.rules.inn_leave_distance, stop)
                       if i not in self.pos), stop)
        self.walks += ((self.turns, p, target),)
        self._arrive(p, target)

    def _pass_over(self, p: int) -> None:
        """Record that the inn's meals pass p over, with why (RULINGS.md Inns, step 10)."""
        self.passes += ((self.turns, p, self._why_nothing(p, "meal")),)

    def _why_nothing(self, p: int, deck: str | None = None) -> str:
        """Why p can take nothing at its space (the inn's meals: `deck` "meal"): NO_MONEY if
        cards are left there that p could take with coins enough, else NONE_LEFT. Only
        meaningful when p's options are empty."""
        rules = self.rules
        at = self.pos[p]
        deck = deck or rules.spaces[at]
        if deck not in PAID_SPACES:
            return NONE_LEFT  # a free card: had one been left, p could have taken it
        counts = self.meal_rows[rules.segment_of[at] - 1] if deck == "meal" else self.supply
        left = any(counts[i] and self.price(p, rules.kinds[i]) is not None
                   for i in rules.deck_kinds[deck])
        return NO_MONEY if left else NONE_LEFT

    def _arrival_order(self) -> list[int]:
        return sorted(range(self.num_players), key=lambda q: (self.pos[q], self.stamp[q]))

    def _acting(self) -> bool:
        """Whether a traveller who just arrived does the space's action now."""
        return self.phase is ACTION

    def _advance(self) -> None:
        """Find the next decision: inn meals, inn departures, the end, or the rearmost move."""
        if self._acting():
            return  # the traveller who just arrived acts first
        while True:
            if self.inn_stage == 1:
                while self.queue:
                    p = self.queue.pop(0)
                    if self._meal_options(p):
                        self.phase, self.actor = MEAL, p
                        return
                    self._pass_over(p)
                self.inn_stage, self.queue = 2, self._arrival_order()
            if self.inn_stage == 2:
                while self.queue:
                    self._depart(self.queue.pop(0))
                    if self._acting():  # _depart may have made the traveller act
                        return
                self.inn_stage = 0
            if len(self.edo_order) == self.num_players:
                self.phase = END
                return
            at = self.pos[0]
            if self.rules.spaces[at] == "inn" and all(q == at for q in self.pos):
                self.inn_stage, self.queue = 1, self._arrival_order()
                continue
            self.phase = MOVE
            self.actor = min(range(self.num_players), key=lambda q: (self.pos[q], self.stamp[q]))
            return

    # ----- space actions -------------------------------------------------------------------

    def price(self, p: int, kind: Kind) -> int | None:
        """What `kind` costs seat p now: the card's price (temples: 0, 3, 6, ... by how many of
        the group p holds, seed step 5), less the character's discount, never below 0; None
        past the end of the temple price list."""
        if kind.deck == "temple":
            have = sum(self.held[p][i] for i in self.rules.deck_kinds["temple"]
                       if self.rules.kinds[i].group == kind.group)
            if have >= len(self.rules.temple_prices):
                return None
            base = self.rules.temple_prices[have]
        else:
            base = kind.price
        ab = self._chars[p].ability
        return max(0, base - ab.discount) if ab.deck == kind.deck else base

    def cost(self, action: Action) -> int:
        """The coins the current player pays for `action` now: a card's `price` (0 for a
        move, a skip, a blind draw, a free card, or no card of that code). Public: every
        price and discount is on the table."""
        if action.verb != "take" or action.arg == BLIND or self.phase is END:
            return 0
        kind = self.rules.by_code.get(str(action.arg))
        return (self.price(self.actor, kind) or 0) if kind is not None else 0

    def _buyable(self, p: int, counts: list[int], deck: str) -> list[Action]:
        kinds, coins = self.rules.kinds, self.coins[p]
        out = []
        for i in self.rules.deck_kinds[deck]:
            if counts[i]:
                cost = self.price(p, kinds[i])
                if cost is not None and cost <= coins:
                    out.append(_take(kinds[i].code))
        return out

    def _meal_options(self, p: int) -> list[Action]:
        return self._buyable(p, self.meal_rows[self.rules.segment_of[self.pos[p]] - 1], "meal")

    def _options(self, p: int) -> list[Action]:
        """The takes at p's space, without `skip`; empty when the space can do nothing."""
        if self.phase is MEAL:
            return self._meal_options(p)
        kinds = self.rules.kinds
        space = self.rules.spaces[self.pos[p]]
        if space == "meal":
            return self._meal_options(p)
        if space == "panorama":
            row = self.pano_rows[self.rules.segment_of[self.pos[p]] - 1]
            return [_take(kinds[i].code) for i in self.rules.deck_kinds["panorama"] if row[i]]
        if space in ("temple", "souvenir"):
            return self._buyable(p, self.supply, space)
        if space == "encounter":
            out = [_take(kinds[i].code) for i in dict.fromkeys(self.enc_face)]
            return out + [_take(BLIND)] if self.enc_deck else out
        if space == "hotspring":
            return [_take(kinds[i].code) for i in dict.fromkeys(self.story_face)]
        return []

    def _do_take(self, p: int, code: str) -> None:
        rules = self.rules
        if code == BLIND:
            kind = rules.kinds[self.enc_deck.pop()]
        else:
            kind = rules.by_code[code]
            deck = kind.deck
            if deck == "meal":
                self.meal_rows[rules.segment_of[self.pos[p]] - 1][kind.idx] -= 1
            elif deck == "panorama":
                self.pano_rows[rules.segment_of[self.pos[p]] - 1][kind.idx] -= 1
            elif deck == "encounter":
                self.enc_face.remove(kind.idx)
                if self.enc_deck:
                    self.enc_face.append(self.enc_deck.pop())
            elif deck == "story":
                self.story_face.remove(kind.idx)
                if self.story_deck:
                    self.story_face.append(self.story_deck.pop())
            else:
                self.supply[kind.idx] -= 1
        self.coins[p] -= self.price(p, kind) or 0  # before the card joins p's collection
        self.held[p][kind.idx] += 1
        self.coins[p] += kind.coins
        ab = self._chars[p].ability
        if ab.deck == kind.deck:
            self.coins[p] += ab.coins

    def _why_not(self, p: int, action: Action) -> IllegalActionError:
        at = self.pos[p]
        meal = self.phase is MEAL
        where = {} if meal else {"kind": self.rules.spaces[at], "at": at}
        legal = [str(a) for a in self.legal_actions()]
        act = str(action)
        if action.verb == "move":
            return IllegalActionError("tokaido.finish-meal" if meal else "tokaido.finish-space",
                                      action=act, seat=p, legal=legal, **where)
        if action == SKIP:  # a meal can always be skipped
            return IllegalActionError("tokaido.no-skip", legal=legal, **where)
        kind = self.rules.by_code.get(str(action.arg))
        if kind is None and action.arg != BLIND:
            return IllegalActionError("tokaido.no-such-card", action=act, card=str(action.arg),
                                      legal=legal)
        cost = self.price(p, kind) if kind is not None else None
        if cost is not None and cost > self.coins[p]:
            return IllegalActionError("tokaido.too-dear", action=act, cost=cost, seat=p,
                                      coins=self.coins[p], legal=legal)
        return IllegalActionError("tokaido.not-on-offer-meal" if meal
                                  else "tokaido.not-on-offer", action=act, legal=legal, **where)

    # ----- views ---------------------------------------------------------------------------

    def _codes(self, idxs: list[int]) -> list[str]:
        return [self.rules.kinds[i].code for i in idxs]

    def _count_codes(self, counts: list[int], deck: str | None = None) -> dict[str, int]:
        kinds = self.rules.kinds
        return {kinds[i].code: c for i, c in enumerate(counts)
                if c and (deck is None or kinds[i].deck == deck)}

    def _public(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value,
            "current_player": self.current_player(),
            "characters": self.characters[:],
            "position": self.pos[:],
            "arrival": sorted(range(self.num_players), key=lambda q: self.stamp[q]),
            "coins": self.coins[:],
            "collected": [self._count_codes(h) for h in self.held],
            "meal_rows": [self._count_codes(r) for r in self.meal_rows],
            "panorama_rows": [self._count_codes(r) for r in self.pano_rows],
            "temples": self._count_codes(self.supply, "temple"),
            "souvenirs": self._count_codes(self.supply, "souvenir"),
            "encounter_face": self._codes(self.enc_face),
            "encounter_deck_size": len(self.enc_deck),
            "story_face": self._codes(self.story_face),
            "story_deck_size": len(self.story_deck),
            "inn_queue": self.queue[:] if self.inn_stage else [],
            "edo_order": self.edo_order[:],
            # each player's points by part (scoring.PARTS and total), as if the game ended now
            # (docs/tokaido.md "Live points"): all from face-up cards and coins, so public,
            # like the scoring track of the board the players watch during play
            "points": self.breakdown(),
        }

    def observation(self, player: int) -> dict[str, Any]:
        """Everything on the table is face up; only the two pile orders stay hidden. `points`
        holds each player's points by part (scoring.PARTS, `total`) as if the game ended now.

        :raises RulesError: no such player.
        """
        return {"player": self.check_seat(player), **self._public()}

    def facts(self) -> dict[str, Any]:
        parts = self.breakdown()
        temple_groups = [[sum(h[i] for i in self.rules.deck_kinds["temple"]
                              if self.rules.kinds[i].group == g) for g in (1, 2, 3)]
                         for h in self.held]
        return {
            **self._public(),
            "is_terminal": self.is_terminal(),
            "winner": self.winner(),
            "points": [r["total"] for r in parts],
            "space": [self.rules.spaces[i] for i in self.pos],
            "temple_counts": temple_groups,
            **{f"{k}_points": [r[k] for r in parts] for k in parts[0] if k != "total"},
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-ready: the public view, the arrival stamps, the inn's stage,
        the actions so far, the walks made on their own, the travellers an inn passed over and
        the stops that did nothing, both piles top first and the RNG state; `from_dict` reads
        it back."""
        return {
            **self._public(),
            "stamp": self.stamp[:], "clock": self.clock, "inn_stage": self.inn_stage,
            "actor": self.actor, "turns": self.turns,
            "walks": [list(w) for w in self.walks],
            "passes": [list(x) for x in self.passes],
            "idle": [list(x) for x in self.idle],
            "encounter_deck": self._codes(self.enc_deck[::-1]),
            "story_deck": self._codes(self.story_deck[::-1]),
            "rng": rng_to_json(self._rng),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TokaidoState:
        """The state `to_dict` wrote (the rules data read afresh).

        :raises SetupError: a missing key, an unknown card code or character, or a value of the
            wrong kind.
        """
        rules = load_rules()
        try:
            def idx(code: str) -> int:
                return rules.by_code[code].idx

            def counts(m: dict[str, int]) -> list[int]:
                row = [0] * len(rules.kinds)
                for code, c in m.items():
                    row[idx(code)] = int(c)
                return row

            s = cls(rules, list(data["characters"]), rng_from_json(data["rng"]))
            s.phase = Phase(data["phase"])
            s.actor = int(data["actor"])
            s.pos = [int(x) for x in data["position"]]
            s.stamp = [int(x) for x in data["stamp"]]
            s.clock = int(data["clock"])
            s.coins = [int(x) for x in data["coins"]]
            s.held = [counts(h) for h in data["collected"]]
            s.meal_rows = [counts(r) for r in data["meal_rows"]]
            s.pano_rows = [counts(r) for r in data["panorama_rows"]]
            s.supply = [a + b for a, b in zip(counts(data["temples"]), counts(data["souvenirs"]),
                                              strict=True)]
            s.enc_face = [idx(c) for c in data["encounter_face"]]
            s.enc_deck = [idx(c) for c in reversed(data["encounter_deck"])]
            s.story_face = [idx(c) for c in data["story_face"]]
            s.story_deck = [idx(c) for c in reversed(data["story_deck"])]
            s.inn_stage = int(data["inn_stage"])
            s.queue = [int(x) for x in data["inn_queue"]]
            s.edo_order = [int(x) for x in data["edo_order"]]
            s.turns = int(data.get("turns", 0))  # absent in states stored before them
            s.walks = tuple((int(a), int(p), int(n)) for a, p, n in data.get("walks", []))
            s.passes = tuple((int(a), int(p), _why(w)) for a, p, w in data.get("passes", []))
            s.idle = tuple((int(a), int(p), int(n), _why(w))
                           for a, p, n, w in data.get("idle", []))  # absent before them
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            if isinstance(e, RulesError):
                raise
            raise SetupError(f"not a stored Tokaido state: {type(e).__name__} {e}") from None
        n = s.num_players
        if any(len(x) != n for x in (s.pos, s.stamp, s.coins, s.held)):
            raise SetupError("not a stored Tokaido state: one position, stamp, coin count and "
                             "collection per seat")
        return s
