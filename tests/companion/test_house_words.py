"""The table's house words: kept in the data dir, changed by `companion words`, read by the rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import UsageError
from companion.house_words import HouseBook, house_file, load_house, save_house
from rules import dugtungan


def test_a_missing_file_is_an_empty_book(tmp_path: Path) -> None:
    assert load_house(tmp_path / "none.json") == HouseBook()


def test_the_book_survives_a_save_and_load(tmp_path: Path) -> None:
    book = HouseBook().accept("Dug-tungan").reject("haba")
    book, _ = book.challenge("MAHAHABAG", 3, 1)
    save_house(house_file(tmp_path), book)
    assert load_house(house_file(tmp_path)) == book
    assert not list(tmp_path.glob("*.partial"))


def test_a_challenge_needs_more_votes_for_than_against() -> None:
    book, record = HouseBook().challenge("bakwit", 2, 2)
    assert not record.accepted and book.words.reject == {"bakwit"}
    book, record = book.challenge("bakwit", 3, 1)
    assert record.accepted and book.words.accept == {"bakwit"} and not book.words.reject
    assert [c.accepted for c in book.challenges] == [False, True]


def test_the_engine_reads_the_lists_as_plain_data() -> None:
    book = HouseBook().reject("haba")
    answer = dugtungan.check({"game": "dugtungan", "check": "dugtong", "pamato": "BA",
                              "word": ["HA", "BA"], "house": book.words.to_dict()})
    assert answer["valid"] is False and answer["reason"] == "HABA is a word this table rejected"


def test_a_word_is_letters_only() -> None:
    with pytest.raises(UsageError, match="letters only"):
        HouseBook().accept("ha2")


@pytest.mark.parametrize("content, problem", [
    ("{not json", "not valid JSON"),
    ('{"accept": "haba"}', "accept: must be a list"),
    ('{"challenges": [{"word": "haba", "for": 1}]}', "challenges[0].against: missing"),
])
def test_a_damaged_file_is_one_clear_error(tmp_path: Path, content: str, problem: str) -> None:
    path = house_file(tmp_path)
    path.write_text(content, "utf-8")
    with pytest.raises(UsageError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        load_house(path)


def companion(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path), "COMPANION_CONFIG": str(tmp_path / "none.toml")}
    return subprocess.run([sys.executable, "-m", "companion.cli", "words", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def test_companion_words_records_a_challenge_and_lists_it(tmp_path: Path) -> None:
    vote = companion(tmp_path, "challenge", "mahahabag", "--for", "3", "--against", "1")
    assert vote.returncode == 0, vote.stderr
    assert vote.stdout.strip() == "MAHAHABAG: 3 for, 1 against: accepted as a house word"
    listed = companion(tmp_path, "list", "--json")
    assert json.loads(listed.stdout)["accept"] == ["mahahabag"]


def test_companion_words_refuses_a_challenge_without_votes(tmp_path: Path) -> None:
    result = companion(tmp_path, "challenge", "mahahabag", "--for", "3")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == "companion: words challenge: needs one WORD, --for N and --against N"
    assert not house_file(tmp_path).exists()


def test_words_may_follow_the_options(tmp_path: Path) -> None:
    """`companion words check --data-dir D WORD` reads as `words --data-dir D check WORD`."""
    book = tmp_path / "book"
    added = companion(tmp_path, "add", "--data-dir", str(book), "zzyzx", "qwxz")
    assert added.returncode == 0, added.stderr
    checked = companion(tmp_path, "check", "--data-dir", str(book), "zzyzx")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout == companion(tmp_path, "--data-dir", str(book), "check", "zzyzx").stdout
    assert "ZZYZX" in checked.stdout
    listed = companion(tmp_path, "list", "--json", "--data-dir", str(book))
    assert json.loads(listed.stdout)["accept"] == ["qwxz", "zzyzx"]
    stray = companion(tmp_path, "list", "--data-dir", str(book), "x", "--bogus")
    assert stray.returncode == 2 and "unrecognized arguments" in stray.stderr
