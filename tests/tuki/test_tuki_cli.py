"""`referee cards ...` and `referee judge-grid` (issue item 5)."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.errors import RefereeError
from referee.tuki.cards import Deck, turn
from referee.tuki.grid import mirror

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_cards_list_shows_both_decks():
    r = run("cards", "list")
    assert r.exit_code == 0
    header, *lines = r.output.splitlines()
    ids = [line.split()[0] for line in lines]
    assert ids[:1] == ["N01"] and "A40" in ids and len(ids) == 80


def test_cards_list_says_what_its_columns_mean():
    header = run("cards", "list").output.splitlines()[0]
    assert header.startswith("#")
    for words in ("level", "width x height", "H lying", "V standing", "column,row",
                  "lower-left cell"):
        assert words in header, header


def test_cards_show_takes_an_id_in_any_case(tmp_path):
    r = run("cards", "show", "n07", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["id"] == "N07"
    b, _ = _files(tmp_path, turn(Deck.load("advanced").get("A05"), "fish"))
    r = run("judge-grid", "--card", " a05 ", "--die", "fish", "--build-grid", str(b), "--json")
    assert r.exit_code == 0 and json.loads(r.output)["verdict"] == "correct", r.output


def test_cards_show_with_die():
    card = Deck.load("normal").get("N03")
    r = run("cards", "show", "N03", "--die", "fish+white")
    assert r.exit_code == 0
    assert "target for fish+white" in r.output
    for row in turn(card, "fish"):
        assert row in r.output
    r = run("cards", "show", "N03", "--die", "eagle", "--json")
    d = json.loads(r.output)
    assert d["target"] == list(turn(card, "eagle")) and d["die"] == "eagle"


def test_cards_show_unknown_face_is_a_referee_error():
    r = run("cards", "show", "N03", "--die", "fish+whit")
    assert isinstance(r.exception, RefereeError)
    assert "fish+whit" in str(r.exception)


def _files(tmp_path, build_rows, card_rows=None):
    b = tmp_path / "build.txt"
    b.write_text("\n".join(build_rows) + "\n")
    if card_rows is None:
        return b, None
    c = tmp_path / "card.txt"
    c.write_text("\n".join(card_rows) + "\n")
    return b, c


def test_judge_grid_correct_and_json(tmp_path):
    card = Deck.load("advanced").get("A05")
    b, _ = _files(tmp_path, turn(card, "fish"))
    r = run("judge-grid", "--card", "A05", "--die", "fish", "--build-grid", str(b), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d == {"verdict": "correct", "faults": [], "reasons": [],
                 "target": list(turn(card, "fish"))}


def test_judge_grid_lifted_and_white_square(tmp_path):
    card = Deck.load("normal").get("N07")
    b, _ = _files(tmp_path, turn(card, "bear"))
    args = ["judge-grid", "--card", "N07", "--build-grid", str(b), "--json"]
    assert json.loads(run(*args, "--die", "bear+white").output)["faults"][0]["code"] == \
        "table:touching"
    assert json.loads(run(*args, "--die", "bear+white", "--lifted", "1").output)["verdict"] == \
        "correct"
    assert json.loads(run(*args, "--die", "bear", "--lifted", "1").output)["faults"][0][
        "code"] == "table:none"


def test_judge_grid_with_card_grid_file(tmp_path):
    card_rows = ["BBBBB...", "G.......", "G.......", "G.......", "G.......", "GPPPPP.."]
    b, c = _files(tmp_path, mirror(tuple(card_rows)), card_rows)
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert r.exit_code == 0
    assert "wrong" in r.output and "mirrored" in r.output



def test_a_card_grid_file_in_lower_case_is_the_same_card(tmp_path):
    """A break-it trial: `--card-grid` in lower case was refused ("unknown letter 'b'"),
    while `--card n07` and `--die Bear` were taken."""
    card_rows = ["BBBBB...", "G.......", "G.......", "G.......", "G.......", "GPPPPP.."]
    b, c = _files(tmp_path, mirror(tuple(card_rows)), card_rows)
    args = ["judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b),
            "--json"]
    upper = run(*args)
    c.write_text("\n".join(r.lower() for r in card_rows) + "\n")
    lower = run(*args)
    assert lower.exit_code == 0, lower.output
    assert json.loads(lower.output) == json.loads(upper.output)
    assert json.loads(lower.output)["verdict"] == "wrong"
    c.write_text("bbbbb.\ng...x.\n")  # a wrong letter is still named, as typed
    r = run(*args)
    assert isinstance(r.exception, RefereeError)
    assert str(r.exception).startswith(f"{c}: ") and "unknown letter 'x'" in str(r.exception)


def test_judge_grid_needs_one_card_source(tmp_path):
    b, c = _files(tmp_path, ["BBBBB"], ["BBBBB"])
    r = run("judge-grid", "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError) and "exactly one" in str(r.exception)


def test_user_errors_exit_2_in_plain_words(tmp_path):
    b, _ = _files(tmp_path, ["BBBBB", "BBBBB", "GGGGG"])
    p = subprocess.run([sys.executable, "-m", "referee", "judge-grid", "--card", "N01", "--die",
                        "bear", "--build-grid", str(b)], capture_output=True, text=True)
    assert p.returncode == 2
    assert "stone B appears 2 times" in p.stderr and "Traceback" not in p.stderr


def test_a_grid_error_names_its_file_and_rows_of_unequal_length(tmp_path):
    """A new user's trial: a cell deleted in one row of a card grid was only "stone P has
    2 cells", and no grid error said which of the two files it was in."""
    good = ["BBBBB.", "G...P.", "G...P.", "G...P.", "G...P.", "G...P."]
    ragged = [*good[:2], "G..P.", *good[3:]]
    b, c = _files(tmp_path, good, ragged)
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError)
    said = str(r.exception)
    assert said.startswith(f"{c}: ") and "not all one length: 5, 6 cells" in said
    b, c = _files(tmp_path, ["BBBBB.", "G...X."], good)
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    said = str(r.exception)
    assert said.startswith(f"{b}: ") and "unknown letter 'X'" in said and "length" not in said


@pytest.mark.parametrize("args", [["cards", "generate", "--level", "normal", "--count", "40"]])
def test_cards_generate_writes_a_loadable_deck(tmp_path, args):
    r = run(*args, "--out", str(tmp_path))
    assert r.exit_code == 0
    deck = Deck.load("normal", tmp_path / "normal.txt")
    assert deck.ids == tuple(f"N{i:02d}" for i in range(1, 41))


@pytest.mark.parametrize("count", ["-1", "0", "39", "100"])
def test_cards_generate_refuses_a_count_outside_the_deck_spec(tmp_path, count):
    """`--count -1` wrote empty decks over the shipped ones, so N01 was gone."""
    kept = tmp_path / "normal.txt"
    kept.write_text("level: normal\n", encoding="utf-8")
    r = run("cards", "generate", "--count", count, "--out", str(tmp_path))
    assert isinstance(r.exception, RefereeError)
    assert f"--count {count}: a deck holds 40-99 cards" in str(r.exception)
    assert kept.read_text(encoding="utf-8") == "level: normal\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["normal.txt"]


def test_cards_generate_never_writes_a_deck_that_does_not_load(tmp_path, monkeypatch):
    from referee.tuki import generate

    real = generate.generate_deck
    monkeypatch.setattr(generate, "generate_deck",
                        lambda lv, n, seed: Deck(lv, real(lv, n, seed).cards[:5]))
    r = run("cards", "generate", "--out", str(tmp_path))
    assert isinstance(r.exception, RefereeError) and "nothing was written" in str(r.exception)
    assert not list(tmp_path.iterdir())


def test_judge_grid_with_an_empty_card_id_is_a_plain_error(tmp_path):
    b, _ = _files(tmp_path, ["BBBBB"])
    r = run("judge-grid", "--card", "", "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError) and "no card ''" in str(r.exception)


@pytest.mark.parametrize("which", ["card", "build"])
def test_judge_grid_files_that_are_not_utf8_are_plain_errors(tmp_path, which):
    card = Deck.load("normal").get("N01")
    b, c = _files(tmp_path, card.grid, card.grid)
    (c if which == "card" else b).write_bytes(b"\xff\xfeBBBBB\n")
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError)
    assert f"the {which} grid file" in str(r.exception) and "not UTF-8" in str(r.exception)


def test_a_photo_given_as_the_card_grid_is_named_a_photo(tmp_path):
    """A new user's trial: a photo as --card-grid read "not UTF-8 text (byte 0)"."""
    b, c = _files(tmp_path, ["BBBBB"], ["BBBBB"])
    c.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError)
    assert "is a photo, not a card grid file" in str(r.exception)


def test_a_label_json_given_as_the_card_grid_says_what_a_card_grid_is(tmp_path):
    """A new user's trial passed a photo set's label.json as --card-grid and read "row 1,
    column 1: unknown letter '{'"."""
    card = Deck.load("normal").get("N01")
    b, c = _files(tmp_path, card.grid, card.grid)
    c.write_text(json.dumps({"card": {"grid": list(card.grid)}}))
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError)
    assert "JSON" in str(r.exception) and "rows of letters" in str(r.exception)


@pytest.mark.parametrize("which", ["card", "build"])
def test_a_grid_file_that_is_a_video_is_refused_unread(tmp_path, which):
    """A grid file was read whole, whatever its size (a video named by mistake, /dev/zero)."""
    card = Deck.load("normal").get("N01")
    b, c = _files(tmp_path, card.grid, card.grid)
    with open(c if which == "card" else b, "wb") as f:  # sparse: no disk used
        f.truncate(1 << 30)
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert isinstance(r.exception, RefereeError)
    assert f"the {which} grid file" in str(r.exception) and "larger than" in str(r.exception)


@pytest.mark.parametrize("which", ["card", "build"])
def test_grid_files_saved_with_a_byte_order_mark_are_read_as_typed(tmp_path, which):
    """Windows Notepad saves UTF-8 with a byte order mark (U+FEFF) first: the file was
    refused as "row 1, column 1: unknown letter '\\ufeff'", a letter no one typed."""
    card_rows = ["BBBBB...", "G.......", "G.......", "G.......", "G.......", "GPPPPP.."]
    b, c = _files(tmp_path, mirror(tuple(card_rows)), card_rows)
    f = c if which == "card" else b
    f.write_bytes(b"\xef\xbb\xbf" + f.read_bytes().replace(b"\n", b"\r\n"))
    r = run("judge-grid", "--card-grid", str(c), "--die", "bear", "--build-grid", str(b))
    assert r.exit_code == 0, r.output or r.exception
    assert "wrong" in r.output and "mirrored" in r.output
