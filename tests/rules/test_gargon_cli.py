"""Gargon through the real `companion` command: answers on stdout, bad input as one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def companion(command: str, payload: dict) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", command, "-"],
                          input=json.dumps({"game": "gargon", **payload}),
                          capture_output=True, text=True, timeout=60)


def test_score_prints_the_contracts_json() -> None:
    result = companion("score", {"players": [
        {"name": "Adam", "won": ["violet-0", "violet-5", "violet-13"]}]})
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["players"][0]["total"] == 10 + 3 * 2
    assert answer["winners"] == [] and "Gargon is for 3 to 5 players" in answer["note"]


def test_a_follower_off_the_pattern_is_a_normal_play_answer() -> None:
    result = companion("check", {"check": "play", "plays": [["red", "red"], ["red", "blue"], None]})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["valid"] == [True, False, True]


@pytest.mark.parametrize("command, payload, fragment", [
    ("check", {"check": "play", "plays": [["red"], ["pink"], None]},
     "plays[1][0]: unknown colour 'pink'"),
    ("score", {"players": [{"name": "Adam", "won": ["red-16"]}]},
     "players[0].won[0]: unknown card code 'red-16': values run 0 to 15"),
    ("check", {"check": "battle", "players": ["Adam", "Bernd", "Collette"],
               "revealed": {"Adam": ["red-1", "red-2", "red-3"]}},
     "revealed.Adam: Adam lays three red cards; three cards of one colour are never allowed"),
    ("check", {"check": "battle", "players": ["Adam", "Bernd", "Collette"],
               "revealed": {"Adam": ["red-1", "red-2"], "Bernd": ["red-3", "blue-4"]}},
     "revealed.Bernd: Bernd lays 1:1 but must follow the start player's pattern 2:0"),
])
def test_bad_input_is_one_line_naming_the_field_and_exit_2(
        command: str, payload: dict, fragment: str) -> None:
    result = companion(command, payload)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith("companion: <stdin>: ")
    assert fragment in lines[0]
