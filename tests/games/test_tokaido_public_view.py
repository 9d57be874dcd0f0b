"""What every Tokaido traveller sees during play (a new user's trial of the phone page): each
traveller's points as if the journey ended now (the scoring track is public), and the walks
the game makes on its own from an inn, which the phones' last moves show after the move that
caused them, with the travellers an inn's meals pass over and the road spaces that do nothing
for whoever stops there, each with the engine's reason. Nothing hidden (the two piles' order)
comes with any of them."""

from __future__ import annotations

import json
import random
from typing import Any

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
    # no walk before it (a stop that did nothing may follow an earlier move)
    assert not [e for mv in last[:-1] for e in mv.get("then", []) if "action" in e]
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
    shown = sum(1 for mv in last for e in mv.get("then", []) if "action" in e)
    want = sum(1 for after, _, _ in table.state.walks  # type: ignore[union-attr]
               if after > len(table.moves) - LAST_MOVES)
    assert shown == want



# ----- the travellers an inn's meals pass over -------------------------------------------------

def at_the_inn(coins: list[int], row: list[str]) -> TokaidoState:
    """Three travellers: seats 0 and 1 wait at the first inn (arrived in that order), seat 2
    is one step before it; the first inn's meal row is `row`."""
    from referee.games.tokaido import from_setup

    return from_setup({"characters": ["merchant", "painter", "priest"], "position": [11, 11, 10],
                       "arrival": [0, 1, 2], "coins": coins, "meal_rows": [row, [], []],
                       "panorama_rows": [[], [], []], "encounter_face": [],
                       "encounter_deck": []})


def test_a_traveller_who_can_afford_no_meal_is_passed_over_with_why() -> None:
    """RULINGS.md Inns, step 10: a traveller who can pay for no meal of the row gets no
    decision; the state records the pass (the actions played before it, the seat, why), so
    that the phones can say why that traveller bought nothing. It was passed over silently."""
    from referee.games.tokaido.state import NO_MONEY

    s = at_the_inn([0, 3, 1], ["sushi", "soba"])  # sushi $3, soba $1
    s.apply_text("move 11")  # all at the inn: the meals begin, seat 0 (0 coins) passed over
    assert s.phase.value == "meal" and s.current_player() == 1
    assert s.passes == ((1, 0, NO_MONEY),) and s.passed_over() == [(1, 0, NO_MONEY)]
    s.apply_text("take sushi")  # seat 1 buys the sushi; seat 2 (1 coin) can buy the soba
    assert s.current_player() == 2 and s.passes == ((1, 0, NO_MONEY),)
    s.apply_text("skip")  # a skip is a decision, not a pass
    assert s.passes == ((1, 0, NO_MONEY),) and len(s.walks) >= 1
    # a traveller who chose (or skipped) is never said to be passed over
    assert [p for _, p, _ in s.passes] == [0]


def test_a_traveller_who_finds_no_meal_left_is_passed_over_with_why() -> None:
    """With the row empty, every traveller is passed over, each with NONE_LEFT, in arrival
    order, before anyone leaves the inn (the walks of the same count follow)."""
    from referee.games.tokaido.state import NO_MONEY, NONE_LEFT

    s = at_the_inn([5, 5, 5], [])
    s.apply_text("move 11")
    assert s.passes == ((1, 0, NONE_LEFT), (1, 1, NONE_LEFT), (1, 2, NONE_LEFT))
    assert [a for a, _, _ in s.walks][:1] == [1]  # the walks came after the same action
    # the reason is the engine's own: coins enough, nothing left; no coins, something left
    poor = at_the_inn([0, 0, 0], ["unagi"])
    poor.apply_text("move 11")
    assert [w for _, _, w in poor.passes] == [NO_MONEY] * 3


def _public_record_survives(s: TokaidoState, move: str, field: str, bad: list[Any],
                            word: str) -> None:
    """A public record of the engine's (`passes`, `idle`), made by `move` on a clone of `s`:
    the clone's own, kept by a JSON round trip and a new deal of the piles (public), absent
    from a state stored before it (it still loads), and a record with no such reason (`bad`,
    naming `word`) refused."""
    from referee.games.engine import SetupError

    c = s.clone()
    c.apply_text(move)
    assert getattr(s, field) == () and getattr(c, field)  # the clone's own
    back = TokaidoState.from_dict(json.loads(json.dumps(c.to_dict())))
    assert getattr(back, field) == getattr(c, field) and back.to_dict() == c.to_dict()
    assert getattr(c.determinize(1, random.Random(2)), field) == getattr(c, field)  # public
    old = c.to_dict()
    del old[field]  # a state stored before them still loads
    assert getattr(TokaidoState.from_dict(old), field) == ()
    wrong = c.to_dict()
    wrong[field] = [bad]
    try:
        TokaidoState.from_dict(wrong)
    except SetupError as e:
        assert word in str(e)
    else:
        raise AssertionError(f"a {field} record with no such reason was read")


def test_passes_survive_a_clone_a_round_trip_and_a_new_deal_of_the_piles() -> None:
    _public_record_survives(at_the_inn([0, 3, 1], ["sushi", "soba"]), "move 11", "passes",
                            [1, 0, "tired"], "tired")


def spend_until_a_pass(seed: int) -> tuple[CardTable, list[str]]:
    """A 3-seat game played through the table, as the server does, every seat buying the
    dearest thing it can, until an inn passes someone over (the painter, 2 coins, comes to
    the first inn with none)."""
    rng = random.Random(seed)
    table = CardTable("t", {"game": "tokaido", "name": "T", "language": "en"}, "", GAME)
    table.fold("game_started", {"seed": seed, "players": ["Ava", "Ben", "Cy"],
                                "options": {"characters": ["painter", "merchant", "priest"]}})
    while True:
        st = table.state
        assert isinstance(st, TokaidoState) and not st.is_terminal()
        legal = st.legal_actions()
        takes = [a for a in legal if a.verb == "take"]
        a = max(takes, key=lambda x: (st.cost(x), rng.random())) if takes else rng.choice(legal)
        table.fold("action", {"seat": st.current_player(), "action": str(a)})
        if st.passes:
            return table, ["Ava", "Ben", "Cy"]


def test_the_last_moves_say_who_the_inn_passed_over_and_why() -> None:
    """The public view's last moves: a traveller passed over follows, as a `then` of
    `{seat, name, passed}` with the engine's reason, the action after which it came; at an
    inn, before the walks that followed the same action. Nothing of it is hidden."""
    for seed in range(4):
        table, names = spend_until_a_pass(seed)
        st = table.state
        assert isinstance(st, TokaidoState)
        last = _last_moves(table, names)
        after, p, why = st.passes[0]
        assert after == len(table.moves)
        then = last[-1]["then"]
        assert then[0] == {"seat": p, "name": names[p], "passed": why}, then
        assert [e["seat"] for e in then if "passed" in e] == [q for a, q, _ in st.passes
                                                             if a == after]
        # its walks, if the same action ended the inn, come after every pass
        kinds = ["passed" in e for e in then]
        assert kinds == sorted(kinds, reverse=True), then
        # no other pass so far (earlier inns' walks may be there)
        assert not [e for mv in last[:-1] for e in mv.get("then", []) if "passed" in e]


def test_passes_and_walks_of_one_action_keep_the_inns_order() -> None:
    """An inn whose meals pass everyone over ends with the action that brought the last
    traveller in: that action's `then` names each one passed over, in arrival order, then
    each walk, in the engine's order, each followed by its stop if that did nothing (no
    panorama and no encounter left here; the hot spring has its story cards)."""
    from referee.games.tokaido.state import NONE_LEFT

    s = at_the_inn([5, 5, 5], [])
    table = CardTable("t", {"game": "tokaido", "name": "T", "language": "en"}, "", GAME)
    table.fold("game_started", {"seed": 0, "players": ["Ava", "Ben", "Cy"]})
    table.state = s
    table.fold("action", {"seat": 2, "action": "move 11"})
    then = _last_moves(table, ["Ava", "Ben", "Cy"])[-1]["then"]
    names = ["Ava", "Ben", "Cy"]
    assert [(a, q, n) for a, q, n in s.walks] == [(1, 0, 14), (1, 1, 15), (1, 2, 16)]
    assert s.idle == ((1, 0, 14, NONE_LEFT), (1, 1, 15, NONE_LEFT))
    assert s.phase.value == "action" and s.current_player() == 2  # the hot spring
    want = [{"seat": q, "name": names[q], "passed": NONE_LEFT} for q in (0, 1, 2)]
    want += [{"seat": 0, "name": "Ava", "action": "move 14"},
             {"seat": 0, "name": "Ava", "stopped": 14, "why": NONE_LEFT},
             {"seat": 1, "name": "Ben", "action": "move 15"},
             {"seat": 1, "name": "Ben", "stopped": 15, "why": NONE_LEFT},
             {"seat": 2, "name": "Cy", "action": "move 16"}]
    assert then == want


# ----- the road spaces that do nothing for a traveller stopping there ---------------------------

# (space, its type, setup keys that leave nothing there to take, coins, the engine's reason)
UNDOABLE: list[tuple[int, str, dict[str, Any], int, str]] = [
    (2, "souvenir", {}, 0, "no-money"),
    (2, "souvenir", {"souvenirs": []}, 5, "none-left"),
    (4, "temple", {"collected": [["temple1", "temple2", "temple3"], []]}, 2, "no-money"),
    (4, "temple", {"temples": []}, 5, "none-left"),
    (7, "meal", {"meal_rows": [["unagi", "sushi"], [], []]}, 2, "no-money"),
    (7, "meal", {"meal_rows": [[], [], []]}, 5, "none-left"),
    (1, "panorama", {"panorama_rows": [[], [], []]}, 5, "none-left"),
    (3, "encounter", {"encounter_face": [], "encounter_deck": []}, 5, "none-left"),
    (5, "hotspring", {"story_face": [], "story_deck": []}, 5, "none-left"),
]


def on_the_road(setup: dict[str, Any], coins: int) -> TokaidoState:
    """Two travellers in Kyoto, seat 0 (the painter: no discount on anything) first."""
    from referee.games.tokaido import from_setup

    return from_setup({"characters": ["painter", "priest"], "position": [0, 0],
                       "coins": [coins, 3], **setup})


def test_every_undoable_space_is_recorded_with_why() -> None:
    """RULINGS.md Unplayable space, step 10: a traveller who stops where the action cannot be
    done (no money for anything left, or nothing left) gets no decision and nothing happens;
    the state now records the stop (actions played before it, seat, space, the engine's
    reason), so the phones can say why the move had no effect. It did nothing silently."""
    for space, kind, setup, coins, why in UNDOABLE:
        s = on_the_road(setup, coins)
        assert s.rules.spaces[space] == kind
        before = s.to_dict()
        s.apply_text(f"move {space}")
        assert s.phase.value == "move" and s.current_player() == 1, kind  # nothing to do
        assert s.idle == ((1, 0, space, why),) and s.idle_stops() == [(1, 0, space, why)], kind
        after = s.to_dict()
        assert after["coins"] == before["coins"] and after["collected"] == before["collected"]
        # with what was missing, the same stop is a decision, and records nothing
        rich = on_the_road({k: v for k, v in setup.items() if why == "no-money"}, 20)
        rich.apply_text(f"move {space}")
        assert rich.phase.value == "action" and rich.idle == (), kind


def test_a_reason_is_only_ever_one_a_space_can_have() -> None:
    """The reasons of whole games (every seat buying the dearest thing it can): no money
    only where cards have a price (PAID_SPACES); a free card is refused only when none is
    left; and never a stop on an inn, Kyoto or Edo, nor one after which the traveller acts."""
    from referee.games.tokaido.state import NO_MONEY, PAID_SPACES

    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_game(4, seed=seed)
        assert isinstance(s, TokaidoState)
        while not s.is_terminal():
            legal = s.legal_actions()
            takes = [a for a in legal if a.verb == "take"]
            a = max(takes, key=lambda x: (s.cost(x), rng.random())) if takes else \
                rng.choice(legal)
            n = len(s.idle)
            s.apply_action(a)
            for after, _, space, why in s.idle[n:]:
                kind = s.rules.spaces[space]
                assert kind not in ("kyoto", "inn", "edo") and after == s.turns
                assert why != NO_MONEY or kind in PAID_SPACES
                seen.add((kind, why))
    assert ("souvenir", NO_MONEY) in seen  # a whole game has some


def test_idle_stops_survive_a_clone_a_round_trip_and_a_new_deal_of_the_piles() -> None:
    _public_record_survives(on_the_road({"souvenirs": []}, 5), "move 2", "idle",
                            [1, 0, 2, "bored"], "bored")


def test_the_last_moves_say_a_stop_that_did_nothing_after_its_move() -> None:
    """The public view's last moves: the move to a space that did nothing has, as its `then`,
    `{seat, name, stopped, why}` with the space and the engine's reason; the next traveller's
    move follows. Public: nothing but the space and the reason."""
    from referee.games.tokaido import from_setup

    names = ["Hiroshige", "Ben"]
    table = CardTable("t", {"game": "tokaido", "name": "T", "language": "en"}, "", GAME)
    table.fold("game_started", {"seed": 0, "players": names})
    table.state = from_setup({"characters": ["painter", "priest"], "position": [0, 0],
                              "coins": [0, 3]})
    table.fold("action", {"seat": 0, "action": "move 2"})  # souvenirs, and no coin
    table.fold("action", {"seat": 1, "action": "move 1"})  # a panorama: a decision
    last = _last_moves(table, names)
    assert last[0] == {"seat": 0, "name": "Hiroshige", "action": "move 2",
                       "then": [{"seat": 0, "name": "Hiroshige", "stopped": 2,
                                 "why": "no-money"}]}
    assert last[1] == {"seat": 1, "name": "Ben", "action": "move 1"}
