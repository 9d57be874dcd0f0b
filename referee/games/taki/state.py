"""The TAKI state machine: the rules of seed file 003_9e33af30550492fe.txt with the rulings of
RULINGS.md (TAKI).

Variant: 116 cards, 2-10 players, matching on the active colour (kept apart from the leading
card) or the leading card's symbol; Stop, +2 stacks, Change Direction, Change Color, TAKI runs
(open and closed), Super TAKI, King, Plus, +3 with its answer window, the +3 Breaker in one's
own turn, the "last card" call and its 4-card penalty; the 8-stage tournament as an option.
docs/taki.md lists every ruling this module makes where the texts are silent.

Encoding: cards are ints (cards.py); hands are sorted lists of cards; the draw pile is a list
with its top at the end; the discard pile is bottom first. The *leading card* is the card to
follow: the top of the discard pile, except that +3 Breakers lie on it without replacing it.
A turn moves through phases: TURN (its start), RUN (inside one's own TAKI run), KING (after a
King: one card or `end`), PLUS (after a Plus: a card or `draw`); ANSWER is the +3 window, where
each other player decides `break` or `pass` in turn order.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from typing import Any

from referee.games.engine import (
    TERMINAL,
    GameInfo,
    RulesError,
    SetupError,
    State,
    rng_from_json,
    rng_to_json,
)
from referee.games.taki.actions import (
    A_BREAK,
    A_CLOSE,
    A_DRAW,
    A_END,
    A_PASS,
    BREAK,
    CLOSE,
    COLOR_PLAY,
    DRAW,
    END,
    LAST_OF,
    PASS,
    PLAY,
    PLAY_OF,
    Action,
    parse_action,
)
from referee.games.taki.cards import (
    BREAKER,
    CHANGE_COLOR,
    COLOR_OF,
    COLORS,
    DIR,
    HAND_SIZE,
    KING,
    PLUS,
    PLUS2,
    PLUS3,
    RANK_OF,
    STOP,
    SUPERTAKI,
    TAKI,
    card_name,
    parse_card,
)
from referee.games.taki.inference import PASSED_OVER, deal_hand, declined, passed_over, shed
from referee.games.taki.phases import (
    ANSWER,
    KING_PHASE,
    OVER,
    PLUS_PHASE,
    RUN,
    TURN,
    Phase,
    playable,
)
from referee.games.taki.refusals import refusal

NO_EFFECT = -1


# One action with the public context it was taken in (TakiState.recent): phase, pending draw,
# taki_open, leading card, active colour, run colour (-1: none), run length, the action.
Context = tuple[Phase, int, bool, int, int, int, int, Action]


def legal_in(hand: list[int], phase: Phase, pending: int, taki_open: bool, lead: int,
             color: int, run_color: int, run_len: int) -> list[Action]:
    """The legal actions of a player holding `hand` (sorted card codes) in the given public
    context: plays in card order, then draw/close/end, then the same with the "last card"
    call when the hand holds 2 cards or fewer; in the +3 window `break` (holding a BREAKER)
    and `pass`; none when the game is over. A new list."""
    if phase is ANSWER:
        return [A_BREAK, A_PASS] if BREAKER in hand else [A_PASS]
    ok = playable(phase, pending, taki_open, lead, color, run_color)
    if ok is None:
        return []
    if phase is RUN:
        tail: tuple[Action, ...] = (A_CLOSE, A_END) if run_len else (A_END,)
    else:
        tail = (A_END,) if phase is KING_PHASE else (A_DRAW,)
    out: list[Action] = []
    prev = -1
    for k in hand:
        if k != prev:
            prev = k
            if ok[k]:
                if k == CHANGE_COLOR:
                    out.extend(COLOR_PLAY)
                else:
                    out.append(PLAY_OF[k])
    out.extend(tail)
    if len(hand) <= 2:  # the "last card" call, offered while it can matter
        out += [LAST_OF[a] for a in out]
    return out


class TakiState(State):
    """One TAKI game. Build it with `setup.new_game` or `setup.from_setup`."""

    game: GameInfo
    _lists = ("_deck", "_discard", "_stages", "_log", "_named")
    _nested = ("_hands", "_slots", "_recent")

    def __init__(self, hands: list[list[int]], deck: list[int], discard: list[int],
                 color: int, *, rng: random.Random, direction: int = 1, current: int = 0,
                 pending: int = 0, taki_open: bool = False, tournament: bool = False,
                 stages: list[int] | None = None, above_lead: int = 0) -> None:
        self.num_players = len(hands)
        self._hands = [sorted(h) for h in hands]
        self._deck = deck  # top last
        self._discard = discard  # bottom first
        self._above = above_lead  # Breakers lying on the leading card
        self._lead = discard[-1 - above_lead]
        self._color = color
        self._dir = direction
        self._cur = current
        self._phase: Phase = TURN
        self._pending = pending  # cards the active +2 stack makes the next decision draw
        self._taki_open = taki_open  # a TAKI run on the table is not closed
        self._run_color = color if taki_open else -1
        self._run_len = 0  # cards played after the TAKI in the current player's run
        self._called = False  # "last card" declared in this turn
        self._owner = -1  # the +3's player while its answer window is open
        self._winner = -1
        self._tournament = tournament
        self._stages = list(stages) if stages else [HAND_SIZE] * self.num_players
        self._rng = rng
        self._legal: list[Action] | None = None
        # The public record: (seat, action) per action and (seat, n) per n cards drawn.
        self._log: list[tuple[int, Action | int]] = []
        # Per seat, one mask per card in hand, oldest first: the kinds that card is unlikely
        # to be, learnt from public events only (inference.py, `determinize`).
        self._slots: list[list[int]] = [[0] * len(h) for h in self._hands]
        # Per seat, the colour it named with its last action if that was a Change Color, or -1.
        self._named: list[int] = [-1] * self.num_players
        # Per seat, its actions since it last drew, each with the public context it was taken
        # in, oldest first (see `recent`): with no draw since, its hand then was its hand now
        # plus the cards it played since, which lets a search weigh a deal by a model of play.
        self._recent: list[list[Context]] = [[] for _ in range(self.num_players)]

    # ---- the OpenSpiel-shaped API -------------------------------------------------------

    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._winner >= 0

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The current player's legal actions: plays in card order, then draw/close/end, then
        the same with the "last card" call when the player holds 2 cards or fewer; in the +3
        window `break` (holding a BREAKER) and `pass`. Other seats have none."""
        if player is not None and player != self._cur:
            return []
        legal = self._legal
        return list(legal if legal is not None else self._gen())

    def call_counts(self, action: Action) -> bool:
        """Whether the "last card" call made with the legal `action` can change anything:
        the action ends its player's turn with exactly one card in hand (RULINGS.md TAKI
        "Last card": the call is due when a turn ends with one card). The engine offers the
        call with every action while the hand holds 2 cards or fewer (`legal_in`, docs/taki.md
        ruling 1), and with most of them it changes nothing: a draw, a card that wins, a +3
        Breaker that draws 3, or a card after which the turn goes on (a TAKI, a King, a Plus:
        the call can come with the action that ends the turn). A phone offers the call with
        the actions where it counts. Played out on a copy; what it reads (the seat's own
        hand, the public table, the draw pile's size) tells the seat nothing hidden."""
        called = LAST_OF.get(action)
        if called is None or self._phase is ANSWER or called not in self.legal_actions():
            return False
        p = self._cur
        c = self.clone()
        c._act(called)
        # `_end_turn` clears the call: still set, the turn goes on (or the hand was emptied)
        return not c._called and len(c._hands[p]) == 1

    def apply_action(self, action: Any) -> None:
        """Apply one action of the current player.

        :raises IllegalActionError: the rules forbid it now (the message names the rule); the
            state is left unchanged.
        """
        legal = self._legal
        if legal is None:
            legal = self._gen()
        if action not in legal or type(action) is not Action:
            raise refusal(self, action)
        self._legal = None
        verb = action.verb
        p = self._cur
        self._log.append((p, action))
        if verb == DRAW:
            self._recent[p].clear()
        else:
            self._recent[p].append((self._phase, self._pending, self._taki_open, self._lead,
                                    self._color, self._run_color, self._run_len, action))
        named = self._named
        if named[p] >= 0:
            named[p] = -1
        if verb == PLAY:
            k = action.card
            passed = passed_over(k, len(self._hands[p]), self._phase, self._pending,
                                 self._taki_open, self._lead, self._color,
                                 self._run_color) if PASSED_OVER else 0
            shed(self._slots[p], k)
            if passed:
                slots = self._slots[p]
                for i in range(len(slots)):
                    slots[i] |= passed
            if k == CHANGE_COLOR:
                named[p] = action.color
        elif verb == BREAK:
            shed(self._slots[p], BREAKER)
        else:  # draw, close, end, pass: the seat declined every kind it could have played
            bits = declined(self._phase, self._pending, self._taki_open, self._lead,
                            self._color, self._run_color)
            slots = self._slots[p]
            for i in range(len(slots)):
                slots[i] |= bits
        self._act(action)

    def _act(self, action: Action) -> None:
        """The rules' effect of one legal action of the current seat (no check, no public
        inference): `apply_action` after its bookkeeping, and `play_on`'s step."""
        verb = action.verb
        if action.last:
            self._called = True
        if verb == PLAY:
            self._play(action.card, action.color)
        elif verb == DRAW:
            if self._phase is TURN:
                n = self._pending or 1  # "draws the total and loses the turn"
                self._pending = 0
            else:  # after a Plus: draw one card and the turn ends
                n = 1
            self._draw(self._cur, n)
            self._end_turn(NO_EFFECT)
        elif verb == CLOSE or verb == END:
            if self._phase is KING_PHASE:
                self._end_turn(NO_EFFECT)
            else:
                self._end_run(closed=verb == CLOSE)
        elif verb == PASS:
            self._pass()
        else:
            self._break()

    def play_on(self, pick: Callable[..., Action], limit: int = -1) -> None:
        """Play on in place for a search rollout: each decision is `pick(legal, hand,
        pending_draw, in_run, color)` (legal non-empty, as `legal_actions()`; hand the
        current seat's sorted cards; TAKI's `bots.pick` signature) when more than one action
        is legal, until the game ends or `limit` actions are played (-1: no limit). The
        positions reached are those of `apply_action` with a bot choosing alike, at about
        twice the speed: no legality check, and the public inferences (slots, named colours,
        recent actions) and the action log are no longer kept in step (rollouts do not read
        them), so the state is for search rollouts only, not for views or `to_dict`."""
        hands = self._hands
        while limit and self._winner < 0:
            ph = self._phase
            hand = hands[self._cur]
            legal = legal_in(hand, ph, self._pending, self._taki_open, self._lead,
                             self._color, self._run_color, self._run_len)
            self._act(legal[0] if len(legal) == 1
                      else pick(legal, hand, self._pending, ph is RUN, self._color))
            limit -= 1
        self._legal = None

    def returns(self) -> list[float]:
        if self._winner < 0:
            return [0.0] * self.num_players
        return [1.0 if p == self._winner else 0.0 for p in range(self.num_players)]

    def scores(self) -> list[int]:
        """Per seat: the cards still to shed, hand plus the later tournament stages."""
        return [len(h) + (s * (s - 1) // 2 if self._tournament else 0)
                for h, s in zip(self._hands, self._stages, strict=True)]

    def determinize(self, player: int, rng: random.Random) -> TakiState:
        """A copy consistent with `observation(player)`: the other hands and the draw pile are
        dealt anew from their cards pooled in sorted order (their count per hand kept), and
        later refills shuffle with a fresh RNG drawn from `rng`. Only the pool's contents
        (the deck less the seat's hand and the discard pile), the hand sizes and the public
        inferences are read.

        The deal is weighted by what the other seats' moves gave away (inference.py): each
        card of a hand is drawn from the pool at random, but a kind its slot is marked
        unlikely to be is kept only with weight UNLIKELY_WEIGHT (a seat that drew on a red
        lead rarely holds red, until it draws again). The draw pile is the rest, shuffled.

        :raises RulesError: no such player.
        """
        player = self.check_seat(player)
        c = self.clone()
        c._legal = None  # the current seat's hand may be dealt anew
        others = [q for q in range(self.num_players) if q != player]
        pool = sorted([k for q in others for k in self._hands[q]] + self._deck)
        for q in others:
            c._hands[q] = deal_hand(pool, self._slots[q], self._named[q], rng)
        rng.shuffle(pool)
        c._deck = pool
        c._rng = random.Random(rng.getrandbits(64))
        return c

    # ---- read-only accessors for bots and views (card and colour codes of cards.py) ------

    def hand(self, player: int) -> tuple[int, ...]:
        """`player`'s cards, sorted card codes (hidden from the other seats)."""
        return tuple(self._hands[player])

    @property
    def phase(self) -> Phase:
        """TURN, RUN, KING_PHASE, PLUS_PHASE, ANSWER or OVER."""
        return self._phase

    @property
    def leading(self) -> int:
        """The leading card's code: the card to follow (the top of the discard pile, unless
        +3 Breakers lie on it)."""
        return self._lead

    @property
    def color(self) -> int:
        """The active colour, 0..3 for R G B Y."""
        return self._color

    @property
    def pending_draw(self) -> int:
        """The cards the active +2 stack makes the next `draw` take; 0 without a stack."""
        return self._pending

    @property
    def tournament(self) -> bool:
        """Whether the 8-stage tournament option is on."""
        return self._tournament

    # ---- legal moves ---------------------------------------------------------------------

    def _gen(self) -> list[Action]:
        ph = self._phase
        out = legal_in(self._hands[self._cur] if ph is not OVER else [], ph, self._pending,
                       self._taki_open, self._lead, self._color, self._run_color,
                       self._run_len)
        self._legal = out
        return out

    def recent(self, player: int) -> tuple[Context, ...]:
        """`player`'s actions since it last drew a card, oldest first, each as the public
        context it was taken in: (phase, pending_draw, taki_open, leading card, active colour,
        run colour or -1, run length, action). `legal_in(hand, *context[:7])` gives the legal
        actions it had then, where `hand` is its hand now plus the cards it played since."""
        return tuple(self._recent[player])

    # ---- applying ------------------------------------------------------------------------

    def _play(self, k: int, named: int) -> None:
        p = self._cur
        hand = self._hands[p]
        hand.remove(k)
        self._discard.append(k)
        if k == BREAKER:  # "the next player follows the leading card under it"
            self._above += 1
        else:
            self._lead = k
            self._above = 0
        col = COLOR_OF[k]
        if col >= 0:
            self._color = col
        elif k == CHANGE_COLOR:
            self._color = named
        ph = self._phase
        rank = RANK_OF[k]
        if ph is RUN:  # action cards inside a run have no effect (yet)
            self._run_len += 1
            if not hand and rank != PLUS:  # a Plus still acts when the run ends
                self._emptied(p)
            return
        if ph is TURN and self._taki_open:
            if col == self._run_color and not self._pending:  # continue the open TAKI
                self._phase = RUN
                self._run_len = 1
                if not hand and rank != PLUS:
                    self._emptied(p)
                return
            self._taki_open = False  # playing as usual ends the open TAKI
            self._run_color = -1
        if not hand and rank != PLUS:  # "a game never ends on a Plus"
            self._emptied(p)
            if self._winner >= 0:
                return
        if rank == TAKI or k == SUPERTAKI:  # a Super TAKI is a TAKI in the active colour
            self._phase = RUN
            self._run_color = self._color
            self._run_len = 0
            self._taki_open = True
        elif k == KING:  # cancels an active +2 stack; then one card or `end`
            self._pending = 0
            self._phase = KING_PHASE
        elif rank == PLUS:
            self._phase = PLUS_PHASE
        elif k == BREAKER:  # played in one's own turn: its player draws 3
            self._draw(p, 3)
            self._end_turn(NO_EFFECT)
        else:
            self._end_turn(k)

    def _end_run(self, closed: bool) -> None:
        """`close` or `end` of one's run: the run's last card acts now."""
        if closed:
            self._taki_open = False
            self._run_color = -1
        last = self._lead
        rank = RANK_OF[last]
        if rank == PLUS:  # the Plus acts: a card or `draw` follows, played as usual
            self._taki_open = False
            self._run_color = -1
            self._phase = PLUS_PHASE
        elif rank == TAKI or last == SUPERTAKI:
            self._end_turn(NO_EFFECT)
        else:
            self._end_turn(last)

    def _end_turn(self, effect: int) -> None:
        """The last-card check, then `effect` (the turn's acting card), then the next seat."""
        p = self._cur
        if not self._called and len(self._hands[p]) == 1:
            self._draw(p, 4)  # no "last card" call: 4 cards, before any +3 window
        self._called = False
        self._phase = TURN
        self._run_len = 0
        n = self.num_players
        step = self._dir
        if effect >= 0:
            rank = RANK_OF[effect]
            if rank == STOP:
                step += step
            elif rank == DIR:
                self._dir = step = -step
            elif rank == PLUS2:
                self._pending += 2
            elif effect == PLUS3:
                self._owner = p
                self._phase = ANSWER
        self._cur = (p + step) % n

    def _pass(self) -> None:
        n = self.num_players
        nxt = (self._cur + self._dir) % n
        if nxt != self._owner:
            self._cur = nxt
            return
        q = self._owner  # nobody broke it: every other player draws 3, in turn order
        for _ in range(n - 1):
            q = (q + self._dir) % n
            self._draw(q, 3)
        self._close_window()

    def _break(self) -> None:
        p = self._cur
        hand = self._hands[p]
        hand.remove(BREAKER)
        self._discard.append(BREAKER)
        self._above += 1  # the +3 stays the leading card; the active colour stays
        if not hand:
            self._emptied(p)
            if self._winner >= 0:
                return
        self._draw(self._owner, 3)
        self._close_window()

    def _close_window(self) -> None:
        self._phase = TURN
        self._cur = (self._owner + self._dir) % self.num_players
        self._owner = -1

    def _emptied(self, p: int) -> None:
        """An empty hand wins; in the tournament it moves its player to the next stage."""
        if self._tournament and self._stages[p] > 1:
            self._stages[p] -= 1
            self._draw(p, self._stages[p])
            return
        self._winner = p
        self._phase = OVER
        self._cur = TERMINAL

    def _draw(self, p: int, n: int) -> None:
        deck = self._deck
        hand = self._hands[p]
        got = 0
        for _ in range(n):
            if not deck:
                self._refill()
                if not deck:  # nothing left: the player draws what there is
                    break
            insort(hand, deck.pop())
            got += 1
        if got:
            self._log.append((p, got))
            self._recent[p].clear()
            self._slots[p].extend([0] * got)  # new cards: nothing known about them

    def _refill(self) -> None:
        """The discard pile under the leading card, shuffled, becomes the draw pile."""
        keep = self._above + 1
        d = self._discard
        if len(d) <= keep:
            return
        rest = d[:-keep]
        del d[:-keep]
        self._rng.shuffle(rest)
        self._deck.extend(rest)

    # ---- views ---------------------------------------------------------------------------

    def _public(self) -> dict[str, Any]:
        return {
            "current_player": None if self._cur == TERMINAL else self._cur,
            "phase": self._phase.value,
            "hand_size": [len(h) for h in self._hands],
            "top": card_name(self._discard[-1]),
            "leading": card_name(self._lead),
            "active_color": COLORS[self._color],
            "direction": self._dir,
            "pending_draw": self._pending,
            "taki_open": self._taki_open,
            "run_color": COLORS[self._run_color] if self._run_color >= 0 else None,
            "run_length": self._run_len,
            "called_last": self._called,
            "answering": self._owner if self._owner >= 0 else None,
            "deck_size": len(self._deck),
            "discard_size": len(self._discard),
            "stage": list(self._stages),
            "is_terminal": self._winner >= 0,
            "winner": self._winner if self._winner >= 0 else None,
        }

    def facts(self) -> dict[str, Any]:
        """Scenario facts (docs/taki.md "expect keys"): the public view plus all hands."""
        f = self._public()
        f["hands"] = [[card_name(k) for k in h] for h in self._hands]
        return f

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may know: own hand, counts, the discard pile, the turn state.

        :raises RulesError: no such player.
        """
        player = self.check_seat(player)
        f = self._public()
        f["player"] = player
        f["hand"] = [card_name(k) for k in self._hands[player]]
        f["discard"] = [card_name(k) for k in self._discard]
        f["tournament"] = self._tournament
        f["log"] = self._public_log()
        return f

    def _public_log(self) -> list[list[Any]]:
        """The public record, oldest first: `[seat, action]` for each action in notation
        (a card played, `draw`, `close`, ...) and `[seat, "drew N"]` for each N cards drawn
        (by a `draw`, a +3, a missed "last card" call, a stage); never a drawn card."""
        return [[p, f"drew {e}" if type(e) is int else str(e)] for p, e in self._log]

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-ready, hidden cards, the public inferences (`slots`: per seat
        one mask per card in hand; `named`: the colour each seat last named with a Change
        Color, until it acts again; `recent`: per seat its actions since it last drew, with
        their public contexts) and the RNG state included; `from_dict` reads it back."""
        return {
            "hands": [[card_name(k) for k in h] for h in self._hands],
            "deck": [card_name(k) for k in reversed(self._deck)],
            "discard": [card_name(k) for k in self._discard],
            "above_lead": self._above,
            "active_color": COLORS[self._color],
            "direction": self._dir,
            "current": self._cur,
            "phase": self._phase.value,
            "pending_draw": self._pending,
            "taki_open": self._taki_open,
            "run_color": COLORS[self._run_color] if self._run_color >= 0 else None,
            "run_length": self._run_len,
            "called_last": self._called,
            "answering": self._owner,
            "winner": self._winner,
            "tournament": self._tournament,
            "stages": list(self._stages),
            "log": self._public_log(),
            "slots": [list(m) for m in self._slots],
            "named": [COLORS[c] if c >= 0 else None for c in self._named],
            "recent": [[[ph.value, pend, open_, card_name(lead), COLORS[col],
                         COLORS[run] if run >= 0 else None, n, str(a)]
                        for ph, pend, open_, lead, col, run, n, a in row]
                       for row in self._recent],
            "rng": rng_to_json(self._rng),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TakiState:
        """The state `to_dict` wrote.

        :raises SetupError: a missing key or a value of the wrong kind.
        :raises NotationError: a card or logged action that is not in the notation.
        """
        try:
            hands = [[parse_card(c) for c in h] for h in data["hands"]]
            s = cls(hands, [parse_card(c) for c in reversed(data["deck"])],
                    [parse_card(c) for c in data["discard"]], COLORS.index(data["active_color"]),
                    rng=rng_from_json(data["rng"]), direction=int(data["direction"]),
                    current=int(data["current"]), pending=int(data["pending_draw"]),
                    taki_open=bool(data["taki_open"]), tournament=bool(data["tournament"]),
                    stages=[int(x) for x in data["stages"]], above_lead=int(data["above_lead"]))
            s._phase = Phase(data["phase"])
            run = data["run_color"]
            s._run_color = -1 if run is None else COLORS.index(run)
            s._run_len = int(data["run_length"])
            s._called = bool(data["called_last"])
            s._owner = int(data["answering"])
            s._winner = int(data["winner"])
            s._log = [(int(p), int(e[5:]) if e.startswith("drew ") else parse_action(e))
                      for p, e in data["log"]]
            s._slots = [[int(m) for m in row] for row in data["slots"]]
            s._named = [-1 if c is None else COLORS.index(c)
                        for c in data.get("named", [None] * len(hands))]
            s._recent = [[(Phase(ph), int(pend), bool(open_), parse_card(lead),
                           COLORS.index(col), -1 if run is None else COLORS.index(run), int(n),
                           parse_action(a))
                          for ph, pend, open_, lead, col, run, n, a in row]
                         for row in data.get("recent", [[]] * len(hands))]
        except (KeyError, TypeError, ValueError, IndexError) as e:
            if isinstance(e, RulesError):
                raise
            raise SetupError(f"not a stored TAKI state: {type(e).__name__} {e}") from None
        if [len(r) for r in s._slots] != [len(h) for h in s._hands]:
            raise SetupError("not a stored TAKI state: slots and hands differ in size")
        if len(s._recent) != len(hands):
            raise SetupError("not a stored TAKI state: recent actions for the wrong seats")
        return s
