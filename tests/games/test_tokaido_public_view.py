"""What every Tokaido traveller sees during play (a new user's trial of the phone page): each
traveller's points as if the journey ended now (the scoring track is public), and the walks
the game makes on its own from an inn, which the phones' last moves show after the move that
caused them. Nothing hidden (the two piles' order) comes with either."""

from __future__ import annotations

import json
import random

from referee.games.tokaido import GAME, TokaidoState
from referee.server.card_views import LAST_MOVES, _last_moves
from referee.server.cardtable import CardTable, public_table


def play_until_walks(seed: int, players: int = 4) -> tuple[TokaidoState, list[int]]:
    """A random game played until every traveller has left the first inn by themselves; the
    state, and the actions played (`turns`) when each walk came."""
    rng = random.Random(seed)
    s = GAME.new_game(players, seed=seed)
    at: list[int] = []
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        at += [s.turns] * (len(s.walks) - len(at))
        if len(s.walks) == players:
            return s, at
    raise AssertionError("no walk from an inn in a whole game")


def test_points_are_public_during_play_and_hold_nothing_hidden() -> None:
    """The observation's `points` (by part, and the total) during play, as if the game ended
    now: the same for every seat, so in the public table; it was null until the end."""
    rng = random.Random(3)
    s = GAME.new_game(3, seed=3)
    assert s.observation(0)["points"] == s.breakdown()  # at the start: the characters' points
    assert [r["total"] for r in s.observation(1)["points"]] == \
        [s.character(p).points + s.coins[p] // 3 for p in range(3)]
    for step in range(60):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
        obs = [s.observation(p) for p in range(3)]
        assert obs[0]["points"] is not None and all(o["points"] == obs[0]["points"] for o in obs)
        assert [r["total"] for r in obs[0]["points"]] == s.scores()
        assert public_table(s)["points"] == s.breakdown()
        if step % 10 == 0:  # the piles dealt anew: the points do not change
            for p in range(3):
                assert s.determinize(p, random.Random(step)).observation(p) == obs[p]


def test_the_walk_from_an_inn_is_recorded_in_arrival_order() -> None:
    """Leaving an inn is no decision (RULINGS.md Inns), so it has no action: the state records
    each walk (the actions played before it, the seat, the space), in arrival order at the
    inn, each to the first free space at least 3 ahead; a traveller who walks to a space with
    something to do does it before the next one walks, so each walk follows the action
    played just before it."""
    for seed in range(5):
        s, at = play_until_walks(seed)
        inn = s.rules.inns[0]
        assert [after for after, _, _ in s.walks] == at
        assert sorted(p for _, p, _ in s.walks) == list(range(s.num_players))
        spaces = [n for _, _, n in s.walks]
        assert len(set(spaces)) == len(spaces)  # one traveller a space
        for n in spaces:
            assert inn + s.rules.inn_leave_distance <= n < s.rules.inns[1]
        assert spaces[0] == inn + s.rules.inn_leave_distance  # the first walker: nothing taken
        assert s.auto_moves() == [(a, p, f"move {n}") for a, p, n in s.walks]
        # the walks are public: every deal of the piles keeps them
        assert s.determinize(0, random.Random(1)).walks == s.walks


def test_walks_survive_a_clone_and_a_round_trip() -> None:
    s, _ = play_until_walks(1)
    c = s.clone()
    rng = random.Random(0)
    while len(c.walks) == len(s.walks) and not c.is_terminal():
        c.apply_action(rng.choice(c.legal_actions()))
    assert len(c.walks) > len(s.walks) and c.turns > s.turns  # the clone's own, not s's
    back = TokaidoState.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.walks == c.walks and back.turns == c.turns
    assert back.to_dict() == c.to_dict()
    old = c.to_dict()
    del old["walks"], old["turns"]  # a state stored before them still loads
    assert TokaidoState.from_dict(old).walks == ()


def test_the_last_moves_hold_each_walk_after_the_move_that_caused_it() -> None:
    """The public view's last moves: the action that ended the inn (a meal or its skip) is
    the last, as before, and the walks follow it as its `then`, in words on the phones."""
    rng = random.Random(4)
    # played through the table, as the server does
    table = CardTable("t", {"game": "tokaido", "name": "T", "language": "en"}, "", GAME)
    table.fold("game_started", {"seed": 4, "players": ["Ava", "Ben", "Cy"]})
    names = ["Ava", "Ben", "Cy"]
    while True:
        st = table.state
        assert isinstance(st, TokaidoState)
        seat = st.current_player()
        action = str(rng.choice(st.legal_actions()))
        table.fold("action", {"seat": seat, "action": action})
        if st.walks:
            break
    last = _last_moves(table, names)
    # the meal (or its skip) that ended the inn stays the last move; the first walk follows
    assert last[-1]["seat"] == seat and last[-1]["action"] == action
    _, p, n = st.walks[0]
    assert last[-1]["then"] == [{"seat": p, "name": names[p], "action": f"move {n}"}]
    assert all("then" not in mv for mv in last[:-1])
    # later moves push the action out of the window; its walks go with it
    for _ in range(LAST_MOVES):
        st = table.state
        assert isinstance(st, TokaidoState)
        if st.is_terminal():
            break
        seat = st.current_player()
        table.fold("action", {"seat": seat, "action": str(rng.choice(st.legal_actions()))})
    last = _last_moves(table, names)
    assert len(last) == LAST_MOVES
    shown = sum(len(mv.get("then", [])) for mv in last)
    want = sum(1 for after, _, _ in table.state.walks  # type: ignore[union-attr]
               if after > len(table.moves) - LAST_MOVES)
    assert shown == want

