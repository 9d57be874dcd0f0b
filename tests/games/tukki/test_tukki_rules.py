"""One test per rule sentence of RULINGS.md "Tukki Tukki" and the seed that no scenario in
tests/scenarios/tukki/ pins already (the scenario names say which rule they test)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.games.engine import IllegalActionError, NotationError, RandomBot, SetupError
from referee.games.tukki import GAME, from_setup, new_game, parse_action
from referee.games.tukki.actions import ALL_ACTIONS
from referee.games.tukki.cards import PARROT, PLACES, load_rules
from referee.games.tukki.state import OPENING, TAKE

A = {"a1": 3, "a2": 7, "a3": "P", "a4": 12, "b1": 3, "b2": 9, "b3": 5, "b4": 2}
B = {"a1": 10, "a2": 4, "a3": 6, "a4": 1, "b1": 8, "b2": 4, "b3": 11, "b4": 0}


def base(**kw) -> dict:
    return {"boxes": [A, B], "up": [["a1", "b2"], ["a2", "b2"]], "deck": ["5", "6", "P"],
            "bin": ["7"], "current": 0, **kw}


def finish_opening(state) -> None:
    while state.phase == OPENING:
        state.apply_action(state.legal_actions()[0])


def test_deck_is_104_numbers_and_4_parrots():
    """Deck: 104 number cards 0-12, eight of each, and 4 parrots; the 2 example cards are not
    played (108 cards)."""
    deck = load_rules().deck
    assert len(deck) == 108
    assert Counter(deck) == {**{v: 8 for v in range(13)}, PARROT: 4}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_to_six_players_and_the_deal(n):
    """Game: 2-6 players. Round setup: deal 8 face-down cards each; the rest is the draw pile;
    flip its top card to start the bin."""
    s = new_game(n, seed=n)
    assert [len(b) for b in s.boxes] == [8] * n
    assert not any(any(u) for u in s.up)
    assert len(s.bin) == 1 and len(s.deck) == 108 - 8 * n - 1
    assert Counter(s.all_cards()) == Counter(load_rules().deck)


@pytest.mark.parametrize("n", [0, 1, 7, "2"])
def test_other_player_counts_are_refused(n):
    with pytest.raises(SetupError, match="2-6 players"):
        new_game(n)


def test_shuffle_depends_on_the_seed_only():
    """Chance comes from random.Random(seed): same seed, same game."""
    a, b, c = new_game(3, seed=5), new_game(3, seed=5), new_game(3, seed=6)
    assert a.to_dict() == b.to_dict()
    assert a.boxes != c.boxes


def test_opening_in_seat_order_two_reveals_each():
    """Round setup: each player reveals 2 cards of their choice (in seat order)."""
    s = new_game(3, seed=1)
    order = []
    while s.phase == OPENING:
        order.append(s.current_player())
        assert s.legal_actions() == [parse_action(f"reveal {p}") for p, u
                                     in zip(PLACES, s.up[s.current], strict=True) if not u]
        s.apply_text("reveal b4" if not s.up[s.current][7] else "reveal a1")
    assert order == [0, 0, 1, 1, 2, 2]
    assert [sum(u) for u in s.up] == [2, 2, 2]
    assert s.current_player() == s.starter()


def test_starter_is_highest_sum_ties_to_earliest_seat():
    """The highest revealed sum plays first; a parrot counts 0; ties go to the earliest seat."""
    s = from_setup(base(up=[["a3", "a4"], ["a1", "a4"]]))  # P + 12 = 12 vs 10 + 1 = 11
    assert s.current_player() == 0
    s = from_setup(base(up=[["a3", "b4"], ["a1", "a4"]]))  # P + 2 = 2 vs 11
    assert s.current_player() == 0  # a full setup starts at `current`, as ENGINES.md says
    assert s.starter() == 1
    s = from_setup(base(up=[["a1", "b2"], ["a1", "a2"]]))  # 12 vs 14
    assert s.starter() == 1
    s = from_setup(base(up=[["a4", "b4"], ["a2", "a1"]]))  # 14 vs 14
    assert s.starter() == 0


def test_take_bin_or_deck():
    """A turn: take the top bin card or the top draw-pile card."""
    s = from_setup(base())
    assert [str(a) for a in s.legal_actions()] == ["take bin", "take deck"]
    t = s.clone()
    s.apply_text("take bin")
    assert s.drawn == 7 and s.bin == []
    t.apply_text("take deck")
    assert t.drawn == 5 and t.deck == [PARROT, 6] and t.bin == [7]


def test_option_b_replaced_card_lands_face_up():
    """(b) put it in place of a face-down card, and throw the replaced card on the bin without
    looking; it lands face up for all."""
    s = from_setup(base())
    s.apply_text("take deck")
    s.apply_text("place b3")
    assert s.boxes[0][6] == 5 and s.up[0][6]
    assert s.bin == [7, 5]  # the old b3 (5) is on the bin, face up
    assert s.observation(1)["bin"] == ["7", "5"]


def test_no_other_card_changes_place():
    """No other card ever changes place (seed: 'אסור להזיז קלפים כדי ליצור זוגות'): only the
    place named by the action changes, plus the landing place of a floating parrot."""
    rng = random.Random(3)
    for seed in range(20):
        s = new_game(2 + seed % 5, seed=seed)
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            p, before, rnd = s.current, [b[:] for b in s.boxes], s.round
            s.apply_action(a)
            if s.round != rnd:
                continue
            changed = {i for i in range(8) if s.boxes[p][i] != before[p][i]}
            allowed = {a.place, a.land} if a.kind == "place" else set()
            assert changed <= allowed
            assert all(s.boxes[q] == before[q] for q in range(s.num_players) if q != p)


def test_parrot_floats_only_from_a_face_up_place():
    """(b) over a face-down parrot throws it away: only (a) over a face-up parrot floats."""
    s = from_setup(base())  # A's parrot on a3 is face down
    s.apply_text("take deck")
    assert "place a3" in [str(a) for a in s.legal_actions()]
    s.apply_text("place a3")
    assert s.bin[-1] == PARROT and s.boxes[0][2] == 5


def test_parrot_with_no_face_down_card_goes_to_the_bin():
    """With no face-down card left, the parrot goes to the bin. In play a player with no
    face-down card has finished; the engine still keeps the rule for that state."""
    s = from_setup(base(up=[["a1", "a2", "a3", "a4", "b1", "b2", "b3"], ["a2", "b2"]]))
    s.up[0][7] = True  # the rule's own premise, which play never reaches
    s.apply_text("take deck")
    assert "place a3" in [str(a) for a in s.legal_actions()]
    s.apply_text("place a3")
    assert s.bin[-1] == PARROT and s.boxes[0][2] == 5


def test_floating_parrot_landing_card_goes_to_bin_unseen():
    """The floating parrot lands in place of a face-down card, which goes to the bin unseen
    (seed: 'תוכי מרחף יכול לנחות רק במקום קלף נסתר שסולק לפח מבלי להציץ בו')."""
    s = from_setup(base(up=[["a1", "b2", "a3"], ["a2", "b2"]]))
    s.apply_text("take deck")
    s.apply_text("place a3 land b4")
    assert s.boxes[0][2] == 5 and s.boxes[0][7] == PARROT and s.up[0][7]
    assert s.bin == [7, 2]


def test_a_parrot_can_replace_a_parrot_which_floats():
    """A drawn parrot placed by (a) over a face-up parrot: the old one floats."""
    s = from_setup(base(up=[["a1", "b2", "a3"], ["a2", "b2"]], deck=["P"], bin=["7"]))
    s.apply_text("take deck")
    s.apply_text("place a3 land a2")
    assert s.boxes[0][1] == PARROT and s.boxes[0][2] == PARROT and s.bin == [7, 7]


def test_finished_player_has_no_more_turns_and_others_exactly_one():
    """End of a round: the finisher plays no more this round; every other player then has
    exactly one more turn (random 4-player rounds)."""
    rng = random.Random(11)
    for seed in range(30):
        s = new_game(4, seed=seed)
        turns: list[int] = []
        finisher = None
        while s.round == 1:
            if s.phase == TAKE:  # a turn starts
                turns.append(s.current)
            s.apply_action(rng.choice(s.legal_actions()))
            if finisher is None and s.finisher is not None:
                finisher, mark = s.finisher, len(turns)
        after = turns[mark:]
        assert sorted(after) == sorted(set(range(4)) - {finisher})
        assert after == [(finisher + k) % 4 for k in range(1, 4)]


def test_round_end_reveals_scores_and_deals_a_complete_deck():
    """Then all remaining face-down cards are revealed and the boxes are scored. The next round
    is dealt at once, from a complete, freshly shuffled deck."""
    rng = random.Random(2)
    s = new_game(3, seed=9)
    while s.round == 1:
        s.apply_action(rng.choice(s.legal_actions()))
    from referee.games.tukki.scoring import box_score

    assert s.round_scores == [box_score(b) for b in s.last_boxes]
    assert s.totals == s.round_scores
    assert s.phase == OPENING and not any(any(u) for u in s.up)
    assert Counter(s.all_cards()) == Counter(load_rules().deck)
    assert len(s.bin) == 1


def test_five_rounds_then_the_game_ends():
    """Game: five rounds (seed: 'המשחק מתנהל בחמישה סיבובים'); after the fifth the game ends."""
    rng = random.Random(4)
    s = new_game(2, seed=4)
    seen = []
    while not s.is_terminal():
        if not seen or seen[-1] != s.round:
            seen.append(s.round)
        s.apply_action(rng.choice(s.legal_actions()))
    assert seen == [1, 2, 3, 4, 5]
    assert s.current_player() == -4 and s.legal_actions() == []
    assert all(all(u) for u in s.up)
    w = s.winners()
    assert s.returns() == [1.0 if p in w else 0.0 for p in range(2)]
    assert min(s.totals) == s.totals[w[0]]


def test_rounds_option():
    s = new_game(2, seed=1, options={"rounds": 1})
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.round == 1
    with pytest.raises(SetupError, match="unknown Tukki Tukki options"):
        new_game(2, options={"round": 3})
    with pytest.raises(SetupError, match="rounds=0"):
        new_game(2, options={"rounds": 0})


def test_keeping_the_last_card_is_allowed():
    """Keeping your last face-down card is allowed: you need not reveal it (seed: 'מי שנותר עם
    קלף נסתר אחד אינו חייב לפתוח אותו, ויכול להמשיך במשחק')."""
    up7 = ["a1", "a2", "a3", "b1", "b2", "b3", "b4"]
    s = from_setup(base(up=[up7, ["a2", "b2"]]))
    s.apply_text("take bin")
    s.apply_text("place b1")
    assert s.finisher is None and s.current_player() == 1
    s.apply_text("take deck")
    s.apply_text("place a1")
    assert s.current_player() == 0  # the player with one face-down card plays on


def test_refill_keeps_every_card():
    """An empty draw pile is refilled from the bin under its top card."""
    s = from_setup(base(deck=[], bin=["1", "0", "6", "12"]), seed=3)
    s.apply_text("take deck")
    assert s.bin == [12] and len(s.deck) == 2
    assert sorted(s.deck + [s.drawn]) == [0, 1, 6]


def test_bin_card_cannot_be_thrown():
    """A card taken from the bin must be placed, by (a) or (b)."""
    s = from_setup(base())
    s.apply_text("take bin")
    with pytest.raises(IllegalActionError, match="taken from the bin must be placed"):
        s.apply_text("throw")


@pytest.mark.parametrize("text, why", [
    ("reveal a2", "only in the opening or after 'throw'"),
    ("place a2", "take a card"),
    ("throw", "just drawn from the deck"),
])
def test_illegal_before_taking_names_the_rule(text, why):
    s = from_setup(base())
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=why):
        s.apply_text(text)
    assert s.to_dict() == before


@pytest.mark.parametrize("text, why", [
    ("place a3", "floats and must land"),
    ("place a3 land a1", "lands only in place of a face-down card"),
    ("place a1 land a2", "only a face-up parrot"),
    ("take deck", "only at the start of a turn"),
    ("reveal a2", "place the drawn card or throw it first"),
])
def test_illegal_when_placing_names_the_rule(text, why):
    s = from_setup(base(up=[["a1", "b2", "a3"], ["a2", "b2"]]))
    s.apply_text("take deck")
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=why):
        s.apply_text(text)
    assert s.to_dict() == before


def test_illegal_in_opening_and_reveal_phase():
    s = from_setup(base(up=[[], []]))
    with pytest.raises(IllegalActionError, match="first reveals 2 cards"):
        s.apply_text("take deck")
    s.apply_text("reveal a1")
    with pytest.raises(IllegalActionError, match="already face up"):
        s.apply_text("reveal a1")


def test_illegal_after_the_end():
    rng = random.Random(0)
    s = new_game(2, seed=0, options={"rounds": 1})
    while not s.is_terminal():
        s.apply_action(RandomBot().choose(s, rng))
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply_text("take deck")


def test_notation_round_trip_and_errors():
    """Actions have one text notation that parse_action reads back."""
    for a in ALL_ACTIONS:
        assert parse_action(str(a)) == a
    assert str(parse_action("  PLACE A3   land b2 ")) == "place a3 land b2"
    for bad in ["", "take", "take hand", "place c1", "place a5", "reveal", "place a3 land a3",
                "place a3 onto b2", "draw"]:
        with pytest.raises(NotationError, match="bad action"):
            parse_action(bad)
    with pytest.raises(NotationError):
        parse_action(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("setup, words", [
    ({"boxes": [A]}, "2-6 players"),
    ({"boxes": [A, {**B, "a1": "Q"}]}, "unknown card 'Q'"),
    ({"boxes": [A, {k: v for k, v in B.items() if k != "b4"}]}, "all 8 places"),
    (base(deck=["P", "P", "P", "P"]), "more cards than the deck holds"),
    (base(deck=["7"] * 7), "more cards than the deck holds"),
    (base(up=[list(PLACES), []]), "all face up"),
    (base(deck=[], bin=[]), "nothing to take"),
    (base(up=[["z9"], []]), "unknown place"),
    (base(current=2), "current=2"),
    (base(round=6), "round=6"),
    (base(totals=[1]), "totals"),
    ("boxes", "needs 'boxes'"),
])
def test_bad_setups_are_refused(setup, words):
    with pytest.raises(SetupError, match=words):
        from_setup(setup)


def test_setup_players_must_match():
    with pytest.raises(SetupError, match="players is 3"):
        from_setup(base(), players=3)


def test_setup_opening_resumes_from_current():
    """A setup with opening reveals still owed starts in the opening, at `current`."""
    s = from_setup(base(up=[["a1"], []], current=1))
    assert s.phase == OPENING and s.current_player() == 1
    s.apply_text("reveal a1")
    s.apply_text("reveal b1")
    assert s.current_player() == 0
    s.apply_text("reveal a2")
    assert s.phase == TAKE and s.current_player() == 1  # 18 beats 10


def test_game_info():
    assert GAME.name == "tukki" and (GAME.min_players, GAME.max_players) == (2, 6)
    assert set(GAME.bots) == {"heuristic"}
    s = GAME.new_game(2, seed=0)
    assert s.game is GAME
    finish_opening(s)
    assert s.phase == TAKE
