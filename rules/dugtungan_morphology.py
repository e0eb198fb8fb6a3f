"""Tagalog word building, undone: from a word at the table back to a lexicon root.

Tagalog makes words with affixes and reduplication (HABAG -> MAHAHABAG, KAIN -> KUMAIN),
and a frequency list misses most of them (MAHAHABAG, the FAQ's own example, is not in
wordfreq's list). Stripping the common affixes one at a time and asking whether a root
is reached accepts them without a full grammar. The search is breadth-first, so the
shortest analysis is the one named in the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

PREFIXES = ("mag", "nag", "pag", "ma", "ka")
INFIXES = ("um", "in")
SUFFIXES = ("han", "an", "in")
VOWELS = frozenset("aeiou")
MAX_STEPS = 4


@dataclass(frozen=True)
class Derivation:
    """`word` reaches lexicon `root` through `steps` (outermost first): ('ma-', 'reduplication')."""

    word: str
    root: str
    steps: tuple[str, ...]


def _undo_one(word: str) -> Iterator[tuple[str, str]]:
    """(shorter word, the step undone) for each affix or reduplication `word` may carry."""
    for prefix in PREFIXES:
        if word.startswith(prefix):
            yield word[len(prefix):], f"{prefix}-"
    for infix in INFIXES:
        if word.startswith(infix) and word[2:3] in VOWELS:  # um+alis -> umalis
            yield word[2:], f"-{infix}-"
        if word[:1] not in VOWELS and word[1:3] == infix:  # k+um+ain -> kumain
            yield word[0] + word[3:], f"-{infix}-"
    for suffix in SUFFIXES:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            yield stem, f"-{suffix}"
            if stem[-2:-1] == "u":  # the last o of a root is said u before a suffix: inom -> inumin
                yield stem[:-2] + "o" + stem[-1], f"-{suffix}"
    if word[:1] in VOWELS and word[1:2] == word[:1]:  # a+alis -> aalis
        yield word[1:], "reduplication"
    elif word[:1] not in VOWELS and word[1:2] in VOWELS and word[2:4] == word[:2]:  # ha+habag
        yield word[2:], "reduplication"


def derive(word: str, is_root: Callable[[str], bool], min_root_letters: int = 3) -> Derivation | None:
    """The shortest analysis of `word` that reaches a root (other than the word itself)."""
    frontier: list[tuple[str, tuple[str, ...]]] = [(word, ())]
    seen = {word}
    for _ in range(MAX_STEPS):
        next_frontier = []
        for form, steps in frontier:
            for shorter, step in _undo_one(form):
                if len(shorter) < min_root_letters or shorter in seen:
                    continue
                seen.add(shorter)
                if is_root(shorter):
                    return Derivation(word, shorter, steps + (step,))
                next_frontier.append((shorter, steps + (step,)))
        frontier = next_frontier
    return None
