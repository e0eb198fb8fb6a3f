"""`companion enroll` and `companion recognize` through the real command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth.faces import game_codes, game_face
from vision.synth.scenes import EVAL_SEED, render_scene
from vision.synth.tables import enrollment_photo

ROOT = Path(__file__).resolve().parents[2]


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.fixture(scope="module")
def bagani_deck(tmp_path_factory) -> Path:
    """Every Bagani face but blue-square enrolled, through `companion enroll`."""
    folder = tmp_path_factory.mktemp("bagani")
    rng = random.Random(EVAL_SEED)
    for code in game_codes("bagani"):
        if code != "blue-square":
            cv2.imwrite(str(folder / f"{code}.jpg"), enrollment_photo("bagani", code, rng))
    cv2.imwrite(str(folder / "red-circle__2.jpg"), enrollment_photo("bagani", "red-circle", rng))
    deck = folder / "bagani.deck"
    done = companion("enroll", "--game", "bagani", "--images", str(folder), "--out", str(deck))
    assert done.returncode == 0, done.stderr
    assert "enrolled 14 cards (15 shots)" in done.stdout and "(fine cells " in done.stdout
    return deck


def test_recognize_prints_one_json_object_per_image(bagani_deck, tmp_path):
    rng = random.Random(EVAL_SEED + 1)
    paths = []
    for i, codes in enumerate((["red-circle", "biyaya", "blue-square"], ["green-square", "higante"])):
        scene = render_scene(rng, [(c, game_face("bagani", c)) for c in codes])
        paths.append(tmp_path / f"scene{i}.jpg")
        cv2.imwrite(str(paths[-1]), scene.image)
    done = companion("recognize", "--deck", str(bagani_deck), "--game", "bagani", "--json", *map(str, paths))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(p) for p in paths]
    said = [[c["code"] for c in line["cards"]] for line in lines]
    assert [len(codes) for codes in said] == [3, 2], said  # every card found
    # a card is named right or not at all (a null goes to the host), and the card that
    # was never enrolled is never named
    assert set(said[0]) <= {"biyaya", "red-circle", None} and set(said[1]) <= {"green-square", "higante", None}, said
    assert any(code for codes in said for code in codes), said
    for card in lines[0]["cards"]:
        assert len(card["corners"]) == 4 and 0 <= card["confidence"] <= 1


def _fails_cleanly(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("companion: "), done.stderr
    for word in words:
        assert word in done.stderr


def test_enroll_names_a_missing_folder(tmp_path):
    _fails_cleanly(companion("enroll", "--game", "gargon", "--images", str(tmp_path / "nope"), "--out",
                             str(tmp_path / "d.deck")), "images", "no such folder")


def test_enroll_refuses_a_folder_without_photos(tmp_path):
    (tmp_path / "notes.txt").write_text("red-14")
    _fails_cleanly(companion("enroll", "--game", "gargon", "--images", str(tmp_path), "--out",
                             str(tmp_path / "d.deck")), "no card photos")


def test_enroll_names_a_broken_photo(tmp_path):
    (tmp_path / "red-14.jpg").write_bytes(b"not a jpeg")
    _fails_cleanly(companion("enroll", "--game", "gargon", "--images", str(tmp_path), "--out",
                             str(tmp_path / "d.deck")), "red-14.jpg")


def test_recognize_without_a_deck_says_a_deck_is_needed_for_a_game_not_read_from_print(tmp_path):
    _fails_cleanly(companion("recognize", "--game", "bagani", str(tmp_path / "x.jpg")), "deck", "enroll")


def test_recognize_refuses_a_file_that_is_not_a_deck(tmp_path):
    bogus = tmp_path / "deck.npz"
    bogus.write_text("hello")
    _fails_cleanly(companion("recognize", "--deck", str(bogus), str(tmp_path / "x.jpg")), "not a deck profile")


def test_recognize_refuses_a_deck_of_another_game(bagani_deck, tmp_path):
    _fails_cleanly(companion("recognize", "--deck", str(bagani_deck), "--game", "gargon", str(tmp_path / "x.jpg")),
                   "enrolled for bagani")


def test_recognize_names_a_missing_image(bagani_deck, tmp_path):
    _fails_cleanly(companion("recognize", "--deck", str(bagani_deck), str(tmp_path / "missing.jpg")), "missing.jpg")


def _huge_picture(path: Path) -> Path:
    """A small file holding a picture larger than any camera's: decoded, 121 MB and more."""
    cv2.imwrite(str(path), np.zeros((11000, 11000), np.uint8))
    assert path.stat().st_size < 1024 * 1024
    return path


def test_recognize_refuses_a_picture_larger_than_any_photo_unread_keeping_what_it_printed(tmp_path):
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.full((300, 400, 3), 90, np.uint8))
    done = companion("recognize", "--game", "gargon", "--json", str(small), str(_huge_picture(tmp_path / "big.png")))
    _fails_cleanly(done, "big.png", "11000x11000 px is larger than any camera's photo")
    assert json.loads(done.stdout.splitlines()[0])["image"] == str(small)


def test_enroll_refuses_a_picture_larger_than_any_photo(tmp_path):
    _huge_picture(tmp_path / "red-14.png")
    _fails_cleanly(companion("enroll", "--game", "gargon", "--images", str(tmp_path), "--out",
                             str(tmp_path / "d.deck")), "red-14.png", "larger than any camera's photo")
    assert not (tmp_path / "d.deck").exists()
