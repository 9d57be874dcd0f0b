"""One table at run time: its config, cameras, the folded game state, the server's notes
(frozen photos, overlays, demo rounds), and the view that phones get (docs/server.md)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from referee.server.cameras import FrameSource
from referee.server.fingerprints import Fingerprint, Frozen
from referee.server.limits import InPlay
from referee.server.storage import StoredEvent
from referee.tuki import game
from referee.tuki.die import DieFace

# what a builder sees when a photo could not be judged for a reason that is not theirs to fix
JUDGE_FAILED = "This photo could not be judged; take another."
# the reason a place asks for a photo: its camera gave no frame after "done" (WORLD.md §4)
STALE = "camera:stale"
# ... or it shows no photo at all at "done" (dead: a folder gone or empty, a device unplugged)
DEAD = "camera:dead"
# a build as the phones show it (table_view's builders[].state)
BuildState = Literal["out", "correct", "wrong", "unsure", "judging", "building", "waiting"]


@dataclass
class Shot:
    """A frozen photo of one builder in one round, and what became of it."""

    photo: str
    overlay: str | None = None
    judging: bool = False
    error: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    uploaded: bool = False  # sent from a phone (not the place's own camera)


@dataclass
class Table(InPlay):
    """A table at run time: its config, cameras, folded state and the server's notes."""

    id: str
    config: dict[str, Any]
    admin_hash: str
    sources: list[FrameSource]
    state: game.TukiState = field(default_factory=game.TukiState)
    seq: int = 0
    shots: dict[tuple[int, int], Shot] = field(default_factory=dict)  # (round, seat) -> Shot
    outcome: dict[str, Any] = field(default_factory=dict)
    demo_rounds: int = 0
    round_lookout: int | None = None  # the lookout of the current (or last) round
    previews: dict[int, tuple[float, bytes]] = field(default_factory=dict)  # place -> JPEG
    # (round, seat) whose camera frame after "done" is awaited now (not stored: a restart
    # leaves the place asking for a photo)
    capturing: set[tuple[int, int]] = field(default_factory=set)
    # (round, seat) -> why the place asks for a photo (`camera:stale`)
    asks: dict[tuple[int, int], str] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    # the view token and each seat's (key generation, key hash): referee.server.keys
    view_token: str = ""
    seat_keys: dict[int, tuple[int, str]] = field(default_factory=dict)
    archived: bool = False  # by the admin: kept to read, never played again
    # (round, seat) -> the seats that questioned its verdict (None: the table's owner)
    disputes: dict[tuple[int, int], list[int | None]] = field(default_factory=dict)
    # (round, seat) -> the lookout's answer to a questioned verdict: is the build correct?
    confirmed: dict[tuple[int, int], bool] = field(default_factory=dict)
    # (round, seat) answered against the verdict after the penalty card was given: the card
    # stays, the answer only labels the photo (docs/server.md)
    card_stays: set[tuple[int, int]] = field(default_factory=set)
    games: int = 0  # games begun at this table (a rematch is the next)
    # every photo frozen at this table, with its fingerprint: a photo sent again (another
    # builder's, or one of an earlier round) is refused (referee.server.fingerprints)
    frozen: list[Frozen] = field(default_factory=list)

    touched: float = 0.0  # when its last event happened (Unix seconds)

    @property
    def counts(self) -> bool:
        """Whether the table counts against the box's limits: in play, not the demo."""
        return not (self.archived or self.state.ended or self.config.get("demo"))

    @property
    def name(self) -> str:
        return str(self.config["name"])

    @property
    def language(self) -> str:
        return str(self.config.get("language", "en"))

    def fold(self, ev: StoredEvent) -> None:
        """Take one stored event into the state and the notes."""
        self.seq = ev.seq
        self.touched = ev.at
        p, k = ev.payload, ev.kind
        if not k.startswith("server:"):
            self.state = game.apply(self.state, game.Event(k, p))
            if k == "game_started":  # a rematch: the last game's outcome goes
                self.outcome, self.round_lookout = {}, None
                self.games += 1
            if k == "round_started":
                self.outcome = {}
                self.round_lookout = self.state.lookout
            elif k == "penalty":
                self.outcome = {"taker": p["player"], "why": p.get("why", "")}
            elif k == "round_voided":
                self.outcome = {"void": True}
            elif k == "final_round_failed":
                self.outcome = {"replay": True}
            return
        key = (int(p.get("round", 0)), int(p.get("player", -1)))
        if k == "server:photo":
            self.shots[key] = Shot(p["photo"], judging=True, uploaded=bool(p.get("uploaded")))
            self.frozen.append(Frozen(self.games, key[0], key[1], str(p["photo"]),
                                      Fingerprint.from_json(p.get("fingerprint"))))
        elif k == "server:judged" and key in self.shots:
            s = self.shots[key]
            s.overlay, s.judging, s.timings_ms = p.get("overlay"), False, p.get("timings_ms", {})
        elif k == "server:judge_failed" and key in self.shots:
            # notes stored before errors were kept plain may hold an exception's text
            error = str(p.get("error", "")) if p.get("plain") else JUDGE_FAILED
            self.shots[key].judging, self.shots[key].error = False, error or JUDGE_FAILED
        elif k == "server:no_photo":
            self.asks[key] = str(p.get("reason", STALE))
        elif k == "server:demo":
            self.demo_rounds += 1
        elif k == "server:archived":
            self.archived = True
        elif k == "server:disputed":
            self.disputes.setdefault(key, []).append(p.get("by"))
        elif k == "server:confirmed":
            self.confirmed[key] = bool(p.get("correct"))
            if self._contradicts_the_card(key, bool(p.get("correct"))):
                self.card_stays.add(key)
            else:
                self.card_stays.discard(key)

    def _contradicts_the_card(self, key: tuple[int, int], correct: bool) -> bool:
        """Whether an answer to a questioned verdict comes after the round's penalty card was
        given and says otherwise than the verdict that counted (the lookout's decision, else
        the referee's)."""
        st = self.state
        b = st.builder(key[1])
        if key[0] != st.round_no or self.outcome.get("taker") is None or b is None:
            return False
        if b.decision is not None:
            return b.decision != correct
        said = b.verdict.verdict if b.verdict is not None else None
        return said in ("correct", "wrong") and (said == "correct") != correct


def table_view(t: Table) -> dict[str, Any]:
    """The table as the phones see it; never holds the secret."""
    st = t.state
    base = f"/api/tables/{t.id}/photos/"
    players = [{"seat": i, "name": n, "penalties": len(st.penalties[i]) if st.penalties else 0}
               for i, n in enumerate(st.players)]
    places = [{"index": i, "station": p["station"], "camera": t.sources[i].status().to_dict()}
              for i, p in enumerate(t.config["places"])]
    rnd = None
    if st.round_no and st.builders:
        waiting = {w["builder"]: w for w in st.waiting()}
        builders = []
        for b in st.builders:
            shot = t.shots.get((st.round_no, b.player))
            state: BuildState
            if b.status == "out":
                state = "out"
            elif b.verdict is not None:
                state = b.verdict.verdict
            elif (shot is not None and shot.judging) or (st.round_no, b.player) in t.capturing:
                state = "judging"
            elif b.status == "building":
                state = "building"
            else:
                state = "waiting"
            decided = None if b.decision is None else ("correct" if b.decision else "wrong")
            w = waiting.get(b.player)
            builders.append({
                "seat": b.player, "place": b.place, "state": state, "status": b.status,
                "verdict": b.verdict.to_dict() if b.verdict else None, "decided": decided,
                "deciders": w["deciders"] if w else [], "voted": w["voted"] if w else [],
                "photo": base + shot.photo if shot else None,
                "overlay": base + shot.overlay if shot and shot.overlay else None,
                "error": shot.error if shot else None,
                # why the place asks for a photo (a code, shown in plain words)
                "reason": None if shot else t.asks.get((st.round_no, b.player)),
                "timings_ms": shot.timings_ms if shot else {},
                # questioned: by whom (None: the table's owner), and the lookout's answer
                "disputed_by": list(t.disputes.get((st.round_no, b.player), [])),
                "confirmed": {True: "correct", False: "wrong", None: None}[
                    t.confirmed.get((st.round_no, b.player))],
                # that answer came after the penalty card and says otherwise: the card stays
                "card_stays": (st.round_no, b.player) in t.card_stays})
        face = DieFace.parse(st.die) if st.die else None
        status = "over" if st.phase in ("between", "ended") else st.phase
        rnd = {"number": st.round_no, "final": st.final, "status": status,
               "lookout": st.lookout if t.round_lookout is None else t.round_lookout,
               "card": {"id": st.card_id}, "target": list(st.target),
               "die": face.to_dict() if face else None, "builders": builders,
               "done_order": list(st.done_order),
               "taker": t.outcome.get("taker"), "why": t.outcome.get("why", ""),
               "replay": bool(t.outcome.get("replay"))}
    return {"id": t.id, "name": t.name, "level": st.level, "language": t.language,
            "seq": t.seq, "demo": bool(t.config.get("demo")), "phase": st.phase,
            "archived": t.archived,
            "lookout": st.lookout, "final": st.final, "over": st.ended,
            "winners": list(st.winners), "end_reason": st.end_reason,
            "ended_by_table": st.ended_by_table,
            "void": bool(t.outcome.get("void")), "players": players, "places": places,
            "round": rnd}

