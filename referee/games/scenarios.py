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

from referee.games.engine import RulesError, State, get_game


@dataclass(frozen=True)
class ScenarioResult:
    name: str
    passed: bool
    why: str = ""


def _start(sc: dict) -> State:
    game = get_game(sc["game"])
    seed = int(sc.get("seed", 0))
    options = sc.get("options") or {}
    if sc.get("setup") is not None:
        return game.from_setup(sc["setup"], seed=seed, options=options,
                               players=sc.get("players"))
    return game.new_game(int(sc["players"]), seed=seed, options=options)


def _check_expect(state: State, expect: dict) -> str | None:
    facts = state.facts()
    legal = {str(a) for a in state.legal_actions()} if not state.is_terminal() else set()
    for key, want in expect.items():
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


def run_scenario(sc: dict) -> ScenarioResult:
    """Run one parsed scenario; never raises for rule failures, it reports them."""
    name = sc.get("name", "?")
    try:
        state = _start(sc)
    except (RulesError, KeyError, TypeError, ValueError) as e:
        return ScenarioResult(name, False, f"setup refused: {e}")
    for i, step in enumerate(sc.get("steps", []), 1):
        where = f"step {i}"
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
    except (OSError, json.JSONDecodeError) as e:
        return ScenarioResult(str(path), False, f"cannot read: {e}")
    if not isinstance(sc, dict) or "game" not in sc:
        return ScenarioResult(str(path), False, "not a scenario: no 'game' key")
    return run_scenario(sc)
