"""What a card table shows: the public view (built once per event), a seat's own view, what
each live socket gets, and the lists of tables (docs/server.md "Card games at the table",
"What each answer holds")."""

from __future__ import annotations

import time
from typing import Any

from referee.server.card_base import CardServiceBase
from referee.server.cardtable import CardTable, public_table
from referee.server.keys import Access

LAST_MOVES = 12  # the moves a view shows


def _own_name(table: CardTable) -> str | None:
    """The name the table was given, None if it has only its game's (English) name."""
    name = str(table.config.get("name", ""))
    return None if name in ("", table.game.title) else name


def listed_name(own: str | None, title: str) -> str:
    """A listed card table's name: its own with its game's `title` ("Friday (TAKI)"), or the
    game's alone if it was given none."""
    return f"{own} ({title})" if own else title


def final_ranks(returns: list[float], scores: list[int], low_first: bool) -> list[int]:
    """Each seat's place at the end, 1 the winner: by returns (who won), then by score (fewer
    first when `low_first`); seats level on both share a place (1, 2, 2, 4)."""
    keys = [(-r, s if low_first else -s) for r, s in zip(returns, scores, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def _last_moves(table: CardTable, names: list[str | None]) -> list[dict[str, Any]]:
    """The last LAST_MOVES actions, `{seat, name, action}` in notation, oldest first; an
    action after which the game went on by itself has what it did, oldest first, as its
    `then`: Tokaido's walks from an inn (no decision, so no action of their own), each
    `{seat, name, action}` too, the travellers an inn passed over at its meals,
    `{seat, name, passed}` with why (`no-money`: none affordable; `none-left`: the row is
    empty), before that inn's walks, and the road spaces where a traveller stopped and got
    nothing, `{seat, name, stopped, why}` (`stopped`: the space; why as above), right after
    the move or walk that led there (docs/server.md "What each answer holds")."""
    start = max(0, len(table.moves) - LAST_MOVES)
    out: list[dict[str, Any]] = [{"seat": s, "name": names[s], "action": a}
                                 for s, a in table.moves[start:]]
    # `moves` holds this game's actions, one per action the engine applied (both start
    # anew with each game), so an engine's count of actions before a move indexes them;
    # Tokaido's only. Sorted by that count; within it a stop reached by the action itself
    # first, then the passes (an inn's meals end before anyone leaves it), then each walk
    # followed by its own stop if that did nothing
    st = table.state
    passes = getattr(st, "passed_over", None)
    auto = getattr(st, "auto_moves", None)
    idle = getattr(st, "idle_stops", None)
    walks = auto() if auto is not None else []
    done: list[tuple[tuple[int, int, int, int], dict[str, Any]]] = [
        ((after, 0, k, 0), {"seat": seat, "name": names[seat], "passed": why})
        for k, (after, seat, why) in enumerate(passes() if passes is not None else [])]
    done += [((after, 1, k, 0), {"seat": seat, "name": names[seat], "action": action})
             for k, (after, seat, action) in enumerate(walks)]
    for k, (after, seat, space, why) in enumerate(idle() if idle is not None else []):
        # after the walk that led there (same count, seat and space), else after the action
        w = next((j for j, x in enumerate(walks) if x == (after, seat, f"move {space}")), None)
        done.append(((after, 1, w, 1) if w is not None else (after, -1, k, 0),
                     {"seat": seat, "name": names[seat], "stopped": space, "why": why}))
    done.sort(key=lambda x: x[0])
    for (after, *_), entry in done:
        i = after - 1 - start  # the action it followed, in `out`
        if 0 <= i < len(out):
            out[i].setdefault("then", []).append(entry)
    return out


class CardViews(CardServiceBase):
    """The card table service's views: what each key may see, never a hidden card."""

    def view(self, table_id: str) -> dict[str, Any]:
        """The public view: what anyone at the table may see (no hidden card, no seed)."""
        table = self.get(table_id)
        with table.lock:
            return self._public(table)

    def _public(self, table: CardTable) -> dict[str, Any]:
        """The public view (a new dict each time; its parts are shared, never changed): built
        once per event and kept, as every phone of the table asks for the same one."""
        if table.public is None or table.public[0] != table.seq:
            table.public = (table.seq, self._build_public(table))
        return dict(table.public[1])

    def _build_public(self, table: CardTable) -> dict[str, Any]:
        st = table.state
        assert st is not None
        over = st.is_terminal()
        cur = None if over or table.ended or table.archived else st.current_player()
        names = [s.name for s in table.seats]
        return {
            "id": table.id, "game": table.game.name, "title": table.game.title,
            "name": str(table.config.get("name", "")), "seq": table.seq,
            "language": str(table.config.get("language", "en")),
            "players": [{"seat": i, "name": s.name, "bot": s.bot, "open": s.open,
                         "joined": s.joined}
                        for i, s in enumerate(table.seats)],
            "code": table.code if any(s.open for s in table.seats) else None,
            "current_player": cur, "over": over, "ended": table.ended, "game_no": table.games,
            "plays": table.plays,
            "archived": table.archived,
            "returns": st.returns() if over else None,
            "scores": st.scores() if over else None,
            "ranks": final_ranks(st.returns(), st.scores(), table.game.low_scores_rank_first)
            if over else None,
            "table": public_table(st),
            "last": _last_moves(table, names),
            "moves": len(table.moves),
            # Tokaido: the road's spaces, for drawing it (fixed, public)
            "spaces": list(getattr(getattr(st, "rules", None), "spaces", []) or [])
            if table.game.name == "tokaido" else None,
        }

    def _seat_view(self, table: CardTable, seat: int) -> dict[str, Any]:
        st = table.state
        assert st is not None
        view = self._public(table)
        view["seat"] = seat
        view["me"] = st.observation(seat)
        mine = view["current_player"] == seat and table.seats[seat].bot is None
        legal = st.legal_actions() if mine else []
        cost = table.game.action_cost
        # what each legal action costs (Tokaido's coins), for its button; only those that do
        costs = {} if cost is None else {str(a): c for a in legal if (c := cost(st, a))}
        # the actions with which TAKI's "last card" call counts (they end the turn with one
        # card): the phone offers the call with these only, though the engine takes it with
        # every action while the hand holds 2 cards or fewer
        calls = [str(a) for a in table.game.counted_calls(st, legal)]
        return {"view": view, "seat": seat, "legal": [str(a) for a in legal], "costs": costs,
                "calls": calls,
                "current_player": view["current_player"], "over": view["over"],
                "returns": view["returns"]}

    def seat_view(self, table_id: str, seat: int, key: str | None) -> dict[str, Any]:
        """A seat's own view (its observation and legal actions), for its key only.

        :raises UnknownTableError, MissingSecretError, ForbiddenError, WrongSecretError:
        """
        table = self.get(table_id)
        with table.lock:  # the key and the view of one moment (as `act`)
            self._seat_of(table, seat, key)
            return self._seat_view(table, seat)

    def feed_view(self, table_id: str, who: Access) -> dict[str, Any]:
        """What a live socket of `who` gets: a seat its own view, anyone else the public."""
        table = self.get(table_id)
        with table.lock:
            if who.role == "seat" and who.seat is not None:
                return {"type": "seat", **self._seat_view(table, who.seat)}
            return {"type": "view", "view": self._public(table)}

    def summaries(self, everything: bool = False) -> list[dict[str, Any]]:
        """The listed card tables, with their view links (for the start page): not those
        archived or ended by their owner (a break-it trial filled the start page with tables
        made and ended at once, each said to be "playing"), nor those of bots alone, nor
        those whose game ended more than `settings.idle_min` minutes ago (another filled
        the page with bots' games that ended by themselves within a minute, and so never
        counted against the limits); `everything` (the admin's list): every card table,
        also archived and ended ones and those set aside at start (with `damaged`: why, in
        plain words)."""
        now, idle_s = time.time(), 60.0 * self.settings.idle_min

        def public(t: CardTable) -> bool:
            return bool(t.config.get("listed")) and not t.archived and not t.ended and any(
                s.bot is None for s in t.seats) and not (t.over and now - t.touched >= idle_s)

        out: list[dict[str, Any]] = [
            {"id": t.id, "name": listed_name(_own_name(t), t.game.title), "game": t.game.name,
             "own_name": _own_name(t),
             "players": [s.name or "?" for s in t.seats],
             "phase": "over" if t.over else "ended" if t.ended else "playing", "demo": False,
             "damaged": None, "archived": t.archived,
             "view_path": f"/g/{t.id}?v={t.view_token}"}
            for t in list(self.tables.values()) if everything or public(t)]
        if everything:
            out += [{"id": tid, "name": tid[:60], "players": [], "phase": "damaged",
                     "demo": False, "damaged": why, "archived": False, "view_path": None}
                    for tid, why in list(self.damaged.items())]
        return out
