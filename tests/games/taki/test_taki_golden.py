"""A golden playthrough (OpenSpiel style): a whole 3-player game from `new_game(3, seed=11)`,
one line per action: seat, action, then the public facts after it. Replaying the actions
must give the same seats and facts, so any change of the rules shows up here.

The game shows +2 stacking and a drawn stack, a +3 Breaker in its player's own turn, two +3
windows, open TAKI runs continued by the next player, a Super TAKI, Change Color and a
"last card" call; it was checked by hand against docs/taki.md.
"""

from __future__ import annotations

from pathlib import Path

from referee.games.taki import new_game

GOLDEN = Path(__file__).with_name("golden_3p_seed11.txt")


def _summary(state) -> str:
    f = state.facts()
    return (f"lead {f['leading']} {f['active_color']} dir {f['direction']} "
            f"pend {f['pending_draw']} hands {f['hand_size']}")


def test_golden_game_replays():
    """[rule:plus2] [rule:breaker-own-turn] [rule:plus3-window] [rule:taki-open] [rule:winning]"""
    state = new_game(3, seed=11)
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 48
    for i, line in enumerate(lines, 1):
        head, want = line.split(" | ")
        seat, text = head.split(" ", 1)
        assert state.current_player() == int(seat), f"line {i}: {line}"
        state.apply_text(text)
        assert _summary(state) == want, f"line {i}: {line}"
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 0.0]
