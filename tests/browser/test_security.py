"""The pages work under their own Content-Security-Policy (no inline script, nothing foreign)."""

from __future__ import annotations

from tests.browser.conftest import PHONE
from tests.browser.test_scoreboard import table  # noqa: F401  (the fixture: a table run by hand)
from tests.companion.servers import HOST_TOKEN


def test_the_scoreboard_and_host_page_run_under_the_policy_and_follow_the_push(strict_browser, table):  # noqa: F811 (the fixture)
    violations: list[str] = []
    viewer = strict_browser.new_page(viewport=PHONE)
    host = strict_browser.new_page(viewport=PHONE)
    for page in (viewer, host):
        page.on("console", lambda message: violations.append(message.text)
                if "Content Security Policy" in message.text else None)
    viewer.goto(table.url + "/")
    host.goto(f"{table.url}/host?token={HOST_TOKEN}")
    for page in (viewer, host):  # board.js started and each page's push is live
        page.locator("#link.live").wait_for(timeout=10000)
    assert table.host("rename", {"seat": 0, "name": "Ana Reyes"})[0] == 200
    viewer.locator('#players .player[data-name="Ana Reyes"]').wait_for(timeout=10000)
    host.locator('#players .player[data-name="Ana Reyes"]').wait_for(timeout=10000)
    host.wait_for_selector("#event-kind option", state="attached")  # the host's tools, drawn after the push
    assert "Camera: none" in host.locator("#camera-status").inner_text()
    assert violations == []
    viewer.close()
    host.close()
