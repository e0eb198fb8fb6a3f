"""The command line's promise: bad input is one line on stderr and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_help_lists_the_contract_commands() -> None:
    result = companion("--help")
    assert result.returncode == 0
    for command in ("score", "check"):
        assert command in result.stdout


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert_one_line_error(companion("score", str(missing)), str(missing), "no such file")


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "bagani",\n "players": [}')
    assert_one_line_error(companion("score", str(bad)), "bad.json", "not valid JSON", "line 2")


@pytest.mark.parametrize("payload, fragments", [
    ({"game": "chess", "players": []}, ("game", "unknown game 'chess'")),
    ({"players": []}, ("game", "unknown game None")),
    ([1, 2], ("must be a JSON object",)),
])
def test_request_errors_name_the_field(payload: object, fragments: tuple[str, ...]) -> None:
    assert_one_line_error(companion("check", "-", stdin=json.dumps(payload)), "<stdin>", *fragments)


def test_unknown_subcommand_is_a_usage_error() -> None:
    result = companion("frobnicate")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_scoring_does_not_load_vision_or_web_modules() -> None:
    """`companion score` at the table answers at once: no OpenCV, onnxruntime or Flask."""
    code = ("import sys\nfrom companion.cli import main\n"
            "main(['check', '-'])\n"
            "print(sorted(m for m in ('cv2', 'onnxruntime', 'flask') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            input=json.dumps({"game": "bagani", "check": "combo", "cards": ["biyaya", "biyaya"]}))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
