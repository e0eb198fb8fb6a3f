"""The packages' import direction (DESIGN.md): rules imports neither companion nor
vision, vision never imports companion, and of rules vision sees only the shared kernel
(`rules.payload`: BadInput and the JSON field readers; `rules.catalogue`: the card data),
never a game engine. Every import statement counts, those inside function bodies too."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL = {"rules", "rules.payload", "rules.catalogue"}


def _imported_names(package: str) -> set[str]:
    """Every module an `import` statement anywhere in `package` names (function bodies too)."""
    names: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return names


def test_vision_imports_only_the_kernel_of_rules_and_never_companion() -> None:
    names = _imported_names("vision")
    assert {n for n in names if n.split(".")[0] == "rules"} <= KERNEL
    assert not {n for n in names if n.split(".")[0] == "companion"}


def test_rules_imports_neither_companion_nor_vision() -> None:
    names = _imported_names("rules")
    assert not {n for n in names if n.split(".")[0] in ("companion", "vision")}


def test_the_kernel_loads_no_game_engine() -> None:
    """Importing the kernel must not pull in any other rules module (a game, the registry)."""
    code = ("import sys, rules.payload, rules.catalogue\n"
            "print(sorted(m for m in sys.modules if m == 'rules' or m.startswith('rules.')))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert set(ast.literal_eval(result.stdout)) <= KERNEL
