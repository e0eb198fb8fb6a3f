"""`companion recognize --game gargon|dugtungan` names printed cards with no enrolled deck."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2

from vision.synth.scenes import EVAL_SEED
from vision.synth.tables import game_table


def recognize(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", "recognize", *args],
                          capture_output=True, text=True, timeout=120)


def test_gargon_cards_are_named_from_print_without_a_deck(tmp_path: Path) -> None:
    scenes = game_table("gargon", EVAL_SEED, 4).scenes
    paths = []
    for i, scene in enumerate(scenes):
        paths.append(tmp_path / f"table{i}.jpg")
        cv2.imwrite(str(paths[-1]), scene.image)
    result = recognize("--game", "gargon", "--json", *map(str, paths))
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    truth = sorted(c.code for scene in scenes for c in scene.cards)
    named = [card["code"] for answer in answers for card in answer["cards"]]
    assert len(named) == len(truth)
    right = sum(1 for code in named if code in truth)
    # the reader measures 0.98 a card on larger sets (scripts/bench_printed.py); a floor, not the goal
    assert right >= 0.9 * len(truth), (named, truth)


def test_a_game_without_printed_identities_asks_for_a_deck(tmp_path: Path) -> None:
    image = tmp_path / "table.jpg"
    cv2.imwrite(str(image), game_table("bagani", EVAL_SEED, 1).scenes[0].image)
    result = recognize("--game", "bagani", str(image))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "companion: deck: bagani needs an enrolled deck (companion enroll ... --out DECK, then --deck DECK); "
        "only gargon and dugtungan cards are read from print"]
