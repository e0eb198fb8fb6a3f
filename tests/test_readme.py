"""The README's promises: its example file scores, and its two commands exist as written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_example_file_scores(tmp_path: Path) -> None:
    example = re.search(r"```json\n(.*?)```", README, re.S)
    assert example, "the README shows a JSON example"
    game = tmp_path / "game.json"
    game.write_text(example.group(1))
    result = subprocess.run([sys.executable, "-m", "companion.cli", "score", str(game)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert [p["name"] for p in answer["players"]] == ["Ana", "Ben"]
    assert answer["winners"] == ["Ana"]


def test_the_two_commands_are_the_scripts_ci_runs() -> None:
    assert "bash scripts/setup.sh --start" in README
    assert "bash scripts/test.sh" in README
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
