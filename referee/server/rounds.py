"""The commands of a Tuki round at a table (tables.TableService puts them together with the
table's life cycle): start a round (a deck card or a typed grid, and the die's face; or
both drawn), the demo's scripted round, a builder's "done" and its photo, the lookout's
decision on an unsure build, voiding a round, a rematch; and verdicts people can question
("this verdict is wrong", and the lookout's answer).

Each command checks who may act (access.KeysAndAccess._may), asks the rules
(`game.decide`), and stores what they give in one transaction (`_commit`).

"done": the frame of that moment is frozen (the uploaded photo, else the place's camera:
places.Places), stored, and judged in a worker thread; the verdict comes back as
`game.Judge`. When the round ends with one builder still building, that builder's frame is
frozen at the same moment (a camera place), or awaited as an upload (a phone place).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from referee.server import demo as demo_mod
from referee.server.access import KeysAndAccess
from referee.server.cameras import UploadSource
from referee.server.errors import ConflictError, ForbiddenError, RoundInputError
from referee.server.keys import Access
from referee.server.places import Places
from referee.server.table import DEAD, Table
from referee.tuki import game
from referee.tuki.cards import Card, CardError, Deck, turn
from referee.tuki.die import FACES, DieFace


class Rounds(Places, KeysAndAccess):
    """A table's round commands; each is one user action, thread-safe under the table's lock,
    and returns the table's new event seq."""

    def start_round(self, table_id: str, card_id: str | None, grid: str | None,
                    die: str | None, who: Access, draw: bool = False) -> int:
        """Start a round with a deck card (by id) or a typed grid, and the rolled face; or,
        with `draw`, a card drawn from the level's deck among those not yet played and a
        rolled face (RULINGS.md: the lookout draws the top card and rolls the die; a table
        without the physical deck lets the app do both).

        :raises CardError, DieError, IllegalCommandError; RoundInputError: no card or no die
            face, a card's id and a grid both, or `draw` with a card, grid or face;
            ForbiddenError: neither the table's key
            nor the lookout's seat.
        """
        table = self.get(table_id)
        level = table.state.level
        if draw and any(v and v.strip() for v in (card_id, grid, die)):
            # which would win was nowhere said: the drawn card, silently over the one sent
            raise RoundInputError("either the app draws the card and rolls the die (draw), "
                                  "or the round gets a card and a die face; not both")
        if card_id and card_id.strip() and grid and grid.strip():
            # the grid was judged and the id tallied: a penalty card named for another card
            raise RoundInputError("a round gets either a deck card's id or a typed grid; "
                                  "not both")
        if draw:
            rng = secrets.SystemRandom()
            played = {c for pens in table.state.penalties for c in pens}
            deck = Deck.load(level)
            fresh = [c.id for c in deck.cards if c.id not in played] or list(deck.ids)
            card_id, grid = rng.choice(fresh), None
            die = str(rng.choice(FACES))
        if not die or not die.strip():
            raise RoundInputError("a round needs the die's face (e.g. fish+white); roll the "
                                  "die and tap its face")
        face = DieFace.parse(die)
        if grid and grid.strip():
            card = Card.parse("typed", grid, level)
        elif card_id and card_id.strip():
            card = _deck_card(level, card_id.strip())
        else:
            raise RoundInputError("a round needs a card: its id (e.g. N01) or its grid; "
                                  "got neither")
        with table.lock:  # the lookout checked and acting in one step (a penalty may move it)
            self._may(table, who, lookout=True)
            items = self._decide(table, game.StartRound(card.id, tuple(turn(card, face)),
                                                        str(face), table.state.lookout))
            return self._commit(table, items)

    def demo_round(self, table_id: str, who: Access) -> int:
        """The demo table's next scripted round: cameras show its photos, card and die from
        the scene's label. :raises ConflictError: not a demo table; ForbiddenError: neither
        the table's key nor the lookout's seat."""
        table = self.get(table_id)
        if not table.config.get("demo"):
            raise ConflictError(f"table {table_id!r} is not a demo table; start rounds with a "
                                "card and a die face")
        rounds = demo_mod.script().rounds
        with table.lock:
            self._may(table, who, lookout=True)
            index = table.demo_rounds % len(rounds)
            r = rounds[index]
            # the label's grid, not a deck card: named "typed" like any grid typed in (the
            # scene's id is no card id; the server:demo event keeps it)
            card = Card.parse("typed", r.card, table.state.level)
            face = DieFace.parse(r.die)
            items = self._decide(table, game.StartRound(card.id, tuple(turn(card, face)),
                                                        str(face), table.state.lookout))
            self._show_demo_photos(table, index)
            return self._commit(table, [("server:demo", {"index": index, "scene": r.scene})]
                                + items)

    def done(self, table_id: str, seat: int, upload: bytes | None, who: Access,
             filename: str = "upload") -> int:
        """A builder's "done" (or the photo of a build still awaiting one): stored at once, in
        its time order; the build is judged on the photo sent with it, else on its camera's
        first frame captured after this moment (a folder's photo at once). A camera that gives
        none within the stale limit (stalled or dead) leaves the place asking for a photo,
        with the reason `camera:stale`. When the round ends with one builder still building,
        that builder's frame is taken the same way, from the same moment.

        :raises IllegalCommandError: the rules refuse it; UnsupportedPhotoError / PhotoError:
            a bad upload; ConflictError: a phone place without a photo, or a photo already
            being taken; ReusedPhotoError: a photo frozen at this table before, for another
            builder or an earlier round (`_check_fresh`; nothing stored); ForbiddenError:
            neither the table's key nor this seat's.
        """
        table = self.get(table_id)
        self._may(table, who, seat=seat)
        # a file of 0 bytes is a photo refused as empty, not "no photo"; the file's size is
        # checked at once, its pixels only once the rules take the photo (below): a photo
        # sent when none is wanted is refused before it costs any memory
        frame = stored = None
        if upload is not None:
            self._check_upload(upload, filename)
            # the rules asked first, under the lock; the pixels decoded outside it (seconds
            # for a large photo, which every other request on this table, its live feeds too,
            # would wait for); asked again below, since the table may have moved on meanwhile
            with table.lock:
                self._done_events(table, seat, True)
            frame = self._upload_frame(upload, filename)  # PhotoError: nothing committed
            stored = self._stored(frame)  # its file and fingerprint, outside the lock too
        pressed = time.time()
        with table.lock:
            st = table.state
            rnd = st.round_no
            items = self._done_events(table, seat, upload is not None)
            if stored is not None:  # a photo frozen here before (another builder's, an
                # earlier round's) is not this build's: refused, nothing stored
                self._check_fresh(table, rnd, seat, stored[1])
            seats = [seat] + [d["last"] for k, d in items if k == "round_closed"]
            notes: list[tuple[str, dict[str, Any]]] = []
            after: list[int] = []  # seats whose frame a live camera gives after `pressed`
            for i, s in enumerate(seats):
                src = self._place_source(table, s)
                if i == 0 and frame is not None:  # the photo sent with "done"
                    note = self._save(table, rnd, s, frame, stored)
                    if isinstance(src, UploadSource):  # the phone is this place's camera:
                        # it keeps the stored file, never the decoded photo (memory)
                        src.put_file(self._photo_dir(table) / note["photo"], frame.taken_at)
                    notes.append(("server:photo", note | {"uploaded": True}))
                elif isinstance(src, UploadSource):  # a phone place: its Photo button
                    if i == 0:
                        raise ConflictError(f"no photo for {st.players[s]}'s place; send a "
                                            "photo from the phone")
                elif src is not None and src.still and (now := src.latest()) is not None:
                    # a still camera's photo as its file is now (a folder read at this
                    # moment: never a photo removed since, nor one kept from another round)
                    notes.append(("server:photo", self._save(table, rnd, s, now)))
                elif src is not None and not src.still and src.status().state != "dead":
                    after.append(s)
                else:  # a dead camera: no verdict; the done counts, the place asks for a
                    # photo and says so in plain words (`camera:dead`)
                    notes.append(("server:no_photo", self._no_photo(rnd, s, src, DEAD)))
            # the photo sent or frozen at "done" comes first, as it was taken first
            first = [n for n in notes[:1] if n[0] == "server:photo" and n[1]["player"] == seat]
            items = first + items + notes[len(first):]
            for s in after:
                table.capturing.add((rnd, s))
            try:
                seq = self._commit(table, items)
            except BaseException:
                for s in after:
                    table.capturing.discard((rnd, s))
                raise
        for kind, data in items:
            if kind == "server:photo":
                self._queue_judging(table, rnd, data["player"])
        for s in after:
            self._capture_pool.submit(self._capture_after, table, rnd, s, pressed)
        return seq

    def _done_events(self, table: Table, seat: int, photo: bool
                     ) -> list[tuple[str, dict[str, Any]]]:
        """The events the rules give for a builder's "done" (with a `photo` or not): none
        for the photo of a build that has no verdict yet (a phone place, a retry), a retake
        for a build judged unsure because of its photo, else `game.Done`. Under table.lock.

        :raises IllegalCommandError: the rules refuse it; ConflictError: the place's camera
            is taking the photo now.
        """
        st = table.state
        b = st.builder(seat) if 0 <= seat < len(st.players) else None
        rnd = st.round_no
        shot = table.shots.get((rnd, seat))
        late = (b is not None and b.status in ("done", "stopped") and b.verdict is None
                and (shot is None or not shot.judging))
        if late and not photo and (rnd, seat) in table.capturing:
            raise ConflictError(f"{st.players[seat]}'s camera is taking the photo now; "
                                "wait a moment")
        # a new photo of a build judged unsure because of the photo itself
        retake = (b is not None and photo and b.verdict is not None
                  and b.decision is None and game.photo_caused(b.verdict))
        if late:  # the photo of a build that has no verdict yet (phone place, or retry)
            return []
        if retake:
            return self._decide(table, game.Retake(seat))
        return self._decide(table, game.Done(seat))

    def decide(self, table_id: str, seat: int, correct: bool, by: int | None,
               who: Access) -> int:
        """A decision on an unsure build: the lookout's, or for the lookout's own build each
        other player's vote. With a seat's key the decider is that seat (`by`, if sent, must
        be it); with the table's key, `by` (default the lookout).

        :raises IllegalCommandError: the rules refuse it; ForbiddenError: `by` is another seat
            than the key's.
        """
        table = self.get(table_id)
        if who.role == "seat":
            if by is not None and by != who.seat:
                raise ForbiddenError("a seat's link decides or votes for its own seat only")
            by = who.seat
        with table.lock:
            self._may(table, who, seat=by)
            decider = table.state.lookout if by is None else by
            return self._commit(table, self._decide(table, game.Decide(decider, seat, correct)))

    def end_round(self, table_id: str, who: Access) -> int:
        """Void the round by the lookout's hand. :raises IllegalCommandError; ForbiddenError:
        neither the table's key nor the lookout's seat."""
        table = self.get(table_id)
        with table.lock:
            self._may(table, who, lookout=True)
            return self._commit(table, self._decide(table,
                                                    game.VoidRound(table.state.lookout)))

    def end_game(self, table_id: str, who: Access) -> int:
        """The table's owner ends the game before its rules do (no winner): it no longer
        counts against the box's limits, and a rematch may follow (a break-it trial: the
        limit said "end one from its control link", which only voided the round).

        :raises ForbiddenError: not the table's key; IllegalCommandError: it has ended."""
        table = self.get(table_id)
        if who.role != "table":
            raise ForbiddenError("ending the game needs the table's control link")
        with table.lock:
            self._may(table, who)
            return self._commit(table, self._decide(table, game.EndGame()))

    def rematch(self, table_id: str, who: Access) -> int:
        """A new game at the same table once the last has ended: the same players, places
        and level, the last lookout first (the table's key or any player's).

        :raises ForbiddenError: a view link; IllegalCommandError: the game is not over.
        """
        table = self.get(table_id)
        if who.role not in ("table", "seat"):
            raise ForbiddenError("this link only watches the table; a rematch needs a "
                                 "player's link")
        with table.lock:
            self._may(table, Access("table") if who.role == "table" else who,
                      seat=who.seat)
            if who.role != "table" and table.state.ended_by_table:
                # the owner ended it (to free the box, say): only the owner starts another,
                # as at a card table (a break-it trial: a seat's key undid the owner's end)
                raise ConflictError("the table's owner ended this game; only the owner "
                                    "(the control link) starts a new one",
                                    "table.ended-by-owner")
            # an ended game no longer counts; the new one does, so it asks the limits as a new
            # table would (a re-trial: made, ended and rematched 30 times from one address,
            # the box was full for everyone)
            if table.state.ended and not table.config.get("demo"):
                self._check_limits(str(table.config.get("client", "")))
            st = table.state
            cmd = game.NewGame(tuple(st.players), st.level, st.lookout, tuple(st.places))
            return self._commit(table, self._decide(table, cmd))

    # ---- verdicts people can question ------------------------------------------------------

    def dispute(self, table_id: str, seat: int, who: Access) -> int:
        """A player says "this verdict is wrong" about a verdict of the current round (any
        seat's key, or the table's key); the lookout then confirms the right one.

        :raises ForbiddenError: a view link; ConflictError: no verdict to question, or this
            player already questioned it.
        """
        table = self.get(table_id)
        if who.role not in ("table", "seat"):
            raise ForbiddenError("this link only watches the table; questioning a verdict "
                                 "needs a player's link")
        if table.archived:
            raise ConflictError(f"table {table.id!r} is archived: it can be read, not played")
        with table.lock:
            st = table.state
            _not_ended(st)
            b = st.builder(seat) if st.round_no else None
            if b is None or b.verdict is None:
                raise ConflictError("there is no verdict on that build in this round to "
                                    "question")
            key = (st.round_no, seat)
            if who.seat in table.disputes.get(key, []):
                raise ConflictError("you already questioned this verdict")
            return self._commit(table, [("server:disputed", {"round": st.round_no,
                                                             "player": seat,
                                                             "by": who.seat})])

    def confirm(self, table_id: str, seat: int, correct: bool, who: Access) -> int:
        """The lookout's answer to a questioned verdict: is the build correct? While the
        round's penalty is not given yet it counts as the lookout's decision (game.Overrule);
        after that it labels the photo and marks the round disputed in the record. Either way
        the photo becomes a labelled scene (`referee dataset export`).

        The answer is the round's lookout's (also once the penalty card has made another
        player the lookout), or the table key's; nobody answers for their own build (a
        break-it trial: the player just given the penalty card, lookout from then on,
        labelled their own questioned build correct), and each question is answered once.

        :raises ForbiddenError: neither the round's lookout nor the table's key, or the
            answer would be on the answerer's own build; ConflictError: the verdict was not
            questioned, or is answered already; IllegalCommandError: the game has ended.
        """
        table = self.get(table_id)
        with table.lock:
            self._may(table, who, seat=who.seat)  # archived, a view link: refused here
            st = table.state
            _not_ended(st)
            if who.role == "seat":
                lookout = st.lookout if table.round_lookout is None else table.round_lookout
                if who.seat != lookout:
                    raise ForbiddenError("only the lookout of the round (or the table's "
                                         "owner) answers a questioned verdict")
                if who.seat == seat:
                    raise ForbiddenError("nobody answers a question about their own build; "
                                         "the table's owner may")
            key = (st.round_no, seat)
            if key not in table.disputes:
                raise ConflictError("nobody questioned that verdict in this round")
            if key in table.confirmed:
                raise ConflictError("this questioned verdict has been answered already")
            b = st.builder(seat)
            items: list[tuple[str, dict[str, Any]]] = []
            counted = (b is not None and b.verdict is not None and st.phase == "settling"
                       and b.verdict.verdict != "unsure" and seat != st.lookout
                       and b.decision is None)
            if counted:
                items = self._decide(table, game.Overrule(st.lookout, seat, correct))
            note = {"round": st.round_no, "player": seat, "correct": bool(correct),
                    "by": who.seat, "counted": counted}
            return self._commit(table, [("server:confirmed", note)] + items)


def _not_ended(st: game.TukiState) -> None:
    """:raises IllegalCommandError: the game has ended (as `game.decide` refuses every
    command but a rematch then): a question or its answer changes nothing any more."""
    if st.ended:
        raise game.IllegalCommandError(f"the game has ended ({st.end_reason}); no more "
                                       "commands but a rematch")


def _deck_card(level: str, card_id: str) -> Card:
    """The card of the table's deck with this id.

    :raises CardError: no such card; a card of the other level's deck says so
        (`card.wrong-level`: a new user's trial typed A01 at a normal table and read
        "no card A01 in the deck; ids look like N01 or A01").
    """
    try:
        return Deck.load(level).get(card_id)
    except CardError:
        other = "advanced" if level == "normal" else "normal"
        if card_id.upper() in {c.upper() for c in Deck.load(other).ids}:
            raise CardError(f"card {card_id!r} is in the {other} deck; this table plays the "
                            f"{level} level", "card.wrong-level",
                            {"id": card_id[:40]}) from None
        raise
