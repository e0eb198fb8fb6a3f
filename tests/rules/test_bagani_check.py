"""`companion check` for Bagani: combos, the attack step and final hands, through the
engine and through the real command line for bad input."""

import json
import subprocess
import sys

import pytest

from rules import bagani
from rules.core import BadInput

# Example 5 names the Bagani (square Dumakulem, circle Mayari), not their colours.
SQUARE_PAIR = ["red-square", "red-square"]
CIRCLE_TRIO = ["blue-circle", "blue-circle", "blue-circle"]
HIGANTE = {"name": "Higante", "lakas": 3}
DRAGON = {"name": "Dragon", "lakas": 4}


def check(kind, **fields):
    return bagani.check({"game": "bagani", "check": kind, **fields})


def test_combo_check_names_the_combo_and_its_ap():
    answer = check("combo", cards=["violet-circle"] * 4)
    assert (answer["valid"], answer["combo"], answer["ap"]) == (True, "quadro", 3)


def test_combo_check_gives_a_reason_for_a_wrong_combo():
    answer = check("combo", cards=["violet-circle", "violet-square"])
    assert answer["valid"] is False and "shape" in answer["reason"]


def test_example_5_square_pair_and_circle_trio_defeat_higante():
    answer = check("attack", combos=[SQUARE_PAIR, CIRCLE_TRIO], targets=[HIGANTE])
    assert answer["ap"] == 3
    assert answer["valid"] is True
    assert answer["defeated"] == ["Higante"]
    assert answer["unused_ap"] == 0


def test_attack_points_may_be_split_between_halimaw():
    answer = check("attack", combos=[["blue-circle"] * 4, ["red-square"] * 4, ["green-circle"] * 2],
                   targets=[HIGANTE, DRAGON], row=[HIGANTE, DRAGON])
    assert (answer["valid"], answer["ap"], answer["unused_ap"]) == (True, 7, 0)


def test_unused_attack_points_are_lost():
    answer = check("attack", combos=[["green-square"] * 4, SQUARE_PAIR], targets=[HIGANTE])
    assert answer["unused_ap"] == 1


def test_a_halimaw_needs_ap_equal_to_its_lakas():
    answer = check("attack", combos=[SQUARE_PAIR], targets=[HIGANTE])
    assert answer["valid"] is False
    assert answer["ap"] == 1  # given whenever every combo is valid
    assert answer["defeated"] == []


def test_only_face_up_halimaw_can_be_hit():
    answer = check("attack", combos=[CIRCLE_TRIO, SQUARE_PAIR], targets=[HIGANTE], row=[DRAGON])
    assert answer["valid"] is False and "face-up" in answer["reason"]


def test_a_face_up_halimaw_is_defeated_once():
    answer = check("attack", combos=[["green-square"] * 4] * 2, targets=[HIGANTE, HIGANTE],
                   row=[HIGANTE, DRAGON])
    assert answer["valid"] is False and answer["ap"] == 6


def test_attack_with_an_invalid_combo_has_no_ap():
    answer = check("attack", combos=[["red-square", "blue-square"]], targets=[HIGANTE])
    assert answer["valid"] is False and answer["ap"] is None
    assert answer["reason"].startswith("Combo 1:")


def test_the_deck_supplies_a_target_lakas():
    answer = check("attack", combos=[CIRCLE_TRIO, SQUARE_PAIR], targets=[{"name": "Higante"}])
    assert answer["valid"] is True


def test_hand_check_shows_the_best_combos():
    answer = check("hand", cards=["blue-circle"] * 5 + ["biyaya"])
    assert answer["ap"] == 4 and answer["dp"] == 8
    assert sum(c["ap"] for c in answer["combos"]) == 4


@pytest.mark.parametrize("request_, field", [
    ({"check": "hand", "cards": ["blu-circle"]}, "cards[0]"),
    ({"check": "hand"}, "cards"),
    ({"check": "hand", "cards": "blue-circle"}, "cards"),
    ({"check": "attack", "combos": [], "targets": [{"name": "Kapre"}]}, "targets[0].lakas"),
    ({"check": "dance", "cards": []}, "check"),
    ({"check": "hand", "cards": [], "options": {"wild": True}}, "options.wild"),
])
def test_bad_requests_name_the_field(request_, field):
    with pytest.raises(BadInput) as caught:
        bagani.check({"game": "bagani", **request_})
    assert caught.value.field == field


def test_score_rejects_an_unknown_colour():
    with pytest.raises(BadInput) as caught:
        bagani.score({"game": "bagani", "players": [
            {"name": "Ana", "defeated": [{"name": "X", "color": "pink", "dp": 1}]}]})
    assert caught.value.field == "players[0].defeated[0].color"


def run_cli(command, payload, tmp_path):
    path = tmp_path / "request.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload))
    return subprocess.run([sys.executable, "-m", "companion.cli", command, str(path)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command, payload, words", [
    ("score", {"game": "bagani",
               "players": [{"name": "Ana", "defeated": [], "hand": ["blu-circle"]}]},
     "players[0].hand[0]: unknown card code"),
    ("score", {"game": "bagani", "players": [
        {"name": "Ana", "defeated": [{"name": "X", "dp": 1, "color": "pink"}]}]},
     "players[0].defeated[0].color: unknown colour"),
    ("score", {"game": "bagani", "players": [{"name": "Ana"}]}, "players[0].defeated: missing"),
    ("check", {"game": "bagani", "check": "combo", "cards": [1]}, "cards[0]: must be a string"),
    ("check", "{not json", "not valid JSON"),
])
def test_cli_bad_input_is_one_line_and_exit_2(command, payload, words, tmp_path):
    done = run_cli(command, payload, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr


def test_cli_scores_the_contract_example(tmp_path):
    done = run_cli("score", {"game": "bagani", "players": [
        {"name": "Ana", "defeated": [{"name": "Higante", "color": "blue", "dp": 3}],
         "hand": ["blue-circle", "blue-circle", "biyaya"]}]}, tmp_path)
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["players"][0]["total"] == 14
    assert answer["winners"] == [] and "no winner is named for 1" in answer["note"]
