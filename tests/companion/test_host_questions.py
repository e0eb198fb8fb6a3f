"""The host's side of the live table: questions with pictures and runner-ups, redo, new games,
the camera's picture, and each game's event forms."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.adapters import adapter_for
from companion.adapters.bagani import DEMO_DECK
from companion.adapters.lagim import DEMO_DECK as LAGIM_DECK
from companion.web import create_app
from rules.core import BadInput, IllegalMove
from rules.event_schema import event_schema
from rules.registry import game_spec
from tests.companion.conftest import HOST_TOKEN
from vision.observations import CENTRE, Observation, seat_zone

CARD = ((400.0, 300.0), (526.0, 300.0), (526.0, 476.0), (400.0, 476.0))
BEARER = {"Authorization": f"Bearer {HOST_TOKEN}"}
GUESSES = (("red", 0.31), ("yellow", 0.22), ("blue", 0.12))


def seen(track, code, zone, confidence=0.97, kind="appeared", candidates=(), corners=CARD):
    return Observation(kind, track, code, confidence, corners, zone, 0.0, 0.0, candidates=candidates)


def table_frame():
    """A green cloth with one white card where CARD lies, a red mark at its top-left."""
    frame = np.full((960, 1280, 3), (40, 110, 50), np.uint8)
    cv2.fillConvexPoly(frame, np.int32(CARD), (245, 245, 245))
    cv2.circle(frame, (420, 320), 10, (0, 0, 200), -1)
    return frame


def log(table):
    return [line["text"] for line in table.snapshot()["log"]][::-1]


def test_a_card_found_but_not_named_is_asked_about_with_its_runner_ups(gargon):
    table = gargon.table
    table.observe(seen(1, None, seat_zone(0), 0.31, candidates=GUESSES))
    (question,) = table.snapshot()["questions"]
    assert question["about"] == "name" and question["track"] == 1
    assert question["text"] == "The camera found a card in front of Ana but cannot name it. Which card is it?"
    assert [(c["code"], c["confidence"]) for c in question["choices"]] == list(GUESSES)
    assert question["list"] == "colours"  # "none of these" picks from the game's colours
    table.answer(question["id"], 1)
    assert table.snapshot()["questions"] == []
    assert "The host named the card yellow" in log(table)
    assert [c["code"] for c in table.snapshot()["table"]] == ["yellow"]


def test_a_face_down_gargon_card_is_asked_about_by_its_colour_not_guessed_values(gargon):
    """While cards are laid face down only their colour can be known: the reader's value
    guesses for the back (blue-3, blue-8, blue-13) are offered as the colour they share."""
    table = gargon.table
    backs = (("blue-3", 0.30), ("blue-8", 0.19), ("blue-13", 0.13))
    table.observe(seen(1, None, seat_zone(0), 0.30, candidates=backs))
    (question,) = table.snapshot()["questions"]
    assert [(c["label"], c["code"], c["confidence"]) for c in question["choices"]] == [("It is blue", "blue", 0.62)]
    assert question["list"] == "colours"
    table.answer(question["id"], 0)
    table.observe(seen(2, "red-5", seat_zone(1)))
    assert log(table)[-1] == "Ana plays blue face down"


def test_viewers_receive_each_question_in_the_contracts_form(gargon, client):
    """CONTRACT.md: `questions` in /api/state, each {"id", "text", "image", "choices"}, the
    choices {"label", "code", "confidence"}; what only the host's tools need stays theirs."""
    gargon.table.observe(seen(1, None, seat_zone(0), 0.31, candidates=GUESSES))
    (question,) = client.get("/api/state").get_json()["questions"]
    assert set(question) == {"id", "text", "image", "choices"}
    assert [(c["code"], c["confidence"]) for c in question["choices"][:3]] == list(GUESSES)
    assert all(set(c) == {"label", "code", "confidence"} for c in question["choices"])


def test_the_picker_names_a_card_and_not_a_card_ignores_it_until_it_leaves(gargon):
    table = gargon.table
    table.observe(seen(1, None, seat_zone(0), 0.3, candidates=GUESSES))
    table.answer(table.open_questions()[0], None, code="green")
    assert [c["code"] for c in table.snapshot()["table"]] == ["green"]
    table.observe(seen(2, None, seat_zone(0), 0.2, candidates=GUESSES))
    table.answer(table.open_questions()[0], None, not_card=True)
    assert "The host said it is not a card" in log(table)
    table.observe(seen(2, None, seat_zone(0), 0.2, kind="moved", candidates=GUESSES))
    assert table.open_questions() == [] and [c["track"] for c in table.snapshot()["table"]] == [1]
    with pytest.raises(BadInput):
        table.answer(99, None, code="red")


@pytest.mark.parametrize("kind", ["moved", "named"])
def test_a_card_the_camera_names_after_all_closes_its_question_and_is_played_as_named(gargon, kind):
    """Named on a move, or on a later look ("named": vision/track.py reads a card it
    reported unknown again)."""
    table = gargon.table
    table.observe(seen(1, None, seat_zone(0), 0.3, candidates=GUESSES))
    table.observe(seen(1, "red", seat_zone(0), 0.95, kind=kind))
    assert table.open_questions() == []
    assert "The camera named the card red" in log(table)
    assert not any("host named" in line for line in log(table))
    assert [(c["card"].code, c["card"].status) for c in table.seen_cards()] == [("red", "named")]
    table.observe(seen(2, "blue", seat_zone(1)))  # Ben plays: Ana's card was her play
    assert [a["action"] for a in table.snapshot()["accepted"]] == [
        {"kind": "play", "player": 0, "colours": ["red"]}]
    assert table.open_questions() == []


def test_the_hosts_word_stands_over_the_cameras_later_name(gargon):
    table = gargon.table
    table.observe(seen(1, None, seat_zone(0), 0.3, candidates=GUESSES))
    table.answer(table.open_questions()[0], None, code="green")
    table.observe(seen(2, None, seat_zone(1), 0.3, candidates=GUESSES))
    table.answer(table.open_questions()[0], None)  # dismissed: nothing to score there
    before = (table.snapshot()["accepted"], log(table))
    table.observe(seen(1, "red", seat_zone(0), 0.95, kind="named"))
    table.observe(seen(2, "red", seat_zone(1), 0.95, kind="named"))
    assert (table.snapshot()["accepted"], log(table)) == before
    assert [c["code"] for c in table.snapshot()["table"]][0] == "green"
    assert table.open_questions() == []


def test_a_card_named_later_while_it_waits_behind_a_question_is_read_by_that_name(gargon):
    table = gargon.table
    table.observe(seen(1, "red", seat_zone(0), 0.5))
    table.observe(seen(2, "blue", seat_zone(1)))  # asks about Ana's play
    table.observe(seen(3, None, seat_zone(2), 0.3, candidates=GUESSES))  # Ben's play waits behind it
    table.observe(seen(3, "red", seat_zone(2), 0.95, kind="named"))
    assert len(table.open_questions()) == 1 and table.snapshot()["held"] == 1
    table.answer(table.open_questions()[0], 0)
    assert [a["action"]["player"] for a in table.snapshot()["accepted"]][::-1] == [0, 1]
    assert table.open_questions() == []  # the card that waited is red: nothing to ask about its name
    assert [c["code"] for c in table.snapshot()["table"]] == ["red", "blue", "red"]


def test_a_refused_reading_of_several_cards_offers_each_runner_up_that_the_rules_allow(services):
    table = services.table
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    row = ["blue-circle", "blue-circle", "red-square", "biyaya", "green-circle"]
    for track, code in enumerate(row, start=1):
        table.observe(seen(track, code, CENTRE))
    table.observe(seen(6, "Higante", CENTRE))
    table.observe(seen(7, "Higante", CENTRE, 0.9, candidates=(("higante", 2.9), ("tikbalang", 2.7))))
    table.observe(seen(8, "Kapre", CENTRE))
    table.observe(seen(9, "Aswang", CENTRE))
    (question,) = table.snapshot()["questions"]
    assert "The rules say: No Higante is left" in question["text"]
    labels = [c["label"] for c in question["choices"]]
    assert labels == ["Yes, with Tikbalang for Higante"]  # spelt as the deck spells it; legal
    assert question["choices"][0]["confidence"] is None  # a gallery's score is no chance to show
    assert [c["track"] for c in question["cards"]] == list(range(1, 10))
    table.answer(question["id"], 0)
    assert log(table)[-1].endswith("Halimaw Higante, Tikbalang, Kapre, Aswang")


def test_one_card_of_several_is_named_from_the_picker(services):
    table = services.table
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    for track, code in enumerate(["blue-circle", "blue-circle", "red-square", "biyaya", "green-circle",
                                  "Higante", "Higante", "Kapre", "Aswang"], start=1):
        table.observe(seen(track, code, CENTRE))
    question = table.open_questions()[0]
    with pytest.raises(BadInput):
        table.answer(question, None, code="Tikbalang", track=42)
    table.answer(question, None, code="Tikbalang", track=7)
    assert table.open_questions() == []
    assert log(table)[-1].endswith("Halimaw Higante, Tikbalang, Kapre, Aswang")


def test_a_refused_event_says_when_a_camera_question_waits_that_may_be_the_move_missing(gargon):
    """Ana's card lies unnamed in front of her: Ben's play is out of turn until the host
    answers what Ana played, and the refusal says so instead of only whose turn it is."""
    table = gargon.table
    ben = {"kind": "play", "player": 1, "colours": ["blue"]}
    with pytest.raises(IllegalMove) as plain:
        table.submit(ben)
    assert "question" not in plain.value.reason
    table.observe(seen(1, None, seat_zone(0), 0.31, candidates=GUESSES))
    with pytest.raises(IllegalMove) as waiting:
        table.submit(ben)
    assert waiting.value.reason.startswith(plain.value.reason)
    assert "A question from the camera is waiting: answer it first" in waiting.value.reason
    (question,) = table.snapshot()["questions"]
    table.answer(question["id"], 0)
    table.submit(ben)
    assert [a["action"]["player"] for a in table.snapshot()["accepted"]] == [1, 0]  # newest first


def test_redo_brings_back_what_undo_took_and_a_new_event_forgets_it(gargon):
    table = gargon.table
    play = {"kind": "play", "player": 0, "colours": ["red"]}
    with pytest.raises(IllegalMove):
        table.redo()
    table.submit(play)
    table.undo()
    assert table.snapshot()["redo"] == "Ana plays red face down"
    table.redo()
    assert [a["action"] for a in table.snapshot()["accepted"]] == [play] and table.snapshot()["redo"] is None
    table.undo()
    table.submit({"kind": "play", "player": 0, "colours": ["blue"]})
    assert table.snapshot()["redo"] is None


def test_a_new_game_ends_and_scores_the_one_in_progress(gargon):
    table = gargon.table
    table.submit({"kind": "play", "player": 0, "colours": ["red"]})
    old = table.snapshot()["game_id"]
    table.start_game("gargon", ["Ana", "Ben", "Carla"])
    record = gargon.store.game(old)
    assert record.status == "finished" and record.result is not None
    assert old in [g.id for g in gargon.store.finished_games()]


def test_the_camera_picture_outlines_each_card_and_a_question_shows_its_cut_out(gargon):
    table = gargon.table
    client = create_app(gargon, {"TESTING": True}).test_client()
    assert client.get("/api/camera.jpg").status_code == 503
    assert client.get("/api/camera.json").get_json()["working"] is False
    table.view.publish(table_frame())
    table.observe(seen(1, None, seat_zone(0), 0.3, candidates=GUESSES))
    view = client.get("/api/camera.json").get_json()
    assert view["working"] and (view["width"], view["height"]) == (1280, 960)
    (card,) = view["cards"]
    assert card["status"] == "unknown" and card["question"] == table.open_questions()[0]
    picture = cv2.imdecode(np.frombuffer(client.get("/api/camera.jpg").data, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (480, 640, 3)
    edge = picture[200, 263].astype(int)  # the card's right edge, at half scale: drawn red (unknown)
    assert edge[2] > 150 and edge[1] < 90
    question = table.snapshot()["questions"][0]
    cut = cv2.imdecode(np.frombuffer(client.get(question["image"]).data, np.uint8), cv2.IMREAD_COLOR)
    assert cut.shape[0] == 180 and cut[5:40, 5:30, 2].mean() > 120  # upright: the red mark at its top-left
    table.answer(question["id"], 0)
    assert client.get(question["image"]).status_code == 404
    assert client.get("/api/camera.json").get_json()["cards"][0]["status"] == "named"


def test_answers_and_redo_over_http(gargon):
    client = create_app(gargon, {"TESTING": True}).test_client()
    gargon.table.observe(seen(1, None, seat_zone(0), 0.3, candidates=GUESSES))
    question = gargon.table.open_questions()[0]
    assert client.post("/api/host/answer", json={"question": question, "code": "blue"}, headers=BEARER).status_code == 200
    assert client.post("/api/host/redo", json={}, headers=BEARER).status_code == 409


@pytest.mark.parametrize("game", ["bagani", "gargon", "dugtungan", "lagim"])
def test_the_forms_cover_every_event_the_rules_read(game):
    recording = adapter_for(game).recording()
    engine = game_spec(game)
    state = engine.new_game(list(recording.players), recording.options, recording.setup)
    schema = event_schema(game, state)
    with pytest.raises(BadInput) as unknown:
        engine.action_from_dict({"kind": "no-such-event", "player": 0, "seat": 0})
    read = {k.strip() for k in str(unknown.value).split("one of ")[1].split(",")}
    assert {e["kind"] for e in schema["events"]} == read
    for spec in schema["events"]:
        for field in spec["fields"]:
            assert field["type"] != "card" or field["list"] in schema["lists"], (spec["kind"], field)


def test_the_forms_carry_the_facts_the_deck_prints():
    bagani = event_schema("bagani", game_spec("bagani").new_game(["Ana", "Ben"], None, {"deck": DEMO_DECK}))
    tikbalang = next(e for e in bagani["lists"]["halimaw"] if e["code"] == "Tikbalang")
    assert tikbalang["facts"] == {"color": "green", "lakas": 2, "dp": 3, "attacks": ["draw-left"]}
    sarimaw = next(e for e in bagani["lists"]["halimaw"] if e["code"] == "Sarimaw")
    assert sarimaw["facts"]["lakas"] == 5  # printed in the rulebook itself
    lagim = event_schema("lagim", game_spec("lagim").new_game(["Ana", "Ben"], None, {"deck": LAGIM_DECK}))
    kapre = next(e for e in lagim["lists"]["forest"] if e["code"] == "Kapre")
    assert kapre["facts"]["level"] == 4 and kapre["facts"]["deck"] == "forest"
    assert all(e["facts"]["deck"] == "forest" for e in lagim["lists"]["forest"])
    assert all(e["facts"]["kind"] == "kontra" for e in lagim["lists"]["kontra"])


def _expressible(field, value, schema, seats):
    """Whether the form's `field` can hold `value` (so any event can be entered and corrected)."""
    codes = {e["code"] for e in schema["lists"].get(field.get("list"), [])}
    kind = field["type"]
    if value is None:
        return field.get("optional", False) or kind in ("record",)
    if kind == "seat":
        return 0 <= value < seats
    if kind == "card":
        return value in codes
    if kind == "cards":
        return all((v["name"] if isinstance(v, dict) else v) in codes for v in value)
    if kind in ("groups", "per_seat"):
        return all(all(v in codes for v in group) for group in value)
    if kind == "choice":
        return value in [o["value"] for o in field["options"]]
    if kind == "multi":
        return set(value) <= {o["value"] for o in field["options"]}
    if kind == "number":
        return field["min"] <= value <= field["max"]
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "record":
        parts = {"name": value} if isinstance(value, str) else value
        return all(_expressible(f, parts.get(f["key"]), schema, seats) for f in field["fields"] if f["key"] in parts)
    if kind == "records":
        return all(_expressible({**field, "type": "record"}, v, schema, seats) for v in value)
    return kind == "word" and isinstance(value, str)


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(["bagani", "gargon", "dugtungan", "lagim"]), seed=st.integers(0, 10_000))
def test_every_event_the_rules_allow_can_be_entered_in_its_form(game, seed):
    """Played at random from the recording's first event on: each legal event's every field
    holds a value its form offers (a seat, a listed card, an option, a number in range)."""
    recording = adapter_for(game).recording()
    engine = game_spec(game)
    state = engine.new_game(list(recording.players), recording.options, recording.setup)
    first = {"bagani": {"kind": "setup", "bagani": ["blue-circle", "blue-circle", "red-square", "biyaya",
                                                    "green-circle"], "halimaw": ["Higante", "Tikbalang", "Kapre", "Aswang"]},
             "dugtungan": {"kind": "reveal", "card": "LA"}}.get(game)
    if first is not None:
        state = state.apply(engine.action_from_dict(first))
    rng = random.Random(seed)
    for _ in range(25):
        legal = [a.to_dict() for a in state.legal_actions()]
        if not legal or state.is_terminal():
            break
        schema = event_schema(game, state)
        for action in legal:
            spec = next(e for e in schema["events"] if e["kind"] == action["kind"])
            for field in spec["fields"]:
                assert _expressible(field, action.get(field["key"]), schema, len(recording.players)), (action, field)
        state = state.apply(engine.action_from_dict(rng.choice(legal)))
