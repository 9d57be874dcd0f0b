"""A rich rendering of a Tukki Tukki table for one seat (or everything, at the end)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from referee.games.tukki.cards import PARROT, card_name
from referee.games.tukki.state import TukkiState

_HIDDEN = "▒▒"


def _cell(card: int, shown: bool) -> Text:
    if not shown:
        return Text(_HIDDEN, style="dim")
    return Text(card_name(card), style="bold green" if card == PARROT else "bold")


def render(state: TukkiState, seat: int | None) -> Group:
    """The boxes, the bin, the deck and, for `seat`, what only they may see.

    `seat=None` reveals everything (for the end of a game); a seat sees only face-up cards,
    and the card it drew from the deck.
    """
    parts: list[Text | Table] = [Text(f"Tukki Tukki, round {state.round}/{state.rounds}, "
                                      f"phase {state.phase}", style="bold")]
    boxes = Table.grid(padding=(0, 3))
    for p in range(state.num_players):
        box, up = state.boxes[p], state.up[p]
        t = Table(show_header=p == 0, box=None, padding=(0, 1), header_style="dim")
        t.add_column("")
        for k in range(1, 5):
            t.add_column(str(k), justify="right", min_width=2)
        for name, row in (("a", range(4)), ("b", range(4, 8))):
            t.add_row(Text(name, style="dim"),
                      *(_cell(box[i], up[i] or seat is None) for i in row))
        mark = " <" if p == state.current and not state.is_terminal() else ""
        you = " (you)" if p == seat else ""
        done = " finished" if p == state.finisher else ""
        head = Text(f"seat {p}{you}: total {state.totals[p]}{done}{mark}")
        boxes.add_row(head, t)
    parts.append(boxes)
    top = card_name(state.bin[-1]) if state.bin else "empty"
    line = f"bin top {top} ({_n(len(state.bin))}), deck {_n(len(state.deck))}"
    if state.drawn is not None:
        seen = seat is None or seat == state.current or state.drawn_from == "bin"
        line += f"; drawn from the {state.drawn_from}: " + (card_name(state.drawn) if seen
                                                            else "?")
    parts.append(Text(line))
    if state.round_scores is not None:
        parts.append(Text(f"last round's scores: {state.round_scores}"))
    return Group(*parts)


def _n(k: int) -> str:
    return f"{k} card" if k == 1 else f"{k} cards"
