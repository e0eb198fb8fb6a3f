"""The Filipino word list that decides dugtungan words, and the table's own house lists.

The list joins a Tagalog dictionary word list and wordfreq's Filipino list, built offline
by `scripts/build_lexicon.py` into `rules/data/dugtungan_lexicon.json` (so neither is
needed at play time), each word with its Zipf frequency so a table can raise the floor
(option `min_zipf`). Beside the words it keeps what the affix analysis needs from the
same sources: which vowel-final roots take -AN/-IN without H (`suffix_forms`), the
proper names a derivation must never produce (`proper_names`), and the respelt English
loans no derivation is built on (`unaffixed`). A word list
alone cannot be the last word at a real table: the house lists (kept per installation by
the companion and handed in as plain data) add words the table accepts and remove words
it rejects.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping

from rules.catalogue import load_catalogue
from rules.core import BadInput
from rules.dugtungan.morphology import SuffixForms
from rules.payload import expect, obj, opt


def normalise(word: str) -> str:
    """Lower case with diacritics dropped, so TALÂ, Talà and tala are one word."""
    decomposed = unicodedata.normalize("NFKD", word.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


@dataclass(frozen=True)
class HouseWords:
    """Words this table accepts beyond the lexicon, and words it refuses even if listed."""

    accept: frozenset[str] = frozenset()
    reject: frozenset[str] = frozenset()

    @classmethod
    def of(cls, accept: Iterable[str] = (), reject: Iterable[str] = ()) -> "HouseWords":
        return cls(frozenset(map(normalise, accept)), frozenset(map(normalise, reject)))

    @classmethod
    def from_dict(cls, raw: Any, path: str = "house") -> "HouseWords":
        """`{"accept": [...], "reject": [...]}`; either list may be left out."""
        data = obj(raw, path)
        for key in data:
            if key not in ("accept", "reject"):
                raise BadInput(f"{path}.{key}", "unknown field; known: accept, reject")
        lists = {}
        for key in ("accept", "reject"):
            words: list[object] = opt(data, key, list, [], path)
            lists[key] = [expect(w, str, f"{path}.{key}[{i}]") for i, w in enumerate(words)]
        return cls.of(lists["accept"], lists["reject"])

    def with_verdict(self, word: str, accepted: bool) -> "HouseWords":
        """The lists after a challenge vote on `word`: it moves to accept or to reject."""
        w = normalise(word)
        if accepted:
            return HouseWords(self.accept | {w}, self.reject - {w})
        return HouseWords(self.accept - {w}, self.reject | {w})

    def to_dict(self) -> dict[str, list[str]]:
        return {"accept": sorted(self.accept), "reject": sorted(self.reject)}


@lru_cache(maxsize=1)
def _zipf_tenths() -> Mapping[str, int]:
    doc = load_catalogue("dugtungan_lexicon")
    return {word: int(tenths) for groups in (doc["zipf_tenths"], doc["unaffixed"])
            for tenths, words in groups.items() for word in words.split()}


@lru_cache(maxsize=8)
def lexicon_words(min_zipf: float) -> frozenset[str]:
    """Every lexicon word at or above the Zipf floor `min_zipf`."""
    floor = round(min_zipf * 10)
    return frozenset(w for w, t in _zipf_tenths().items() if t >= floor)


COMMON_ZIPF = 3.1  # above the floor: a word the frequency list counts, not a dictionary's alone


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """The words a compound may be built of (LAKAD, TAKBO): ones people write often enough
    for the frequency list to count them, so a rare dictionary word glued to another does
    not pass for a compound."""
    return lexicon_words(COMMON_ZIPF)


@lru_cache(maxsize=1)
def suffix_forms() -> SuffixForms:
    """Vowel-final roots seen with -AN/-IN without H (BASAIN) and with -HAN/-HIN."""
    doc = load_catalogue("dugtungan_lexicon")
    return SuffixForms(frozenset(doc["suffix_plain"].split()), frozenset(doc["suffix_with_h"].split()))


@lru_cache(maxsize=1)
def proper_names() -> frozenset[str]:
    """Names of people and places that are no lexicon word: a derivation never makes one
    (PANGASINAN is not PANG- + ASIN + -AN at this table)."""
    return frozenset(load_catalogue("dugtungan_lexicon")["proper_names"].split())


@lru_cache(maxsize=1)
def unaffixed() -> frozenset[str]:
    """Lexicon words no affix or compound is built on: English loans the build respelt the
    Filipino way (SELPON, KEYK), kept as whole words only, since an English word's sounds
    in Tagalog letters (GOLI for GOALIE) would otherwise make affixed non-words (GUMOLI)."""
    groups = load_catalogue("dugtungan_lexicon")["unaffixed"]
    return frozenset(word for words in groups.values() for word in words.split())


@lru_cache(maxsize=1)
def finder_builds() -> frozenset[str]:
    """Lexicon words the move finder builds from a root of the lexicon anyway (KUMAIN from
    KAIN), so its automaton leaves them out and stays as small as the roots."""
    return frozenset(load_catalogue("dugtungan_lexicon")["finder_builds"].split())
