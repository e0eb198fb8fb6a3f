"""The live table: the camera is never trusted blindly, and the log is the truth."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.server import build_services, close_services
from companion.store import Store
from companion.table import LiveTable
from rules.core import BadInput, IllegalMove
from tests.companion.conftest import PLAYERS, table_settings
from vision.observations import Observation, seat_zone

BOX = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))


def seen(track, code, seat, confidence=0.97, kind="appeared", candidates=()):
    return Observation(kind, track, code, confidence, BOX, seat_zone(seat), 0.0, 0.0, candidates=candidates)


def replayed(services):
    """The scoreboard a fresh table rebuilds from the same database."""
    table = LiveTable(Store(services.store.path), services.table.bus, services.table.confidence)
    table.restore(services.table.snapshot()["game_id"])
    return table.snapshot()


def visible(snapshot):
    return {k: snapshot[k] for k in ("game", "game_id", "status", "players", "winners", "log",
                                     "questions", "current_player", "state", "accepted")}


def lay_first_round(table):
    """Ana leads red + blue, Ben follows (his cards settle when Carla's appear), Carla plays red + blue."""
    table.observe(seen(1, "red", 0))
    table.observe(seen(2, "blue", 0))
    table.observe(seen(3, "red", 1))
    table.observe(seen(4, "blue", 1))
    table.observe(seen(5, "red", 2))
    table.observe(seen(6, "blue", 2))


def test_a_confident_reading_is_scored_as_a_game_event(gargon):
    table = gargon.table
    table.observe(seen(1, "red", 0))
    table.observe(seen(2, "blue", 1))  # Ben starts laying: Ana's play is complete
    snap = table.snapshot()
    assert [a["action"] for a in snap["accepted"]] == [{"kind": "play", "player": 0, "colours": ["red"]}]
    assert snap["current_player"] == "Ben"


def test_a_reading_below_the_confidence_bar_becomes_a_question_and_is_not_scored(gargon):
    table = gargon.table
    table.observe(seen(1, "red", 0, confidence=0.5, candidates=(("red", 0.5), ("yellow", 0.4))))
    table.observe(seen(2, "blue", 1))
    snap = table.snapshot()
    assert snap["accepted"] == []
    (question,) = snap["questions"]
    assert question["text"] == "Did Ana play red?"
    assert [c["label"] for c in question["choices"]] == ["Yes: red", "No: yellow"]
    assert [c["code"] for c in question["choices"]] == ["red", "yellow"]


def test_an_answer_scores_the_choice_the_host_made(gargon):
    table = gargon.table
    table.observe(seen(1, "red", 0, confidence=0.5, candidates=(("red", 0.5), ("yellow", 0.4))))
    table.observe(seen(2, "blue", 1))
    table.answer(table.snapshot()["questions"][0]["id"], 1)
    assert [a["action"]["colours"] for a in table.snapshot()["accepted"]] == [["yellow"]]


def test_readings_wait_behind_an_open_question_in_order(gargon):
    table = gargon.table
    table.observe(seen(1, "red", 0, confidence=0.5))
    table.observe(seen(2, "blue", 1))  # asks about Ana's play
    table.observe(seen(3, "red", 2))   # Ben's play waits behind the question
    assert table.snapshot()["held"] == 1
    table.answer(table.snapshot()["questions"][0]["id"], 0)
    snap = table.snapshot()
    assert [a["action"]["player"] for a in snap["accepted"]][::-1] == [0, 1]
    assert snap["held"] == 0


def test_a_reading_that_breaks_the_rules_asks_the_host_with_the_reason(gargon):
    table = gargon.table
    for track, colour in enumerate(["red", "red", "red"]):
        table.observe(seen(track, colour, 0))
    table.observe(seen(9, "blue", 1))
    (question,) = table.snapshot()["questions"]
    assert question["text"].startswith("Did Ana play red, red, red? The rules say:")
    assert table.snapshot()["accepted"] == []


def test_a_refused_reading_offers_only_what_the_rules_allow(gargon):
    table = gargon.table
    for track in range(3):
        table.observe(seen(track, "red", 0))
    table.observe(seen(9, "blue", 1))
    (question,) = table.snapshot()["questions"]
    labels = [c["label"] for c in question["choices"]]
    assert "Yes: red, red, red" not in labels
    assert labels[0] == "Ana plays red, red face down"  # what the rules allow, nearest the reading first
    with pytest.raises(BadInput):
        table.answer(question["id"], len(labels))  # past the choices offered
    table.answer(question["id"], 0)
    assert table.snapshot()["questions"] == []
    assert table.snapshot()["accepted"][-1]["action"] == {"kind": "play", "player": 0, "colours": ["red", "red"]}


def test_undo_is_an_event_and_the_log_shows_it(gargon):
    table = gargon.table
    table.submit({"kind": "play", "player": 0, "colours": ["red"]})
    table.undo()
    snap = table.snapshot()
    assert snap["accepted"] == [] and snap["current_player"] == "Ana"
    assert [(line["text"], line["undone"]) for line in snap["log"]] == [
        ("Undo: Ana plays red face down", False), ("Ana plays red face down", True)]
    assert [e.type for e in gargon.store.events(snap["game_id"])] == ["action", "undo"]


def test_a_correction_replaces_the_event_and_rechecks_the_rest(gargon):
    table = gargon.table
    table.submit({"kind": "play", "player": 0, "colours": ["red"]})
    table.submit({"kind": "play", "player": 1, "colours": ["blue"]})
    first = table.snapshot()["accepted"][-1]["seq"]
    table.correct(first, {"kind": "play", "player": 0, "colours": ["green"]})
    assert [a["action"]["colours"] for a in table.snapshot()["accepted"]][::-1] == [["green"], ["blue"]]


def test_a_correction_that_makes_a_later_event_illegal_is_refused(gargon):
    table = gargon.table
    table.submit({"kind": "play", "player": 0, "colours": ["red", "blue"]})
    table.submit({"kind": "play", "player": 1, "colours": ["red", "blue"]})
    first = table.snapshot()["accepted"][-1]["seq"]
    with pytest.raises(IllegalMove, match="later event"):
        table.correct(first, {"kind": "play", "player": 0, "colours": ["red"]})
    assert [e.type for e in gargon.store.events(table.snapshot()["game_id"])] == ["action", "action"]


def test_renaming_a_seat_changes_the_scoreboard_not_the_game(gargon):
    gargon.table.rename(1, "Benjamin")
    snap = gargon.table.snapshot()
    assert [p["name"] for p in snap["players"]] == ["Ana", "Benjamin", "Carla"]


def test_a_host_event_first_settles_what_the_camera_saw(gargon):
    table = gargon.table
    table.observe(seen(1, "red", 0))
    table.observe(seen(2, "blue", 0))
    table.submit({"kind": "pass", "player": 1, "draws": [1]})
    assert [a["action"]["kind"] for a in table.snapshot()["accepted"]][::-1] == ["play", "pass"]


def test_ending_the_game_names_the_winners_and_keeps_the_result(gargon):
    table = gargon.table
    table.end()
    snap = table.snapshot()
    assert snap["status"] == "finished" and snap["winners"] == ["Ana", "Ben", "Carla"]
    assert gargon.store.game(snap["game_id"]).result["winners"] == ["Ana", "Ben", "Carla"]


def test_a_restarted_table_shows_exactly_the_same_scoreboard(gargon):
    table = gargon.table
    lay_first_round(table)
    table.rename(2, "Carla M.")
    table.observe(seen(11, "red-9", 0, confidence=0.4))
    assert visible(replayed(gargon)) == visible(table.snapshot())


host_ops = st.lists(st.one_of(st.tuples(st.just("legal"), st.integers(0, 10_000)),
                              st.tuples(st.just("undo"), st.just(0)),
                              st.tuples(st.just("rename"), st.integers(0, 2))), max_size=25)


@settings(max_examples=15, deadline=None)
@given(ops=host_ops)
def test_any_sequence_of_host_events_replays_to_the_same_scoreboard(tmp_path_factory, ops):
    folder = tmp_path_factory.mktemp("replay")
    services = build_services(table_settings(folder), folder / "games.db", "http://192.0.2.1:8000")
    try:
        table = services.table
        table.start_game("gargon", PLAYERS, setup={"piles": [4, 4]})
        for op, n in ops:
            state = table.snapshot()
            if op == "legal" and state["host_templates"]:
                templates = state["host_templates"]
                table.submit(templates[n % len(templates)]["action"])
            elif op == "undo" and state["accepted"]:
                table.undo()
            elif op == "rename":
                table.rename(n, f"Seat {n} #{len(state['log'])}")
        assert visible(replayed(services)) == visible(table.snapshot())
    finally:
        close_services(services)
