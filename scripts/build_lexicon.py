"""Build rules/data/dugtungan_lexicon.json from wordfreq's Filipino word list.

Run offline, by hand, when wordfreq changes; the result is committed, so the rules engine
reads one JSON file and wordfreq is not needed at play time. What it keeps:
- words from `wordfreq.iter_wordlist("fil")` (the list ships inside the package; its own
  floor is Zipf 3.0, one occurrence per million words), normalised like the engine
  normalises a word at the table (lower case, diacritics dropped: TALÂ is TALA);
- letters only, with a vowel (wordfreq's list is full of abbreviations: TV, DR, LTFRB);
  two-letter words only from `PARTICLES`, the short Tagalog words, because nearly every
  other two-letter token in the list is an abbreviation or an English fragment;
- minus English words that wordfreq's Filipino corpus quotes: a word whose English Zipf
  frequency exceeds its Filipino one by more than `--english-margin` (default 0) is
  dropped (THE, SCHOOL, VIDEO go; MAY, AT, BATA stay, being commoner in Filipino text).
  Taglish loans go with them; a table that plays them adds them as house words.
Each word is stored with its Zipf frequency in tenths, so a table can raise the floor at
play time (option `min_zipf`).

Usage: .venv/bin/python scripts/build_lexicon.py [--english-margin 0.0] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

from wordfreq import iter_wordlist, zipf_frequency

from rules.dugtungan_lexicon import normalise

PARTICLES = frozenset("ng sa na at ay ko ni si pa mo ka po ho ba di oo eh ha ah oy uy".split())
VOWELS = frozenset("aeiou")
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "dugtungan_lexicon.json"


def build(english_margin: float) -> dict:
    """The lexicon document: words grouped by Zipf frequency in tenths."""
    best: dict[str, int] = {}
    for raw in iter_wordlist("fil"):
        word = normalise(raw)
        if not word.isascii() or not word.isalpha():
            continue
        if len(word) <= 2 and word not in PARTICLES or len(word) > 2 and not VOWELS & set(word) \
                and word != "mga":
            continue
        fil = zipf_frequency(raw, "fil")
        if zipf_frequency(raw, "en") > fil + english_margin:
            continue
        tenths = math.floor(fil * 10 + 1e-9)
        best[word] = max(best.get(word, 0), tenths)
    groups: dict[int, list[str]] = defaultdict(list)
    for word, tenths in best.items():
        groups[tenths].append(word)
    return {
        "source": "wordfreq iter_wordlist('fil') (small list, floor Zipf 3.0)",
        "english_margin": english_margin,
        "count": len(best),
        "zipf_tenths": {str(t): " ".join(sorted(ws)) for t, ws in sorted(groups.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--english-margin", type=float, default=0.0,
                        help="drop a word whose English Zipf exceeds its Filipino Zipf by more than this")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    doc = build(args.english_margin)
    args.out.write_text(json.dumps(doc, ensure_ascii=True, indent=0) + "\n", "utf-8")
    print(json.dumps({"out": str(args.out), "words": doc["count"]}))


if __name__ == "__main__":
    main()
