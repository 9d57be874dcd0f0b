"""Which tables count against the box's limits (settings `max_tables`,
`max_tables_per_client`; `check_limits` refuses a table past them): Tuki tables
(table.Table) and card tables (cardtable.CardTable) alike, through `InPlay`."""

from __future__ import annotations

from referee.server.errors import TableLimitError


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


def check_limits(live: list[str], client: str, most: int, most_mine: int,
                 idle_min: int) -> None:
    """`live`: the client address of each table in play on the box (Tuki and card tables;
    a finished, archived or idle one is not in play).

    :raises TableLimitError: the box has `most` tables in play, or `client` has `most_mine`
        (coded `table.too-many-box` / `table.too-many-mine`, so that every phone says it in
        its language, with the way out: end one, or let one sit idle for `idle_min`).
    """
    params = {"n": len(live), "most": most, "minutes": idle_min}
    if len(live) >= most:
        raise TableLimitError(f"this box already has {len(live)} tables in play, the most it "
                              f"takes; wait until one ends (a table where nothing has "
                              f"happened for {idle_min} minutes no longer counts)",
                              "table.too-many-box", params)
    mine = sum(1 for c in live if c == client)
    if mine >= most_mine:
        raise TableLimitError(f"this phone or computer already has {mine} tables in play, the "
                              f"most it may have; end one from its control link, or wait (a "
                              f"table where nothing has happened for {idle_min} minutes no "
                              "longer counts)", "table.too-many-mine",
                              params | {"n": mine, "most": most_mine})
