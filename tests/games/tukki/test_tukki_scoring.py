"""Scoring a box: every kind of box (RULINGS.md "Tukki Tukki", Scoring a box and Parrot)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.engine import NotationError, SetupError
from referee.games.tukki.cards import PARROT, load_rules
from referee.games.tukki.scoring import parse_box, score_box


def score(text: str) -> int:
    return score_box(parse_box(text)).score


def points(text: str) -> list[int]:
    return [c.points for c in score_box(parse_box(text)).columns]


def test_no_pairs_is_the_sum_of_the_values():
    """Scoring a box: the sum of its values."""
    assert score("1 2 3 4 / 5 6 7 8") == 36
    assert points("1 2 3 4 / 5 6 7 8") == [6, 8, 10, 12]
    assert score("0 0 0 0 / 1 1 1 1") == 4


def test_one_pair_scores_zero():
    """A pair is two equal values in the same column, one above the other, and scores 0."""
    assert points("9 2 3 4 / 9 6 7 8") == [0, 8, 10, 12]
    assert score("9 2 3 4 / 9 6 7 8") == 30


def test_equal_cards_side_by_side_are_no_pair():
    """Equal cards side by side are no pair (seed: 'שני קלפים זהים זה לצד זה אינם זוג')."""
    assert score("9 9 3 4 / 1 2 7 8") == 43
    assert score("9 1 9 1 / 1 9 1 9") == 40


def test_two_different_pairs_score_zero_each():
    """Pairs of different values score 0 each."""
    assert points("5 6 1 2 / 5 6 3 4") == [0, 0, 4, 6]
    assert score("5 6 1 2 / 5 6 3 4") == 10


def test_a_four_scores_minus_ten():
    """Pairs of one value score together: 2 pairs (a four): -10."""
    assert score("7 7 1 2 / 7 7 3 4") == 10 - 10
    assert points("7 7 1 2 / 7 7 3 4") == [-5, -5, 4, 6]


def test_a_six_scores_minus_fifteen():
    """3 pairs (a six): -15."""
    assert score("7 7 7 2 / 7 7 7 4") == 6 - 15
    assert sum(points("7 7 7 2 / 7 7 7 4")[:3]) == -15


def test_an_eight_scores_minus_twenty():
    """4 pairs (an eight): -20."""
    assert score("12 12 12 12 / 12 12 12 12") == -20


def test_a_four_and_another_pair():
    """A four and a pair of another value: -10 and 0."""
    assert score("3 3 9 1 / 3 3 9 2") == 3 - 10


def test_two_fours():
    """Two fours of different values: -10 each."""
    assert score("3 3 9 9 / 3 3 9 9") == -20


def test_zero_pairs_make_a_four():
    """Pairs of 0 are pairs too and make sets."""
    assert score("0 0 5 6 / 0 0 1 2") == 14 - 10


def test_parrot_copies_its_partner():
    """Parrot: it takes the value of the other card in its column (so it always pairs)."""
    assert points("P 2 3 4 / 12 6 7 8") == [0, 8, 10, 12]
    assert points("12 2 3 4 / P 6 7 8") == [0, 8, 10, 12]


def test_parrot_completes_a_four():
    """The parrot makes pairs and fours easier."""
    assert score("P 5 1 2 / 5 5 3 4") == 10 - 10
    assert score("P 5 P 2 / 5 5 5 4") == 6 - 15
    assert score("P P P P / 3 3 3 3") == -20


def test_two_parrots_in_a_column_are_a_pair_worth_zero():
    """Two parrots in one column are a pair worth 0."""
    assert points("P 2 3 4 / P 6 7 8") == [0, 8, 10, 12]


def test_two_parrot_pairs_join_no_four():
    """Two parrots in one column ... join no four: two P/P columns are no four."""
    assert score("P P 3 4 / P P 7 8") == 22
    # a P/P column beside a pair of 0s is no four of 0s either
    assert score("P 0 3 4 / P 0 7 8") == 22
    # a parrot over a 0 is a pair of 0s and does make a four with another pair of 0s
    assert score("P 0 3 4 / 0 0 7 8") == 22 - 10


def test_column_reasons_name_the_rule():
    """`rules score` prints the reason per column."""
    cols = score_box(parse_box("5 5 P 9 / 5 5 7 9")).columns
    assert "four of 5s" in cols[0].reason and cols[0].points == -5
    assert "parrot copies the 7" in cols[2].reason
    assert "scores 0" in cols[3].reason
    cols = score_box(parse_box("P 1 3 4 / P 2 7 8")).columns
    assert "two parrots" in cols[0].reason
    assert cols[1].reason == "1 over 2: no pair, 1 + 2" and cols[1].points == 3


def test_to_dict_shape():
    d = score_box(parse_box("5 5 P 9 / 5 5 7 9")).to_dict()
    assert set(d) == {"score", "columns"} and d["score"] == -10
    assert d["columns"][2] == {"column": 3, "top": "P", "bottom": "7", "points": 0,
                               "reason": "P over 7: the parrot copies the 7, a pair of 7s "
                                         "scores 0"}


def test_parse_box_forms():
    assert parse_box("5 5 P 9 / 5 5 7 9") == [5, 5, PARROT, 9, 5, 5, 7, 9]
    assert parse_box("5,5,p,9/5,5,7,9") == [5, 5, PARROT, 9, 5, 5, 7, 9]
    assert parse_box("0 1 2 3 4 5 6 12") == [0, 1, 2, 3, 4, 5, 6, 12]


@pytest.mark.parametrize("text, words", [
    ("5 5 P / 5 5 7 9", "4 cards in each row"),
    ("5 5 P 9 5 / 5 5 7", "4 cards in each row"),
    ("5 5 P 9 5 5 7", "expected 8 cards"),
    ("5 5 P 9 / 5 5 7 9 / 1", "one '/'"),
    ("5 5 Q 9 / 5 5 7 9", "unknown card 'Q'"),
    ("5 5 13 9 / 5 5 7 9", "unknown card '13'"),
    ("5 5 -1 9 / 5 5 7 9", "unknown card '-1'"),
    ("", "expected 8 cards"),
])
def test_bad_boxes_raise_notation_error(text, words):
    with pytest.raises(NotationError, match=words) as e:
        parse_box(text)
    assert repr(text) in str(e.value)


def test_score_box_refuses_a_wrong_box():
    with pytest.raises(NotationError):
        score_box([1, 2, 3])
    with pytest.raises(NotationError):
        score_box([1, 2, 3, 4, 5, 6, 7, 14])


def test_score_box_refuses_more_of_a_card_than_the_deck_holds():
    """The deck (models/tukki/rules.json) has 4 parrots and 8 of each number."""
    rules = load_rules()
    assert rules.counts[PARROT] == 4 and all(rules.counts[v] == 8 for v in range(13))
    with pytest.raises(SetupError, match="8 x P \\(the deck has 4\\)"):
        score("P P P P / P P P P")
    with pytest.raises(SetupError, match="5 x P"):
        score("P P P P / P 1 2 3")
    assert score("P P P P / 3 3 3 3") == -20  # all 4 parrots is fine
    # the counts are the data's: with only 2 fives, a box with three is refused
    few = replace(rules, counts={**rules.counts, 5: 2})
    with pytest.raises(SetupError, match="3 x 5 \\(the deck has 2\\)"):
        score_box(parse_box("5 5 5 1 / 2 3 4 6"), few)
    assert score_box(parse_box("5 5 1 2 / 3 4 6 7"), few).score == 33
