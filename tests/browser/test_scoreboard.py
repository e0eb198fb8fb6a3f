"""The phone scoreboard in a real browser: live updates, host corrections, read-only viewers."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.demo import DemoPlayer
from companion.server import build_services, close_services
from tests.browser.accessibility import axe_problems
from tests.browser.conftest import PHONE
from tests.browser.forms import fill_form, schema_of, send
from tests.browser.keyboard import unreachable_by_tab
from tests.companion.conftest import table_settings
from tests.companion.servers import HOST_TOKEN, Server

SPEED = 4.0  # the recording at four times its real pace
CORRECTED_REVEAL = {"kind": "reveal", "cards": [["red-9", "blue-4"], ["red-12", "blue-11"], []]}


def uncorrected_totals(folder: Path) -> dict[str, int]:
    """The demo's final totals when the host lets the camera's readings stand."""
    services = build_services(table_settings(folder), folder / "plain.db", "http://192.0.2.1:8000")
    try:
        player = DemoPlayer(services.table, "gargon", speed=1000, loop=False).start()
        assert player.wait(120)
        return {p["name"]: p["total"] for p in services.table.snapshot()["players"]}
    finally:
        close_services(services)


def totals_on(page) -> dict[str, int]:
    return {item.get_attribute("data-name"): int(item.locator(".total").inner_text())
            for item in page.locator("#players .player").all()}


@pytest.fixture
def demo(tmp_path):
    server = Server(["demo", "--game", "gargon", "--speed", str(SPEED), "--once"], tmp_path)
    yield server
    server.stop()


@pytest.fixture
def table(tmp_path):
    server = Server(["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"], tmp_path)
    yield server
    server.stop()


def test_a_viewer_sees_the_scoreboard_change_as_the_demo_advances_without_reloading(browser, demo):
    page = browser.new_page(viewport=PHONE)
    page.goto(demo.url + "/")
    page.evaluate("window.notReloaded = true")
    first = int(page.evaluate("document.body.dataset.version"))
    # a play the camera saw (after the stray thing the demo lays first, and its question)
    page.wait_for_function("document.getElementById('log').innerText.includes('face down')", timeout=30000)
    assert page.evaluate("window.notReloaded") is True
    assert int(page.evaluate("document.body.dataset.version")) > first
    assert page.locator("#link").inner_text() == "live"
    page.close()


def test_the_host_corrects_a_reading_and_every_viewers_total_changes(browser, demo, tmp_path):
    viewers = [browser.new_page(viewport=PHONE) for _ in range(2)]
    for viewer in viewers:
        viewer.goto(demo.url + "/")
    host = browser.new_page(viewport=PHONE)
    host.goto(f"{demo.url}/host?token={HOST_TOKEN}")
    host.locator("#accepted li", has_text="Cards turned up").locator("button").click(timeout=30000)
    fill_form(host, schema_of(host), CORRECTED_REVEAL)  # the camera read Ben's blue 7; say it was the 11
    send(host, "correct")
    for viewer in viewers:
        viewer.wait_for_function("document.getElementById('game-status').textContent === 'finished'",
                                 timeout=60000)
    served = {p["name"]: p["total"] for p in demo.state()["players"]}
    plain = uncorrected_totals(tmp_path)
    assert served != plain  # the correction changed the score
    for viewer in viewers:
        assert totals_on(viewer) == served
        assert "blue-11" in viewer.locator("#log").inner_text()
    for page in viewers + [host]:
        page.close()


def test_a_viewers_write_is_refused_by_the_server(browser, table):
    page = browser.new_page(viewport=PHONE)
    page.goto(table.url + "/")
    statuses = page.evaluate("""async () => {
        const tries = [["action", {action: {kind: "play", seat: 0, colours: ["red"]}}], ["undo", {}], ["end", {}]];
        const out = [];
        for (const [path, body] of tries) {
            const r = await fetch("/api/host/" + path, {method: "POST", headers: {"Content-Type": "application/json",
                                  "X-CSRF-Token": "guessed"}, body: JSON.stringify(body)});
            out.push(r.status);
        }
        return out;
    }""")
    assert statuses == [403, 403, 403]
    assert table.state()["log"] == [] and table.state()["status"] == "playing"
    page.goto(table.url + "/host")
    assert page.url.endswith("/host/login")
    page.close()


def test_the_host_login_page_passes_axe_and_is_reached_by_keyboard_with_and_without_its_error(browser, table):
    page = browser.new_page(viewport=PHONE)
    page.goto(table.url + "/host/login")
    problems = {"login": (axe_problems(page), unreachable_by_tab(page))}
    page.fill("#token", "not-the-token")
    page.locator("form button[type=submit]").click()
    page.locator("p.error").wait_for()
    problems["wrong token"] = (axe_problems(page), unreachable_by_tab(page))
    page.close()
    assert all(found == ([], []) for found in problems.values()), problems


def test_the_pages_fit_a_phone_screen(browser, table, tmp_path):
    for action in ({"kind": "play", "player": 0, "colours": ["red", "blue"]},
                   {"kind": "play", "player": 1, "colours": ["red", "green"]}):
        assert table.host("action", {"action": action})[0] == 200
    table.host("rename", {"seat": 2, "name": "Maria Clara de los Santos"})
    for path in ("/", f"/host?token={HOST_TOKEN}"):
        page = browser.new_page(viewport=PHONE)
        page.goto(table.url + path)
        page.wait_for_selector("#players .player")
        name = "viewer" if path == "/" else "host"
        page.screenshot(path=str(tmp_path / f"{name}-390x844.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        assert page.evaluate("document.body.scrollWidth") <= PHONE["width"], name
        total = page.locator("#players .player .total").first.bounding_box()
        assert total["x"] + total["width"] <= PHONE["width"]
        page.close()


def test_a_phone_reconnects_by_itself_after_the_server_restarts(browser, tmp_path):
    args = ["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"]
    server = Server(args, tmp_path)
    page = browser.new_page(viewport=PHONE)
    page.goto(server.url + "/")
    page.wait_for_function("document.getElementById('link').textContent === 'live'")
    server.kill()
    page.wait_for_function("document.getElementById('link').textContent === 'reconnecting…'", timeout=10000)
    again = Server(args, tmp_path, port=server.port)
    try:
        assert again.host("rename", {"seat": 0, "name": "Ana Reyes"})[0] == 200
        page.wait_for_function("document.querySelector('#players .player').dataset.name === 'Ana Reyes'",
                               timeout=20000)
        assert page.locator("#link").inner_text() == "live"
    finally:
        page.close()
        again.stop()


def test_the_hosts_gargon_totals_never_flash_to_the_viewers_hidden_ones(browser, table):
    """Each change is pushed as the viewers' view, which hides Gargon's running totals; the
    host's page draws its own view instead, so its totals go from one number to the next."""
    host = browser.new_page(viewport=PHONE)
    host.goto(f"{table.url}/host?token={HOST_TOKEN}")
    host.evaluate("""() => {
        window.shownTotals = [];
        new MutationObserver(() => document.querySelectorAll('#players .player .total')
            .forEach((t) => window.shownTotals.push(t.textContent)))
            .observe(document.getElementById('players'), {childList: true, subtree: true, characterData: true});
    }""")
    for action in ({"kind": "play", "player": 0, "colours": ["red"]}, {"kind": "play", "player": 1, "colours": ["red"]},
                   {"kind": "pass", "player": 2, "draws": [1]},
                   {"kind": "reveal", "cards": [["red-3"], ["red-12"], []]},
                   {"kind": "battle", "player": 0, "colour": "red"}):
        assert table.host("action", {"action": action})[0] == 200
    host.wait_for_function(
        "document.querySelector('#players .player[data-name=\"Ben\"] .total').textContent === '11'")
    shown = host.evaluate("window.shownTotals")
    assert shown and "–" not in shown


def test_the_host_corrects_a_scored_reading_from_the_log_and_viewers_follow(browser, table):
    for action in ({"kind": "play", "player": 0, "colours": ["red"]}, {"kind": "play", "player": 1, "colours": ["red"]},
                   {"kind": "pass", "player": 2, "draws": [1]},
                   {"kind": "reveal", "cards": [["red-3"], ["red-12"], []]},
                   {"kind": "battle", "player": 0, "colour": "red"}):
        assert table.host("action", {"action": action})[0] == 200
    viewer = browser.new_page(viewport=PHONE)
    viewer.goto(table.url + "/")
    # Gargon's won cards lie face down: viewers see no running totals, the host does
    assert [t.inner_text() for t in viewer.locator("#players .player .total").all()] == ["–", "–", "–"]
    host = browser.new_page(viewport=PHONE)
    host.goto(f"{table.url}/host?token={HOST_TOKEN}")
    host.wait_for_function(  # the host's own view (totals and all) replaces the viewers' first push
        "document.querySelector('#players .player[data-name=\"Ben\"] .total').textContent === '11'")
    assert totals_on(host) == {"Ana": 0, "Ben": 11, "Carla": 0}
    host.locator("#accepted li", has_text="Cards turned up").locator("button").click()
    assert host.locator("#event-form button.chip").all_inner_texts() == ["red 3 ×", "red 12 ×"]  # as it stands
    fill_form(host, schema_of(host), {"kind": "reveal", "cards": [["red-3"], ["red-2"], []]})
    send(host, "correct")
    host.wait_for_function("document.querySelector('#players .player .total').textContent === '14'", timeout=10000)
    assert totals_on(host) == {"Ana": 14, "Ben": 0, "Carla": 0}
    viewer.wait_for_function("document.getElementById('log').innerText.includes('(corrected)')", timeout=10000)
    assert [t.inner_text() for t in viewer.locator("#players .player .total").all()] == ["–", "–", "–"]
    viewer.close()
    host.close()
