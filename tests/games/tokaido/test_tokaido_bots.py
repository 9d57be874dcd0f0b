"""The heuristic bot beats random in more than 60 % of 2-player games (ENGINES.md Bots)."""

from __future__ import annotations

import random

from referee.games.engine import RandomBot, make_bot, play_out
from referee.games.tokaido import GAME


def test_heuristic_beats_random() -> None:
    games, wins = 60, 0
    for g in range(games):
        s = GAME.new_game(2, seed=1000 + g)
        seat = g % 2  # both seats
        bots = [RandomBot(), RandomBot()]
        bots[seat] = make_bot(GAME, "heuristic")
        play_out(s, bots, random.Random(g), 1000)
        wins += s.winner() == seat
    assert wins / games > 0.6, f"heuristic won {wins} of {games}"


def test_heuristic_plays_every_seat_count() -> None:
    for n in range(2, 6):
        s = GAME.new_game(n, seed=n)
        play_out(s, [make_bot(GAME, "heuristic")] * n, random.Random(n), 1000)
        assert s.is_terminal()
