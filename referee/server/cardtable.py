"""One card table as the server keeps it: its seats and the fold of its stored events
(referee.server.cardtables has the events' list and the service that plays them), and what
of a game's state every seat may know (`public_table`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RefereeError
from referee.games.engine import GameInfo, State
from referee.server.limits import InPlay

# keys of an observation that are one seat's own (never in the public view, whatever they hold)
PRIVATE = {"player", "hand"}


@dataclass
class SeatInfo:
    name: str | None  # None: an open seat, claimed with the room code
    bot: str | None = None  # a bot level, or None: a person
    generation: int = 1
    digest: str = ""  # sha256 of the current key ("" : no key opens it)
    # taken by its player (its invitation link opened, or the room code): its key is random,
    # its phone's alone; until then a person's seat has an invitation derived from the
    # table key, which opens nothing but the claim
    joined: bool = False

    @property
    def open(self) -> bool:
        return self.name is None and self.bot is None


@dataclass
class CardTable(InPlay):
    id: str
    config: dict[str, Any]
    admin_hash: str
    game: GameInfo
    seats: list[SeatInfo] = field(default_factory=list)
    view_token: str = ""
    # seat -> the hash of its last invitation a phone took (a second phone opening that link
    # is told the seat is taken, not that the key is wrong)
    spent: dict[int, str] = field(default_factory=dict)
    state: State | None = None
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[tuple[int, str]] = field(default_factory=list)  # this game's (seat, action)
    seq: int = 0
    ended: bool = False
    archived: bool = False
    games: int = 0
    # moves, new games and ends so far: what a seat's move was chosen on (`act`'s `plays`);
    # a seat taken or handed to a bot changes no move (a break-it re-trial)
    plays: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock)
    # the public view of event `seq`, built once for every phone (every change is an event)
    public: tuple[int, dict[str, Any]] | None = None
    touched: float = 0.0  # when its last event happened (Unix seconds)

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    @property
    def counts(self) -> bool:
        """Whether it counts against the box's limits: a game in play."""
        return not (self.over or self.ended or self.archived)

    @property
    def code(self) -> str:
        return str(self.config.get("code", ""))

    def fold(self, kind: str, data: dict[str, Any], applied: State | None = None) -> None:
        """One stored event. `applied`: the state with the action already applied (a live
        action, checked on a copy), else the action is applied here (a replay).

        :raises RefereeError, KeyError, TypeError, ValueError: an event that does not fit.
        """
        if kind == "game_started":
            players = data["players"]
            bots = {int(k): str(v) for k, v in (data.get("bots") or {}).items()}
            if not self.seats:
                self.seats = [SeatInfo(None) for _ in players]
            for i, name in enumerate(players):
                self.seats[i].name = None if name is None else str(name)
                self.seats[i].bot = bots.get(i)
            self.seed = int(data["seed"])
            self.options = dict(data.get("options") or {})
            self.state = self.game.new_game(len(players), seed=self.seed,
                                            options=self.options or None)
            self.moves, self.ended = [], False
            self.games += 1
        elif kind == "action":
            seat, text = int(data["seat"]), str(data["action"])
            assert self.state is not None
            said = self._said(text)
            if applied is None:
                if self.state.current_player() != seat:
                    raise ValueError(f"action of seat {seat} out of turn")
                self.state.apply_text(text)
            else:
                self.state = applied
            self.moves.append((seat, said))
        elif kind == "seat_claimed":
            s = self.seats[int(data["seat"])]
            s.name, s.bot, s.joined = str(data["name"]), None, True
        elif kind == "seat_bot":
            s = self.seats[int(data["seat"])]
            s.bot = None if data.get("bot") is None else str(data["bot"])
            s.name = str(data["name"])
            s.joined = False
        elif kind == "game_ended":
            self.ended = True
        elif kind == "table_archived":
            self.archived = True
        else:
            raise ValueError(f"unknown event kind {kind[:40]!r}")
        if kind in ("game_started", "action", "game_ended"):
            self.plays += 1
        self.seq += 1

    def _said(self, text: str) -> str:
        """How the table's move list shows the action `text` about to be applied: without a
        "last card" call that changes nothing (TAKI: bots always declare, and the engine
        takes the call with any move of a hand of 2 cards or fewer, so the list read "Bot 3
        drew · last card!"); the game's record keeps the action as played."""
        counts = self.game.call_counts
        if counts is None or not text.endswith(" last") or self.state is None:
            return text
        try:
            action = self.game.parse_action(text)
            return text if counts(self.state, action) else text[:-len(" last")]
        except (RefereeError, ValueError, KeyError, TypeError):
            return text  # `fold` refuses what does not fit


def public_table(state: State) -> dict[str, Any]:
    """What every seat may know: the observation's keys that are the same for every seat,
    without the private ones (a key that differs between seats is null)."""
    obs = [state.observation(i) for i in range(state.num_players)]
    out: dict[str, Any] = {}
    for k in obs[0]:
        if k in PRIVATE:
            continue
        first = obs[0][k]
        out[k] = first if all(o.get(k) == first for o in obs[1:]) else None
    return out
