"""The die (WORLD.md §3; rules text "the lookout rolls the die")."""

import pytest

from referee.tuki.die import FACES, DieError, DieFace


def test_six_faces_three_animals_each_plain_and_white():
    """WORLD.md §3: bear, fish and eagle, each once plain and once with a white square."""
    assert len(FACES) == 6
    assert sorted(map(str, FACES)) == sorted(
        ["bear", "bear+white", "fish", "fish+white", "eagle", "eagle+white"])


@pytest.mark.parametrize("text", ["bear", "fish+white", "eagle", "eagle+white"])
def test_parse_and_str_round_trip(text):
    assert str(DieFace.parse(text)) == text


def test_parse_reads_the_white_square():
    assert DieFace.parse("fish+white") == DieFace("fish", True)
    assert DieFace.parse(" Bear ") == DieFace("bear", False)


@pytest.mark.parametrize("bad", ["cat", "fish+black", "fish+", "", "+white", "bear+white+white"])
def test_unknown_face_is_refused_with_the_input(bad):
    with pytest.raises(DieError) as e:
        DieFace.parse(bad)
    assert repr(bad) in str(e.value)
    assert "bear, fish or eagle" in str(e.value)


def test_unknown_animal_in_constructor_is_refused():
    with pytest.raises(DieError, match="'owl'"):
        DieFace("owl")


def test_dict_round_trip():
    for f in FACES:
        assert DieFace.from_dict(f.to_dict()) == f
    with pytest.raises(DieError):
        DieFace.from_dict({"white_square": True})
