"""Lagim battles through `companion check` (`battle`), and `companion score`.

Each test is one line of the rulebook's Battle Mechanics: Forest cards of one archetype
stack and add their levels; Kontra add to a Lakas of the same archetype, Special Kontra
to any; greater is BIHAG, equal is TABLA, less fails; an Agimat splits a stack.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import lagim
from rules.core import BadInput


def forest(name: str, level: int, archetype: str = "witch", kind: str = "lagim") -> dict:
    return {"name": name, "kind": kind, "archetype": archetype, "level": level}


def lakas(name: str, archetype: str, level: int, *equip: dict) -> dict:
    return {"name": name, "archetype": archetype, "level": level, "equip": list(equip)}


def kontra(name: str, archetype: str, level: int) -> dict:
    return {"name": name, "archetype": archetype, "level": level}


def battle(attack: list[dict], defenders: list[dict], **extra: object) -> dict:
    return lagim.check({"game": "lagim", "check": "battle", "attack": attack, "defenders": defenders,
                        **extra})


def test_a_greater_defence_captures_the_forest_card_bihag() -> None:
    answer = battle([forest("Mangkukulam", 4)], [lakas("Albularyo", "medium", 5)])
    assert (answer["outcome"], answer["attack_level"], answer["defence_level"]) == ("bihag", 4, 5)
    assert "BIHAG" in answer["reason"]


def test_an_equal_defence_eliminates_the_forest_card_tabla() -> None:
    answer = battle([forest("Mangkukulam", 4)], [lakas("Albularyo", "medium", 4)])
    assert answer["outcome"] == "tabla" and "TABLA" in answer["reason"]


def test_a_lesser_defence_fails() -> None:
    answer = battle([forest("Mangkukulam", 4)], [lakas("Albularyo", "medium", 3)])
    assert answer["outcome"] == "fail" and "fails" in answer["reason"]


def test_forest_cards_of_one_archetype_stack_and_add_their_levels() -> None:
    answer = battle([forest("Mangkukulam", 4), forest("Altar ng Kulam", 1, kind="hiwaga")],
                    [lakas("Albularyo", "medium", 5)])
    assert (answer["attack_level"], answer["outcome"]) == (5, "tabla")


def test_lakas_of_different_archetypes_fight_together() -> None:
    answer = battle([forest("Kapre", 6, "giant")],
                    [lakas("Amihan", "mortal", 2), lakas("Dante", "warrior", 3),
                     lakas("Albularyo", "medium", 2)])
    assert (answer["defence_level"], answer["outcome"]) == (7, "bihag")


def test_a_kontra_of_the_same_archetype_adds_its_level() -> None:
    answer = battle([forest("Kapre", 4, "giant")],
                    [lakas("Espiritista", "medium", 2, kontra("Buntot Pagi", "medium", 2))])
    assert answer["defence_level"] == 4


def test_a_special_kontra_adds_to_any_lakas() -> None:
    answer = battle([forest("Kapre", 4, "giant")],
                    [lakas("Dante", "warrior", 3, kontra("Gasera", "special", 1))])
    assert (answer["defence_level"], answer["outcome"]) == (4, "tabla")


def test_a_kontra_of_another_archetype_adds_nothing_and_the_verdict_says_so() -> None:
    answer = battle([forest("Kapre", 4, "giant")],
                    [lakas("Dante", "warrior", 3, kontra("Buntot Pagi", "medium", 2))])
    assert (answer["defence_level"], answer["outcome"]) == (3, "fail")
    assert "Buntot Pagi (medium) does not fit Dante (warrior) and adds nothing" in answer["reason"]


def test_a_special_kontra_may_stand_alone_as_a_defender() -> None:
    answer = battle([forest("Duwende", 1, "dwarf")], [lakas("Agimat", "special", 2)])
    assert answer["outcome"] == "bihag"


def test_an_agimat_splits_a_card_from_its_stack() -> None:
    answer = battle([forest("Mangkukulam", 4), forest("Mambabarang", 3)],
                    [lakas("Dante", "warrior", 3, kontra("Agimat", "special", 1))], split=["Mambabarang"])
    assert (answer["fought"], answer["attack_level"], answer["outcome"]) == (["Mambabarang"], 3, "bihag")
    assert "Agimat splits the stack" in answer["reason"]


def test_without_an_agimat_the_whole_stack_is_fought() -> None:
    answer = battle([forest("Mangkukulam", 4), forest("Mambabarang", 3)],
                    [lakas("Dante", "warrior", 4)], split=["Mambabarang"])
    assert (answer["attack_level"], answer["outcome"]) == (7, "fail")
    assert "No Defender carries an Agimat, so the whole stack is fought" in answer["reason"]


def test_used_defenders_are_discarded_whatever_the_outcome() -> None:
    assert "Defenders used are discarded" in battle([forest("Kapre", 1, "giant")],
                                                    [lakas("Dante", "warrior", 3)])["reason"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=4),
       st.lists(st.integers(0, 9), min_size=1, max_size=3))
def test_the_outcome_follows_the_totals(attack: list[int], defence: list[int]) -> None:
    answer = battle([forest(f"W{i}", v) for i, v in enumerate(attack)],
                    [lakas(f"L{i}", "medium", v) for i, v in enumerate(defence)])
    expected = "bihag" if sum(defence) > sum(attack) else "tabla" if sum(defence) == sum(attack) else "fail"
    assert (answer["attack_level"], answer["defence_level"], answer["outcome"]) == (
        sum(attack), sum(defence), expected)


@pytest.mark.parametrize("payload, field", [
    ({"attack": [forest("Kapre", 4, "giant"), forest("Aswang", 3, "ghoul")]}, "attack"),
    ({"attack": [forest("Kapre", 4, "forest")]}, "attack[0].archetype"),
    ({"attack": [forest("Kapre", 4, "giant", "halimaw")]}, "attack[0].kind"),
    ({"attack": [{"name": "Kapre", "kind": "lagim", "archetype": "giant"}]}, "attack[0].level"),
    ({"attack": []}, "attack"),
    ({"defenders": []}, "defenders"),
    ({"defenders": [lakas("Dante", "witch", 3)]}, "defenders[0].archetype"),
    ({"check": "raid"}, "check"),
    ({"split": ["Aswang"], "defenders": [lakas("Agimat", "special", 1)]}, "split"),
])
def test_bad_battle_requests_name_the_field(payload: dict, field: str) -> None:
    request = {"game": "lagim", "check": "battle", "attack": [forest("Kapre", 4, "giant")],
               "defenders": [lakas("Dante", "warrior", 3)], **payload}
    with pytest.raises(BadInput) as caught:
        lagim.check(request)
    assert caught.value.field == field


def standing(**players: tuple[int, int]) -> dict:
    return lagim.score({"game": "lagim", "players": [
        {"name": n, "soul_coins": coins, "spirit_path": path} for n, (coins, path) in players.items()]})


def test_score_totals_are_the_stolen_coins_on_each_spirit_path() -> None:
    answer = standing(Ana=(3, 2), Ben=(1, 0))
    assert [p["total"] for p in answer["players"]] == [2, 0] and answer["winners"] == []


def test_score_three_stolen_coins_complete_the_spirit_path_and_win() -> None:
    assert standing(Ana=(2, 3), Ben=(1, 0), Cai=(1, 1))["winners"] == ["Ana"]


def test_score_the_last_baryo_with_soul_coins_wins() -> None:
    answer = standing(Ana=(0, 2), Ben=(1, 0), Cai=(0, 1))
    assert answer["winners"] == ["Ben"]
    assert answer["players"][0]["breakdown"]["eliminated"] is True


def test_score_rejects_a_negative_coin_count() -> None:
    with pytest.raises(BadInput) as caught:
        standing(Ana=(3, -1), Ben=(3, 0))
    assert caught.value.field == "players[0].spirit_path"


def _cli(tmp_path: Path, payload: object) -> subprocess.CompletedProcess:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(payload))
    return subprocess.run([sys.executable, "-m", "companion.cli", "check", str(request)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("payload, message", [
    ({"game": "lagim", "check": "battle", "attack": [forest("Kapre", "IV", "giant")],
      "defenders": [lakas("Dante", "warrior", "three")]}, "defenders[0].level: 'three' is not a level"),
    ({"game": "lagim", "check": "battle",
      "attack": [forest("Kapre", 4, "giant"), forest("Aswang", 2, "ghoul")],
      "defenders": [lakas("Dante", "warrior", 3)]}, "attack: a Forest card stack is one archetype"),
    ({"game": "lagim", "check": "battle", "attack": [forest("Kapre", 4, "giant")]}, "defenders: missing"),
])
def test_the_cli_answers_bad_input_with_one_line_and_status_2(
        tmp_path: Path, payload: dict, message: str) -> None:
    done = _cli(tmp_path, payload)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr


def test_the_cli_prints_the_verdict_as_json(tmp_path: Path) -> None:
    done = _cli(tmp_path, {"game": "lagim", "check": "battle", "attack": [forest("Kapre", "IV", "giant")],
                           "defenders": [lakas("Dante", "warrior", 3, kontra("Tabak", "warrior", 1))]})
    assert done.returncode == 0
    assert json.loads(done.stdout)["outcome"] == "tabla"
