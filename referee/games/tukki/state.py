"""The Tukki Tukki game state (ENGINES.md State API), rules per RULINGS.md "Tukki Tukki".

Phases of a round:
- OPENING: each player in seat order reveals 2 cards of their choice (`reveal X`); then the
  highest revealed sum plays first, a parrot counting 0, ties to the earliest seat;
- TAKE: the current player takes the top bin card or the top deck card;
- PLACE: they place it (`place X`, options (a)/(b); `place X land Y` for a floating parrot), or
  throw a deck card on the bin (`throw`, option (c));
- REVEAL: after `throw`, they reveal one face-down card of their box.

When a player's box becomes all face up, they have finished; every other player has exactly one
more turn, then all boxes are revealed and scored, and the next round is dealt at once from a
complete, freshly shuffled deck. After the last round the game is over; the lowest total wins,
ties share the win.

Storage: the deck keeps its top at the END of its list (fast pops); `to_dict` gives it top
first, as in the setup keys.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any, Literal, NoReturn, cast

from referee.games.engine import (
    TERMINAL,
    IllegalActionError,
    NotationError,
    RulesError,
    SetupError,
    State,
    register_refusals,
    rng_from_json,
    rng_to_json,
)
from referee.games.tukki.actions import (
    PLACE,
    PLACE_LAND,
    REVEAL,
    TAKE_BIN,
    TAKE_DECK,
    THROW,
    Action,
    parse_action,
)
from referee.games.tukki.cards import (
    PARROT,
    PLACES,
    Card,
    Rules,
    card_name,
    load_rules,
    parse_card,
    parse_place,
)
from referee.games.tukki.scoring import box_score


class Phase(StrEnum):
    """TukkiState.phase; its value is the name observations give."""

    OPENING = "opening"
    TAKE = "take"
    PLACE = "place"
    REVEAL = "reveal"
    OVER = "over"


OPENING = Phase.OPENING
TAKE = Phase.TAKE
PLACE_PHASE = Phase.PLACE
REVEAL_PHASE = Phase.REVEAL
OVER = Phase.OVER
UNKNOWN = "?"

# Why an action is refused (IllegalActionError codes): `action` in notation, `seat` the
# current player, `place` a box place a1-b4.
_BY = "{action} refused for player {seat}: "
register_refusals("tukki", {
    "tukki.not-an-action": "not a Tukki Tukki action: {action}",
    "tukki.game-over": "{action}: the game is over",
    "tukki.reveal-not-now": _BY + "a card is revealed only in the opening or after 'throw' "
                              "(option c)",
    "tukki.place-or-throw-first": _BY + "place the drawn card or throw it first",
    "tukki.already-up": _BY + "{place} is already face up; reveal a face-down card",
    "tukki.take-not-now": _BY + "a card is taken only at the start of a turn",
    "tukki.opening-first": _BY + "each player first reveals 2 cards",
    "tukki.bin-empty": _BY + "the bin is empty",
    "tukki.nothing-to-take": _BY + "the deck is empty and the bin has no card under its top",
    "tukki.take-first": _BY + "take a card from the bin or the deck first",
    "tukki.place-not-now": _BY + "it is not the time to place a card",
    "tukki.parrot-must-land": _BY + "the parrot on {place} floats and must land in place of a "
                                "face-down card: say 'place {place} land X'",
    "tukki.no-floating-parrot": _BY + "only a face-up parrot replaced by option (a) floats; "
                                "{place} holds no face-up parrot",
    "tukki.land-face-up": _BY + "a floating parrot lands only in place of a face-down card; "
                          "{place} is face up",
    "tukki.throw-not-now": _BY + "only a card just drawn from the deck can be thrown",
    "tukki.bin-card-placed": _BY + "a card taken from the bin must be placed, by (a) or (b)",
})


class TukkiState(State):
    """One game of Tukki Tukki. Build it with `new_game` or `from_setup` (setup.py)."""

    _lists = ("totals", "deck", "bin", "opening_left")
    _nested = ("boxes", "up")

    def __init__(self, num_players: int, rules: Rules, rng: random.Random, rounds: int) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rounds = rounds
        self._rng = rng
        self.round = 1
        self.totals = [0] * num_players
        self.round_scores: list[int] | None = None  # the last finished round's scores
        self.last_boxes: list[list[Card]] | None = None  # its boxes, all face up
        self.boxes: list[list[Card]] = []
        self.up: list[list[bool]] = []
        self.deck: list[Card] = []  # top is the last item
        self.bin: list[Card] = []  # bottom first, top is the last item
        self.phase: Phase = OPENING
        self.current = 0
        self.opening_left = [0] * num_players  # opening reveals still owed
        self.drawn: Card | None = None
        self.drawn_from: Literal["", "bin", "deck"] = ""  # where the drawn card came from
        self.finisher: int | None = None  # who finished this round first
        self.turns_left = 0  # last turns still owed after someone finished

    # ----- dealing --------------------------------------------------------------------------

    def deal_round(self) -> None:
        """Deal a round from a complete, freshly shuffled deck; start the opening reveals."""
        deck = self.rules.deck
        self._rng.shuffle(deck)
        n = self.num_players
        self.boxes = [[deck.pop() for _ in range(8)] for _ in range(n)]
        self.bin = [deck.pop()]
        self.deck = deck
        self.up = [[False] * 8 for _ in range(n)]
        self.drawn, self.drawn_from = None, ""
        self.finisher, self.turns_left = None, 0
        self.opening_left = [self.rules.opening_reveals] * n
        self.phase, self.current = OPENING, 0

    # ----- the State API --------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase is OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase is OVER

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase is OVER or (player is not None and player != self.current):
            return []
        up = self.up[self.current]
        phase = self.phase
        if phase is TAKE:
            out = []
            if self.bin:
                out.append(TAKE_BIN)
            if self.deck or len(self.bin) > 1:
                out.append(TAKE_DECK)
            return out
        if phase is PLACE_PHASE:
            out = self.place_actions()
            if self.drawn_from == "deck":
                out.append(THROW)
            return out
        return [REVEAL[j] for j in range(8) if not up[j]]  # OPENING, REVEAL_PHASE

    def place_actions(self) -> list[Action]:
        """The current player's `place` actions for a card in hand (options a and b): over a
        face-up parrot, one per face-down landing place, since the parrot floats."""
        box, up = self.boxes[self.current], self.up[self.current]
        down = [j for j in range(8) if not up[j]]
        out: list[Action] = []
        for i in range(8):
            if up[i] and box[i] == PARROT and down:
                out.extend(PLACE_LAND[i][j] for j in down)
            else:
                out.append(PLACE[i])
        return out

    def apply_action(self, action: Action | str) -> None:
        """Apply one action of the current player (an `Action`, or its notation).

        :raises NotationError: the text or value is no Tukki Tukki action.
        :raises IllegalActionError: the rules forbid it now; the message names the rule, and
            the state is left unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, Action):
            raise NotationError("tukki.not-an-action", action=repr(action))
        phase, kind = self.phase, action.kind
        if phase is OVER:
            raise IllegalActionError("tukki.game-over", action=str(action))
        if kind == "reveal":
            self._reveal(action)
        elif kind == "take":
            self._take(action)
        elif kind == "place":
            self._place(action)
        else:
            self._throw(action)

    # ----- the actions ----------------------------------------------------------------------

    def _refuse(self, action: Action, code: str, **params: Any) -> NoReturn:
        raise IllegalActionError(code, action=str(action), seat=self.current, **params)

    def _reveal(self, a: Action) -> None:
        p, phase = self.current, self.phase
        if phase not in (OPENING, REVEAL_PHASE):
            self._refuse(a, "tukki.reveal-not-now" if phase is TAKE
                         else "tukki.place-or-throw-first")
        if self.up[p][a.place]:
            self._refuse(a, "tukki.already-up", place=PLACES[a.place])
        self.up[p][a.place] = True
        if phase is OPENING:
            self.opening_left[p] -= 1
            if self.opening_left[p] == 0:
                self._next_opener()
        else:
            self._end_turn()

    def _take(self, a: Action) -> None:
        if self.phase is not TAKE:
            self._refuse(a, "tukki.take-not-now" if self.phase is not OPENING
                         else "tukki.opening-first")
        if a.source == "bin":
            if not self.bin:
                self._refuse(a, "tukki.bin-empty")
            self.drawn = self.bin.pop()
        else:
            if not self.deck:
                if len(self.bin) < 2:
                    self._refuse(a, "tukki.nothing-to-take")
                top = self.bin.pop()  # refill from the bin under its top card
                self.deck, self.bin = self.bin, [top]
                self._rng.shuffle(self.deck)
            self.drawn = self.deck.pop()
        self.drawn_from = a.source
        self.phase = PLACE_PHASE

    def _place(self, a: Action) -> None:
        if self.phase is not PLACE_PHASE:
            self._refuse(a, "tukki.take-first" if self.phase is TAKE
                         else "tukki.place-not-now")
        p, i, j = self.current, a.place, a.land
        box, up = self.boxes[p], self.up[p]
        floats = up[i] and box[i] == PARROT
        has_down = not all(up)
        if floats and has_down and j < 0:
            self._refuse(a, "tukki.parrot-must-land", place=PLACES[i])
        if j >= 0:
            if not floats:
                self._refuse(a, "tukki.no-floating-parrot", place=PLACES[i])
            if up[j]:
                self._refuse(a, "tukki.land-face-up", place=PLACES[j])
        old = box[i]
        box[i], up[i] = cast(int, self.drawn), True
        if j >= 0:  # the floating parrot lands; the face-down card goes to the bin unseen
            self.bin.append(box[j])
            box[j], up[j] = old, True
        else:  # (a) or (b): the replaced card goes to the bin, face up for all
            self.bin.append(old)
        self.drawn, self.drawn_from = None, ""
        self._end_turn()

    def _throw(self, a: Action) -> None:
        if self.phase is not PLACE_PHASE:
            self._refuse(a, "tukki.throw-not-now")
        if self.drawn_from != "deck":
            self._refuse(a, "tukki.bin-card-placed")
        self.bin.append(cast(int, self.drawn))
        self.drawn, self.drawn_from = None, ""
        self.phase = REVEAL_PHASE

    # ----- turn and round flow --------------------------------------------------------------

    def _next_opener(self) -> None:
        n = self.num_players
        for k in range(1, n + 1):
            q = (self.current + k) % n
            if self.opening_left[q] > 0:
                self.current = q
                return
        self.current = self.starter()
        self.phase = TAKE

    def starter(self) -> int:
        """Who plays first: the highest sum of face-up cards, a parrot counting 0 (rules data
        `opening_parrot_value`); ties go to the earliest seat."""
        pv = self.rules.opening_parrot_value

        def total(p: int) -> int:
            return sum(pv if c == PARROT else c
                       for c, u in zip(self.boxes[p], self.up[p], strict=True) if u)

        return max(range(self.num_players), key=lambda p: (total(p), -p))

    def _end_turn(self) -> None:
        p = self.current
        if self.finisher is None:
            if all(self.up[p]):
                self.finisher, self.turns_left = p, self.num_players - 1
        else:
            self.turns_left -= 1
            if self.turns_left <= 0:
                self._end_round()
                return
        self.current = (p + 1) % self.num_players
        self.phase = TAKE

    def _end_round(self) -> None:
        """Reveal every box, score it, and deal the next round or end the game."""
        for u in self.up:
            u[:] = [True] * 8
        self.round_scores = [box_score(b, self.rules) for b in self.boxes]
        self.totals = [t + s for t, s in zip(self.totals, self.round_scores, strict=True)]
        self.last_boxes = [b[:] for b in self.boxes]
        if self.round >= self.rounds:
            self.phase = OVER
            return
        self.round += 1
        self.deal_round()

    # ----- results --------------------------------------------------------------------------

    def winners(self) -> list[int]:
        """Seats with the lowest total (several share the win); empty before the end."""
        if self.phase is not OVER:
            return []
        low = min(self.totals)
        return [p for p, t in enumerate(self.totals) if t == low]

    def returns(self) -> list[float]:
        w = self.winners()
        return [1.0 if p in w else 0.0 for p in range(self.num_players)]

    def scores(self) -> list[int]:
        return list(self.totals)

    # ----- views ----------------------------------------------------------------------------

    def shown_box(self, p: int) -> list[str]:
        """Player p's box as everyone sees it: notation, `?` for a face-down card."""
        return [card_name(c) if u else UNKNOWN
                for c, u in zip(self.boxes[p], self.up[p], strict=True)]

    def shown_values(self, p: int) -> list[int | str]:
        """The value of each face-up card; `?` when face down or a parrot whose partner is
        face down; a parrot copies its partner, two parrots are worth 0."""
        box, up = self.boxes[p], self.up[p]
        out: list[int | str] = []
        for i in range(8):
            c = box[i]
            if not up[i]:
                out.append(UNKNOWN)
            elif c != PARROT:
                out.append(c)
            else:
                q = (i + 4) % 8
                out.append(UNKNOWN if not up[q] else 0 if box[q] == PARROT else box[q])
        return out

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` sees: every box's face-up cards, the bin, counts, whose turn it is.

        :raises RulesError: no such player.

        Face-down cards are unknown to everyone, their owner too (the box is laid unseen).
        A card drawn from the deck is seen only by its drawer until it is placed or thrown.
        """
        player = self.check_seat(player)
        drawn = None
        if self.drawn is not None:
            seen = self.drawn_from == "bin" or player == self.current
            drawn = card_name(self.drawn) if seen else UNKNOWN
        return {
            "player": player,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase.value,
            "current_player": self.current_player(),
            "boxes": [self.shown_box(p) for p in range(self.num_players)],
            "values": [self.shown_values(p) for p in range(self.num_players)],
            "bin": [card_name(c) for c in self.bin],
            "deck_size": len(self.deck),
            "drawn": drawn,
            "drawn_from": self.drawn_from or None,
            "finisher": self.finisher,
            "turns_left": self.turns_left,
            "opening_left": list(self.opening_left) if self.phase is OPENING else None,
            "totals": list(self.totals),
            "round_scores": None if self.round_scores is None else list(self.round_scores),
            "last_boxes": None if self.last_boxes is None
            else [[card_name(c) for c in b] for b in self.last_boxes],
        }

    def facts(self) -> dict[str, Any]:
        """Scenario `expect` keys (docs/tukki.md)."""
        w = self.winners()
        return {
            "current_player": self.current_player(),
            "phase": self.phase.value,
            "is_terminal": self.phase is OVER,
            "box": [self.shown_box(p) for p in range(self.num_players)],
            "values": [self.shown_values(p) for p in range(self.num_players)],
            "bin_top": card_name(self.bin[-1]) if self.bin else None,
            "bin_size": len(self.bin),
            "deck_size": len(self.deck),
            "drawn": None if self.drawn is None else card_name(self.drawn),
            "round": self.round,
            "totals": list(self.totals),
            "round_scores": None if self.round_scores is None else list(self.round_scores),
            "last_boxes": None if self.last_boxes is None
            else [[card_name(c) for c in b] for b in self.last_boxes],
            "finisher": self.finisher,
            "turns_left": self.turns_left,
            "winner": None if not w else w[0] if len(w) == 1 else w,
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-ready, hidden cards and the RNG state included; `from_dict`
        reads it back."""
        return {
            "game": "tukki",
            "num_players": self.num_players,
            "rounds": self.rounds,
            "round": self.round,
            "phase": self.phase.value,
            "current": self.current,
            "boxes": [[card_name(c) for c in b] for b in self.boxes],
            "up": [[PLACES[i] for i in range(8) if u[i]] for u in self.up],
            "deck": [card_name(c) for c in reversed(self.deck)],
            "bin": [card_name(c) for c in self.bin],
            "drawn": None if self.drawn is None else card_name(self.drawn),
            "drawn_from": self.drawn_from or None,
            "opening_left": list(self.opening_left),
            "finisher": self.finisher,
            "turns_left": self.turns_left,
            "totals": list(self.totals),
            "round_scores": self.round_scores and list(self.round_scores),
            "last_boxes": self.last_boxes and [[card_name(c) for c in b]
                                               for b in self.last_boxes],
            "rng": rng_to_json(self._rng),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TukkiState:
        """The state `to_dict` wrote (the rules data read afresh).

        :raises SetupError: a missing key or a value of the wrong kind.
        :raises NotationError: a card or place that is not in the notation.
        """
        try:
            s = cls(int(data["num_players"]), load_rules(), rng_from_json(data["rng"]),
                    int(data["rounds"]))
            s.round = int(data["round"])
            s.phase = Phase(data["phase"])
            s.current = int(data["current"])
            s.boxes = [[parse_card(c) for c in b] for b in data["boxes"]]
            ups = [{parse_place(name) for name in u} for u in data["up"]]
            s.up = [[i in u for i in range(8)] for u in ups]
            s.deck = [parse_card(c) for c in reversed(data["deck"])]
            s.bin = [parse_card(c) for c in data["bin"]]
            s.drawn = None if data["drawn"] is None else parse_card(data["drawn"])
            drawn_from = data["drawn_from"] or ""
            if drawn_from not in ("", "bin", "deck"):
                raise ValueError(f"drawn_from {drawn_from!r}")
            s.drawn_from = cast(Literal["", "bin", "deck"], drawn_from)
            s.opening_left = [int(x) for x in data["opening_left"]]
            s.finisher = None if data["finisher"] is None else int(data["finisher"])
            s.turns_left = int(data["turns_left"])
            s.totals = [int(x) for x in data["totals"]]
            rs, lb = data["round_scores"], data["last_boxes"]
            s.round_scores = None if rs is None else [int(x) for x in rs]
            s.last_boxes = None if lb is None else [[parse_card(c) for c in b] for b in lb]
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, RulesError):
                raise
            raise SetupError(f"not a stored Tukki Tukki state: {type(e).__name__} {e}") from None
        if len(s.boxes) != s.num_players or len(s.up) != s.num_players:
            raise SetupError("not a stored Tukki Tukki state: one box and one up list per seat")
        return s

    def determinize(self, player: int, rng: random.Random) -> TukkiState:
        """A copy consistent with `observation(player)`: every card nobody shows `player` (the
        deck, all face-down cards, their own too, and a card another seat drew from the deck)
        dealt anew from those cards pooled in sorted order; later rounds are dealt with a fresh
        RNG drawn from `rng`.

        :raises RulesError: no such player.
        """
        player = self.check_seat(player)
        c = self.clone()
        down = [(p, i) for p in range(self.num_players) for i in range(8) if not self.up[p][i]]
        pool = self.deck + [self.boxes[p][i] for p, i in down]
        hidden_draw = self.drawn is not None and self.drawn_from == "deck" \
            and player != self.current
        if hidden_draw:
            pool.append(cast(int, self.drawn))
        pool.sort()
        rng.shuffle(pool)
        if hidden_draw:
            c.drawn = pool.pop()
        for p, i in down:
            c.boxes[p][i] = pool.pop()
        c.deck = pool
        c._rng = random.Random(rng.getrandbits(64))
        return c

    def all_cards(self) -> list[Card]:
        """Every card of the round in play: deck, bin, boxes and a drawn card (conservation)."""
        out = self.deck + self.bin + [c for b in self.boxes for c in b]
        return out + ([self.drawn] if self.drawn is not None else [])


def cut_to_round(state: TukkiState) -> None:
    """Make `state` end with its current round (its totals then decide), for search rollouts."""
    state.rounds = state.round
