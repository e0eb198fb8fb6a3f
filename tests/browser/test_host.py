"""The host's page in a real browser at phone size: taps only, no JSON.

Camera questions come from the real demo (generated table, real vision, the table's own
confidence bar): what it stages (a stray thing, a card under a thumb) and the cards lying
face down are asked about with their cut-out and the identifier's guesses; whole games are entered from the
event forms, event by event, as the games' recordings play them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.adapters import adapter_for
from companion.server import build_services, close_services
from rules.core import IllegalMove
from rules.lagim.cards import parse_level
from tests.browser.accessibility import axe_problems
from tests.browser.conftest import PHONE
from tests.browser.forms import enter, fill, fill_form, schema_of, send
from tests.companion.conftest import table_settings
from tests.companion.servers import HOST_TOKEN, Server

GAMES = ("bagani", "gargon", "dugtungan", "lagim")
PLAYER = "#event-form > .field[data-key=player] select"  # the player a play is entered for


def totals_on(page: Any) -> dict[str, int]:
    return {item.get_attribute("data-name"): int(item.locator(".total").inner_text())
            for item in page.locator("#players .player").all()}


def recorded_game(game: str, folder: Path) -> dict[str, Any]:
    """The events of the game's demo recording as the live table scores them (its
    readings answered as the recording answers them), and the final totals."""
    recording = adapter_for(game).recording()
    services = build_services(table_settings(folder), folder / "recorded.db", "http://192.0.2.1:8000")
    table = services.table
    try:
        table.start_game(game, recording.players, recording.options, recording.setup)
        for step in recording.steps:
            if step.observation is not None:
                table.observe(step.observation)
            elif step.host is not None and step.host.action is not None:
                try:
                    table.submit(step.host.action.to_dict())
                except IllegalMove:  # the cards seen before it became a question: answered, then again
                    if not table.open_questions():
                        raise
                    while table.open_questions():
                        table.answer(table.open_questions()[0], 0)
                    table.submit(step.host.action.to_dict())
            while table.open_questions():
                table.answer(table.open_questions()[0], 0)
        snapshot = table.snapshot()
        return {"players": list(recording.players), "setup": dict(recording.setup),
                "options": dict(recording.options),
                "actions": [a["action"] for a in snapshot["accepted"]][::-1],
                "totals": {p["name"]: p["total"] for p in snapshot["players"]},
                "winners": snapshot["winners"]}
    finally:
        close_services(services)


def host_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{url}/host?token={HOST_TOKEN}")
    page.wait_for_selector("#event-form .field")
    return page


def confirm(page: Any, button: str, answer: bool) -> None:
    page.locator(button).click()
    page.locator("#confirm[open]").wait_for()
    page.locator("#confirm-ok" if answer else "#confirm-cancel").click()


@pytest.fixture
def table(tmp_path):
    server = Server(["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"], tmp_path)
    yield server
    server.stop()


@pytest.fixture
def asking_demo(tmp_path):
    """The Gargon demo filmed and read by the real vision, every question left to the host:
    the stray thing the demo lays first, the card under a thumb, the cards lying face down."""
    server = Server(["demo", "--game", "gargon", "--speed", "4", "--once", "--answer-myself"], tmp_path)
    yield server
    server.stop()


@pytest.fixture
def asking_lagim_demo(tmp_path):
    """The Lagim demo, looping, every question left to the host: each game lays a stray
    thing and a card under a thumb, two cards the camera cannot name. (The Gargon demo's
    cards lying face down, asked about before, are played by their colour now.)"""
    server = Server(["demo", "--game", "lagim", "--speed", "4", "--answer-myself"], tmp_path)
    yield server
    server.stop()


def open_question(page: Any) -> Any:
    page.locator("#question-list .question").first.wait_for(timeout=60000)
    return page.locator("#question-list .question").first


def test_camera_questions_are_answered_with_one_tap_by_a_candidate_by_the_picker_or_not_a_card(
        browser, asking_lagim_demo):
    asking_demo = asking_lagim_demo
    viewer = browser.new_page(viewport=PHONE)
    viewer.goto(asking_demo.url + "/")
    page = host_page(browser, asking_demo.url)
    ways = ["not a card", "candidate", "picker"]  # (the stray the demo lays first: not a card)
    answered: list[str] = []
    for _ in range(16):
        if not ways:
            break
        question = open_question(page)
        number = question.get_attribute("data-question")
        asked = next(q for q in asking_demo.host_state()["questions"] if str(q["id"]) == number)
        if asked["cards"]:  # about cards on the table (not one taken away): their picture
            assert asked["image"]
            page.wait_for_function("id => document.querySelector(`#question-${id} img.cutout`).naturalWidth > 0",
                                   arg=asked["id"], timeout=5000)
        coded = [i for i, c in enumerate(asked["choices"]) if c["code"]]
        way = ways[0] if asked["track"] is not None and asked["cards"] else None
        if way == "candidate" and coded:
            # the camera's last guess: its runner-up (at least three guesses: test_host_questions)
            guess = question.locator(f"button.choice[data-choice='{coded[-1]}']")
            answered.append(guess.get_attribute("data-code"))
            guess.click()
        elif way == "picker":
            question.locator("button.none-of-these").click()
            first = page.locator("#picker-list button").first  # the list the question's card is from
            answered.append(first.get_attribute("data-code"))
            first.click()
        elif way == "not a card":
            question.locator("button.not-card").click()
        else:  # a play of several cards (or no runner-up to tap): its own reading, one tap
            question.locator("button.choice[data-choice='0']").click()
            way = None
        if way is not None:
            ways.pop(0)
        page.wait_for_function(f"!document.getElementById('question-{number}')", timeout=10000)
    assert not ways
    log = " | ".join(line["text"] for line in asking_demo.state()["log"])
    assert f"The host named the card {answered[0]}" in log or answered[0] in log
    assert f"The host named the card {answered[1]}" in log
    assert "The host said it is not a card" in log
    viewer.wait_for_function("document.getElementById('log').textContent.includes('The host named the card')")
    assert axe_problems(page) == []
    page.close()
    viewer.close()


def test_the_camera_view_shows_the_table_and_a_tap_on_an_unsure_card_opens_its_question(browser, asking_demo):
    page = host_page(browser, asking_demo.url)
    open_question(page)
    page.wait_for_function("document.getElementById('camera-img').naturalWidth > 0", timeout=10000)
    assert page.locator("#camera-problem").is_hidden()
    card = page.locator("#camera-cards button.seen.unsure, #camera-cards button.seen.unknown").first
    card.wait_for(timeout=5000)
    assert "answer its question" in card.get_attribute("aria-label")
    asked = card.get_attribute("data-question")
    card.click()
    assert page.evaluate("document.activeElement.dataset.question") == asked  # (it may close by itself
    # a moment later: the camera names a card it could not name at first)
    status = page.evaluate("async () => (await fetch('/api/camera.jpg')).headers.get('content-type')")
    assert status == "image/jpeg"
    page.close()


def test_a_tap_on_a_card_the_camera_scored_opens_its_event_in_the_correction_form(browser, tmp_path):
    server = Server(["demo", "--game", "gargon", "--speed", "4", "--once"], tmp_path)
    try:
        page = host_page(browser, server.url)
        card = page.locator("#camera-cards button.seen[aria-label$='correct its event']").first
        card.wait_for(timeout=60000)
        card.click()
        page.locator("#correcting:not([hidden])").wait_for(timeout=5000)
        text = page.locator("#correcting").inner_text().removeprefix("Correcting: ")
        event = next(a for a in server.host_state()["accepted"] if a["text"] == text)
        assert page.locator("#event-kind").input_value() == event["action"]["kind"]
        assert page.locator("#send-action").inner_text() == "Save correction"
        page.close()
    finally:
        server.stop()


def test_without_a_camera_the_host_page_says_so(browser, table):
    page = host_page(browser, table.url)
    page.locator("#camera-problem").wait_for()
    assert "The camera is not working: no camera" in page.locator("#camera-problem").inner_text()
    assert page.evaluate("async () => (await fetch('/api/camera.jpg')).status") == 503
    page.close()


def test_undo_then_redo_and_end_and_a_new_game_only_after_confirming(browser, table):
    page = host_page(browser, table.url)
    enter(page, schema_of(page), {"kind": "play", "player": 0, "colours": ["red", "blue"]})
    page.locator("#undo").click()
    page.wait_for_function("document.getElementById('redo').disabled === false")
    assert table.host_state()["accepted"] == []
    page.locator("#redo").click()
    page.wait_for_function("document.querySelectorAll('#accepted li').length === 1")
    assert table.host_state()["accepted"][0]["action"] == {"kind": "play", "player": 0, "colours": ["red", "blue"]}
    confirm(page, "#end-game", answer=False)
    assert table.state()["status"] == "playing"
    confirm(page, "#start-form button[type=submit]", answer=False)
    assert table.state()["status"] == "playing"
    first = table.state()["game_id"]
    confirm(page, "#start-form button[type=submit]", answer=True)
    page.wait_for_function(f"document.getElementById('seats').dataset.game !== '{first}'")
    kept = {g["id"]: g for g in page.evaluate("async () => (await fetch('/api/games')).json()")}
    assert first in kept and kept[first]["ended_at"]  # ended and scored, in Past games: not abandoned
    confirm(page, "#end-game", answer=True)
    page.wait_for_function("document.getElementById('game-status').textContent === 'finished'")
    page.close()


def test_the_host_chooses_voice_and_rate_on_the_page_and_hears_the_last_prompt_again(browser, table):
    page = host_page(browser, table.url)
    voices = page.locator("#voice option").evaluate_all("options => options.map(o => o.value)")
    other = next(v for v in voices if v != page.locator("#voice").input_value())
    with page.expect_response("**/api/host/speech") as chosen:
        page.locator("#voice").select_option(other)
    assert chosen.value.status == 200
    with page.expect_response("**/api/host/speech") as chosen:
        page.locator("#rate").fill("190")
        page.locator("#rate").dispatch_event("change")
    assert chosen.value.status == 200
    speech = table.host("speech", {})[1]["speech"]
    assert (speech["voice"], speech["rate"]) == (other, 190)
    with page.expect_response("**/api/host/say-again") as again:
        page.locator("#say-again").click()
    assert again.value.status == 200
    page.close()


def test_a_push_that_comes_while_the_host_fills_the_form_keeps_their_taps(browser, table):
    page = host_page(browser, table.url)
    schema = schema_of(page)
    fields = {f["key"]: f for f in next(e for e in schema["events"] if e["kind"] == "play")["fields"]}
    page.locator("#event-kind").select_option("play")
    form = page.locator("#event-form")
    fill(page, form.locator(":scope > .field[data-key=player]"), fields["player"], 1)
    fill(page, form.locator(":scope > .field[data-key=colours]"), fields["colours"], ["green"])
    # another host phone enters Ana's play meanwhile: the turn moves on and the push arrives
    assert table.host("action", {"action": {"kind": "play", "player": 0, "colours": ["red"]}})[0] == 200
    page.wait_for_function("document.querySelectorAll('#accepted li').length === 1")
    assert page.locator(PLAYER).input_value() == "1"
    assert form.locator(":scope > .field[data-key=colours] ul.picked").inner_text().startswith("green")
    send(page)
    assert table.host_state()["accepted"][0]["action"] == {"kind": "play", "player": 1, "colours": ["green"]}
    # sent, the form is fresh again and follows the game: Carla's turn. (The push's own
    # refresh may draw the second event before the send's answer comes; until the answer
    # says the taps were recorded, the form keeps them, Ben's turn as tapped.)
    page.wait_for_function("document.querySelectorAll('#accepted li').length === 2"
                           f" && document.querySelector({PLAYER!r}).value === '2'")
    page.close()


# What the page has been pushed (the version of the last push), and how many answers to
# each of its fetches are still to be read (`pending(path)`; an answer counts as read
# before the page's own code goes on with it), so a test can tell when nothing is on its way.
COUNT_FETCHES = """(() => {
  const seen = window.seen = { pushed: null, asked: {}, read: {} };
  const add = (counts, url) => { const path = new URL(url, location.href).pathname; counts[path] = (counts[path] || 0) + 1; };
  window.pending = (path) => (seen.asked[path] || 0) - (seen.read[path] || 0);
  const Source = window.EventSource;
  window.EventSource = function (url) {
    const source = new Source(url);
    source.addEventListener("state", (event) => { seen.pushed = JSON.parse(event.data).version; });
    return source;
  };
  const fetch = window.fetch;
  window.fetch = (url, ...rest) => { add(seen.asked, url); return fetch(url, ...rest); };
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const url = this.url;
    return json.call(this).then((value) => { add(seen.read, url); return value; });
  };
})();"""


def counting_host_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport=PHONE)
    page.add_init_script(COUNT_FETCHES)
    page.goto(f"{url}/host?token={HOST_TOKEN}")
    page.wait_for_selector("#event-form .field")
    return page


def test_answers_that_reach_the_page_after_a_newer_state_never_turn_the_game_back(browser, table):
    """A refresh the server answered before the host's send, and the send's own answer,
    can reach the page after a newer state (another phone entered the next turn
    meanwhile): neither is drawn, and the fresh form follows the newest turn."""
    page = counting_host_page(browser, table.url)
    assert table.host("action", {"action": {"kind": "play", "player": 0, "colours": ["red"]}})[0] == 200
    page.wait_for_function("document.querySelectorAll('#accepted li').length === 1")
    page.locator("#event-kind").select_option("play")
    fill_form(page, schema_of(page), {"kind": "play", "player": 1, "colours": ["green"]})
    held: list[tuple[Any, Any]] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # answered by the server now, handed over later

    page.route("**/api/host/state", hold_the_first)
    assert table.host("rename", {"seat": 0, "name": "Anna"})[0] == 200  # a push: the page asks
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(20)  # (Playwright hands the page's request to hold_the_first meanwhile)
    assert held

    def next_turn_first(route: Any) -> None:
        answer = route.fetch()  # Ben's play recorded; Carla's, from another phone, then drawn
        carla = next(t["action"] for t in table.host_state()["host_templates"] if t["action"]["kind"] == "play")
        status, newest = table.host("action", {"action": carla})
        assert status == 200
        page.wait_for_function(f"seen.pushed === {newest['version']} && pending('/api/host/state') === 1")
        stale_route, stale = held[0]
        stale_route.fulfill(response=stale)  # the oldest: before Ben's play, on Ben's turn
        page.wait_for_function("pending('/api/host/state') === 0")
        route.fulfill(response=answer)  # on Carla's turn

    page.route("**/api/host/action", next_turn_first)
    send(page)
    # all three have played face down: nobody's turn, so the fresh form starts at the first
    # seat (not at Carla's, as the send's answer would have it, nor Ben's, as the refresh)
    page.wait_for_function("document.querySelectorAll('#accepted li').length === 3"
                           f" && document.querySelector({PLAYER!r}).value === '0'")
    page.close()


def test_the_fresh_form_after_a_send_lists_what_the_event_told(browser, table):
    """The schema is fetched again after each event: a Lagim card's printed level, told in
    a form, is in the next form's lists (not only in the one after that)."""
    assert table.host("start", {"game": "lagim", "players": ["Ana", "Ben"]})[0] == 200
    page = counting_host_page(browser, table.url)
    schema = schema_of(page)
    told = schema["lists"]["all"][0]
    assert "level" not in told["label"]
    enter(page, schema, {"kind": "printed", "card": told["code"], "level": 3})
    version = table.host_state()["version"]
    page.wait_for_function(f"seen.pushed === {version} && pending('/api/host/state') === 0"
                           " && pending('/api/schema') === 0")  # (all drawn: nothing on its way)
    page.locator("#event-form button.card-pick").first.click()  # the fresh form: printed again
    assert page.locator(f"#picker-list button[data-code={told['code']!r}]").inner_text().endswith("level 3)")
    page.close()


def test_the_host_page_is_accessible_at_phone_size_and_reachable_by_keyboard(browser, table):
    assert table.host("action", {"action": {"kind": "play", "player": 0, "colours": ["red"]}})[0] == 200
    page = host_page(browser, table.url)
    assert axe_problems(page) == []
    reached = set()
    for _ in range(80):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.className"))
    missing = {"event-kind", "send-action", "undo", "mute", "end-game", "start-game"} - reached  # (redo: disabled)
    assert not missing, sorted(reached)
    page.locator("#event-form button.card-pick, #event-form button.add").first.focus()
    page.keyboard.press("Enter")
    page.locator("#picker[open]").wait_for()
    assert axe_problems(page) == []  # the card picker too
    page.keyboard.press("Escape")
    page.close()


def start_from_the_form(page: Any, url: str, game: str, players: list[str], options: dict[str, Any]) -> None:
    """The host's start form: the game, the players typed one per line, house rules set."""
    page.goto(f"{url}/host/start")
    page.select_option("#setup-game", game)
    page.fill("#setup-players", "\n".join(players) + "\n")
    for name, value in options.items():
        page.fill(f"#{game}-{name}", str(value))
    page.once("dialog", lambda dialog: dialog.accept())  # "End the game in progress and start this one?"
    page.locator("#setup-submit").click()
    page.wait_for_url(f"{url}/host")
    page.wait_for_selector("#event-form .field")


def told_without_a_deck_file(game: str, recorded: dict[str, Any]) -> list[dict[str, Any]]:
    """The recording's events as a host with no deck file enters them: what the deck file
    told the table (each Lagim card's printed level) is told in a form first."""
    actions = list(recorded["actions"])
    if game == "lagim":
        deck = recorded["setup"]["deck"]["cards"]
        actions = [{"kind": "printed", "card": c["name"], "level": parse_level(c["level"], "level")}
                   for c in deck] + actions
    return actions


# Games whose recording the start form can set up: no deck file, the hand size a house
# rule. Bagani's recording plays a 6-Halimaw deck and Gargon's deals two short draw piles,
# which no real table needs to tell (the book's decks make games of hundreds of events), so
# those two start from their recorded set-up; the form's part in a Bagani game with no
# deck file is the test after this one.
START_FORM_OPTIONS: dict[str, dict[str, Any]] = {"dugtungan": {"hand_size": 4}, "lagim": {}}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_entered_from_the_forms_with_taps_only(browser, tmp_path, game):
    recorded = recorded_game(game, tmp_path)
    server = Server(["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"], tmp_path)
    try:
        viewer = browser.new_page(viewport=PHONE)
        viewer.goto(server.url + "/")
        page = host_page(browser, server.url)
        if game in START_FORM_OPTIONS:
            start_from_the_form(page, server.url, game, recorded["players"], START_FORM_OPTIONS[game])
            actions = told_without_a_deck_file(game, recorded)
        else:
            assert server.host("start", {"game": game, "players": recorded["players"], "setup": recorded["setup"],
                                         "options": recorded["options"]})[0] == 200
            page.reload()
            page.wait_for_selector("#event-form .field")
            actions = recorded["actions"]
        schema = schema_of(page)
        for action in actions:
            if game == "bagani" and action["kind"] == "reveal":
                page.locator("#event-kind").select_option("reveal")
                reveal = next(e for e in schema["events"] if e["kind"] == "reveal")["fields"][0]
                fill(page, page.locator("#event-form > .field"), reveal, action["halimaw"])
                facts = next(e["facts"] for e in schema["lists"]["halimaw"] if e["code"] == action["halimaw"]["name"])
                lakas = page.locator("#event-form .field[data-key=lakas] input").input_value()
                assert lakas == str(facts["lakas"])  # the deck's facts, filled in without a tap
                send(page)
            else:
                enter(page, schema, action)
        viewer.wait_for_function("document.getElementById('game-status').textContent === 'finished'", timeout=10000)
        assert server.state()["winners"] == recorded["winners"]
        if game == "dugtungan":  # hands dealt unseen: only the letters of cards seen in them count
            assert totals_on(viewer) == {p["name"]: sum(p["breakdown"]["letters"]) for p in server.state()["players"]}
        else:
            assert totals_on(viewer) == recorded["totals"]
        page.close()
        viewer.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_a_bagani_game_with_no_deck_file_names_the_decks_own_halimaw_and_tells_their_facts(browser, tmp_path):
    """The book names 5 of the 21 Halimaw; a host types the others' names into the picker
    once, with the facts their cards print, and the rules score them."""
    server = Server(["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"], tmp_path)
    try:
        page = host_page(browser, server.url)
        start_from_the_form(page, server.url, "bagani", ["Ana", "Ben"], {})
        schema = schema_of(page)
        rows = [{"name": "Higante", "color": "blue", "dp": 4},  # the book prints its Lakas 3 and attack
                {"name": "Tikbalang", "color": "green", "lakas": 1, "dp": 3, "attacks": ["draw-left"]},
                {"name": "Kapre", "color": "green", "lakas": 4, "dp": 5, "attacks": ["reveal-hands"]},
                {"name": "Aswang", "color": "red", "lakas": 1, "dp": 2, "attacks": ["discard-random"]}]
        enter(page, schema, {"kind": "setup", "bagani": ["blue-circle", "blue-circle", "red-square", "biyaya",
                                                         "green-circle"], "halimaw": rows})
        told = {h["code"]: h["facts"] for h in schema_of(page)["lists"]["halimaw"]}
        assert told["Higante"]["lakas"] == 3 and told["Higante"]["attacks"] == ["pass-right"]  # prefilled, untyped
        assert told["Tikbalang"] == {"color": "green", "lakas": 1, "dp": 3, "attacks": ["draw-left"]}
        schema = schema_of(page)
        for action in ({"kind": "draw", "player": 0, "source": "row", "card": "blue-circle"},
                       {"kind": "refill", "card": "yellow-circle"},
                       {"kind": "draw", "player": 0, "source": "row", "card": "blue-circle"},
                       {"kind": "refill", "card": "violet-circle"},
                       {"kind": "combos", "player": 0, "combos": [["blue-circle", "blue-circle"]]},
                       {"kind": "defeat", "player": 0, "halimaw": "Tikbalang"},
                       {"kind": "done", "player": 0},
                       {"kind": "reveal", "halimaw": {"name": "Manananggal", "color": "violet", "lakas": 3, "dp": 4,
                                                      "attacks": ["pass-left"]}}):
            enter(page, schema, action)
        ana = next(p for p in server.state()["players"] if p["name"] == "Ana")["breakdown"]
        assert ana["halimaw"] == [{"name": "Tikbalang", "color": "green", "dp": 3}]  # as typed
        assert ana["awards_dp"] == 7  # its typed colour makes Ana the Forest's Tagapagtanggol
        assert "Manananggal" in {h["code"] for h in schema_of(page)["lists"]["halimaw"]}
        page.close()
    finally:
        server.stop()
