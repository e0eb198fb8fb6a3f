"""Enrolling a deck from the phone in a real browser, with photos uploaded from the phone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.accessibility import axe_problems
from tests.browser.conftest import PHONE
from tests.browser.test_board_views import REFRESH_DOCS
from tests.companion.photos import card_photo
from tests.companion.servers import HOST_TOKEN, Server
from vision.synth.faces import game_codes

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def table(tmp_path):
    server = Server(["run", "--game", "bagani", "--camera", "none", "--players", "Ana,Ben"], tmp_path)
    yield server
    server.stop()


def test_the_host_enrolls_three_cards_from_uploaded_photos(browser, table, tmp_path):
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{table.url}/host?token={HOST_TOKEN}")
    page.goto(f"{table.url}/host/enroll")
    page.select_option("#enroll-game", "bagani")
    page.click("#enroll-start")
    for n, code in enumerate(("blue-circle", "blue-square", "green-circle"), start=1):
        page.wait_for_selector("#enroll-card:not([hidden])")
        page.select_option("#enroll-jump", str(game_codes("bagani").index(code)))
        assert page.locator("#enroll-code").inner_text() == code
        photo = tmp_path / f"{code}.jpg"
        photo.write_bytes(card_photo("bagani", code))
        page.set_input_files("#enroll-photo", str(photo))
        page.wait_for_selector("#enroll-preview:not([hidden])")
        assert page.locator("#enroll-cut").evaluate("img => img.naturalWidth") > 0
        if code == "green-circle":  # the README's picture, rewritten only when asked for
            page.screenshot(path=str((DOCS if os.environ.get(REFRESH_DOCS) else tmp_path) / "enroll.png"))
        page.click("#enroll-confirm")
        # the confirmation's answer moves the page on to the next card: wait for it before jumping
        page.wait_for_function(f"document.getElementById('enroll-progress').textContent.startsWith('{n} of')")
    page.click("#enroll-finish")
    page.wait_for_function("document.getElementById('enroll-progress').textContent.startsWith('Saved: 3 cards')")
    assert (tmp_path / "decks" / "bagani.npz").is_file()
    page.close()


def test_a_card_the_host_picks_while_a_confirmation_is_on_its_way_stays_picked(browser, table, tmp_path):
    """On a slow phone link the host confirms a card and picks another before the answer
    comes: the answer records the confirmation and leaves the host's pick alone."""
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{table.url}/host?token={HOST_TOKEN}")
    page.goto(f"{table.url}/host/enroll")
    page.select_option("#enroll-game", "bagani")
    page.click("#enroll-start")
    page.wait_for_selector("#enroll-card:not([hidden])")
    photo = tmp_path / "blue-circle.jpg"
    photo.write_bytes(card_photo("bagani", "blue-circle"))
    page.set_input_files("#enroll-photo", str(photo))
    page.wait_for_selector("#enroll-preview:not([hidden])")
    held = []
    page.route("**/api/host/enroll/confirm", lambda route: held.append((route, route.fetch())))
    page.click("#enroll-confirm")
    while not held:  # the confirmation reached the server; its answer is held back
        page.wait_for_timeout(50)
    picked = game_codes("bagani").index("green-circle")
    page.select_option("#enroll-jump", str(picked))
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_function("document.getElementById('enroll-progress').textContent.startsWith('1 of')")
    assert page.locator("#enroll-code").inner_text() == "green-circle"
    page.close()


def test_the_camera_set_up_pages_pass_axe_and_are_reached_by_keyboard(browser, table):
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{table.url}/host?token={HOST_TOKEN}")
    for path in ("/host/enroll", "/host/camera-setup"):
        page.goto(table.url + path)
        assert axe_problems(page) == [], path
        reached = set()
        for _ in range(25):
            page.keyboard.press("Tab")
            reached.add(page.evaluate("document.activeElement.id"))
        controls = page.evaluate("[...document.querySelectorAll('main button:not([hidden]), main input, main select')]"
                                 ".filter(e => e.offsetParent !== null).map(e => e.id)")
        assert set(controls) <= reached, (path, set(controls) - reached)
    page.close()
