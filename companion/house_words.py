"""The table's own dugtungan words, kept per installation in the data directory.

A word list is never the last word at a real table: the table accepts words the list
misses, rejects words it will not play, and settles an unknown word by a vote (the
challenge). This module keeps those lists and every challenge's outcome in one JSON file,
and hands the rules engine the lists as plain data (`rules.dugtungan.lexicon.HouseWords`),
so the engine stays free of files.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.errors import UsageError
from rules.core import BadInput
from rules.dugtungan.lexicon import HouseWords, normalise
from rules.payload import expect, obj, req

FILE_NAME = "dugtungan-house-words.json"


def house_file(data_dir: Path) -> Path:
    return data_dir / FILE_NAME


def spelled(word: str, field: str = "word") -> str:
    """A word as the cards spell it: lower case, no diacritics, hyphens or spaces."""
    letters = normalise(word).replace("-", "").replace(" ", "")
    if not letters.isalpha():
        raise UsageError("", field, f"{word!r} is not a word: letters only")
    return letters


@dataclass(frozen=True)
class ChallengeRecord:
    """One table vote on a word; a word needs more votes for than against."""

    word: str
    votes_for: int
    votes_against: int

    @property
    def accepted(self) -> bool:
        return self.votes_for > self.votes_against

    def to_dict(self) -> dict[str, Any]:
        return {"word": self.word, "for": self.votes_for, "against": self.votes_against,
                "accepted": self.accepted}


@dataclass(frozen=True)
class HouseBook:
    """The house lists and the challenges that shaped them."""

    words: HouseWords = HouseWords()
    challenges: tuple[ChallengeRecord, ...] = ()

    def accept(self, word: str) -> "HouseBook":
        return replace(self, words=self.words.with_verdict(spelled(word), accepted=True))

    def reject(self, word: str) -> "HouseBook":
        return replace(self, words=self.words.with_verdict(spelled(word), accepted=False))

    def forget(self, word: str) -> "HouseBook":
        w = spelled(word)
        return replace(self, words=HouseWords(self.words.accept - {w}, self.words.reject - {w}))

    def challenge(self, word: str, votes_for: int, votes_against: int) -> tuple["HouseBook", ChallengeRecord]:
        """The table voted: the word joins the accepted or the rejected list, and the vote is kept."""
        if votes_for < 0 or votes_against < 0:
            raise UsageError("", "votes", "must not be negative")
        record = ChallengeRecord(spelled(word), votes_for, votes_against)
        book = self.accept(word) if record.accepted else self.reject(word)
        return replace(book, challenges=self.challenges + (record,)), record

    def to_dict(self) -> dict[str, Any]:
        return {**self.words.to_dict(), "challenges": [c.to_dict() for c in self.challenges]}


def load_house(path: Path) -> HouseBook:
    """The book in `path`; an empty one when the file does not exist yet."""
    if not path.exists():
        return HouseBook()
    try:
        data = json.loads(path.read_text("utf-8"))
        challenges = expect(obj(data, "").get("challenges", []), list, "challenges")
        records = tuple(ChallengeRecord(req(obj(c, f"challenges[{i}]"), "word", str, f"challenges[{i}]"),
                                        req(c, "for", int, f"challenges[{i}]"),
                                        req(c, "against", int, f"challenges[{i}]"))
                        for i, c in enumerate(challenges))
        lists = {k: v for k, v in data.items() if k in ("accept", "reject")}
        return HouseBook(HouseWords.from_dict(lists, ""), records)
    except json.JSONDecodeError as exc:
        raise UsageError(str(path), "", f"not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(str(path), "", f"cannot read: {exc}") from None
    except BadInput as exc:
        raise UsageError(str(path), exc.field.lstrip("."), exc.problem) from None


def save_house(path: Path, book: HouseBook) -> None:
    """Write the book whole, then rename it into place: a power cut leaves the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(book.to_dict(), ensure_ascii=False, indent=2) + "\n", "utf-8")
    os.replace(partial, path)
