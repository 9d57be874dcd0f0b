"""Card grids, turning and the decks (WORLD.md §2; rules text "set the card so that the
rolled animal is at the bottom")."""

import pytest

from referee.tuki.cards import DEFAULT_EDGES, Card, CardError, Deck, find_card, parse_grid, turn
from referee.tuki.die import FACES, DieError
from referee.tuki.grid import mirror, shares_edge, stones_of
from referee.tuki.pieces import LevelError

EXAMPLE = """\
BBBBB.
G...P.
G...P.
G...P.
G...P.
G...P.
"""


def test_world_example_is_trimmed():
    """WORLD.md §2: the normal form is trimmed to the stones' bounding box."""
    assert parse_grid(EXAMPLE, "normal") == ("BBBBB",) + ("G...P",) * 5


def test_empty_margins_are_allowed():
    """WORLD.md §4 Grids: a card grid is trimmed when it is read."""
    padded = "\n......\n" + "\n".join("." + r + "." for r in EXAMPLE.split()) + "\n\n"
    assert parse_grid(padded, "normal") == parse_grid(EXAMPLE, "normal")


def test_level_is_inferred_when_not_given():
    assert Card.parse("x", EXAMPLE).level == "normal"
    adv = EXAMPLE.replace("BBBBB.", "BBBBB.") + "OOOOO.\n"
    assert Card.parse("y", adv).level == "advanced"



def test_stone_letters_may_be_typed_in_lower_case():
    """A break-it trial: a grid typed in lower case was refused, while card ids and die
    faces are taken in any case. It is read as the same card, its letters capitals."""
    assert parse_grid(EXAMPLE.lower(), "normal") == parse_grid(EXAMPLE, "normal")
    assert parse_grid("bbBBb\nGgGgG\npPpPp") == ("BBBBB", "GGGGG", "PPPPP")
    assert Card.parse("x", EXAMPLE.lower() + "ooooo.\n").level == "advanced"


def test_a_lower_case_grid_keeps_every_check():
    assert "unknown letter 'x'" in _err("bbbbb\nggxgg\nppppp")  # named as typed
    assert "unknown letter 'ß'" in _err("bbbbb\nggßgg\nppppp")  # not "SS", one cell
    assert "stone B has 4 cells" in _err("bbbb\nggggg\nppppp")
    assert "not a stone of the normal level" in _err(EXAMPLE.lower() + "ooooo.\n")
    assert "no stones" in _err("...\n...")


# --- every card-grid error, with row and column ---

def _err(text, level="normal"):
    with pytest.raises(CardError) as e:
        parse_grid(text, level)
    return str(e.value)


def test_letter_count_is_named():
    msg = _err("BBBB\nGGGGG\nPPPPP")
    assert "stone B has 4 cells" in msg and "row 1, column 1" in msg


def test_too_many_cells_is_named():
    msg = _err("BBBBBB\nGGGGG.\nPPPPP.")
    assert "stone B has 6 cells" in msg
    assert "stone B has 1 cell (" in _err("B....\nGGGGG\nPPPPP")  # one cell, not "1 cells"


def test_not_straight_names_the_cell():
    msg = _err("BBBB.\nB....\nGGGGG\nPPPPP")
    assert "row 2, column 1" in msg and "not straight" in msg


def test_gap_in_line_is_not_straight():
    msg = _err("BBBB.B\nGGGGG.\nPPPPP.")
    assert "row 1, column 6" in msg and "not straight" in msg


def test_overlap_names_the_crossing_cell():
    msg = _err("BBGBB\n..G..\n..G..\n..G..\n..G..\nPPPPP")
    assert "row 1, column 3" in msg and "overlap" in msg and "B and G" in msg


def test_wrong_level_for_the_deck():
    msg = _err(EXAMPLE + "OOOOO.\n", "normal")
    assert "row 7, column 1" in msg and "not a stone of the normal level" in msg
    msg = _err(EXAMPLE, "advanced")
    assert "lacks stone O" in msg
    assert "an advanced card holds G B P O" in msg  # a new user's trial: "a advanced card"


def test_unknown_letter():
    msg = _err("BBBBB\nGGXGG\nPPPPP")
    assert "row 2, column 3" in msg and "unknown letter 'X'" in msg


def test_empty_grid():
    assert "no stones" in _err("...\n...")


def test_unknown_level():
    with pytest.raises(LevelError, match="'expert'"):
        parse_grid(EXAMPLE, "expert")


# --- turning ---

def test_bear_is_as_printed():
    """WORLD.md §2: bear: as printed (the printed bottom edge is the bear)."""
    g = parse_grid(EXAMPLE)
    assert turn(g, "bear") == g


def test_fish_is_a_quarter_turn_counter_clockwise():
    """WORLD.md §2: fish (left edge) to the bottom: a quarter turn counter-clockwise."""
    g = ("BBBBB",) + ("G...P",) * 5
    t = turn(g, "fish")
    # the left column (B then five G, top to bottom) becomes the bottom row, left to right
    assert t[-1] == "BGGGGG"
    assert t[0] == "BPPPPP"
    assert len(t) == 5 and len(t[0]) == 6


def test_eagle_is_a_quarter_turn_clockwise():
    g = ("BBBBB",) + ("G...P",) * 5
    t = turn(g, "eagle")
    assert t[-1] == "PPPPPB"  # the right column, read top to bottom, ends at the left
    assert t[0] == "GGGGGB"


def test_turning_swaps_horizontal_and_vertical():
    """WORLD.md §2: turning swaps horizontal and vertical stones."""
    g = parse_grid(EXAMPLE)
    before = stones_of(g)
    for animal in ("fish", "eagle"):
        after = stones_of(turn(g, animal))
        assert all(after[c].orientation != before[c].orientation for c in before)


def test_white_square_does_not_change_the_target():
    g = parse_grid(EXAMPLE)
    for f in FACES:
        assert turn(g, f) == turn(g, f.animal)


def test_unknown_face_in_turn():
    with pytest.raises(DieError):
        turn(parse_grid(EXAMPLE), "fishy")


def test_deck_edges_may_say_otherwise():
    """WORLD.md §2: a deck file may say otherwise about the animal edges."""
    text = "level: normal\nedges: bottom=fish left=bear right=eagle\n[X1]\n" + EXAMPLE
    card = Deck.parse(text, "normal").get("X1")
    assert turn(card, "fish") == card.grid
    assert turn(card, "bear") == turn(card.grid, "fish")


# --- decks ---

@pytest.mark.parametrize("level,prefix,n", [("normal", "N", 3), ("advanced", "A", 4)])
def test_shipped_decks_load_and_check(level, prefix, n):
    """Issue: a sample deck with at least 40 normal and 40 advanced cards, checked on load."""
    deck = Deck.load(level)
    assert len(deck.cards) >= 40
    assert deck.ids[:2] == (f"{prefix}01", f"{prefix}02")
    for c in deck.cards:
        assert c.level == level and len(stones_of(c.grid)) == n
        assert c.edges == DEFAULT_EDGES


def test_deck_cards_touch_or_float():
    """Issue: bars touching or floating as real cards do; both kinds are in the deck."""
    kinds = set()
    for c in Deck.load("normal").cards + Deck.load("advanced").cards:
        st = list(stones_of(c.grid).values())
        floating = any(not any(shares_edge(a, b) for b in st if b is not a) for a in st)
        kinds.add(floating)
    assert kinds == {True, False}


def test_deck_cards_differ_under_turning_and_mirroring():
    from referee.tuki.judge import rotate

    grids = [c.grid for c in Deck.load("normal").cards]
    seen = set()
    for g in grids:
        assert mirror(g) != g
        variants = {rotate(v, q) for v in (g, mirror(g)) for q in range(4)}
        assert not variants & seen
        seen |= variants


def test_deck_get_and_find_card():
    assert find_card("A07").level == "advanced"
    with pytest.raises(CardError, match="'Z99'"):
        find_card("Z99")
    with pytest.raises(CardError, match="N01..N40"):
        Deck.load("normal").get("N99")


def test_bad_card_in_deck_names_card_and_line():
    text = "level: normal\n[N01]\n" + EXAMPLE + "\n[N02]\nBBBB.\nGGGGG\nPPPPP\n"
    with pytest.raises(CardError) as e:
        Deck.parse(text, "normal", "my.txt")
    assert "my.txt, card N02 (grid from line 11)" in str(e.value)
    assert "stone B has 4 cells" in str(e.value)


def test_deck_for_another_level_and_twice_the_same_id():
    with pytest.raises(CardError, match="not 'advanced'"):
        Deck.parse("level: normal\n[N01]\n" + EXAMPLE, "advanced")
    with pytest.raises(CardError, match="appears twice"):
        Deck.parse("[N01]\n" + EXAMPLE + "\n[N01]\n" + EXAMPLE, "normal")


def test_generator_is_seeded_and_valid(tmp_path):
    from referee.tuki.cards import format_deck
    from referee.tuki.generate import generate_deck

    a = generate_deck("advanced", 12, seed=7)
    assert a == generate_deck("advanced", 12, seed=7)
    assert a != generate_deck("advanced", 12, seed=8)
    p = tmp_path / "advanced.txt"
    p.write_text(format_deck(a, "test"))
    assert Deck.load("advanced", p) == a


def test_shipped_decks_are_the_generators_output():
    """The files in models/tuki/decks/ are what `referee cards generate` writes (seed 1)."""
    from referee.tuki.generate import generate_deck

    for level in ("normal", "advanced"):
        assert Deck.load(level).cards == generate_deck(level, 40, seed=1).cards


def test_card_ids_are_read_in_any_case():
    deck = Deck.load("normal")
    first = deck.ids[0]
    assert deck.get(first.lower()).id == first and deck.get(f" {first.lower()} ").id == first
    with pytest.raises(CardError):
        deck.get("zz99")
