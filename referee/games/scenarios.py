"""Scenario files (ENGINES.md): rule tests that anyone can write without Python.

A scenario is JSON: `name`, `game`, `players`, `options`, optional `setup` and `seed`, and
`steps`, each one of `{"do": TEXT}`, `{"illegal": TEXT}` or `{"expect": {KEY: VALUE}}`.
`legal_includes` / `legal_excludes` are understood for every game; other keys come from the
engine's `State.facts()`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.games.engine import RulesError, State, get_game


@dataclass(frozen=True)
class ScenarioResult:
    """A scenario's name (or file), whether it passed, and why not (step and reason)."""

    name: str
    passed: bool
    why: str = ""


def _start(sc: dict[str, Any]) -> State:
    game = get_game(sc["game"])
    seed = int(sc.get("seed", 0))
    options = sc.get("options") or {}
    if sc.get("setup") is not None:
        return game.from_setup(sc["setup"], seed=seed, options=options,
                               players=sc.get("players"))
    return game.new_game(int(sc["players"]), seed=seed, options=options)


def _kind(value: object) -> str:
    """The JSON kind of a value, for messages (never its repr: it may be huge or deep)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def _check_expect(state: State, expect: dict[str, Any]) -> str | None:
    facts = state.facts()
    legal = {str(a) for a in state.legal_actions()} if not state.is_terminal() else set()
    for key, want in expect.items():
        if key in ("legal_includes", "legal_excludes") and (
                not isinstance(want, list) or not all(isinstance(a, str) for a in want)):
            return f"{key}: expected a list of actions as text, got {_kind(want)}"
        if key == "legal_includes":
            missing = [a for a in want if a not in legal]
            if missing:
                return f"legal actions lack {missing}; they are {sorted(legal)}"
        elif key == "legal_excludes":
            present = [a for a in want if a in legal]
            if present:
                return f"legal actions include {present}"
        elif key not in facts:
            return f"unknown expect key {key!r}; this game knows {sorted(facts)}"
        elif facts[key] != want:
            return f"{key}: expected {want!r}, got {facts[key]!r}"
    return None


def _step_error(step: object) -> str | None:
    """Why `step` is no well-formed step, or None."""
    if not isinstance(step, dict):
        return f"expected an object with do, illegal or expect, got {_kind(step)}"
    for key in ("do", "illegal"):
        if key in step and not isinstance(step[key], str):
            return f"{key!r} must be an action as text, got {_kind(step[key])}"
    if "expect" in step and not isinstance(step["expect"], dict):
        return f"'expect' must be an object of facts, got {_kind(step['expect'])}"
    return None


def run_scenario(sc: dict[str, Any]) -> ScenarioResult:
    """Run one parsed scenario; never raises for rule failures or a malformed scenario, it
    reports them."""
    if not isinstance(sc, dict):
        return ScenarioResult("?", False, f"not a scenario: expected an object, got {_kind(sc)}")
    name = sc.get("name", "?")
    name = name if isinstance(name, str) else "?"
    try:
        return _run(sc, name)
    except RecursionError:
        return ScenarioResult(name, False, "too deeply nested to be a scenario")


def _run(sc: dict[str, Any], name: str) -> ScenarioResult:
    steps = sc.get("steps", [])
    if not isinstance(steps, list):
        return ScenarioResult(name, False, f"'steps' must be a list of steps, got {_kind(steps)}")
    try:
        state = _start(sc)
    except (RulesError, KeyError, TypeError, ValueError) as e:
        return ScenarioResult(name, False, f"setup refused: {e}")
    for i, step in enumerate(steps, 1):
        where = f"step {i}"
        bad = _step_error(step)
        if bad:
            return ScenarioResult(name, False, f"{where}: {bad}")
        if "do" in step:
            try:
                state.apply_text(step["do"])
            except RulesError as e:
                return ScenarioResult(name, False, f"{where}: {step['do']!r} refused: {e}")
        elif "illegal" in step:
            before = state.to_dict()
            try:
                state.apply_text(step["illegal"])
            except RulesError:
                if state.to_dict() != before:
                    return ScenarioResult(name, False, f"{where}: refused but state changed")
                continue
            return ScenarioResult(name, False, f"{where}: {step['illegal']!r} was accepted")
        elif "expect" in step:
            why = _check_expect(state, step["expect"])
            if why:
                return ScenarioResult(name, False, f"{where}: {why}")
        else:
            return ScenarioResult(name, False, f"{where}: no do/illegal/expect key")
    return ScenarioResult(name, True)


def run_file(path: Path) -> ScenarioResult:
    """Load and run a scenario file; an unreadable file is a failure with its reason."""
    try:
        sc = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        return ScenarioResult(str(path), False, f"cannot read: not UTF-8 text (byte {e.start})")
    except RecursionError:
        return ScenarioResult(str(path), False, "cannot read: JSON too deeply nested")
    except (OSError, json.JSONDecodeError) as e:
        return ScenarioResult(str(path), False, f"cannot read: {e}")
    if not isinstance(sc, dict) or "game" not in sc:
        return ScenarioResult(str(path), False, "not a scenario: no 'game' key")
    return run_scenario(sc)
