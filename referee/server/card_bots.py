"""The card tables' bots: when it is a bot's turn its move is due `settings.bot_pause_s`
later (so that people see each move); one worker thread plays whichever table's move is due
first, on a copy of the state, then through the same checks as a person's move. A pause
holds up only its own table: the worker waits on the earliest due time, never sleeps a
table's pause while another table's move is due."""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import threading
import time
from collections.abc import Callable

from referee.errors import RefereeError
from referee.games.engine import make_bot
from referee.server.card_base import CardServiceBase
from referee.server.cardtable import CardTable
from referee.server.storage import StorageError

log = logging.getLogger("referee.server")


def _has_person(table: CardTable) -> bool:
    """Whether a person holds (or may take) a seat at the table."""
    return any(s.bot is None for s in table.seats)


class BotQueue:
    """Bot moves that fall due at a time (monotonic seconds), played by one worker thread
    in the order they fall due; the thread starts with the first move and ends at `close`.
    Thread-safe."""

    def __init__(self, play: Callable[[CardTable, int], None]) -> None:
        self._play = play
        self._due: list[tuple[float, int, CardTable, int]] = []
        self._order = itertools.count()  # ties: in the order they were scheduled
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def schedule(self, table: CardTable, seq: int, delay_s: float) -> None:
        """Play `table`'s bot move for event `seq` once `delay_s` seconds have passed
        (nothing once the queue is closed)."""
        with self._cond:
            if self._closed:
                return
            heapq.heappush(self._due, (time.monotonic() + delay_s, next(self._order), table,
                                       seq))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="card-bots",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()

    def close(self) -> None:
        """Drop every move not yet played and end the worker (a move being played ends
        first, and stores nothing once the service is closed)."""
        with self._cond:
            self._closed = True
            self._due.clear()
            self._cond.notify()

    def _next(self) -> tuple[CardTable, int] | None:
        """The first move due, once it is due, a table where people play before a table of
        bots alone (a search bot thinks up to 0.2 s a move, and tables of hard bots alone,
        which anyone may make, delayed people's bots by seconds: a second break-it trial);
        None when closed."""
        with self._cond:
            while not self._closed:
                if not self._due:
                    self._cond.wait()
                    continue
                now = time.monotonic()
                wait = self._due[0][0] - now
                if wait <= 0:
                    due = sorted(d for d in self._due if d[0] <= now)
                    pick = next((d for d in due if _has_person(d[2])), due[0])
                    self._due.remove(pick)
                    heapq.heapify(self._due)
                    return pick[2], pick[3]
                self._cond.wait(wait)
            return None

    def _run(self) -> None:
        while (due := self._next()) is not None:
            self._play(*due)


class CardBots(CardServiceBase):
    """The card table service's bots."""

    def _wake(self, table: CardTable) -> None:
        """Let a bot play when it is a bot's turn (after the pause, in the worker)."""
        st = table.state
        if self._closed or st is None or table.ended or table.archived or st.is_terminal():
            return
        if table.seats[st.current_player()].bot is None:
            return
        self._bots.schedule(table, table.seq, self.settings.bot_pause_s)

    def _bot_move(self, table: CardTable, seq: int) -> None:
        """The bot's move at `table` if the table is still at event `seq` and a bot is to
        play; any error is logged (the worker lives on)."""
        try:
            with table.lock:
                st = table.state
                if (table.seq != seq or st is None or table.ended or table.archived
                        or st.is_terminal() or self._closed):
                    return
                seat = st.current_player()
                level = table.seats[seat].bot
                if level is None:
                    return
                thinking = st.clone()
            rng = random.Random(f"{table.id}:{seq}")
            action = make_bot(table.game, level).choose(thinking, rng)
            with table.lock:
                if table.seq != seq or self._closed:
                    return
                self._apply(table, seat, str(action))
        except (RefereeError, StorageError) as e:
            log.error("card table %r: a bot could not play", table.id, exc_info=e)
        except Exception as e:  # the worker must live on
            log.error("card table %r: a bot failed", table.id, exc_info=e)
