"""Best-split scoring of souvenirs and story cards against brute force (RULINGS.md Souvenirs,
Story cards), temple majorities (seed step 5) and money (seed step 9)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from referee.games.tokaido.scoring import souvenir_points, story_points, temple_bonuses


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every way to cut `items` into blocks (set partitions)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]


def brute_souvenirs(cards: list[int]) -> int:
    best = 0
    for part in partitions(cards):
        total = 0
        for block in part:
            if len(block) == 3:  # other sizes are leftovers, 0 points
                n = len(set(block))
                total += 6 if n == 1 else 3 if n == 3 else 2
        best = max(best, total)
    return best


def brute_stories(cards: list[int]) -> int:
    best = 0
    for part in partitions(cards):
        total = 0
        for block in part:
            n = len(set(block))
            if len(block) == 1:
                total += 1
            elif len(block) == 2:
                total += 1 if n == 1 else 5
            elif len(block) == 3 and n == 3:
                total += 15
            else:
                break  # no such group
        else:
            best = max(best, total)
    return best


def counts(cards: list[int], colours: int) -> tuple[int, ...]:
    return tuple(cards.count(c) for c in range(colours))


def test_souvenir_best_split_matches_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(120):
        cards = [rng.randrange(3) for _ in range(rng.randint(0, 8))]
        assert souvenir_points(counts(cards, 3)) == brute_souvenirs(cards), cards


def test_story_best_split_matches_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(120):
        cards = [rng.randrange(4) for _ in range(rng.randint(0, 8))]
        assert story_points(counts(cards, 4)) == brute_stories(cards), cards


@pytest.mark.parametrize(("colours", "points"), [
    ((3, 0, 0), 6),   # 3 of one colour: 6
    ((1, 1, 1), 3),   # 3 different colours: 3
    ((2, 1, 0), 2),   # two of one colour and one other: 2 (seed step 6)
    ((3, 3, 3), 18),  # three same sets beat three rainbows (9)
    ((4, 1, 1), 9),   # a same set (6) and a (red, blue, green) set (3)
    ((2, 0, 0), 0),   # leftover cards: 0
])
def test_souvenir_examples(colours: tuple[int, ...], points: int) -> None:
    assert souvenir_points(colours) == points


@pytest.mark.parametrize(("colours", "points"), [
    ((1, 1, 0, 0), 5),   # two of different colours: 5
    ((1, 1, 1, 0), 15),  # three of different colours: 15
    ((2, 0, 0, 0), 2),   # two of one colour: 1 as a pair, but 1 + 1 alone is more
    ((1, 0, 0, 0), 1),   # a card alone: 1 (seed reference rules)
    ((1, 1, 1, 1), 16),  # 15 + 1 beats 5 + 5
    ((2, 2, 2, 0), 30),  # two sets of three different colours
])
def test_story_examples(colours: tuple[int, ...], points: int) -> None:
    assert story_points(colours) == points


def test_temple_bonus_majority_and_rounded_down_split() -> None:
    """Seed step 5: 15/12/10 for the most cards of group 1/2/3; ties split, rounded down."""
    assert temple_bonuses([[2, 0, 1], [1, 0, 1]], [15, 12, 10]) == [20, 5]
    assert temple_bonuses([[1, 1, 0]] * 3, [15, 12, 10]) == [9, 9, 9]  # 15//3 + 12//3
    assert temple_bonuses([[0, 0, 0], [0, 0, 0]], [15, 12, 10]) == [0, 0]  # nobody with 0 cards
