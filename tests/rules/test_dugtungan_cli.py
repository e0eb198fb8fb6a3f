"""dugtungan through the real `companion` command: answers on stdout, bad input as one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def companion(command: str, payload: dict) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", command, "-"],
                          input=json.dumps({"game": "dugtungan", **payload}),
                          capture_output=True, text=True, timeout=60)


def test_score_prints_letters_left_lowest_wins() -> None:
    result = companion("score", {"players": [{"name": "Ana", "hand": ["BA", "NG", "KA"]},
                                             {"name": "Ben", "hand": ["SA:+DOS"]}]})
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert [p["total"] for p in answer["players"]] == [6, 2] and answer["winners"] == ["Ben"]


def test_check_dugtong_and_sapaw_answer_per_the_contract() -> None:
    dugtong = companion("check", {"check": "dugtong", "pamato": "BA", "word": ["HA", "BA", "G"]})
    assert dugtong.returncode == 0, dugtong.stderr
    assert json.loads(dugtong.stdout)["reason"] == "HABAG is a word; the PAMATO BA is inside it"
    sapaw = companion("check", {"check": "sapaw", "word": ["NI", "PA"], "new": ["PA", "NI", "KI"]})
    assert sapaw.returncode == 0 and json.loads(sapaw.stdout)["valid"] is False


@pytest.mark.parametrize("command, payload, fragment", [
    ("score", {"players": [{"name": "Ana", "hand": ["BA", "NGANG"]}]},
     "players[0].hand[1]: unknown card code 'NGANG'"),
    ("check", {"check": "dugtong", "word": ["HA", "BA"]}, "pamato: missing"),
    ("check", {"check": "sapaw", "word": ["HA", "KA"], "new": ["HA", "LI:SKIP", "KA"]},
     "new[1]: unknown action 'SKIP'"),
    ("check", {"check": "dugtong", "pamato": "BA", "word": ["HA", "BA"], "options": {"min_zipf": "high"}},
     "options.min_zipf: must be a number"),
])
def test_bad_input_is_one_line_naming_the_field_and_exit_2(command: str, payload: dict, fragment: str) -> None:
    result = companion(command, payload)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith("companion: <stdin>: ") and fragment in lines[0]
