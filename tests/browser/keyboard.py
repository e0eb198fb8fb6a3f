"""A keyboard walk: every control on a page can be reached with the Tab key."""

from __future__ import annotations

from typing import Any

CONTROLS = "a[href], button, input, select, textarea, summary"


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
