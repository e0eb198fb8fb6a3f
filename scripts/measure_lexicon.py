"""Measure the dugtungan lexicon: its size, how many common words it accepts, and how
often it accepts random card strings. Prints JSON.

- `common`: tests/rules/data/dugtungan_common_words.txt, Tagalog words written down by
  hand (not taken from wordfreq); hyphens are dropped, as cards spell no hyphen.
- `affixed`: tests/rules/data/dugtungan_affixed_words.txt, affixed and reduplicated
  forms written down by hand: how many the word list holds, how many the affix analysis
  adds, how many are missed.
- `random`: strings of 2 to 4 cards dealt from the default deck's plain syllable cards.
  Some of them are real words (BAKA, PUSA), so the rate is an upper bound on false
  accepts; it is reported with and without the affix analysis, which is where the
  false accepts come from.

Usage: .venv/bin/python scripts/measure_lexicon.py [--samples 20000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from rules.dugtungan_cards import deck_counts
from rules.dugtungan_lexicon import lexicon_words, normalise
from rules.dugtungan_options import Options
from rules.dugtungan_words import Dictionary

DATA = Path(__file__).resolve().parent.parent / "tests" / "rules" / "data"
COMMON = DATA / "dugtungan_common_words.txt"
AFFIXED = DATA / "dugtungan_affixed_words.txt"
FLOORS = (3.0, 3.5, 4.0)


def word_list(path: Path) -> list[str]:
    lines = path.read_text("utf-8").splitlines()
    return [normalise(line).replace("-", "") for line in lines if line.strip() and not line.startswith("#")]


def random_strings(samples: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    syllables = [c.text for c, n in deck_counts().items() if not c.action for _ in range(n)]
    return ["".join(rng.sample(syllables, rng.randint(2, 4))) for _ in range(samples)]


def rates(words: list[str], options: Options) -> dict[str, object]:
    judge = Dictionary(options)
    verdicts = [judge.judge(w) for w in words]
    accepted = [v for v in verdicts if v.valid]
    return {"accepted": len(accepted), "of": len(words), "rate": round(len(accepted) / len(words), 4),
            "derived": sum(1 for v in accepted if v.source == "derived")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    common, noise = word_list(COMMON), random_strings(args.samples, args.seed)
    report: dict[str, object] = {"floors": {}}
    for floor in FLOORS:
        with_affixes = Options(min_zipf=floor)
        plain = Options(min_zipf=floor, derived_words=False)
        report["floors"][str(floor)] = {  # type: ignore[index]
            "words": len(lexicon_words(floor)),
            "common_accepted": rates(common, with_affixes),
            "common_accepted_without_affixes": rates(common, plain),
            "random_accepted": rates(noise, with_affixes),
            "random_accepted_without_affixes": rates(noise, plain),
        }
    judge = Dictionary(Options())
    report["common_missed_at_default"] = [w for w in common if not judge.judge(w).valid]
    affixed = [judge.judge(w) for w in word_list(AFFIXED)]
    report["affixed_at_default"] = {
        "of": len(affixed),
        "in_word_list": sum(1 for v in affixed if v.source == "lexicon"),
        "derived": {v.text: v.root for v in affixed if v.source == "derived"},
        "missed": [v.text for v in affixed if not v.valid]}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
