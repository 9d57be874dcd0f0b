"""Which tables count against the box's limits (settings `max_tables`,
`max_tables_per_client`; `check_limits` refuses a table past them): Tuki tables
(table.Table) and card tables (cardtable.CardTable) alike, through `InPlay`."""

from __future__ import annotations

from collections import deque

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


class NewTables:
    """When each client made its latest tables, Tuki and card tables together (the two
    services share one, as they share the creation lock): `take` refuses a client's table
    past `most` in the last hour. Tables in play are bounded by `check_limits`; this bounds
    the ones made and ended at once, which count nowhere else (a break-it trial: 30 made and
    ended in 0.2 s, each kept on the box's disk and on its start page). In memory: a
    restart forgets it. Not thread-safe: call it under the creation lock."""

    HOUR_S = 3600.0

    def __init__(self) -> None:
        self._made: dict[str, deque[float]] = {}

    def take(self, client: str, most: int, now: float) -> None:
        """Count one new table of `client` at `now` (Unix seconds).

        :raises TableLimitError: `client` made `most` tables in the hour before `now`
            (`table.too-many-new`, with the minutes until one more may be made).
        """
        for c in [c for c, q in self._made.items() if now - q[-1] >= self.HOUR_S]:
            del self._made[c]  # nobody's old times are kept
        made = self._made.setdefault(client, deque())
        while made and now - made[0] >= self.HOUR_S:
            made.popleft()
        if len(made) >= most:
            wait = max(1, int((self.HOUR_S - (now - made[0])) // 60) + 1)
            raise TableLimitError(f"this phone or computer made {len(made)} tables in the last "
                                  f"hour, the most it may; play on at one of them, or make a "
                                  f"new one in {wait} minutes", "table.too-many-new",
                                  {"n": len(made), "most": most, "minutes": wait})
        made.append(now)
