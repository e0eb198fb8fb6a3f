"""axe-core (from npm, `scripts/setup.sh --test`) run inside the real page, and a
keyboard walk that checks every control can be reached with Tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
CONTROLS = "a[href], button, input, select, textarea, summary"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `bash scripts/setup.sh --test` (npm installs axe-core)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]]}
            for v in found if v["impact"] in BLOCKING]


def unreachable_by_tab(page: Any, presses: int = 120) -> list[str]:
    """Visible, enabled controls that pressing Tab from the top never focuses."""
    page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    page.evaluate(f"""() => document.querySelectorAll('{CONTROLS}').forEach((e, i) => e.dataset.tabProbe = i)""")
    reached = set()
    for _ in range(presses):
        page.keyboard.press("Tab")
        probe = page.evaluate("document.activeElement && document.activeElement.dataset.tabProbe")
        if probe is not None:
            reached.add(probe)
    return page.evaluate("""(reached) => [...document.querySelectorAll('[data-tab-probe]')]
        .filter((e) => !reached.includes(e.dataset.tabProbe) && !e.disabled && e.getClientRects().length
                && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => e.outerHTML.slice(0, 80))""", sorted(reached))
