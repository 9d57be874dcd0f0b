"""Tokaido scoring (seed step 9, RULINGS.md Tokaido): card points, temple majorities, the best
split of souvenirs and of story cards, money. Pure functions of counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement

from referee.games.tokaido.data import Rules

PARTS = ("character", "encounters", "meals", "panoramas", "temples", "temple_bonus",
         "souvenirs", "stories", "abilities", "money")


def _best_split(counts: tuple[int, ...], max_size: int,
                value: Callable[[tuple[int, ...]], int | None]) -> int:
    """Most points from cutting a collection into groups of at most `max_size` cards.

    `counts[c]` is how many cards of colour c there are; `value(group)` scores a group given as
    a sorted tuple of colour indices, or None when such a group is not allowed. Cards left in
    no group score 0.
    """

    @cache
    def best(cs: tuple[int, ...]) -> int:
        # The first card still held either joins a group or is left over.
        first = next((c for c, n in enumerate(cs) if n), None)
        if first is None:
            return 0
        rest = list(cs)
        rest[first] -= 1
        out = best(tuple(rest))  # left over
        for size in range(1, max_size + 1):
            for others in combinations_with_replacement(range(first, len(cs)), size - 1):
                left: list[int] | None = rest
                for c in others:
                    left = _without(left, c)
                v = value((first, *others)) if left is not None else None
                if v is not None:
                    out = max(out, v + best(tuple(left or ())))
        return out

    return best(tuple(counts))


def _without(cs: list[int] | None, c: int) -> list[int] | None:
    """`cs` less one card of colour c, or None when there is none."""
    if cs is None or cs[c] == 0:
        return None
    cs = list(cs)
    cs[c] -= 1
    return cs


@cache
def souvenir_points(counts: tuple[int, ...], same: int = 6, different: int = 3,
                    other: int = 2) -> int:
    """Best split of souvenirs into sets of three, by colour counts (RULINGS.md Souvenirs).

    3 of one colour: `same`; 3 different colours: `different`; any other three: `other`;
    leftover cards score 0. E.g. (3, 1, 1) -> 6 (a same set, two left over).
    """

    def value(g: tuple[int, ...]) -> int | None:
        if len(g) != 3:
            return None
        n = len(set(g))
        return same if n == 1 else different if n == 3 else other

    return _best_split(counts, 3, value)


@cache
def story_points(counts: tuple[int, ...], three_different: int = 15, two_different: int = 5,
                 two_same: int = 1, single: int = 1) -> int:
    """Best split of story cards, by colour counts (RULINGS.md Story cards).

    3 of different colours: 15; 2 of different colours: 5; 2 of one colour: 1; a card alone: 1.
    Three cards with a repeated colour are no group. E.g. (1, 1, 1, 0) -> 15.
    """

    def value(g: tuple[int, ...]) -> int | None:
        if len(g) == 1:
            return single
        if len(g) == 2:
            return two_same if g[0] == g[1] else two_different
        return three_different if len(set(g)) == 3 else None

    return _best_split(counts, 3, value)


def temple_bonuses(groups: Sequence[Sequence[int]], bonus: Sequence[int]) -> list[int]:
    """Per player, the majority bonus of the temple groups (seed step 5, RULINGS.md Temples).

    `groups[p][g]` is how many cards of group g player p holds. The most cards of group g win
    `bonus[g]` (15, 12, 10); tied players split it, rounded down; nobody wins with 0 cards.
    """
    out = [0] * len(groups)
    for g, b in enumerate(bonus):
        top = max(row[g] for row in groups)
        if top == 0:
            continue
        winners = [p for p, row in enumerate(groups) if row[g] == top]
        for p in winners:
            out[p] += b // len(winners)
    return out


def colour_counts(rules: Rules, held: Sequence[int], deck: str) -> tuple[int, ...]:
    """Colour counts of the `deck` cards in `held` (per kind index), colours in data order."""
    colours: list[str] = []
    for i in rules.deck_kinds[deck]:
        if rules.kinds[i].colour not in colours:
            colours.append(rules.kinds[i].colour)
    counts = [0] * len(colours)
    for i in rules.deck_kinds[deck]:
        counts[colours.index(rules.kinds[i].colour)] += held[i]
    return tuple(counts)


def breakdown(rules: Rules, held: Sequence[Sequence[int]], coins: Sequence[int],
              characters: Sequence[str]) -> list[dict[str, int]]:
    """Per player, the points of each part of PARTS and `total`, as if the game ended now.

    `held[p][k]` counts player p's cards of kind index k; `characters[p]` is a character code.
    """
    kinds = rules.kinds
    temple_groups = [[0, 0, 0] for _ in held]
    for p, h in enumerate(held):
        for i in rules.deck_kinds["temple"]:
            temple_groups[p][kinds[i].group - 1] += h[i]
    bonus = temple_bonuses(temple_groups, rules.temple_bonus)
    out = []
    for p, h in enumerate(held):
        char = rules.character(characters[p])

        def pts(deck: str, h: Sequence[int] = h) -> int:
            return sum(kinds[i].points * h[i] for i in rules.deck_kinds[deck])

        row = {
            "character": char.points,
            "encounters": pts("encounter"),
            "meals": pts("meal"),
            "panoramas": pts("panorama"),
            "temples": pts("temple"),
            "temple_bonus": bonus[p],
            "souvenirs": souvenir_points(colour_counts(rules, h, "souvenir"),
                                         **rules.souvenir_sets),
            "stories": story_points(colour_counts(rules, h, "story"), **rules.story_sets),
            "abilities": char.ability.points * sum(h[i] for i in
                                                   rules.deck_kinds[char.ability.deck]),
            "money": coins[p] // rules.coins_per_point,
        }
        row["total"] = sum(row.values())
        out.append(row)
    return out
