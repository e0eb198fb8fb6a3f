"""axe-core (from npm, installed by `scripts/setup.sh --test` into node_modules/) run in the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_problems(page: Any) -> list[str]:
    """Each serious or critical axe-core violation on the page as it stands, one line each."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `bash scripts/setup.sh --test` (installs axe-core from npm)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']}: " + "; ".join(n["target"][0] for n in v["nodes"][:5])
            for v in result["violations"] if v["impact"] in BLOCKING]
