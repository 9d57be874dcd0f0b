"""Card-game tables: TAKI, Tukki Tukki and Tokaido (referee.games) played from phones.

A card table lives in the same SQLite store as the Tuki tables (referee.server.storage): its
`tables` row has `config["game"]` set to the game's name (the Tuki service skips such rows),
and it is the fold of its events:

- `game_started` {seed, players, bots, options}: a new game (at creation and at each rematch);
- `action` {seat, action}: one action in the engine's notation, one transaction each;
- `seat_claimed` {seat, name}: a seat taken by a phone: an open one with the room code, or a
  person's seat with the invitation in its link (stored with the seat's new key);
- `seat_bot` {seat, bot, name}: the owner gives a seat to a bot (`bot` a level) or back (null);
- `game_ended` {}: the owner ends the game;
- `table_archived` {}: the box's admin archives the table (kept to read, never played again).

So a table survives a restart and replays exactly (same seed, same actions, same game).

Keys (referee.server.keys): the table key (`X-Table-Secret`) manages the table (seats, bots,
rematch, ending) and never reads a hand, acts for a seat or gets a key that does; a seat key
(`X-Seat-Key`) reads and plays its own seat only; the view token opens the public view. A
person's seat starts with an invitation derived from the table key (`keys.seat_key`, by
generation, so the owner can show its link again), which opens nothing but `claim`: the phone
that opens the link gets a random key that only it has, and the invitation dies (whoever else
saw it cannot read the seat unnoticed). A seat claimed with the room code gets a random key
at once; a seat that changes hands gets a new generation, which makes the old key useless.
Only hashes are stored.

What goes out: the public view holds only what every seat may know (the keys of the engine's
`observation` that are the same for every seat, minus each game's private keys); a seat's view
adds that seat's own `observation` and its legal actions. The seed and the stored events are
never served.

Bots play in a worker thread, each move `settings.bot_pause_s` after its turn came (a
pause holds up only its own table: card_bots.BotQueue).

The parts (as referee.server.tables is split): the table and its fold (cardtable.py), what
each key sees (card_views.py), the bots (card_bots.py), the seats: the owner's list, room
codes, invitations claimed, bots given seats (card_seats.py), over a shared base
(card_base.py); here the life cycle, creation, keys and every refusal, the commands and the
admin's.

The box's admin key (the same as for Tuki tables) archives a table or deletes it (its events
and keys; then no key of it opens anything).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from referee.games.engine import (
    GAMES,
    CodedError,
    GameInfo,
    RulesError,
    State,
    get_game,
)
from referee.server.card_bots import BotQueue, CardBots
from referee.server.card_seats import CardSeats
from referee.server.card_views import CardViews
from referee.server.cardtable import CardTable
from referee.server.errors import (
    ConflictError,
    ForbiddenError,
    MissingSecretError,
    ServerError,
    TableSetupError,
    UnknownSeatError,
    WrongSecretError,
    find_table,
)
from referee.server.keys import (
    Access,
    Credentials,
    key_hash,
    new_key,
    parse_seat_entry,
    resolve,
    same,
    seat_entry,
)
from referee.server.limits import NewTables, check_limits
from referee.server.live import LiveHub
from referee.server.settings import Settings
from referee.server.storage import EventStore, StorageError
from referee.server.text import clean_text, default_seat_name, name_key, shown

log = logging.getLogger("referee.server")

BOT_LEVELS = ("random", "heuristic", "easy", "medium", "hard")


class IllegalMoveError(ServerError):
    """An action the rules refuse now, or one that is not in the game's notation (422).

    `code` and `params` are the engine's (`CodedError`): the answer carries them so that a
    phone says the refusal in its own language (i18n `refusal.<code>`)."""


class NotYourTurnError(ConflictError):
    """A seat that acts while another seat is to play, or once the game is over (409).

    As an engine's refusal it carries a `code` and `params` (`table.not-your-turn` with the
    `seat` to play, `table.game-over`), so that a phone says it in its language (i18n
    `refusal.<code>`)."""


def _first_twice(values: list[Any], key: Callable[[Any], str], message: str,
                 code: str) -> None:
    """:raises TableSetupError: the first value whose `key` an earlier one has (`code`, with
    the two seats counted from 1 as `a` and `b`; never the values, which the user typed)."""
    seen: dict[str, int] = {}
    for i, v in enumerate(values):
        if v is None:
            continue
        if key(v) in seen:
            params = {"a": seen[key(v)] + 1, "b": i + 1}
            raise TableSetupError(message.format(**params), code, params)
        seen[key(v)] = i


class CardTableService(CardViews, CardBots, CardSeats):
    """Every card table of the server; thread-safe; each method is one user action."""

    def __init__(self, settings: Settings, hub: LiveHub, store: EventStore,
                 admin_key: str = "", others: Callable[[], list[str]] = list) -> None:
        self.settings = settings
        self.hub = hub
        self.store = store
        self.admin_key = admin_key
        self.others = others  # the client addresses of the other live tables (Tuki's)
        self.tables: dict[str, CardTable] = {}
        self.damaged: dict[str, str] = {}
        self.codes: dict[str, str] = {}  # room code -> table id
        self._lock = threading.Lock()
        # one table creation at a time on the whole box (the Tuki service shares it), so
        # that requests arriving together cannot pass the limits
        self.creating = threading.Lock()
        self.new_tables = NewTables()  # each client's tables of the last hour (shared too)
        self._joins: dict[str, deque[float]] = {}
        self._bots = BotQueue(self._bot_move)
        self._closed = False

    # ---- life cycle -----------------------------------------------------------------------

    def open(self) -> None:
        """Replay every stored card table; bots whose turn it is play on."""
        for table_id in self.store.table_ids():
            try:
                row = self.store.table(table_id)
            except StorageError:
                continue  # the Tuki service sets it aside
            if row is None or row.config.get("game") not in GAMES:
                continue
            try:
                self._load(table_id, row.config, row.admin_hash)
            except Exception as e:  # one damaged table must not keep the others offline
                log.error("card table %r cannot be replayed and is set aside", table_id,
                          exc_info=e)
                self.damaged[table_id] = ("its stored events do not fit the game; the table "
                                          "is set aside and its data kept untouched")
        for table in list(self.tables.values()):
            self._wake(table)

    def close(self) -> None:
        """Stop the bots: moves not yet played are dropped (a restart resumes them)."""
        self._closed = True
        self._bots.close()

    def _load(self, table_id: str, config: dict[str, Any], admin_hash: str) -> None:
        table = CardTable(table_id, config, admin_hash, get_game(str(config["game"])))
        for ev in self.store.events(table_id):
            table.fold(ev.kind, ev.payload)
            table.touched = ev.at
        if table.state is None:
            raise StorageError(f"table {table_id!r} has no game_started")
        self._take_keys(table, self.store.keys(table_id))
        for s in table.seats:
            if s.name is not None:
                clean_text(s.name, 30)
        self.tables[table_id] = table
        if table.code:
            self.codes[table.code] = table_id

    def _take_keys(self, table: CardTable, keys: dict[str, str]) -> None:
        for name, value in keys.items():
            if name == "view":
                table.view_token = value
            elif name.startswith("spent:") and name[6:].isdigit():
                table.spent[int(name[6:])] = value
            elif name.startswith("seat:") and name[5:].isdigit():
                i = int(name[5:])
                if 0 <= i < len(table.seats):
                    table.seats[i].generation, table.seats[i].digest = parse_seat_entry(value)

    def health(self, everything: bool = False) -> dict[str, Any]:
        """How many card tables the box holds and how many were set aside as damaged;
        `everything` (the admin's): the damaged ones' ids."""
        damaged = sorted(self.damaged)
        return {"tables": len(self.tables),
                "damaged": damaged if everything else len(damaged)}

    # ---- creation -------------------------------------------------------------------------

    def live_clients(self) -> list[str]:
        """The client address of each card table in play (for the box's limits): a game not
        over, where something happened within the settings' idle minutes."""
        now = time.time()
        with self._lock:
            return [str(t.config.get("client", "")) for t in self.tables.values()
                    if self._in_play(t, now)]

    def _in_play(self, table: CardTable, now: float | None = None) -> bool:
        return table.in_play(time.time() if now is None else now, 60.0 * self.settings.idle_min)

    def _check_limits(self, client: str) -> None:
        """:raises TableLimitError: the box (Tuki and card tables together), or `client`,
        has its most tables in play."""
        s = self.settings
        check_limits(self.live_clients() + list(self.others()), client, s.max_tables,
                     s.max_tables_per_client, s.idle_min)

    def create(self, game_name: str, players: list[str | None], bots: dict[int, str],
               options: dict[str, Any], name: str | None = None, language: str = "en",
               listed: bool = False, client: str = "") -> tuple[CardTable, str]:
        """A new card table and its table key (shown once).

        :raises TableSetupError: players, bots or options the game does not take;
            TableLimitError: too many tables in play.
        """
        game = get_game(game_name)
        n = len(players)
        if not game.min_players <= n <= game.max_players:
            raise TableSetupError(f"{game.title} takes {game.min_players} to "
                                  f"{game.max_players} players; got {n}", "table.player-count",
                                  {"game": game.title, "min": game.min_players,
                                   "max": game.max_players, "n": n})
        for seat, level in bots.items():
            if not 0 <= seat < n:
                # seats counted from 1 in the words as in the params (a phone's words
                # say the params); the key sent counts from 0, so it is named too
                raise TableSetupError(f"a bot was given seat {seat + 1} (bots key "
                                      f"\"{seat}\", counted from 0), but the table has only "
                                      f"{n} seats", "table.bot-seat", {"seat": seat + 1, "n": n})
            if level not in BOT_LEVELS:
                raise TableSetupError(f"unknown bot {level!r}: expected one of "
                                      + ", ".join(BOT_LEVELS), "table.setup")
        names: list[str | None] = [
            (p if p is not None else (default_seat_name(True, i, players) if i in bots
                                      else None))
            for i, p in enumerate(players)]
        # seats are counted from 1 in what people read (the form numbers its rows so)
        _first_twice(names, name_key, "player names must differ: seats {a} and "
                     "{b} have the same name", "table.same-name")
        options = self._options(game, n, options)
        with self.creating:
            self._check_limits(client)
            self.new_tables.take(client, self.settings.max_new_tables_per_hour, time.time())
            return self._create(game, names, bots, options, name, language, listed, client)

    def _create(self, game: GameInfo, names: list[str | None], bots: dict[int, str],
                options: dict[str, Any], name: str | None, language: str, listed: bool,
                client: str) -> tuple[CardTable, str]:
        n = len(names)
        seed = secrets.randbits(62)
        try:  # the engine checks the options (a character it does not know, ...)
            game.new_game(n, seed=seed, options=options or None)
        except RulesError as e:
            raise TableSetupError(str(e), "table.setup") from None
        secret = new_key()
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        code = self._new_code() if any(p is None for p in names) else ""
        config = {"game": game.name, "name": name or game.title, "language": language,
                  "listed": listed, "client": client[:64], "code": code}
        keys = {"view": new_key()} | {
            f"seat:{i}": (seat_entry(secret, i, 1) if names[i] is not None and i not in bots
                          else "1:") for i in range(n)}
        started = {"seed": seed, "players": names,
                   "bots": {str(k): v for k, v in sorted(bots.items())}, "options": options}
        self.store.create_table(table_id, config, key_hash(secret),
                                [("game_started", started)], keys)
        table = CardTable(table_id, config, key_hash(secret), game)
        table.fold("game_started", started)
        table.touched = time.time()
        self._take_keys(table, keys)
        with self._lock:
            self.tables[table_id] = table
            if code:
                self.codes[code] = table_id
        self._wake(table)
        return table, secret

    def _options(self, game: GameInfo, n: int, options: dict[str, Any]) -> dict[str, Any]:
        """The engine's options from the API's (only those set; each for its own game).

        :raises TableSetupError: an option of another game; Tokaido's characters not one
            for each seat, or one twice.
        """
        own = {"taki": ("tournament",), "tukki": ("rounds",), "tokaido": ("characters",)}
        out = {k: v for k, v in options.items() if v is not None}
        wrong = [k for k in out if k not in own[game.name]]
        if wrong:
            raise TableSetupError(f"{game.title} has no option {wrong[0]!r}; its options: "
                                  + ", ".join(own[game.name]), "table.option",
                                  {"game": game.title})
        chosen = out.get("characters")
        if chosen is not None:
            if len(chosen) != n:
                raise TableSetupError(f"{len(chosen)} characters for {n} travellers: choose "
                                      "one for each", "table.characters", {"n": n})
            _first_twice(chosen, str, "characters must differ: seats {a} and {b} have the "
                         "same character", "table.same-character")
        return out

    # ---- access ---------------------------------------------------------------------------

    def get(self, table_id: str) -> CardTable:
        """:raises UnknownTableError, DamagedTableError:"""
        return find_table(self.tables, self.damaged, table_id,
                          f"no card table {shown(table_id)}; check the link")

    def access(self, table_id: str, creds: Credentials) -> Access:
        """What a request's keys open at a card table: the table key, else a seat key, else
        the admin key, else the view token (as at a Tuki table).

        :raises UnknownTableError; MissingSecretError: no key; WrongSecretError: none fits.
        """
        table = self.get(table_id)
        if creds.seat and not creds.table and self._invited(table, creds.seat) is not None:
            raise ForbiddenError("this seat's link is an invitation: it opens the seat once "
                                 "the player's phone takes it (opening the link does; the "
                                 f"API: POST /api/games/{table_id}/claim)", "table.invitation")
        # a seat's invitation opens nothing but its claim: whoever saw it (the owner) cannot
        # read the seat without the player noticing (the claim makes the link useless)
        return resolve(table_id, creds, table.admin_hash,
                       [(i, s.digest if s.joined else "") for i, s in enumerate(table.seats)],
                       self.admin_key, table.view_token)

    def _seat_of(self, table: CardTable, seat: int, seat_key_text: str | None) -> None:
        """:raises UnknownSeatError: no such seat; MissingSecretError: no seat key;
        ForbiddenError / WrongSecretError: the key is not this seat's."""
        if not 0 <= seat < len(table.seats):
            raise UnknownSeatError(f"table {table.id!r} has no seat {seat}")
        if not seat_key_text:
            raise MissingSecretError("this needs the seat's own key (open the seat's link)")
        who = self.access(table.id, Credentials(seat=seat_key_text))
        if who.role != "seat" or who.seat != seat:
            raise ForbiddenError("a seat's link reads and plays its own seat only")

    def _managed(self, table_id: str, table_key: str | None) -> CardTable:
        """:raises MissingSecretError, WrongSecretError: not the table's key."""
        table = self.get(table_id)
        if not table_key:
            raise MissingSecretError(f"table {table_id!r}: this needs the table's key (open "
                                     "its control link)")
        if not same(table_key, table.admin_hash):
            raise WrongSecretError(f"table {table_id!r}: this needs the table's key")
        return table

    # ---- commands -------------------------------------------------------------------------

    def _commit(self, table: CardTable, items: list[tuple[str, dict[str, Any]]],
                applied: State | None = None, keys: dict[str, str] | None = None) -> None:
        """Store the events and a seat's new key (`keys`) in one transaction, then fold
        them, wake the phones and the bots. The caller holds the table's lock.

        :raises StorageError: the store refused; nothing is stored nor changed in memory.
        """
        self.store.append_many(table.id, items, expect_seq=table.seq + 1, keys=keys)
        if keys:
            self._take_keys(table, keys)
        for kind, data in items:
            table.fold(kind, data, applied)
        table.touched = time.time()
        self.hub.publish(table.id, table.seq)
        self._wake(table)

    def act(self, table_id: str, seat: int, key: str | None, text: str,
            plays: int | None = None) -> dict[str, Any]:
        """The seat plays `text` (the game's notation); its new view. plays: the view's
        `plays` (moves, new games and ends) the move was chosen on, when the phone says it:
        once another has come, nothing is played (a break-it trial: a "draw" sent again
        1.5 s later, after the bot's move, drew three more cards). A seat taken or handed
        to a bot meanwhile is no move.

        :raises NotYourTurnError (409): another seat is to play, or the game is over;
            ConflictError (409, `table.moved-on`): another move came after `plays`;
            IllegalMoveError (422): not in the notation, or the rules refuse it now (the
            engine's reason); the table is left as it was.
        """
        table = self.get(table_id)
        with table.lock:
            # the key is checked under the lock that applies the move: a seat handed to a bot
            # (or to a new phone) meanwhile has a new key, and the old one plays nothing
            self._seat_of(table, seat, key)
            self._playable(table)
            st = table.state
            assert st is not None
            if table.ended or st.is_terminal():
                raise NotYourTurnError("the game is over; nothing more can be played",
                                       "table.game-over")
            if plays is not None and plays != table.plays:
                raise ConflictError("the table has moved on since that move was chosen; "
                                    "look again and choose", "table.moved-on")
            cur = st.current_player()
            if cur != seat:
                raise NotYourTurnError(f"it is not your turn: {table.seats[cur].name or '?'} "
                                       "is to play", "table.not-your-turn", {"seat": cur})
            self._apply(table, seat, text)
            return self._seat_view(table, seat)

    def _apply(self, table: CardTable, seat: int, text: str) -> None:
        """Check `text` on a copy of the state, store it, then take the copy."""
        assert table.state is not None
        trial = table.state.clone()
        # a refusal quotes a move of at most 40 characters, as every message quotes input
        short = _short(text)
        try:
            action = table.game.parse_action(text)
            trial.apply_action(action)
        except CodedError as e:
            words = str(e)
            for v in (text, *e.params.values()):  # the move, or a part of it, at length
                if isinstance(v, str) and len(v) > 40:
                    words = words.replace(v, _short(v))
            raise IllegalMoveError(f"{short!r} cannot be played now: {words}", e.code,
                                   {k: _short(v) if isinstance(v, str) else v
                                    for k, v in e.params.items()}) from None
        except RulesError as e:
            raise IllegalMoveError(f"{short!r} cannot be played now: "
                                   f"{str(e).replace(text, short)}") from None
        self._commit(table, [("action", {"seat": seat, "action": str(action)})], trial)

    def rematch(self, table_id: str, who: Access, after: int | None = None) -> int:
        """A new game at the same seats: the owner's any time; a seat's once the game is over
        by its rules (a game the owner ended stays ended until the owner starts one).
        `after`: the game number the caller saw; once another has started, the tap came
        twice (the owner's and a seat's at once, or the owner's double tap: a re-trial dealt
        two games) and deals none.

        :raises ForbiddenError: a view link; ConflictError: a seat before the game's end, or
            after the owner ended it, or a game after `after` started; TableLimitError."""
        table = self.get(table_id)
        if who.role not in ("table", "seat"):
            raise ForbiddenError("a rematch needs the table's control link or a seat's link")
        with table.lock:  # asked under the lock: two seats' taps at once deal one game (a
            # break-it trial: a double tap 5 ms apart dealt two)
            if after is not None and after != table.games:
                raise ConflictError("a new game has started already", "table.rematch-started")
            if who.role == "seat" and table.ended:
                raise ConflictError("the table's owner ended this game; only the owner can "
                                    "start a new one", "table.ended-by-owner")
            if who.role == "seat" and not table.over:
                raise ConflictError("a rematch can start once the game is over",
                                    "table.not-over")
            self._playable(table)
            # a game in play gives its place to the new one; a finished (or idle) one counts
            # again
            if not self._in_play(table):
                self._check_limits(str(table.config.get("client", "")))
            started = {"seed": secrets.randbits(62),
                       "players": [s.name for s in table.seats],
                       "bots": {str(i): s.bot for i, s in enumerate(table.seats) if s.bot},
                       "options": table.options}
            self._commit(table, [("game_started", started)])
            return table.seq

    def end(self, table_id: str, table_key: str | None) -> int:
        """The owner ends the game. :raises ConflictError: it is over already."""
        table = self._managed(table_id, table_key)
        with table.lock:
            self._playable(table)
            if table.ended or table.over:
                raise ConflictError("the game is over already", "table.game-over")
            self._commit(table, [("game_ended", {})])
            return table.seq

    # ---- the admin: archive and delete ----------------------------------------------------

    def archive(self, table_id: str) -> int:
        """Archive a table (the admin's; the route checks the key): kept to read, never
        played again (no move, seat, bot or rematch), not counted against the limits.
        Idempotent."""
        table = self.get(table_id)
        with table.lock:
            if not table.archived:
                self._commit(table, [("table_archived", {})])
            return table.seq

    def delete(self, table_id: str) -> None:
        """Delete a table (the admin's; the route checks the key): its events and keys go,
        so its links and keys open nothing more; its live sockets are closed. A table set
        aside as damaged can be deleted too."""
        if table_id not in self.damaged:
            self.get(table_id)
        with self._lock:
            table = self.tables.pop(table_id, None)
            self.damaged.pop(table_id, None)
            if table is not None and self.codes.get(table.code) == table_id:
                del self.codes[table.code]
        if table is not None:
            with table.lock:  # a move in progress finishes first; nothing follows it
                table.archived = True
        self.store.delete_table(table_id)
        self.hub.publish(table_id, -1)


def _short(text: str) -> str:
    """`text` as a message quotes input: at most 40 characters, an ellipsis for the rest."""
    return text if len(text) <= 40 else text[:39] + "…"
