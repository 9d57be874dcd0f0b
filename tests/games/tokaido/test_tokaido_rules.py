"""One test per rule sentence of the seed (shared/seeds/002) and RULINGS.md (Tokaido) that the
scenario files in tests/scenarios/tokaido/ do not already name; docs/tokaido.md maps them all.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.games.engine import IllegalActionError, get_game
from referee.games.tokaido import GAME, from_setup, new_game
from referee.games.tokaido.data import load_rules

R = load_rules()


def deck(name: str) -> list:
    return [R.kinds[i] for i in R.deck_kinds[name]]


def test_components_decks_match_the_seed() -> None:
    """Seed components: 40 meals of 10 kinds, 30 panoramas of 10 kinds, 30 encounters famous
    and ordinary, 9 temples in 3 groups of 3, 24 souvenirs of 3 kinds x 8 in 3 colours,
    20 story cards in 4 colours of 5."""
    def total(name: str) -> int:
        return sum(k.count for k in deck(name))

    assert (total("meal"), len(deck("meal"))) == (40, 10)
    assert (total("panorama"), len(deck("panorama"))) == (30, 10)
    assert total("encounter") == 30
    assert {k.famous for k in deck("encounter")} == {True, False}
    assert all(k.points > 0 for k in deck("encounter") if k.famous)  # famous: points at once
    temples = Counter()
    for k in deck("temple"):
        temples[k.group] += k.count
    assert temples == {1: 3, 2: 3, 3: 3}
    kinds = Counter()
    for k in deck("souvenir"):
        kinds[k.code.split("-")[0]] += k.count
    assert kinds == {"doll": 8, "kimono": 8, "painting": 8}  # seed step 6: doll, kimono, painting
    assert {k.colour for k in deck("souvenir")} == {"red", "blue", "green"}
    stories = Counter()
    for k in deck("story"):
        stories[k.colour] += k.count
    assert len(stories) == 4 and set(stories.values()) == {5}


def test_components_monk_is_negative() -> None:
    """Seed reference rules: some encounters score negative, e.g. the monk -3."""
    assert R.by_code["monk"].points == -3


def test_components_five_characters_with_points_coins_ability() -> None:
    """Seed step 1: a character card gives starting points and one ability; 5 of them; 2-5
    players (5 travellers)."""
    assert len(R.characters) == 5
    assert all(c.ability.text and c.ability.deck in R.deck_kinds for c in R.characters)
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    assert get_game("tokaido") is GAME
    for n in (1, 6):
        with pytest.raises(Exception, match="2-5 players"):
            new_game(n)


def test_setup_layout() -> None:
    """Seed setup: meals in three face-up rows, one per road segment; panoramas in three rows;
    temples in three columns; souvenirs in three rows, one per kind; RULINGS: 2 encounters and
    2 story cards face up; all travellers in Kyoto; characters dealt at random."""
    s = new_game(4, seed=5)
    assert [sum(r) for r in s.meal_rows] == list(R.meal_rows)
    assert [sum(r) for r in s.pano_rows] == list(R.panorama_rows)
    assert sum(s.supply[i] for i in R.deck_kinds["temple"]) == 9
    assert sum(s.supply[i] for i in R.deck_kinds["souvenir"]) == 24
    assert len(s.enc_face) == 2 and len(s.story_face) == 2
    assert s.pos == [0, 0, 0, 0]
    assert len(set(s.characters)) == 4
    dealt = {tuple(new_game(4, seed=k).characters) for k in range(12)}
    assert len(dealt) > 1  # random unless chosen


def test_setup_characters_chosen() -> None:
    """Seed setup: characters may be chosen instead of dealt."""
    s = new_game(3, seed=1, options={"characters": ["courier", "priest", "gourmet"]})
    assert s.characters == ["courier", "priest", "gourmet"]
    assert s.facts()["character_points"] == [2, 1, 0]


def test_ability_gourmet_meal_discount() -> None:
    s = from_setup({"characters": ["gourmet", "merchant"], "position": [0, 12],
                    "coins": [2, 0], "meal_rows": [["sushi"], [], []]})
    s.apply_text("move 7")
    s.apply_text("take sushi")  # 3 - 1
    assert s.coins == [0, 0]


def test_what_an_action_costs_is_its_price_for_the_player_now() -> None:
    """`cost` (the phones show it on each button): the card's price less the character's
    discount; nothing for a move or a skip."""
    s = from_setup({"characters": ["gourmet", "merchant"], "position": [0, 12],
                    "coins": [5, 0], "meal_rows": [["sushi"], [], []]})
    assert GAME.action_cost is not None
    assert {str(a): GAME.action_cost(s, a) for a in s.legal_actions()}["move 7"] == 0
    s.apply_text("move 7")
    costs = {str(a): GAME.action_cost(s, a) for a in s.legal_actions()}
    assert costs == {"take sushi": 2, "skip": 0}  # sushi is 3, the gourmet pays 1 less
    s.apply_text("take sushi")
    assert s.coins[0] == 5 - costs["take sushi"]


def test_ability_priest_and_courier_gain_coins() -> None:
    s = from_setup({"characters": ["priest", "courier"], "position": [0, 12],
                    "coins": [0, 0], "encounter_face": ["geisha"], "encounter_deck": []})
    s.apply_text("move 4")
    s.apply_text("take temple1")
    assert s.coins == [1, 0]
    t = from_setup({"characters": ["priest", "courier"], "position": [12, 0],
                    "coins": [0, 0], "encounter_face": ["geisha"], "encounter_deck": []})
    t.apply_text("move 3")
    t.apply_text("take geisha")
    assert t.coins == [0, 1] and t.facts()["encounters_points"] == [0, 2]


def test_step2_current_player_is_rearmost_in_random_games() -> None:
    """Seed step 2: in each turn the traveller furthest back moves; on a shared space the one
    who arrived first. Arrival is a total order, so two never arrive at once (seed step 10's
    'two players reach the inn in one turn' cannot happen: one traveller moves at a time)."""
    rng = random.Random(3)
    for seed in range(30):
        s = new_game(rng.randint(2, 5), seed=seed)
        while not s.is_terminal():
            assert len(set(s.stamp)) == s.num_players
            if s.phase == "move":
                p = s.current_player()
                assert all((s.pos[p], s.stamp[p]) < (s.pos[q], s.stamp[q])
                           for q in range(s.num_players) if q != p)
            s.apply_action(rng.choice(s.legal_actions()))


def test_step7_inn_waits_for_everyone() -> None:
    """RULINGS Inns: meals start only when every traveller has reached the inn."""
    s = from_setup({"characters": ["merchant", "gourmet", "priest"], "position": [11, 5, 9]})
    assert s.phase == "move" and s.current_player() == 1
    s.apply_text("move 11")
    assert s.phase == "move" and s.current_player() == 2  # still waiting for seat 2


def test_step9_scores_and_returns_at_the_end() -> None:
    """Seed step 9: the game ends when all are in Edo; the most points win."""
    s = from_setup({"characters": ["merchant", "gourmet"], "position": [34, 34],
                    "coins": [0, 0], "collected": [["fuji"], ["sea"]]})
    assert s.is_terminal() and s.scores() == [4, 2] and s.returns() == [1.0, 0.0]
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_text("move 34")


def test_illegal_messages_echo_the_action_and_the_rule() -> None:
    s = from_setup({"characters": ["merchant", "gourmet"], "position": [2, 3]})
    with pytest.raises(IllegalActionError, match=r"move 3: space 3 is taken"):
        s.apply_text("move 3")
    with pytest.raises(IllegalActionError, match=r"move 1: .*forward only"):
        s.apply_text("move 1")
    with pytest.raises(IllegalActionError, match=r"move 12: the inn at 11"):
        s.apply_text("move 12")
    with pytest.raises(IllegalActionError, match=r"take sushi: .*must move"):
        s.apply_text("take sushi")
    t = from_setup({"characters": ["gourmet", "merchant"], "position": [0, 12], "coins": [0, 0],
                    "souvenirs": ["kimono-blue", "painting-green", "painting-green"]})
    t.apply_text("move 8")
    assert t.phase == "move"  # nothing affordable: nothing happens
    u = from_setup({"characters": ["gourmet", "merchant"], "position": [0, 12], "coins": [1, 0],
                    "souvenirs": ["kimono-blue", "painting-green"]})
    u.apply_text("move 8")
    with pytest.raises(IllegalActionError, match=r"take kimono-blue: it costs 3 coins"):
        u.apply_text("take kimono-blue")
    with pytest.raises(IllegalActionError, match=r"take nosuch: no card is called"):
        u.apply_text("take nosuch")


def test_temple_price_list_runs_0_3_6_9_12() -> None:
    """Seed reference rules: a group's 1st-5th card cost 0, 3, 6, 9, 12 (only 3 exist per
    group, so the 4th and 5th are priced here by hand-placed holdings)."""
    s = from_setup({"characters": ["merchant", "gourmet"]})
    kind = R.by_code["temple1"]
    prices = []
    for have in range(6):
        s.held[0][kind.idx] = have
        prices.append(s.price(0, kind))
    assert prices == [0, 3, 6, 9, 12, None]


def test_character_coins_default_to_three(tmp_path) -> None:
    """RULINGS Setup: starting coins come from the character card, 3 unless it says otherwise."""
    import json
    import shutil

    from referee.games.tokaido.data import TokaidoDataError
    from referee.paths import MODELS

    folder = tmp_path / "tokaido"
    shutil.copytree(MODELS / "tokaido", folder)
    chars = json.loads((folder / "characters.json").read_text())
    del chars["characters"][0]["coins"]
    (folder / "characters.json").write_text(json.dumps(chars))
    assert load_rules(folder).characters[0].coins == 3
    bad = tmp_path / "bad"  # load_rules caches per folder
    shutil.copytree(folder, bad)
    (bad / "board.json").write_text(json.dumps({"spaces": ["kyoto", "castle", "edo"]}))
    with pytest.raises(TokaidoDataError, match="unknown \\['castle'\\]"):
        load_rules(bad)
