"""Build grids <-> MeasuredBuild (issue item 3: "a measured build can also be written as a
text grid"; WORLD.md §4 Grids)."""

import pytest

from referee.tuki.buildgrid import BuildGridError, build_from_grid, build_to_grid

EXAMPLE = ["BBBBB", "G...P", "G...P", "G...P", "G...P", "G...P"]


def test_exact_positions_and_shared_edges():
    b = build_from_grid(EXAMPLE)
    s = {m.colour: m for m in b.stones}
    assert (s["B"].orientation, s["B"].x_u, s["B"].z_u) == ("H", 0.0, 5.0)
    assert (s["G"].x_u, s["G"].z_u, s["P"].x_u) == (0.0, 0.0, 4.0)
    assert s["B"].gaps_mm == {"G": 0.0, "P": 0.0}
    # G and P are 3 u apart: more than 1 u, so no gap is listed between them
    assert "P" not in s["G"].gaps_mm


def test_real_gap_within_one_unit():
    b = build_from_grid(["BBBBB.", "......", "G....P", "G....P", "G....P", "G....P", "G....P"],
                        unit_mm=20)
    s = {m.colour: m for m in b.stones}
    assert s["B"].gaps_mm["G"] == pytest.approx(20.0)
    assert s["B"].gaps_mm["P"] == pytest.approx(20.0)  # corner to corner: one unit up


def test_lowest_row_on_table_or_lifted():
    b = build_from_grid(EXAMPLE)
    assert sorted(m.table_gap_mm for m in b.stones) == [0.0, 0.0, 80.0]
    b = build_from_grid(EXAMPLE, lifted_u=2, unit_mm=16)
    assert sorted(m.table_gap_mm for m in b.stones) == [32.0, 32.0, 112.0]
    with pytest.raises(BuildGridError):
        build_from_grid(EXAMPLE, lifted_u=-1)


def test_round_trip_to_grid():
    assert build_to_grid(build_from_grid(["..." + r for r in EXAMPLE] + ["....."])) == \
        tuple(EXAMPLE)


def test_build_grid_may_lack_stones_or_hold_another_level():
    """WORLD.md §4 Grids: missing and extra stones are faults, not input errors."""
    b = build_from_grid(["BBBBB", "OOOOO"])
    assert {m.colour for m in b.stones} == {"B", "O"}


def test_a_stone_twice_is_refused():
    """Issue: bad input, a build with a stone twice."""
    with pytest.raises(BuildGridError, match="stone B appears 2 times"):
        build_from_grid(["BBBBB", ".....", "BBBBB", "GGGGG"])


@pytest.mark.parametrize("grid,words", [
    (["BBBB", "GGGGG"], "has 4 cells"),
    (["BBBBB", "GGXGG"], "unknown letter 'X'"),
    (["BBBB.", "B....", "GGGGG"], "not straight"),
])
def test_bad_build_grids(grid, words):
    with pytest.raises(BuildGridError, match=words):
        build_from_grid(grid)
