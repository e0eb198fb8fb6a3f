"""Real headless Chromium (Debian's, never a downloaded one) driving the real server."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent.name == "browser":
            item.add_marker(pytest.mark.browser)


class PollingBrowser:
    """The browser with pages that let Playwright poll: `wait_for_function` evaluates its
    predicate with eval, which the app's Content-Security-Policy forbids, so these pages
    bypass it. `strict_browser` gives pages under the real policy (test_security)."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser

    def new_page(self, **options: Any) -> Page:
        return self._browser.new_page(bypass_csp=True, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def strict_browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --test` (installs Debian's chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def browser(strict_browser: Browser) -> PollingBrowser:
    return PollingBrowser(strict_browser)
