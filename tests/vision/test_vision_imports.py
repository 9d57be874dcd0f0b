"""Vision never knows the rules (ARCHITECTURE: frame → measured build; arrows point one way).

Walks the source of referee/vision/ with the AST, so that imports inside functions count too.
"""

import ast
from pathlib import Path

import referee

FORBIDDEN = ("referee.tuki", "referee.check", "referee.server", "referee.evaluate",
             "referee.games", "referee.cli")


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.lineno, node.module))
    return out


def test_vision_imports_nothing_of_the_rules_or_the_server():
    root = Path(referee.__file__).parent / "vision"
    files = sorted(root.rglob("*.py"))
    assert len(files) > 5
    bad = [f"{p.relative_to(root)}:{line} imports {mod}" for p in files
           for line, mod in _imports(p)
           if any(mod == f or mod.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []


def test_the_walk_sees_imports_inside_functions(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("def f():\n    from referee.tuki.judge import judge\n", encoding="utf-8")
    assert (2, "referee.tuki.judge") in _imports(p)
