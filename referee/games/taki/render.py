"""A rich rendering of a TAKI table for one seat (its hand only) or for all (seat None)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from referee.games.taki.cards import COLOR_OF, COLORS, card_name
from referee.games.taki.state import TakiState

STYLES = ("bold red", "bold green", "bold blue", "bold yellow")


def card_text(k: int) -> Text:
    """A card's notation in its colour's style (magenta for the colourless cards)."""
    col = COLOR_OF[k]
    return Text(card_name(k), style=STYLES[col] if col >= 0 else "bold magenta")


def _hand(cards: tuple[int, ...]) -> Text:
    return Text(" ").join(card_text(k) for k in cards) if cards else Text("-")


def render(state: TakiState, seat: int | None) -> Group:
    """The table: leading card, active colour, direction, +2 stack, open TAKI, and per seat
    the card count; the cards of `seat` (all hands when `seat` is None)."""
    f = state.facts()
    head = Text("leading ")
    head.append_text(card_text(state.leading))
    if f["top"] != f["leading"]:
        head.append(f"  (top {f['top']})")
    color = COLORS.index(f["active_color"])
    head.append("  colour ")
    head.append(f["active_color"], style=STYLES[color])
    head.append(f"  direction {'->' if f['direction'] == 1 else '<-'}")
    if f["pending_draw"]:
        head.append(f"  +2 stack: draw {f['pending_draw']}", style="bold")
    if f["taki_open"]:
        head.append(f"  TAKI open ({f['run_color']})", style="bold")
    head.append(f"  phase {state.phase}  deck {f['deck_size']}")
    table = Table(show_header=True, header_style="bold")
    table.add_column("seat")
    table.add_column("cards", justify="right")
    if state.tournament:
        table.add_column("stage", justify="right")
    table.add_column("hand")
    for p, n in enumerate(f["hand_size"]):
        mark = ">" if p == f["current_player"] else " "
        if p == f["winner"]:
            mark = "*"
        shown = _hand(state.hand(p)) if seat is None or p == seat else Text("?" * min(n, 12))
        row = [f"{mark} {p}", str(n)]
        if state.tournament:
            row.append(str(f["stage"][p]))
        table.add_row(*row, shown)
    return Group(head, table)
