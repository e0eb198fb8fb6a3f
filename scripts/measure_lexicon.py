"""Measure the dugtungan lexicon on words and non-words written down by hand. Prints JSON.

The lists (tests/rules/data/lexicon_words.txt, lexicon_nonwords.txt) hold Tagalog words in
categories (roots, affixed, partial and whole reduplication, compounds, loans) and strings
that are not words (random syllables, English, abbreviations, names, brands, impossible
inflections, chat spellings), written down from knowledge of Tagalog, not from the lexicon
or its sources. Hyphens and spaces are dropped, as the cards spell none.

Each list is split by a hash of the word: a third is held out (`crc32 % 3 == 0`), the
rest is the dev part that rules and sources were fixed against. The held-out figures
say whether the fixes generalise rather than fit the dev words; `--part held-out` prints
them, `--part both` prints both side by side.

For each category: `rate` is the share the table's dictionary (default options) judges
the way the category says (accepted for words, refused for non-words), and `wrong` lists
the ones it got wrong.

`--random N` also judges N distinct random strings of 3-5 Tagalog CV syllables (seeded):
none is meant as a word, so every one accepted is glue the rules or the lexicon let in.

Usage: .venv/bin/python scripts/measure_lexicon.py [--part dev|held-out|both] [--random N --seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import zlib
from pathlib import Path

from rules.dugtungan.lexicon import normalise
from rules.dugtungan.options import Options
from rules.dugtungan.words import Dictionary

DATA = Path(__file__).resolve().parent.parent / "tests" / "rules" / "data"
WORDS = DATA / "lexicon_words.txt"
NON_WORDS = DATA / "lexicon_nonwords.txt"
PARTS = ("dev", "held-out")


def part_of(word: str) -> str:
    """The part a word belongs to, fixed by its spelling so nobody picks it."""
    return "held-out" if zlib.crc32(word.encode("utf-8")) % 3 == 0 else "dev"


def categories(path: Path) -> dict[str, list[str]]:
    """Category -> words as the cards spell them (lower case, no hyphen or space)."""
    found: dict[str, list[str]] = {}
    current = None
    for line in path.read_text("utf-8").splitlines():
        line = line.strip()
        if line.startswith("## "):
            current = found.setdefault(line[3:], [])
        elif line and not line.startswith("#") and current is not None:
            current.append(normalise(line).replace("-", "").replace(" ", ""))
    return found


def score(words: list[str], judge: Dictionary, want_valid: bool) -> dict[str, object]:
    wrong = [w for w in words if judge.judge(w).valid != want_valid]
    rate = 1 - len(wrong) / len(words) if words else 1.0
    return {"of": len(words), "rate": round(rate, 4), "wrong": wrong}


def measure(part: str, judge: Dictionary) -> dict[str, dict[str, object]]:
    """Per category of both lists: the share judged right in `part`."""
    report: dict[str, dict[str, object]] = {}
    for path, kind, want_valid in ((WORDS, "words", True), (NON_WORDS, "non-words", False)):
        for name, words in categories(path).items():
            chosen = [w for w in words if part_of(w) == part]
            report[f"{kind}: {name}"] = score(chosen, judge, want_valid)
    return report


ONSETS = ("", "b", "k", "d", "g", "h", "l", "m", "n", "ng", "p", "r", "s", "t", "w", "y")


def random_strings(count: int, seed: int, judge: Dictionary) -> dict[str, object]:
    """How many of `count` distinct random strings of 3-5 CV syllables are accepted, and
    those the lexicon holds as they stand (the rest are derived)."""
    rng = random.Random(seed)
    syllables = [c + v for c in ONSETS for v in "aeiou"]
    strings: set[str] = set()
    while len(strings) < count:
        strings.add("".join(rng.choice(syllables) for _ in range(rng.randint(3, 5))))
    verdicts = [judge.judge(s) for s in sorted(strings)]
    accepted = [v for v in verdicts if v.valid]
    return {"of": count, "seed": seed, "accepted": len(accepted),
            "in_lexicon": [v.text for v in accepted if v.source == "lexicon"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=(*PARTS, "both"), default="dev")
    parser.add_argument("--random", type=int, default=0, metavar="N", help="also judge N random syllable strings")
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    judge = Dictionary(Options())
    parts = PARTS if args.part == "both" else (args.part,)
    report = {part: measure(part, judge) for part in parts}
    for part in parts:
        rates = [c["rate"] for c in report[part].values()]
        report[part]["lowest"] = {"rate": min(rates)}  # type: ignore[dict-item]
    if args.random:
        report["random syllables"] = random_strings(args.random, args.seed, judge)  # type: ignore[assignment]
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
