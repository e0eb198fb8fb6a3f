"""The phone scoreboard in a real browser: live updates, host corrections, read-only viewers."""

from __future__ import annotations


import pytest

from tests.browser.conftest import PHONE
from tests.companion.servers import HOST_TOKEN, Server

SPEED = 4.0  # the recording at four times its real pace
CORRECTED_PLAY = '{"kind": "play", "seat": 0, "colours": ["violet"]}'  # a colour the camera did not say


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
    page.wait_for_function("document.querySelectorAll('#log li').length >= 3", timeout=15000)
    assert page.evaluate("window.notReloaded") is True
    assert int(page.evaluate("document.body.dataset.version")) > first
    assert "face down" in page.locator("#log").inner_text()  # a play the camera saw
    assert page.locator("#link").inner_text() == "live"
    page.close()


def test_the_host_corrects_a_reading_and_every_viewer_sees_it(browser, tmp_path):
    """The camera reads the back of Ana's first card; the host settles what it asks,
    then corrects the play it accepted, and both phones follow without reloading."""
    demo = Server(["demo", "--game", "gargon", "--speed", str(SPEED), "--once", "--answer-myself"], tmp_path)
    try:
        viewers = [browser.new_page(viewport=PHONE) for _ in range(2)]
        for viewer in viewers:
            viewer.goto(demo.url + "/")
        host = browser.new_page(viewport=PHONE)
        host.goto(f"{demo.url}/host?token={HOST_TOKEN}")
        played = host.locator("#accepted li", has_text="Ana plays")
        question = host.locator("#question-list button").first
        host.wait_for_function("document.querySelector('#question-list button') || "
                               "[...document.querySelectorAll('#accepted li')].some(li => li.textContent.includes('Ana plays'))",
                               timeout=60000)
        if not played.count():
            question.click()  # yes, as the camera read it
        played.locator("button").click(timeout=30000)
        host.fill("#action-json", CORRECTED_PLAY)
        host.locator("#send-action").click()
        for viewer in viewers:
            viewer.wait_for_function("document.getElementById('log').textContent.includes('Ana plays violet face down')",
                                     timeout=30000)
        assert demo.state()["players"][0]["name"] == "Ana"
        for page in viewers + [host]:
            page.close()
    finally:
        demo.stop()


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


def test_the_pages_fit_a_phone_screen(browser, table, tmp_path):
    for action in ({"kind": "play", "seat": 0, "colours": ["red", "blue"]},
                   {"kind": "play", "seat": 1, "colours": ["red", "green"]}):
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


def test_the_host_corrects_a_scored_reading_from_the_log_and_viewers_follow(browser, table):
    for action in ({"kind": "play", "seat": 0, "colours": ["red"]}, {"kind": "play", "seat": 1, "colours": ["red"]},
                   {"kind": "pass", "seat": 2, "draws": [1]},
                   {"kind": "reveal", "cards": [["red-3"], ["red-12"], []]},
                   {"kind": "battle", "seat": 0, "colour": "red"}):
        assert table.host("action", {"action": action})[0] == 200
    viewer = browser.new_page(viewport=PHONE)
    viewer.goto(table.url + "/")
    assert totals_on(viewer) == {"Ana": 0, "Ben": 11, "Carla": 0}
    host = browser.new_page(viewport=PHONE)
    host.goto(f"{table.url}/host?token={HOST_TOKEN}")
    host.locator("#accepted li", has_text="Cards turned up").locator("button").click()
    host.fill("#action-json", '{"kind": "reveal", "cards": [["red-3"], ["red-2"], []]}')
    host.locator("#send-action").click()
    viewer.wait_for_function("document.querySelector('#players .player .total').textContent === '14'", timeout=10000)
    assert totals_on(viewer) == {"Ana": 14, "Ben": 0, "Carla": 0}
    assert "(corrected)" in viewer.locator("#log").inner_text()
    viewer.close()
    host.close()
