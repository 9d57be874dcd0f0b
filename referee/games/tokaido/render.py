"""A rich rendering of a Tokaido table for `referee play tokaido` (public facts only)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from referee.games.tokaido.state import TokaidoState

_STYLE = {"kyoto": "bold", "meal": "yellow3", "panorama": "blue", "encounter": "red",
          "temple": "green", "souvenir": "bright_yellow", "hotspring": "magenta",
          "inn": "bold white on grey30", "edo": "bold"}
_SHORT = {"kyoto": "KYO", "meal": "mea", "panorama": "pan", "encounter": "enc",
          "temple": "tmp", "souvenir": "sou", "hotspring": "spr", "inn": "INN", "edo": "EDO"}


def _counts(d: dict[str, int], state: TokaidoState | None = None) -> str:
    """`sushi $3 x2, ...`: codes, prices when `state` is given, copies."""
    out = []
    for c, n in d.items():
        price = state.rules.by_code[c].price if state is not None else 0
        out.append(c + (f" ${price}" if price else "") + (f" x{n}" if n > 1 else ""))
    return ", ".join(out) or "-"


def _road(state: TokaidoState) -> Text:
    t = Text()
    for i, space in enumerate(state.rules.spaces):
        here = "".join(str(p) for p in range(state.num_players) if state.pos[p] == i)
        t.append(f"{i}:{_SHORT[space]}", style=_STYLE[space])
        t.append(f"[{here}] " if here else " ", style="bold reverse" if here else "")
    return t


def render(state: TokaidoState, seat: int | None = None) -> Group:
    """The road, the players and the displays; `seat` is marked as "you"."""
    obs = state.observation(0 if seat is None else seat)
    parts = state.breakdown()
    players = Table(title="Travellers", show_lines=False)
    for col in ("seat", "character", "space", "coins", "points", "cards"):
        players.add_column(col)
    for p in range(state.num_players):
        char = state.character(p)
        name = f"{p}" + (" (you)" if p == seat else "") + (" *" if p == obs["current_player"]
                                                            else "")
        players.add_row(name, f"{char.name}: {char.ability.text}",
                        f"{state.pos[p]} {state.rules.spaces[state.pos[p]]}",
                        str(state.coins[p]), str(parts[p]["total"]),
                        _counts(obs["collected"][p]))
    shown = Table(title="On the table", show_header=False)
    shown.add_column("what")
    shown.add_column("cards")
    for s, row in enumerate(obs["meal_rows"], 1):
        shown.add_row(f"meals, segment {s}", _counts(row, state))
    for s, row in enumerate(obs["panorama_rows"], 1):
        shown.add_row(f"panoramas, segment {s}", _counts(row))
    shown.add_row("temples", _counts(obs["temples"]))
    shown.add_row("souvenirs", _counts(obs["souvenirs"], state))
    shown.add_row("encounters", f"{', '.join(obs['encounter_face']) or '-'} "
                  f"(+{obs['encounter_deck_size']} face down)")
    shown.add_row("stories", f"{', '.join(obs['story_face']) or '-'} "
                  f"(+{obs['story_deck_size']} face down)")
    p = obs["current_player"]
    if p < 0:
        order = ", ".join(f"seat {q}: {parts[q]['total']}" for q in range(state.num_players))
        status = Text(f"game over. Winner: seat {state.winner()} ({order})", style="bold")
    else:
        what = {"move": "moves", "meal": "chooses an inn meal",
                "action": f"acts at the {state.rules.spaces[state.pos[p]]}"}[obs["phase"]]
        status = Text(f"seat {p} {what}", style="bold")
    return Group(_road(state), players, shown, status)
