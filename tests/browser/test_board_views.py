"""What players see at a glance, in a real browser at phone size: ranks, the leader, the
winning condition, provisional figures, cards as symbols, the podium, past games with
their chart and records, game setup on the phone, and accessibility (axe-core, keyboard)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from rules.bagani.events import Defeat, PutDown
from rules.dugtungan.events import Dugtong
from tests.browser.accessibility import axe_problems
from tests.browser.keyboard import unreachable_by_tab
from tests.browser.conftest import PHONE
from tests.companion.servers import HOST_TOKEN, Server
from tests.companion.test_board_pages import RED_BATTLE
from tests.rules.test_bagani_tracker import B, play, ready_to_attack, start
from tests.rules.test_dugtungan_table import drawn
from tests.rules.test_dugtungan_table import table as table_of

DOCS = Path(__file__).resolve().parents[2] / "docs"
REFRESH_DOCS = "COMPANION_SCREENSHOTS"  # set to 1 to rewrite the README's pictures in docs/



@pytest.fixture
def table(tmp_path):
    server = Server(["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"], tmp_path)
    yield server
    server.stop()


def phone(browser, url: str, host: bool = False):
    page = browser.new_page(viewport=PHONE)
    if host:
        page.goto(f"{url}/host?token={HOST_TOKEN}")
    return page


def start_open_gargon(table) -> None:
    status, body = table.host("start", {"game": "gargon", "players": ["Carla", "Ben", "Ana"],
                                        "options": {"open_won_cards": True}})
    assert status == 200, body


def test_the_host_sets_up_seats_starter_house_rules_and_speech_on_the_phone(browser, table):
    page = phone(browser, table.url, host=True)
    page.goto(table.url + "/host/start")
    page.select_option("#setup-game", "gargon")
    page.fill("#setup-players", "Ana\nBen\nCarla\n")
    page.get_by_role("button", name="Move Carla earlier").click()  # seats: Ana, Carla, Ben
    page.select_option("#setup-starter", "Carla")
    assert page.locator("#gargon-open_won_cards").is_visible()
    doc = page.locator("#gargon-open_won_cards-doc").inner_text()
    assert "won cards stay face up" in doc
    assert not page.locator("#bagani-hand_limit").is_visible()  # another game's rules are hidden
    page.check("#gargon-open_won_cards")
    page.uncheck("#setup-speech")
    page.fill("#setup-rate", "190")
    page.once("dialog", lambda dialog: dialog.dismiss())  # "End it and start this one?" No:
    page.locator("#setup-submit").click()
    assert table.state()["players"][0]["name"] == "Ana"  # nothing started
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#setup-submit").click()
    page.wait_for_url(table.url + "/host")
    state = table.state()
    assert [p["name"] for p in state["players"]] == ["Carla", "Ben", "Ana"]  # from the starter, round the table
    speech = table.host("speech", {})[1]["speech"]
    assert speech["muted"] is True and speech["rate"] == 190
    for action in RED_BATTLE:
        assert table.host("action", {"action": action})[0] == 200
    assert any(p.get("won") == ["red-12"] for p in table.state()["state"]["players"])  # the open variant
    page.close()


def test_a_refused_setup_says_why_on_the_page(browser, table):
    page = phone(browser, table.url, host=True)
    page.goto(table.url + "/host/start")
    page.select_option("#setup-game", "gargon")
    page.fill("#setup-players", "Ana\nBen\n")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#setup-submit").click()
    page.wait_for_selector("#start-error:not([hidden])")
    assert "3 to 5 players" in page.locator("#start-error").inner_text()
    assert table.state()["players"][0]["name"] == "Ana" and len(table.state()["players"]) == 3
    page.close()


def test_the_viewer_ranks_players_marks_the_leader_and_shows_won_cards_by_itself(browser, table):
    start_open_gargon(table)
    page = phone(browser, table.url)
    page.goto(table.url + "/")
    page.evaluate("window.notReloaded = true")
    assert "Most points wins" in page.locator("#goal").inner_text()
    assert page.locator("#players .leader").count() == 0  # all level at the start
    for action in RED_BATTLE:
        assert table.host("action", {"action": action})[0] == 200
    page.wait_for_selector("#players .player.leader")
    assert page.evaluate("window.notReloaded") is True
    first = page.locator("#players .player").first
    assert first.get_attribute("data-name") == "Ben" and first.locator(".rank").inner_text() == "1st"
    assert "leads" in first.locator(".name").inner_text()
    assert [p.get_attribute("data-rank") for p in page.locator("#players .player").all()] == ["1", "2", "2"]
    faces = [c.get_attribute("aria-label") for c in first.locator(".cards .card").all()]
    assert faces == ["Phoenix 12"]  # the open variant: won cards face up
    first.locator("summary").click()
    assert "Colour bonuses" in first.locator("dl").inner_text()
    table.host("rename", {"seat": 2, "name": "Ana Reyes"})
    page.wait_for_selector('#players .player[data-name="Ana Reyes"]')
    assert first.locator("details").get_attribute("open") is not None  # still open after the push
    page.close()


def test_won_cards_stay_face_down_unless_the_open_variant_is_chosen(browser, table):
    assert table.host("start", {"game": "gargon", "players": ["Carla", "Ben", "Ana"]})[0] == 200
    for action in RED_BATTLE:
        assert table.host("action", {"action": action})[0] == 200
    page = phone(browser, table.url)
    page.goto(table.url + "/")
    ben = page.locator('#players .player[data-name="Ben"]')
    assert ben.locator(".card.gargon.back").get_attribute("aria-label") == "a Phoenix card, face down"
    assert ben.locator(".card.gargon:not(.back)").count() == 0
    assert "12" not in ben.locator(".cards").inner_text()
    page.close()


def test_dugtungan_says_the_lowest_wins(browser, table):
    assert table.host("start", {"game": "dugtungan", "players": ["Ana", "Ben"]})[0] == 200
    page = phone(browser, table.url)
    page.goto(table.url + "/")
    assert page.locator("#goal").inner_text().startswith("Lowest wins")
    page.close()


def bagani_mid_game() -> dict:
    """A real Bagani position: Ana defeated two Halimaw, so she holds colour awards that
    can still change hands."""
    state = play(ready_to_attack(start(halimaw=("Higante", "Tikbalang", "Mansisilat", "Kapre"))),
                 PutDown(0, (("red-square",) * 3, ("red-square", B))), Defeat(0, "Mansisilat"),
                 Defeat(0, "Tikbalang"))
    return {"game": "bagani", "status": "playing", "players": state.scores().to_dict()["players"],
            "winners": [], "prompt": " ".join(state.announcements), "table": [], "log": [], "questions": [], "current_player": "Ana",
            "state": state.to_dict(), "version": 99}


def show_state(browser, url: str, state: dict):
    """The scoreboard page drawing `state`, once the live stream's first state is in (a
    quiet table pushes nothing more, so `state` stays on screen)."""
    page = phone(browser, url)
    page.add_init_script("""document.addEventListener("DOMContentLoaded",
        () => Board.onState(() => { window.pushed = (window.pushed || 0) + 1; }))""")
    page.goto(url + "/")
    page.wait_for_function("document.getElementById('link').textContent === 'live'")
    try:  # the stream's first state may have come before the counter was listening
        page.wait_for_function("window.pushed >= 1", timeout=3000)
    except PlaywrightTimeout:
        pass
    page.evaluate("(state) => Board.apply(state)", state)
    return page


def test_bagani_awards_are_provisional_and_the_breakdown_is_in_players_words(browser, table):
    page = show_state(browser, table.url, bagani_mid_game())
    ana = page.locator('#players .player[data-name="Ana"]')
    assert ana.locator(".total").get_attribute("class") == "total provisional"
    assert "provisional" in page.locator("#goal").inner_text()
    ana.locator("summary").click()
    words = ana.locator("dl").inner_text()
    assert "Halimaw defeated" in words and "4 DP" in words
    assert "Final hand" in words and "not shown yet" in words
    assert "provisional" in words and "halimaw_dp" not in words and "hand shown" not in words
    assert ana.locator(".halimaw").count() == 2
    row = page.locator("#in-play")
    assert row.locator(".card.bagani.biyaya").count() == 1 and row.locator(".card.halimaw").count() >= 2
    assert page.locator(".card.bagani.c-blue").first.get_attribute("aria-label") == "blue circle"
    page.close()


def dugtungan_mid_game() -> dict:
    """A real dugtungan position: Ana formed HABAG through the PAMATO BA and laid KA."""
    state = drawn(table_of([["HA", "G", "KA", "NG"], ["LI", "LA"]])).apply(Dugtong(0, ("HA", "BA", "G"), "KA"))
    return {"game": "dugtungan", "status": "playing", "players": state.scores().to_dict()["players"],
            "winners": [], "prompt": " ".join(state.announcements), "table": [], "log": [], "questions": [],
            "current_player": "Ben", "state": state.to_dict(), "version": 99}


def test_dugtungan_ranks_the_fewest_letters_first_and_draws_the_word_as_tiles(browser, table):
    page = show_state(browser, table.url, dugtungan_mid_game())
    ranked = [(p.get_attribute("data-name"), int(p.locator(".total").inner_text()))
              for p in page.locator("#players .player").all()]
    assert [total for _, total in ranked] == sorted(total for _, total in ranked) and ranked[0][1] < ranked[1][1]
    tiles = page.locator("#in-play .card.tile")
    assert [t.get_attribute("aria-label") for t in tiles.all()] == ["syllable KA", "syllable HA", "syllable BA",
                                                                     "syllable G"]
    page.close()


def test_lagim_draws_its_cards_with_their_level_and_the_breakdown_in_players_words(browser, table, tmp_path):
    """The Lagim demo's game entered event by event until a Baryo holds cards: they show
    as symbols with their level, and the page passes axe like the other games'."""
    from tests.browser.test_host import recorded_game

    recorded = recorded_game("lagim", tmp_path)
    assert table.host("start", {"game": "lagim", "players": recorded["players"], "setup": recorded["setup"]})[0] == 200
    for action in recorded["actions"]:
        assert table.host("action", {"action": action})[0] == 200
        seats = table.state()["state"]["players"]
        if any(seat.get("dwellers") or seat.get("captured") for seat in seats):
            break
    page = phone(browser, table.url)
    page.goto(table.url + "/")
    # The levels come from the table's deck file, fetched after the first draw: wait for them.
    held = page.locator("#players .cards .card.lagim[aria-label*=' level ']").first
    held.wait_for(timeout=5000)
    assert held.locator(".value").inner_text().startswith("Lv ")
    page.locator("#players .player summary").first.click()
    words = page.locator("#players .player dl").first.inner_text()
    assert "Soul Coins left" in words and "Spirit Path" in words and "spirit_path" not in words
    assert axe_problems(page) == [] and unreachable_by_tab(page) == []
    page.close()


def test_the_game_ends_on_a_podium_and_history_keeps_its_chart_and_records(browser, table):
    start_open_gargon(table)
    viewer = phone(browser, table.url)
    viewer.goto(table.url + "/")
    for action in RED_BATTLE:
        assert table.host("action", {"action": action})[0] == 200
    assert table.host("end", {})[0] == 200
    viewer.wait_for_selector("#podium:not([hidden])")
    places = [s.get_attribute("data-name") for s in viewer.locator("#podium .step").all()]
    assert places[0] == "Ben" and set(places) == {"Ben", "Carla", "Ana"}
    assert "wins" in viewer.locator('#players .player[data-name="Ben"] .name').inner_text()
    game_id = table.state()["game_id"]
    viewer.locator("#results-link").click()
    viewer.wait_for_url(f"{table.url}/history/{game_id}")
    lines = viewer.locator("svg.chart polyline")
    assert sorted(line.get_attribute("data-player") for line in lines.all()) == ["Ana", "Ben", "Carla"]
    ben_line = viewer.locator('svg.chart polyline[data-player="Ben"]').get_attribute("points").split()
    assert len(ben_line) == len(RED_BATTLE) + 1 and ben_line[0] != ben_line[-1]  # rises when Ben wins
    assert viewer.locator("#podium .step").first.get_attribute("data-name") == "Ben"
    assert viewer.locator("#bgstats").get_attribute("href").startswith("https://app.bgstatsapp.com/")
    viewer.goto(table.url + "/history")
    record = viewer.locator('table.records[data-game="gargon"] tr[data-name="Ben"]')
    assert record.locator("td").all_inner_texts() == ["1", "1", "11.0", "11"]
    past = viewer.locator(f'.past[data-game-id="{game_id}"]')
    assert "Won by Ben" in past.inner_text() and "BG Stats" in past.inner_text()
    assert past.locator("svg.chart polyline").count() == 3
    viewer.close()


def test_the_qr_code_link_opens_as_a_picture(browser, table):
    page = phone(browser, table.url)
    page.goto(table.url + "/")
    size = page.evaluate("""() => new Promise((done) => { const img = new Image();
        img.onload = () => done(img.naturalWidth); img.onerror = () => done(0); img.src = '/qr.svg'; })""")
    assert size > 100
    page.close()


def test_the_pages_pass_axe_and_every_control_is_reached_by_keyboard(browser, table):
    start_open_gargon(table)
    for action in RED_BATTLE[:2]:
        assert table.host("action", {"action": action})[0] == 200
    page = phone(browser, table.url, host=True)
    problems = {}
    for name, path in (("scoreboard", "/"), ("start", "/host/start")):
        page.goto(table.url + path)
        if name == "scoreboard":
            page.locator("details summary").first.click()  # the breakdown's contrast counts too
        problems[name] = (axe_problems(page), unreachable_by_tab(page))
    for action in RED_BATTLE[2:]:
        assert table.host("action", {"action": action})[0] == 200
    table.host("end", {})
    game_id = table.state()["game_id"]
    for name, path in (("podium", "/"), ("game", f"/history/{game_id}"), ("history", "/history")):
        page.goto(table.url + path)
        problems[name] = (axe_problems(page), unreachable_by_tab(page))
    page.close()
    for name, state in (("bagani", bagani_mid_game()), ("dugtungan", dugtungan_mid_game())):
        page = show_state(browser, table.url, state)
        page.locator("details summary").first.click()
        problems[name] = (axe_problems(page), unreachable_by_tab(page))
        page.close()
    failing = {name: found for name, found in problems.items() if found != ([], [])}
    assert not failing, json.dumps(failing)


@pytest.mark.slow
def test_screenshots_for_the_readme(browser, table, tmp_path):
    """The pictures in the README, at phone size: into docs/ (committed) with
    COMPANION_SCREENSHOTS=1, else into a temporary folder, so a test run changes no file."""
    folder = DOCS if os.environ.get(REFRESH_DOCS) else tmp_path
    page = show_state(browser, table.url, bagani_mid_game())
    page.locator("#players .player summary").first.click()
    page.screenshot(path=str(folder / "scoreboard-mid-game-390x844.png"))
    for reveal in (["red-12"], ["red-3"], []), (["red-3"], ["red-12"], []), (["red-5"], ["red-9"], []):
        start_open_gargon(table)  # three games for the records: Carla wins one, Ben two
        for action in RED_BATTLE[:3] + ({"kind": "reveal", "cards": list(reveal)},) + RED_BATTLE[4:]:
            assert table.host("action", {"action": action})[0] == 200
        table.host("end", {})
    page.goto(table.url + "/")
    page.wait_for_selector("#podium:not([hidden])")
    page.screenshot(path=str(folder / "scoreboard-podium-390x844.png"))
    page.goto(f"{table.url}/history/{table.state()['game_id']}")
    page.evaluate("document.querySelector('.chart-box').scrollIntoView({block: 'center'})")
    page.screenshot(path=str(folder / "history-game-390x844.png"))
    page.goto(table.url + "/history")
    page.screenshot(path=str(folder / "history-390x844.png"))
    page.close()
    pictures = list(folder.glob("*-390x844.png"))
    assert len(pictures) == 4 and all(picture.stat().st_size < 300_000 for picture in pictures)
