"""The command line as people meet it: every mistake one line and exit 2, every success
says what it did, and nothing unsure is printed as certain."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.commands.recognize import card_json
from tests.test_cli import assert_one_line_error, companion
from vision.interfaces import Candidate, CardResult, Reading
from vision.synth.scenes import EVAL_SEED
from vision.synth.tables import game_table

BAGANI = {"game": "bagani", "players": [
    {"name": "Ana", "defeated": [{"name": "Higante", "color": "blue", "dp": 3}], "hand": ["blue-circle", "biyaya"]},
    {"name": "Ben", "defeated": [], "hand": ["red-square"]}]}


def test_a_camera_device_that_is_not_there_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = companion("run", "--game", "gargon", "--camera", "/dev/video97", "--data-dir", str(tmp_path),
                       "--players", "A,B,C")
    assert_one_line_error(result, "--camera", "/dev/video97 does not exist")
    assert not (tmp_path / "games.db").exists(), "refused before anything starts"


def test_enrolling_a_misspelt_card_code_is_refused_with_the_nearest_code(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "blu-circle.jpg"), np.full((88, 63, 3), 200, np.uint8))
    result = companion("enroll", "--game", "bagani", "--images", str(photos), "--out", str(tmp_path / "deck.npz"))
    assert_one_line_error(result, "blu-circle.jpg", "not a bagani card code", "did you mean blue-circle.jpg")


def test_a_photo_too_small_to_show_a_card_is_named_and_a_blank_one_is_no_traceback(tmp_path: Path) -> None:
    """A 1x1 picture, and a blank grey one (no edge to line a card up by), each ended
    enrollment in a traceback; recognizing the tiny one did too."""
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "red-5.png"), np.full((1, 1, 3), 200, np.uint8))
    result = companion("enroll", "--game", "gargon", "--images", str(photos), "--out", str(tmp_path / "deck.npz"))
    assert_one_line_error(result, "red-5.png", "images", "1x1 px picture is too small to show a card")
    seen = companion("recognize", "--game", "gargon", str(photos / "red-5.png"))
    assert seen.returncode == 0 and "0 cards" in seen.stdout, seen.stderr
    (tmp_path / "empty.jpg").write_bytes(b"")
    assert_one_line_error(companion("recognize", "--game", "gargon", str(tmp_path / "empty.jpg")),
                          "empty.jpg", "not one OpenCV can read")
    cv2.imwrite(str(photos / "red-5.png"), np.full((400, 300, 3), 128, np.uint8))
    result = companion("enroll", "--game", "gargon", "--images", str(photos), "--out", str(tmp_path / "deck.npz"))
    assert result.returncode == 0 and "enrolled 1 cards" in result.stdout, result.stderr


def test_a_bad_deck_file_is_named_without_numpys_advice_to_load_it_unsafely(tmp_path: Path) -> None:
    deck = tmp_path / "deck.npz"
    np.savez(deck, meta=np.array([{"format": 1}], dtype=object))
    result = companion("recognize", "--deck", str(deck), str(tmp_path / "x.jpg"))
    assert_one_line_error(result, "deck.npz", "not a deck profile written by companion enroll")
    assert "pickle" not in result.stderr and "unsafe" not in result.stderr


def test_a_reading_under_the_bar_is_unnamed_with_its_candidates_beside_it() -> None:
    corners = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    unsure = Reading("red-3", 0.42, (Candidate("red-3", 0.42), Candidate("red-8", 0.31), Candidate("red-5", 0.1),
                                      Candidate("red-6", 0.05)))
    card = card_json(CardResult(corners, unsure), bar=0.8)
    assert card["code"] is None and card["confidence"] == 0.42
    assert [c["code"] for c in card["candidates"]] == ["red-3", "red-8", "red-5"]
    assert card_json(CardResult(corners, unsure), bar=0.4)["code"] == "red-3"
    assert "candidates" not in card_json(CardResult(corners, unsure), bar=0.4)


def test_recognize_leaves_every_card_unnamed_at_a_bar_no_reading_reaches(tmp_path: Path) -> None:
    image = tmp_path / "table.jpg"
    cv2.imwrite(str(image), game_table("gargon", EVAL_SEED, 1).scenes[0].image)
    result = companion("recognize", "--game", "gargon", "--bar", "1.0", "--json", str(image))
    assert result.returncode == 0, result.stderr
    cards = json.loads(result.stdout)["cards"]
    assert cards and all(c["code"] is None and c["candidates"] for c in cards)
    assert_one_line_error(companion("recognize", "--game", "gargon", "--bar", "2", str(image)), "--bar")


def test_start_help_lists_the_live_tables_options_too() -> None:
    result = companion("start", "--help")
    for option in ("--camera", "--deck", "--players", "--speed", "--game"):
        assert option in result.stdout


def test_changing_the_house_words_says_what_changed(tmp_path: Path) -> None:
    added = companion("words", "--data-dir", str(tmp_path), "add", "halika")
    assert added.returncode == 0 and "HALIKA: accepted" in added.stdout
    forgot = companion("words", "--data-dir", str(tmp_path), "forget", "halika")
    assert forgot.returncode == 0 and "HALIKA: forgotten" in forgot.stdout


def test_score_text_ranks_the_players_and_names_the_winner(tmp_path: Path) -> None:
    result = companion("score", "--text", "-", stdin=json.dumps(BAGANI))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Bagani: Ana wins (highest total wins)")
    assert lines[1].split()[:3] == ["#", "player", "total"]
    assert lines[2].split()[:2] == ["1", "Ana"] and lines[3].split()[:2] == ["2", "Ben"]
    lowest = companion("score", "--text", "-", stdin=json.dumps({"game": "dugtungan", "players": [
        {"name": "Ana", "hand": ["BA", "KA"]}, {"name": "Ben", "hand": ["A"]}, {"name": "Cy", "hand": []}]}))
    assert "lowest total wins" in lowest.stdout.splitlines()[0]
    assert lowest.stdout.splitlines()[2].split()[:3] == ["1", "Cy", "0"]
