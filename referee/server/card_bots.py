"""The card tables' bots: when it is a bot's turn it plays in the service's worker thread,
after `settings.bot_pause_s`, on a copy of the state, then through the same checks as a
person's move."""

from __future__ import annotations

import contextlib
import logging
import random
import time

from referee.errors import RefereeError
from referee.games.engine import make_bot
from referee.server.card_base import CardServiceBase
from referee.server.cardtable import CardTable
from referee.server.storage import StorageError

log = logging.getLogger("referee.server")


class CardBots(CardServiceBase):
    """The card table service's bots."""

    def _wake(self, table: CardTable) -> None:
        """Let a bot play when it is a bot's turn (after the pause, in the worker)."""
        st = table.state
        if self._closed or st is None or table.ended or table.archived or st.is_terminal():
            return
        if table.seats[st.current_player()].bot is None:
            return
        with contextlib.suppress(RuntimeError):  # the worker is shut down: no more moves
            self._bots.submit(self._bot_move, table, table.seq)

    def _bot_move(self, table: CardTable, seq: int) -> None:
        if self.settings.bot_pause_s > 0:
            time.sleep(self.settings.bot_pause_s)
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
                if table.seq != seq:
                    return
                self._apply(table, seat, str(action))
        except (RefereeError, StorageError) as e:
            log.error("card table %r: a bot could not play", table.id, exc_info=e)
        except Exception as e:  # the worker must live on
            log.error("card table %r: a bot failed", table.id, exc_info=e)
