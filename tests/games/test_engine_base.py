"""The shared engine base (issue 13, item 9; ENGINES.md): one player-count check, one RNG
save/restore, one `clone`, phases as StrEnum, `to_dict`/`from_dict` as a round trip, and one
way to refuse, with a stable code and parameters that every phone language can say."""

from __future__ import annotations

import ast
import json
import random
import string
import subprocess
import sys
from enum import StrEnum
from pathlib import Path

import pytest

from referee.games.engine import (
    GAMES,
    REFUSALS,
    CodedError,
    IllegalActionError,
    NotationError,
    RulesError,
    SetupError,
    copy_rng,
    get_game,
    refusal_words,
    rng_from_json,
    rng_to_json,
)
from referee.server.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "referee" / "games"
I18N = ROOT / "referee" / "server" / "i18n"
for _g in GAMES:
    get_game(_g)  # each game registers its codes when imported


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


# ---- one way to refuse ----------------------------------------------------------------------

def test_every_code_belongs_to_a_game_and_every_game_has_codes():
    assert {c.split(".")[0] for c in REFUSALS} == set(GAMES)
    assert all(c.count(".") == 1 and c == c.lower() for c in REFUSALS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_code_has_words_in_every_language(lang):
    """Each code reads in the phone's language, with no placeholder the engine never fills."""
    words = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    missing = [c for c in REFUSALS if f"refusal.{c}" not in words]
    assert not missing, f"{lang}.json lacks {missing}"
    for code, template in REFUSALS.items():
        said = words[f"refusal.{code}"]
        assert said.strip() and _fields(said) <= _fields(template), (lang, code, said)
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    if lang != "en":  # really translated, not English copied
        same = [c for c in REFUSALS if words[f"refusal.{c}"] == en[f"refusal.{c}"]]
        assert not same, same


def _raise_sites():
    """(file, line, code, keyword names, has **) of every coded error raised in the engines:
    calls of IllegalActionError, NotationError or a `_refuse` helper whose code is a string
    literal (or a choice of two)."""
    for path in GAMES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else ""
            if name not in ("IllegalActionError", "NotationError", "_refuse"):
                continue
            args = node.args[1:] if name == "_refuse" else node.args
            assert args, f"{path}:{node.lineno}: {name} without a code"
            first = args[0]
            codes = [first] if isinstance(first, ast.Constant) else \
                [first.body, first.orelse] if isinstance(first, ast.IfExp) else []
            if isinstance(first, ast.Name) and first.id == "code":
                continue  # the `_refuse` helper passes its own parameter on
            assert codes and all(isinstance(c, ast.Constant) for c in codes), \
                f"{path}:{node.lineno}: the code of {name} is no literal"
            kws = {k.arg for k in node.keywords if k.arg}
            if name == "_refuse":
                kws |= {"action", "seat"}  # the helper adds them
            splat = any(k.arg is None for k in node.keywords)
            for c in codes:
                yield path.name, node.lineno, c.value, kws, splat


def test_every_raised_code_is_registered_with_the_parameters_its_words_need():
    sites = list(_raise_sites())
    assert len(sites) > 50
    raised = set()
    for where, line, code, kws, splat in sites:
        raised.add(code)
        assert code in REFUSALS, f"{where}:{line}: {code} has no English template"
        if not splat:
            assert _fields(REFUSALS[code]) <= kws, f"{where}:{line}: {code} lacks parameters"
    assert raised == set(REFUSALS), f"codes never raised: {set(REFUSALS) - raised}"


def test_a_coded_error_keeps_its_code_and_says_english_words():
    e = IllegalActionError("taki.run-colour", action="play G3", color="R")
    assert isinstance(e, RulesError) and isinstance(e, CodedError)
    assert e.code == "taki.run-colour" and e.params == {"action": "play G3", "color": "R"}
    assert str(e).startswith("play G3: inside a TAKI run only red cards may be played")
    assert refusal_words("tokaido.finish-meal", {"action": "move 3", "seat": 1,
                                                 "legal": ["take sushi", "skip"]}) \
        .endswith("expected one of: take sushi, skip")
    with pytest.raises(KeyError):
        NotationError("taki.no-such-code", text="x")
    with pytest.raises(KeyError):  # a parameter the words need is missing
        IllegalActionError("taki.no-match", action="play R5")


@pytest.mark.parametrize("game, steps, text, code, params", [
    ("taki", [], "close", "taki.not-at-turn-start", {"action": "close"}),
    ("taki", [], "play G7", "taki.no-match",
     {"action": "play G7", "card": "G7", "color": "R", "lead": "R1"}),
    ("taki", [], "play B3", "taki.card-not-held", {"action": "play B3", "seat": 0, "card": "B3"}),
    ("taki", [], "play Z9", "taki.card-unknown", {"text": "Z9"}),
    ("tukki", [], "place a2", "tukki.take-first", {"action": "place a2", "seat": 0}),
    ("tukki", ["take deck"], "place a3", "tukki.parrot-must-land",
     {"action": "place a3", "seat": 0, "place": "a3"}),
    ("tukki", [], "place c9", "tukki.action-place", {"text": "place c9", "place": "c9"}),
    ("tokaido", [], "move 0", "tokaido.move-back", {"space": 0, "seat": 0, "at": 0}),
    ("tokaido", [], "fly", "tokaido.action-unknown", {"text": "fly"}),
])
def test_refusals_carry_code_and_params_and_change_nothing(game, steps, text, code, params):
    g = get_game(game)
    setups = {
        "taki": {"hands": [["R5", "R6", "G7"], ["B3", "B4"]], "deck": ["Y1"],
                 "discard": ["R1"]},
        "tukki": {"boxes": [dict(zip(["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"],
                                     ["1", "2", "P", "4", "5", "6", "7", "8"], strict=True)),
                            dict(zip(["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"],
                                     ["9", "9", "9", "9", "10", "10", "10", "10"],
                                     strict=True))],
                  "up": [["a1", "a3"], ["a1", "a2"]], "deck": ["3", "11"], "bin": ["0"]},
        "tokaido": {"players": 2, "position": [0, 0]},
    }
    s = g.from_setup(setups[game])
    for step in steps:
        s.apply_text(step)
    before = s.to_dict()
    with pytest.raises(CodedError) as e:
        s.apply_text(text)
    assert (e.value.code, e.value.params) == (code, params)
    assert str(e.value) == refusal_words(code, params)
    assert s.to_dict() == before


def test_the_taki_import_circle_is_gone():
    """refusals.py imports no state at run time; a fresh interpreter imports it first."""
    tree = ast.parse((GAMES_DIR / "taki" / "refusals.py").read_text(encoding="utf-8"))
    runtime = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert all(n.module != "referee.games.taki.state" for n in runtime)
    state = (GAMES_DIR / "taki" / "state.py").read_text(encoding="utf-8")
    assert "from referee.games.taki.refusals import refusal\n" in state  # at the top
    out = subprocess.run([sys.executable, "-c",
                          "import referee.games.taki.refusals as r, sys;"
                          "print(r.refusal.__module__, 'referee.games.taki.state' in sys.modules)"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["referee.games.taki.refusals", "True"]


# ---- the shared base ------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_check_players_is_one_check_for_every_game(game):
    g = get_game(game)
    assert g.check_players(g.min_players) == g.min_players
    assert g.check_players(g.max_players) == g.max_players
    for bad in (g.min_players - 1, g.max_players + 1, True, "3", None, 2.0):
        with pytest.raises(SetupError, match=f"{g.title} takes "
                                             f"{g.min_players}-{g.max_players} players"):
            g.check_players(bad)
    with pytest.raises(SetupError, match="players, not"):
        g.new_game(g.max_players + 1)


def test_rng_copies_and_json_give_the_same_numbers():
    r = random.Random(7)
    r.gauss(0, 1)  # leaves a gauss_next in the state
    c = copy_rng(r)
    back = rng_from_json(json.loads(json.dumps(rng_to_json(r))))
    seq = [[x.gauss(0, 1)] + [x.random() for _ in range(5)] for x in (r, c, back)]
    assert seq[0] == seq[1] == seq[2]
    c.random()  # independent: drawing from the copy leaves the original where it was
    assert r.random() == back.random() != c.random()
    with pytest.raises(SetupError, match="saved RNG state"):
        rng_from_json([3, [1, 2], None])
    with pytest.raises(SetupError):
        rng_from_json("no")


def _played(game: str, seed: int, steps: int):
    g = get_game(game)
    s = g.new_game(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("game", GAMES)
def test_clone_is_independent_and_has_the_same_future(game):
    s = _played(game, 3, 25)
    before = s.to_dict()
    c = s.clone()
    assert type(c) is type(s) and c.to_dict() == before
    rng = random.Random(9)
    while not c.is_terminal():
        c.apply_action(rng.choice(c.legal_actions()))
    assert s.to_dict() == before  # the copy's game left the original alone
    # same actions, same chance: the original follows the copy's game exactly
    c2 = s.clone()
    rng_a, rng_b = random.Random(4), random.Random(4)
    for _ in range(60):
        if s.is_terminal():
            break
        s.apply_action(rng_a.choice(s.legal_actions()))
        c2.apply_action(rng_b.choice(c2.legal_actions()))
        assert c2.to_dict() == s.to_dict()


@pytest.mark.parametrize("game", GAMES)
def test_phases_are_str_enums_and_views_stay_plain_json(game):
    s = _played(game, 5, 10)
    phase = s.phase
    assert isinstance(phase, StrEnum)
    for seat in range(s.num_players):
        view = json.loads(json.dumps(s.observation(seat)))
        assert view == s.observation(seat) and type(s.observation(seat)["phase"]) is str
    assert type(s.to_dict()["phase"]) is str


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_to_dict_from_dict_round_trip(game, seed):
    """Stored through JSON and read back at several points of a game, a state has the same
    legal actions, the same view for every seat and the same future under the same actions
    (chance included)."""
    g = get_game(game)
    s = g.new_game(3, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal() and n < 400:
        if n % 37 == 0:
            t = type(s).from_dict(json.loads(json.dumps(s.to_dict())))
            assert t.to_dict() == s.to_dict()
            assert t.legal_actions() == s.legal_actions()
            assert t.current_player() == s.current_player()
            for seat in range(s.num_players):
                assert t.observation(seat) == s.observation(seat)
            future = random.Random(n)
            for _ in range(30):
                if s.is_terminal():
                    break
                a = future.choice(s.legal_actions())
                s.apply_action(a)
                t.apply_action(a)
                assert t.to_dict() == s.to_dict() and t.facts() == s.facts()
                n += 1
            continue
        s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    t = type(s).from_dict(json.loads(json.dumps(s.to_dict())))
    assert t.to_dict() == s.to_dict() and t.returns() == s.returns()


@pytest.mark.parametrize("game", GAMES)
def test_from_dict_refuses_what_to_dict_never_wrote(game):
    s = _played(game, 1, 5)
    cls = type(s)
    good = s.to_dict()
    for bad in ({}, {**good, "rng": "x"}, {k: v for k, v in good.items() if k != "phase"},
                {**good, "phase": "dancing"}):
        with pytest.raises(SetupError):
            cls.from_dict(bad)
