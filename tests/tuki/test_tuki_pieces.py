"""Pieces as data (models/tuki/pieces.json; WORLD.md §1; rules text "dividing the pieces")."""

from referee.tuki.pieces import BAR_LEN, default_unit_mm, pieces


def test_each_builder_gets_g_b_p_and_one_of_each_snow_shape_advanced_adds_orange():
    """Rules text: in 2-3 players each gets a gray, a blue, a purple stone and one piece of
    each of the four snow shapes; the advanced level adds the orange stone."""
    p = pieces()
    assert p["levels"]["normal"] == ["G", "B", "P"]
    assert p["levels"]["advanced"] == ["G", "B", "P", "O"]
    assert sorted(p["snow"]["shapes"]) == ["I", "L", "O", "T"]
    # every snow shape is a tetromino: four cells
    assert all(sum(row.count("#") for row in rows) == 4 for rows in p["snow"]["shapes"].values())
    assert p["sets_per_box"] == 3


def test_stone_is_five_equal_segments_of_the_unit():
    """Rules text: each coloured stone is made of 5 equal segments; WORLD.md §1: 1x1x5 u,
    u = 16 mm by default."""
    assert BAR_LEN == 5 and pieces()["stone"]["size_u"] == [1, 1, 5]
    assert default_unit_mm() == 16.0


def test_editions_name_other_hues():
    """WORLD.md §1: gray can be black, purple mauve, orange yellow."""
    c = pieces()["colours"]
    assert "black" in c["G"]["editions"] and "mauve" in c["P"]["editions"]
    assert "yellow" in c["O"]["editions"]


def test_the_data_holds_the_typed_letters():
    """pieces.json's stone letters are exactly `build.Colour`'s (the code types them so)."""
    from typing import get_args

    from referee.build import COLOURS, Colour
    from referee.tuki.pieces import stone_letters

    assert stone_letters() == COLOURS == get_args(Colour)
    assert all(set(v) <= set(COLOURS) for v in pieces()["levels"].values())
