"""Which tables count against the box's limits (settings `max_tables`,
`max_tables_per_client`; errors.check_limits refuses a table past them): Tuki tables
(table.Table) and card tables (cardtable.CardTable) alike, through `InPlay`."""

from __future__ import annotations


class InPlay:
    """A table that may count against the box's limits. The class says whether it `counts`
    at all (its game in play); `touched` is when its last event happened (Unix seconds)."""

    touched: float

    @property
    def counts(self) -> bool:
        """Whether the table's game is in play (not over, archived, ...); each class says."""
        raise NotImplementedError

    def in_play(self, now: float, idle_s: float) -> bool:
        """Whether it counts against the box's limits at `now` (Unix seconds): `counts`, and
        its last event is less than `idle_s` seconds old. A table whose links were lost so
        stops counting by itself; it can still be played, and then counts again."""
        return self.counts and now - self.touched < idle_s
