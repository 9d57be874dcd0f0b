"""Explicit setups (docs/tokaido.md "Setup keys") and the notation (docs/tokaido.md "Notation")."""

from __future__ import annotations

import random

import pytest

from referee.games.engine import NotationError, SetupError
from referee.games.tokaido import GAME, from_setup, new_game, parse_action


@pytest.mark.parametrize(("setup", "words"), [
    ({"characters": ["merchant", "gourmet"], "collected": [["monk"] * 4, []]},
     "monk x4 \\(deck has 3\\)"),
    ({"characters": ["merchant", "gourmet"], "temples": ["temple1"] * 3,
      "collected": [["temple1"], []]}, "temple1 x4"),
    ({"characters": ["merchant", "gourmet"], "hand": []}, "unknown setup/option keys \\['hand'\\]"),
    ({"characters": ["merchant", "nobody"]}, "unknown character 'nobody'"),
    ({"characters": ["merchant", "merchant"]}, "2 different character codes"),
    ({"characters": ["merchant", "gourmet"], "position": [3, 3]}, "road spaces \\[3\\]"),
    ({"characters": ["merchant", "gourmet"], "position": [3, 35]}, "space indices 0-34"),
    ({"characters": ["merchant", "gourmet"], "coins": [-1, 0]}, "counts >= 0"),
    ({"characters": ["merchant", "gourmet"], "collected": [["sushi", "nope"], []]},
     "unknown card codes \\['nope'\\]"),
    ({"characters": ["merchant", "gourmet"], "meal_rows": [["fuji"], [], []]},
     "'fuji' is no meal card"),
    ({"characters": ["merchant", "gourmet"], "encounter_face": ["sushi"]}, "only encounter"),
    ({"characters": ["merchant", "gourmet"], "position": [0, 0], "action": 0},
     "seat standing on a road space"),
    ({"characters": ["a", "b", "c", "d", "e", "f"]}, "2-5 players"),
    ({"characters": ["merchant", "gourmet"], "position": [4, 2], "current": 0},
     "turn to seat 1"),
])
def test_setup_refusals_say_what_was_expected(setup: dict, words: str) -> None:
    with pytest.raises(SetupError, match=words):
        from_setup(setup)


def test_setup_deals_what_is_not_given_and_keeps_every_card_once() -> None:
    s = from_setup({"characters": ["merchant", "gourmet"],
                    "collected": [["monk", "sushi", "temple1"], []],
                    "encounter_face": ["monk"]}, seed=4)
    counts = [0] * len(s.rules.kinds)
    for c in (*s.held, *s.meal_rows, *s.pano_rows, s.supply):
        for i, n in enumerate(c):
            counts[i] += n
    for i in (*s.enc_face, *s.enc_deck, *s.story_face, *s.story_deck):
        counts[i] += 1
    assert counts == [k.count for k in s.rules.kinds]
    assert s.facts()["encounter_face"] == ["monk"]  # given face-up stays as given
    assert s.facts()["encounter_deck_size"] == 30 - 1 - 1  # one held, one face up


def test_setup_current_is_checked() -> None:
    s = from_setup({"characters": ["merchant", "gourmet"], "position": [4, 2], "current": 1})
    assert s.current_player() == 1


def test_setup_action_starts_at_the_space() -> None:
    s = from_setup({"characters": ["merchant", "gourmet"], "position": [3, 0],
                    "action": 0, "encounter_face": ["samurai"], "encounter_deck": []})
    assert s.current_player() == 0 and [str(a) for a in s.legal_actions()] == ["take samurai"]


def test_setup_same_seed_same_deal() -> None:
    a = new_game(3, seed=9).to_dict()
    assert a == new_game(3, seed=9).to_dict() and a != new_game(3, seed=10).to_dict()


@pytest.mark.parametrize("text", ["", "move", "move -1", "move x", "take", "take Sushi!",
                                  "jump 3", "skip now"])
def test_notation_refuses_garbage(text: str) -> None:
    with pytest.raises(NotationError, match="not a Tokaido action"):
        parse_action(text)


def test_notation_round_trips_every_legal_action() -> None:
    rng = random.Random(2)
    seen = set()
    for seed in range(20):
        s = new_game(rng.randint(2, 5), seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            for a in legal:
                assert parse_action(str(a)) == a
                seen.add(str(a).split()[0])
            s.apply_action(rng.choice(legal))
    assert seen == {"move", "take", "skip"}
    assert parse_action("  MOVE   7 ") == parse_action("move 7")
    assert GAME.parse_action("take blind") == parse_action("take blind")
