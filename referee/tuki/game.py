"""The Tuki game around the camera referee: commands -> events -> state (a fold). Pure.

Rules: RULINGS.md "Tuki" (players, levels, stations, lookout, a round, penalty card, both
endings) and the rules text (seed file 000_6f55b70a1dca9dfe.txt, in English in docs/RULINGS.md,
Tuki). Wiring for the server, in four lines:

    state = replay(stored_events)              # TukiState; replay([]) is the empty table
    events = decide(state, Done(player=1, verdict=verdict.to_dict()))   # or IllegalCommandError
    for e in events: store(e.to_dict()); state = apply(state, e)
    push(state.to_dict())                       # JSON for the phones

Commands (small dataclasses; players are seat indexes 0..n-1):
- `NewGame(players, level, lookout=0, places=None, deck=None)`: 2-4 names; `places` names the
  build places (stations), one per builder (min(n, 3)); `deck` is an optional card-id order.
- `StartRound(card_id, target, die, by=None)`: the lookout rolled `die` ("fish+white") and set
  the card; `target` is the turned grid (cards.turn). With a deck in the state the card must be
  in it (unless the deck is used up) and leaves it.
- `Done(player, verdict=None)`: a builder declares done; `verdict` is the judge's dict for the
  photo taken at that moment (WORLD.md §4 shape), or None to give it later with `Judge`.
- `Judge(player, verdict)`: the verdict of a build that has none yet, e.g. the last builder's,
  whose building stops when the round ends.
- `Decide(player, builder, correct)`: the lookout's decision on an unsure build. For the
  lookout's own unsure build (2-3 players) every other player votes once; a tie is correct.
- `NewGame` again once a game has ended: a rematch at the same table (round numbers go on).
- `VoidRound(by)`: the lookout ends the round by hand; nobody takes the card, it goes under
  the deck, and the same lookout starts again.
- `EndGame()`: the table stops before the rules end the game (the family goes home; our
  ruling, the texts are silent): `game_ended` with no winner, the penalty cards stay taken.
- `Retake(player)`: a build judged unsure because of the photo itself (`mat:`, `photo:`,
  `camera:` reasons) gets a new photo: the verdict is dropped (event `retake`) and the new
  photo's `Judge` follows.
- `Overrule(player, builder, correct)`: the lookout finds a questioned sure verdict wrong
  while the round's penalty is not yet given (phase settling); it counts as the lookout's
  decision (event `decision` with `overrule`). Not on the lookout's own build.

Events (`Event(kind, data)`, data JSON-ready): game_started, round_started, done, judged,
round_closed, decision, penalty, final_round, out, final_round_failed, game_ended,
round_voided. `decide` adds the consequences (round_closed, penalty, ...) itself, so the state
is always the fold of stored events and never computes on its own.

Rulings where the texts are silent (ours):
- The verdicts come with the commands; the game never judges. A build is settled when its
  verdict is correct or wrong, or unsure and decided.
- The penalty is given when the round has ended and every build is settled.
- The deck in the state is optional; a void round puts its card at the bottom of it; a card
  taken as a penalty leaves it. An empty deck accepts any card (the table reshuffles), and a
  void round leaves it empty.
- Final round: each "done" is judged at once; the earliest declared build that is correct (or
  decided correct) wins; a build decided or judged wrong is out; a later correct build cannot
  win while an earlier unsure one waits for its decision.
- In a 3-player final round the lookout's place stays empty; in 4 players the hand-over gives
  the old lookout the new lookout's place, as in every round.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from referee.errors import RefereeError
from referee.tuki.cards import parse_grid
from referee.tuki.commands import (
    Command,
    Decide,
    Done,
    EndGame,
    Judge,
    NewGame,
    Overrule,
    Retake,
    StartRound,
    VoidRound,
)
from referee.tuki.die import DieFace
from referee.tuki.judge import Verdict
from referee.tuki.pieces import level_stones

# the commands (commands.py) are part of this module's API: callers write game.Done(...)
__all__ = [
    "Command", "Decide", "Done", "EndGame", "Judge", "NewGame", "Overrule", "Retake",
    "StartRound", "VoidRound", "PENALTY_LIMIT", "MAX_BUILDERS", "Phase", "BuilderStatus",
    "Result", "IllegalCommandError", "PHOTO_REASONS", "ENDED_BY_TABLE", "Event", "Builder",
    "TukiState", "apply", "replay", "decide", "photo_caused",
]

PENALTY_LIMIT = 5  # "whoever takes their fifth penalty card"
MAX_BUILDERS = 3  # "a box holds three sets"

# the table's phase (TukiState.phase) and a builder's status in the round (Builder.status)
Phase = Literal["setup", "between", "building", "settling", "ended"]
BuilderStatus = Literal["building", "done", "stopped", "out"]
Result = Literal["correct", "wrong"]  # a settled build (Builder.result)


class IllegalCommandError(RefereeError):
    """A command the rules do not allow now; the state is unchanged."""


PHOTO_REASONS = ("mat", "photo", "camera")
ENDED_BY_TABLE = "ended by the table"



@dataclass(frozen=True)
class Event:
    """What happened: `kind` and JSON-ready `data`. Stored as `to_dict()`."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        """From a stored `to_dict()`. :raises KeyError: no `kind`."""
        return cls(str(d["kind"]), dict(d.get("data", {})))


# ---- state -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Builder:
    """One builder in the current round. status: building | done | stopped (still building
    when the round ended: finished last) | out (final round, wrong)."""

    player: int
    place: int
    status: BuilderStatus = "building"
    verdict: Verdict | None = None
    decision: bool | None = None
    votes: tuple[tuple[int, bool], ...] = ()

    def result(self) -> Result | None:
        """correct | wrong once settled, else None."""
        if self.verdict is None:
            return None
        if self.decision is not None and self.verdict.verdict != "unsure":  # overruled
            return "correct" if self.decision else "wrong"
        if self.verdict.verdict == "unsure":
            return None if self.decision is None else ("correct" if self.decision else "wrong")
        return self.verdict.verdict

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with `votes` keyed by seat and the settled `result`."""
        return {"player": self.player, "place": self.place, "status": self.status,
                "verdict": self.verdict.to_dict() if self.verdict else None,
                "decision": self.decision, "votes": {str(p): v for p, v in self.votes},
                "result": self.result()}


@dataclass(frozen=True)
class TukiState:
    """The table. phase: setup | between (waiting for a round) | building | settling (round
    ended, verdicts or decisions missing) | ended. Seats are indexes into `players`."""

    players: tuple[str, ...] = ()
    level: str = "normal"
    places: tuple[str, ...] = ()
    seat_place: tuple[int | None, ...] = ()
    lookout: int = 0
    deck: tuple[str, ...] = ()
    phase: Phase = "setup"
    round_no: int = 0
    card_id: str | None = None
    target: tuple[str, ...] = ()
    die: str | None = None
    builders: tuple[Builder, ...] = ()
    done_order: tuple[int, ...] = ()
    penalties: tuple[tuple[str, ...], ...] = ()
    final: bool = False
    winners: tuple[int, ...] = ()
    end_reason: str = ""
    events: int = 0

    @property
    def ended(self) -> bool:
        """Whether the game is over (phase `ended`)."""
        return self.phase == "ended"

    @property
    def ended_by_table(self) -> bool:
        """Whether the table's owner ended it (`EndGame`) rather than its rules."""
        return self.ended and self.end_reason == ENDED_BY_TABLE

    def builder(self, player: int) -> Builder | None:
        """Seat `player`'s build in the current round, or None when they do not build."""
        return next((b for b in self.builders if b.player == player), None)

    def waiting(self) -> list[dict[str, Any]]:
        """Unsure builds waiting for a decision, and who may decide them."""
        out = []
        for b in self.builders:
            if b.verdict is not None and b.verdict.verdict == "unsure" and b.decision is None:
                voters = self._voters(b.player)
                out.append({"builder": b.player, "deciders": voters,
                            "voted": [p for p, _ in b.votes]})
        return out

    def _voters(self, builder: int) -> list[int]:
        if builder == self.lookout:
            return [p for p in range(len(self.players)) if p != self.lookout]
        return [self.lookout]

    def to_dict(self) -> dict[str, Any]:
        """JSON for the phone dashboard."""
        return {
            "players": list(self.players), "level": self.level, "places": list(self.places),
            "seat_place": list(self.seat_place), "lookout": self.lookout, "deck": list(self.deck),
            "phase": self.phase, "round": self.round_no, "card_id": self.card_id,
            "target": list(self.target), "die": self.die,
            "builders": [b.to_dict() | {"name": self.players[b.player],
                                        "place_name": self.places[b.place]}
                         for b in self.builders],
            "done_order": list(self.done_order),
            "penalties": [len(p) for p in self.penalties],
            "penalty_cards": [list(p) for p in self.penalties],
            "waiting": self.waiting(), "final_round": self.final,
            "winners": list(self.winners), "ended": self.ended, "end_reason": self.end_reason,
            "events": self.events,
        }


# ---- apply: the fold ---------------------------------------------------------------------

def _set_builder(state: TukiState, player: int, **changes: Any) -> tuple[Builder, ...]:
    return tuple(replace(b, **changes) if b.player == player else b for b in state.builders)


def apply(state: TukiState, event: Event) -> TukiState:
    """The state after one event. Events come from `decide`; they are trusted here."""
    d, k = event.data, event.kind
    s = replace(state, events=state.events + 1)
    if k == "game_started":
        n = len(d["players"])
        # a rematch starts afresh; its rounds go on counting, so each round keeps its number
        s = replace(TukiState(), events=s.events, round_no=s.round_no)
        return replace(s, players=tuple(d["players"]), level=d["level"],
                       places=tuple(d["places"]), seat_place=tuple(d["seat_place"]),
                       lookout=d["lookout"], deck=tuple(d["deck"]), phase="between",
                       penalties=((),) * n)
    if k == "round_started":
        builders = tuple(Builder(p, pl) for p, pl in d["builders"])
        return replace(s, phase="building", round_no=s.round_no + 1, card_id=d["card_id"],
                       target=tuple(d["target"]), die=d["die"], builders=builders,
                       done_order=(), deck=tuple(c for c in s.deck if c != d["card_id"]))
    if k == "done":
        v = Verdict.from_dict(d["verdict"]) if d.get("verdict") else None
        return replace(s, builders=_set_builder(s, d["player"], status="done", verdict=v),
                       done_order=s.done_order + (d["player"],))
    if k == "judged":
        return replace(s, builders=_set_builder(s, d["player"],
                                                verdict=Verdict.from_dict(d["verdict"])))
    if k == "round_closed":
        return replace(s, phase="settling",
                       builders=_set_builder(s, d["last"], status="stopped"))
    if k == "decision":
        b = s.builder(d["builder"])
        assert b is not None
        votes = b.votes + ((d["by"], d["vote"]),) if "vote" in d else b.votes
        return replace(s, builders=_set_builder(s, b.player, votes=votes,
                                                decision=d.get("correct", b.decision)))
    if k == "retake":
        return replace(s, builders=_set_builder(s, d["player"], verdict=None, votes=()))
    if k == "out":
        return replace(s, builders=_set_builder(s, d["player"], status="out"))
    if k == "penalty":
        pens = tuple(p + (d["card_id"],) if i == d["player"] else p
                     for i, p in enumerate(s.penalties))
        return replace(s, penalties=pens, phase="between", lookout=d["player"],
                       seat_place=tuple(d["seat_place"]))
    if k == "final_round":
        return replace(s, final=True, lookout=d["player"], phase="between")
    if k == "final_round_failed":
        return replace(s, phase="between")
    if k == "round_voided":
        # the card goes under the deck the table holds; a table without one (or with its
        # deck used up) accepts any card, so it keeps none (else it would jam on that card)
        deck = tuple(c for c in s.deck if c != d["card_id"])
        return replace(s, phase="between", builders=(), done_order=(),
                       deck=deck + (d["card_id"],) if deck else ())
    if k == "game_ended":
        return replace(s, phase="ended", winners=tuple(d["winners"]), end_reason=d["reason"])
    raise AssertionError(f"unknown event kind {k!r}")


def replay(events: list[Event] | list[dict[str, Any]]) -> TukiState:
    """The state after these events (stored dicts or Event objects), from the empty table."""
    s = TukiState()
    for e in events:
        s = apply(s, e if isinstance(e, Event) else Event.from_dict(e))
    return s


# ---- decide: command -> events -----------------------------------------------------------

def _refuse(why: str) -> IllegalCommandError:
    return IllegalCommandError(why)


def _check_player(state: TukiState, p: int, what: str) -> None:
    if not isinstance(p, int) or not 0 <= p < len(state.players):
        raise _refuse(f"{what} {p!r} is not a seat; seats are 0..{len(state.players) - 1}")


def _verdict(v: dict[str, Any] | Verdict) -> dict[str, Any]:
    if isinstance(v, Verdict):
        return v.to_dict()
    try:
        return Verdict.from_dict(v).to_dict()
    except RefereeError as e:
        raise _refuse(str(e)) from e


def decide(state: TukiState, cmd: Command) -> list[Event]:
    """The events a command causes, consequences included.

    :raises IllegalCommandError: with the reason, when the rules refuse the command (a "done"
        from the lookout in a 4-player game, a second "done", anything after the game ended
        but a new game, ...). The state is never changed by a refused command.
    """
    if state.ended and not isinstance(cmd, NewGame):  # only a rematch after the end
        raise _refuse(f"the game has ended ({state.end_reason}); no more commands but a "
                      "rematch")
    if isinstance(cmd, NewGame):
        events = [_new_game(state, cmd)]
    elif state.phase == "setup":
        raise _refuse("no game yet; start one with NewGame")
    elif isinstance(cmd, EndGame):  # nothing settles after it: the game is over
        return [Event("game_ended", {"winners": [], "reason": ENDED_BY_TABLE})]
    elif isinstance(cmd, StartRound):
        events = [_start_round(state, cmd)]
    elif isinstance(cmd, Done):
        events = _done(state, cmd)
    elif isinstance(cmd, Judge):
        events = _judge(state, cmd)
    elif isinstance(cmd, Decide):
        events = [_decide(state, cmd)]
    elif isinstance(cmd, VoidRound):
        events = [_void(state, cmd)]
    elif isinstance(cmd, Overrule):
        events = [_overrule(state, cmd)]
    elif isinstance(cmd, Retake):
        events = [_retake(state, cmd)]
    else:
        raise _refuse(f"unknown command {cmd!r}")
    s = state
    for e in events:
        s = apply(s, e)
    return events + _settle(s)


def _new_game(state: TukiState, c: NewGame) -> Event:
    if state.phase not in ("setup", "ended"):  # after an ending: a rematch at the table
        raise _refuse("a game is already running at this table")
    players = [str(p) for p in c.players]
    n = len(players)
    if not 2 <= n <= 4:
        raise _refuse(f"Tuki takes 2-4 players, not {n}")
    try:
        level_stones(c.level)
    except RefereeError as e:
        raise _refuse(str(e)) from e
    if not isinstance(c.lookout, int) or not 0 <= c.lookout < n:
        raise _refuse(f"lookout {c.lookout!r} is not a seat; seats are 0..{n - 1}")
    k = min(n, MAX_BUILDERS)
    places = list(c.places) if c.places is not None else [f"place {i + 1}" for i in range(k)]
    if len(places) != k:
        raise _refuse(f"{n} players need {k} build places, got {len(places)}: {places}")
    if n == 4:  # the lookout does not build; the others take the places in seat order
        others = [p for p in range(n) if p != c.lookout]
        seat_place: list[int | None] = [None] * n
        for i, p in enumerate(others):
            seat_place[p] = i
    else:
        seat_place = list(range(n))
    return Event("game_started", {"players": players, "level": c.level, "lookout": c.lookout,
                                  "places": places, "seat_place": seat_place,
                                  "deck": list(c.deck or ())})


def _start_round(s: TukiState, c: StartRound) -> Event:
    if s.phase != "between":
        raise _refuse(f"a round is already under way (round {s.round_no}, {s.phase})")
    if c.by is not None and c.by != s.lookout:
        raise _refuse(f"only the lookout ({s.players[s.lookout]}) starts a round, "
                      f"not {c.by!r}")
    if s.deck and c.card_id not in s.deck:
        raise _refuse(f"card {c.card_id!r} is not in the deck ({len(s.deck)} cards left)")
    try:
        face = DieFace.parse(c.die)
        target = parse_grid(c.target, s.level)
    except RefereeError as e:
        raise _refuse(str(e)) from e
    builders = [[p, pl] for p, pl in enumerate(s.seat_place)
                if pl is not None and not (s.final and p == s.lookout)]
    return Event("round_started", {"card_id": c.card_id, "target": list(target),
                                   "die": str(face), "lookout": s.lookout,
                                   "builders": builders, "final": s.final})


def _done(s: TukiState, c: Done) -> list[Event]:
    _check_player(s, c.player, "player")
    b = s.builder(c.player) if s.phase in ("building", "settling") else None
    name = s.players[c.player]
    if b is not None and b.status == "done":
        raise _refuse(f"{name} already declared done; a build cannot be declared twice")
    if s.phase != "building":
        why = (f"the round has ended; {name} was still building and finished last"
               if b is not None else f"no round is being built (phase {s.phase})")
        raise _refuse(f"{why}; 'done' is refused")
    if b is None:
        if c.player == s.lookout:
            raise _refuse(f"{name} is the lookout and does not build this round")
        raise _refuse(f"{name} does not build this round")
    if b.status != "building":
        raise _refuse(f"{name} already declared done; a build cannot be declared twice")
    data: dict[str, Any] = {"player": c.player}
    data["verdict"] = _verdict(c.verdict) if c.verdict is not None else None
    return [Event("done", data)]


def _judge(s: TukiState, c: Judge) -> list[Event]:
    _check_player(s, c.player, "player")
    b = s.builder(c.player)
    if b is None or b.status not in ("done", "stopped") or b.verdict is not None:
        raise _refuse(f"{s.players[c.player]} has no build waiting for a verdict")
    return [Event("judged", {"player": c.player, "verdict": _verdict(c.verdict)})]


def _decide(s: TukiState, c: Decide) -> Event:
    _check_player(s, c.player, "player")
    _check_player(s, c.builder, "builder")
    b = s.builder(c.builder)
    if b is None or b.verdict is None or b.verdict.verdict != "unsure" or b.decision is not None:
        raise _refuse(f"{s.players[c.builder]}'s build is not waiting for a decision")
    voters = s._voters(c.builder)
    if c.player not in voters:
        who = ("the other players" if c.builder == s.lookout
               else f"the lookout ({s.players[s.lookout]})")
        raise _refuse(f"{s.players[c.player]} may not decide on {s.players[c.builder]}'s "
                      f"build; {who} decide(s)")
    if c.builder != s.lookout:
        return Event("decision", {"by": c.player, "builder": c.builder,
                                  "correct": bool(c.correct)})
    if any(p == c.player for p, _ in b.votes):
        raise _refuse(f"{s.players[c.player]} already voted on this build")
    votes = [v for _, v in b.votes] + [bool(c.correct)]
    data: dict[str, Any] = {"by": c.player, "builder": c.builder, "vote": bool(c.correct)}
    if len(votes) == len(voters):  # all voted: a tie counts it correct
        return Event("decision", data | {"correct": sum(votes) * 2 >= len(votes)})
    return Event("decision", data)


def _overrule(s: TukiState, c: Overrule) -> Event:
    """A sure verdict the lookout finds wrong, while the round's penalty is not given yet."""
    _check_player(s, c.player, "player")
    _check_player(s, c.builder, "builder")
    if c.player != s.lookout:
        raise _refuse(f"only the lookout ({s.players[s.lookout]}) decides a questioned "
                      "verdict")
    if c.builder == s.lookout:
        raise _refuse("the lookout does not overrule the verdict on their own build")
    if s.phase != "settling":
        raise _refuse("the round's penalty card is already given (or the round is still "
                      "being built); a questioned verdict now only labels the photo")
    b = s.builder(c.builder)
    if b is None or b.verdict is None or b.verdict.verdict == "unsure":
        raise _refuse(f"{s.players[c.builder]}'s build has no sure verdict to overrule")
    return Event("decision", {"by": c.player, "builder": c.builder,
                              "correct": bool(c.correct), "overrule": True})


def photo_caused(v: Verdict) -> bool:
    """Whether an unsure verdict comes from the photo itself (a new photo may settle it)."""
    return v.verdict == "unsure" and bool(v.reasons) and all(
        r.code.split(":")[0] in PHOTO_REASONS for r in v.reasons)


def _retake(s: TukiState, c: Retake) -> Event:
    _check_player(s, c.player, "player")
    b = s.builder(c.player)
    if (b is None or b.verdict is None or b.decision is not None
            or not photo_caused(b.verdict)):
        raise _refuse(f"{s.players[c.player]}'s build has no verdict that a new photo could "
                      "settle")
    return Event("retake", {"player": c.player})


def _void(s: TukiState, c: VoidRound) -> Event:
    if c.by != s.lookout:
        raise _refuse(f"only the lookout ({s.players[s.lookout]}) may end a round by hand")
    if s.phase not in ("building", "settling"):
        raise _refuse(f"no round to void (phase {s.phase})")
    return Event("round_voided", {"by": c.by, "card_id": s.card_id})


def _settle(s: TukiState) -> list[Event]:
    """The consequences now due: the round ends, the penalty, the endings."""
    if s.phase not in ("building", "settling"):
        return []
    return _settle_final(s) if s.final else _settle_round(s)


def _settle_round(s: TukiState) -> list[Event]:
    events: list[Event] = []
    building = [b for b in s.builders if b.status == "building"]
    if s.phase == "building" and len(building) == 1:
        events.append(Event("round_closed", {"last": building[0].player}))
        s = apply(s, events[-1])
    if s.phase != "settling" or any(b.result() is None for b in s.builders):
        return events
    order = list(s.done_order) + [b.player for b in s.builders if b.status == "stopped"]
    wrong = [b.player for b in map(s.builder, order) if b is not None and b.result() == "wrong"]
    if not wrong:
        taker, why = order[-1], "all builds correct: the last builder takes the card"
    elif len(wrong) == 1:
        taker, why = wrong[0], "the only wrong build"
    else:
        taker, why = wrong[0], "of the wrong builds, the first declared"
    seat_place = list(s.seat_place)
    if len(s.players) == 4 and taker != s.lookout:  # hand-over: the old lookout builds again
        seat_place[s.lookout], seat_place[taker] = seat_place[taker], None
    events.append(Event("penalty", {"player": taker, "card_id": s.card_id, "why": why,
                                    "seat_place": seat_place}))
    s = apply(s, events[-1])
    count = len(s.penalties[taker])
    if count >= PENALTY_LIMIT:
        if len(s.players) == 2:
            fewest = min(len(p) for p in s.penalties)
            winners = [i for i, p in enumerate(s.penalties) if len(p) == fewest]
            events.append(Event("game_ended", {"winners": winners, "reason":
                                               f"{s.players[taker]} took a 5th penalty card"}))
        else:
            events.append(Event("final_round", {"player": taker}))
    return events


def _settle_final(s: TukiState) -> list[Event]:
    events: list[Event] = []
    for p in s.done_order:
        b = s.builder(p)
        assert b is not None
        r = b.result()
        if r == "correct":
            return events + [Event("game_ended", {"winners": [p], "reason":
                                                  f"{s.players[p]} built the final card first"})]
        if r is None:
            return events
        if b.status != "out":
            events.append(Event("out", {"player": p}))
    if len(s.done_order) == len(s.builders):
        events.append(Event("final_round_failed", {"card_id": s.card_id}))
    return events
