"""`python launch.py PYTHON -m MODULE ARGS...`: run MODULE (the companion) with the toy game
listed in the registry, the one line `rules/registry.py` would gain for a fifth game.
Used as the `prefix` of a test server, the way a server runs under `setpriv`."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import registry  # noqa: E402

registry.GAMES["toy"] = "tests.fifth_game.toy"

if __name__ == "__main__":
    _python, flag, module, *args = sys.argv[1:]
    assert flag == "-m", "usage: launch.py PYTHON -m MODULE ARGS..."
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
