"""The table's writes are whole, happen once, and viewers see only what the rules make public."""

from __future__ import annotations

import dataclasses
import json

import pytest

from companion.adapters.bagani import DEMO_DECK
from companion.table import LiveTable
from rules.core import BadInput
from tests.companion.conftest import PLAYERS
from tests.companion.test_table import replayed, seen

BAGANI_ROWS = {"kind": "setup", "bagani": ["blue-circle", "blue-circle", "red-square", "biyaya", "green-circle"],
               "halimaw": ["Higante", "Tikbalang", "Kapre", "Aswang"]}
STARTING_HANDS = [["yellow-square", "violet-square", "biyaya"], ["blue-square", "red-circle", "yellow-circle"]]


def refuse_in_sql(table: LiveTable, when: str) -> None:
    """A fault inside SQLite's transaction (what a crash or a full disk does midway)."""
    table.store._conn.execute(f"CREATE TEMP TRIGGER fault {when} BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")


def ask_about_ana(table: LiveTable) -> int:
    table.observe(seen(1, "red", 0, confidence=0.5, candidates=(("red", 0.5), ("yellow", 0.4))))
    table.observe(seen(2, "blue", 1))
    (question,) = table.snapshot()["questions"]
    return question["id"]


def test_an_answer_and_the_event_it_chose_are_one_write(gargon):
    table = gargon.table
    question = ask_about_ana(table)
    refuse_in_sql(table, "BEFORE INSERT ON events WHEN NEW.type = 'action'")
    with pytest.raises(Exception, match="disk trouble"):
        table.answer(question, 0)
    restored = replayed(gargon)
    assert [q["id"] for q in restored["questions"]] == [question]  # not answered, still asked
    assert restored["accepted"] == []


def test_ending_a_game_and_its_result_are_one_write(gargon):
    table = gargon.table
    refuse_in_sql(table, "BEFORE UPDATE OF status ON games")
    with pytest.raises(Exception, match="disk trouble"):
        table.end()
    assert [e.type for e in gargon.store.events(1)] == []  # no end event without its result
    assert gargon.store.game(1).status == "playing"


def test_a_resent_write_with_the_same_key_is_recorded_once(gargon):
    table = gargon.table
    action = {"kind": "play", "player": 0, "colours": ["red"]}
    table.submit(action, key="tap-7")
    table.submit(action, key="tap-7")  # the phone timed out and sent it again
    assert [a["action"] for a in table.snapshot()["accepted"]] == [action]
    table.rename(1, "Benji", key="tap-8")
    table.end(key="tap-9")
    table.end(key="tap-9")
    assert [e.type for e in gargon.store.events(1)] == ["action", "rename", "end"]


@pytest.mark.parametrize("name, problem", [
    ("Ana\nINFO companion: forged", "line breaks"), ("Ana\x00", "control characters"),
    ("\ud800Ana", "surrogates"), ("A" * 41, "at most 40"), ("   ", "empty")])
def test_a_name_that_would_break_the_log_or_the_page_is_refused(gargon, name, problem):
    with pytest.raises(BadInput, match=problem):
        gargon.table.rename(0, name)
    if name.strip():  # a blank line among the players is skipped, not refused
        with pytest.raises(BadInput, match=problem):
            gargon.table.start_game("gargon", [name, "Ben", "Carla"])


def test_ending_a_bagani_game_before_its_setup_scores_it_with_no_winner(services):
    table = services.table
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    table.end()
    snap = table.snapshot()
    assert snap["status"] == "finished" and snap["winners"] == []
    assert services.store.game(1).status == "finished"


def break_drawing(table: LiveTable) -> None:
    """A bug that makes the latest state unreadable (as Bagani's empty score once was)."""
    game = table._require_game()
    game.applied[-1] = dataclasses.replace(game.applied[-1], state=None)


def test_a_game_the_scoreboard_cannot_draw_is_shown_broken_with_undo_and_end(gargon):
    table = gargon.table
    table.submit({"kind": "play", "player": 0, "colours": ["red"]})
    break_drawing(table)
    snap = table.snapshot()
    assert snap["status"] == "broken" and "Undo the last event, or end the game" in snap["problem"]
    assert snap["undo"] and [p["name"] for p in snap["players"]] == PLAYERS
    assert table.viewer_snapshot()["status"] == "broken"
    table.undo()  # the first way out
    assert table.snapshot()["status"] == "playing"
    table.submit({"kind": "play", "player": 0, "colours": ["blue"]})
    break_drawing(table)
    table.end()  # the second: the game is kept in the log, out of history
    assert gargon.store.game(1).status == "abandoned"
    assert table.snapshot()["status"] == "waiting"


def test_an_event_this_version_cannot_read_is_skipped_and_reported(gargon):
    gargon.store.append(1, "rename", {"seat": 9, "name": "Zed"})  # from a newer version, say
    table = LiveTable(gargon.store, gargon.table.bus)
    table.restore()
    snap = table.snapshot()
    assert snap["status"] == "playing" and "event 1 (rename) cannot be read" in snap["problems"][0]


def test_viewers_never_see_bagani_starting_hands_cards_drawn_or_the_hosts_tools(services):
    table = services.table
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    table.submit({**BAGANI_ROWS, "hands": STARTING_HANDS})
    table.submit({"kind": "draw", "player": 0, "source": "deck", "card": "violet-circle"})
    host = table.snapshot()
    assert host["host_templates"] and "yellow-square" in json.dumps(host["accepted"])
    viewer = table.viewer_snapshot()
    text = json.dumps(viewer)
    for secret in ("yellow-square", "violet-square", "blue-square", "violet-circle", "yellow-circle"):
        assert secret not in text
    assert not {"accepted", "host_templates", "undo"} & set(viewer)
    assert "Ana draws from the deck" in [line["text"] for line in viewer["log"]]


def test_gargon_running_totals_reach_viewers_only_when_won_cards_lie_face_up(services):
    table = services.table
    for options in ({}, {"open_won_cards": True}):
        table.start_game("gargon", PLAYERS, options=options, setup={"piles": [6, 6]})
        for action in ({"kind": "play", "player": 0, "colours": ["red"]}, {"kind": "play", "player": 1, "colours": ["red"]},
                       {"kind": "pass", "player": 2, "draws": [1]}, {"kind": "reveal", "cards": [["red-3"], ["red-12"], []]},
                       {"kind": "battle", "player": 0, "colour": "red"}):
            table.submit(action)
        assert [p["total"] for p in table.snapshot()["players"]] == [0, 11, 0]
        shown = [p["total"] for p in table.viewer_snapshot()["players"]]
        assert shown == ([0, 11, 0] if options else [None, None, None])
        assert "red-12" not in json.dumps(table.viewer_snapshot()["state"]) or options
    table.end()
    assert [p["total"] for p in table.viewer_snapshot()["players"]] == [0, 11, 0]


def test_a_dugtungan_card_drawn_is_never_told_and_hand_totals_wait_for_the_end(services):
    table = services.table
    table.start_game("dugtungan", ["Ana", "Ben"], setup={"hands": [["BA", "HA", "KA", "NG"], ["SA", "TA", "PO", "S"]]})
    table.submit({"kind": "reveal", "card": "LA"})
    table.submit({"kind": "draw", "player": 0, "card": "MA"})
    assert "Ana draws MA" in [a["text"] for a in table.snapshot()["accepted"]]  # the host's tools say it
    viewer = table.viewer_snapshot()
    assert "draws MA" not in json.dumps(viewer) and "Ana draws" in [line["text"] for line in viewer["log"]]
    assert [p["total"] for p in viewer["players"]] == [None, None]
    table.end()
    assert all(isinstance(p["total"], int) for p in table.viewer_snapshot()["players"])
