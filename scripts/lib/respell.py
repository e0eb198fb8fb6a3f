"""English words as Filipino spelling writes them when it borrows them (SELPON, ISKUL).

Filipino writes a modern English loan the way it sounds, in the letters of the Abakada
(the Komisyon sa Wikang Filipino's spelling rules): F is P, V is B, X is KS, TH is T, CH is TS,
J is DY, SH is SY (but S before an I or an ER, as SYI is no syllable: MASIN, TISERT), a
word-initial S before a consonant gets an I (ISKUL, ISTAMBAY), the vowels are the five of
Tagalog (CAKE is KEYK, BIKE is BAYK), and no letter is doubled.
Spelling alone cannot say how English sounds (the O of HOT and of HOME), so the sounds
come from espeak-ng's American English; spelling only decides what the sounds cannot:
which of A, E, I, O or U an unstressed vowel is written with (KOMPYUTER, BASKETBOL,
ELEKTRISYAN, DOKTOR), where each English vowel letter group lines up with one sound
(a written vowel that speech drops lines up with none: DIPRENT). A few sounds Filipino
writes two ways (`CHOICES`: the vowel of HOT, POPKORN and PAPKORN; NG before K, PINK and
PINGK), and speech drops a T or D between consonants (POSMAN), so a word gets one spelling
for each choice.
"""

from __future__ import annotations

import itertools
import re
import subprocess
from typing import Iterable

VOICE = "en-us"
IPA_VOWELS = "aæɐɑɒɔəɚɛɜɝɪᵻiʊuʌeo"
# Sounds that are one vowel of the word (diphthongs, R-coloured vowels), longest first.
NUCLEI = ("eɪ", "aɪ", "oʊ", "əʊ", "aʊ", "ɔɪ", *IPA_VOWELS)
# Sounds written the same whatever the spelling.
PLAIN = {"eɪ": "ey", "aɪ": "ay", "oʊ": "o", "əʊ": "o", "aʊ": "aw", "ɔɪ": "oy",
         "æ": "a", "ɐ": "a", "ɔ": "o", "ɛ": "e", "e": "e", "i": "i", "ʊ": "u", "u": "u",
         "ʌ": "a", "ɜ": "er", "ɝ": "er", "a": "a", "o": "o",
         "tʃ": "ts", "p": "p", "b": "b", "t": "t", "d": "d", "k": "k", "ɡ": "g", "g": "g",
         "m": "m", "n": "n", "ŋ": "ng", "l": "l", "ɹ": "r", "r": "r", "w": "w", "j": "y",
         "h": "h", "s": "s", "z": "s", "f": "p", "v": "b", "θ": "t", "ð": "d", "x": "h"}
# Vowels whose letter the English spelling decides (unstressed ones, the O of HOT), with their default.
SPELLED = {"ə": "a", "ɪ": "i", "ᵻ": "i", "ɚ": "e", "ɑ": "a", "ɒ": "a"}
SIBILANTS = ("ʃ", "ʒ")  # SY before a vowel (SYAMPU, TELEBISYON), S elsewhere
FRONT = ("i", "ɪ", "ᵻ", "ɜ", "ɝ")  # ... but S before these: SYI is no syllable (TISERT, MASIN)
DROPPED = "ˈˌːʔ̩ "


def pronounce(words: Iterable[str], voice: str = VOICE) -> dict[str, str]:
    """Each word's pronunciation in IPA from espeak-ng, one run for them all."""
    words = list(words)
    text = "".join(f"{w}.\n" for w in words)
    done = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", voice], input=text, capture_output=True,
                          text=True, check=True)
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if len(lines) != len(words):
        raise RuntimeError(f"espeak-ng gave {len(lines)} pronunciations for {len(words)} words")
    return dict(zip(words, lines))


GLIDE = re.compile(f"(?<=[^{IPA_VOWELS}ˈˌː])[iɪ]ː?([ˈˌ]?)(?=[{IPA_VOWELS}])")


def sounds(ipa: str) -> list[str]:
    """The IPA cut into sounds, stress and length marks dropped; an I before another vowel
    is the glide Y (BIDYO, BILYON), written IY before a stressed vowel (PIYANO)."""
    ipa = GLIDE.sub(lambda m: "ɪjˈ" if m.group(1) == "ˈ" else "j", ipa)
    ipa = "".join(ch for ch in ipa if ch not in DROPPED).replace("ɡz", "ks")  # X is KS (EKSAM)
    found = []
    while ipa:
        piece = next((n for n in (*NUCLEI, "tʃ", "dʒ") if ipa.startswith(n)), ipa[0])
        found.append(piece)
        ipa = ipa[len(piece):]
    return found


def vowel_letters(word: str) -> list[str]:
    """The word's vowel letter groups in order, a silent final E left out (PHONE), a Y
    that is a vowel counted as I (STRAWBERRY)."""
    spelt = re.sub(r"y(?=[aeiou])", "j", word).replace("y", "i")
    groups = re.findall(r"[aeiou]+", spelt)
    if len(groups) > 1 and re.search(r"[^aeiou]e$", spelt) and not re.search(r"[^aeiou]le$", spelt):
        groups.pop()
    return groups


# The letters that may spell each vowel sound; a sound not named here may be any letter.
SPELT_WITH = {"æ": "a", "a": "a", "ɛ": "e", "e": "e", "eɪ": "ae", "i": "ei", "ɪ": "ei", "ᵻ": "ei",
              "aɪ": "i", "ɔ": "oa", "ɑ": "oa", "ɒ": "oa", "oʊ": "o", "əʊ": "o", "aʊ": "o", "ɔɪ": "o",
              "ʊ": "ou", "u": "ou", "ʌ": "uo", "ɚ": "aeo"}


def aligned_groups(nuclei: list[str], groups: list[str]) -> list[str | None]:
    """The vowel letter group that spells each vowel sound. Where English speech drops a
    written vowel (DIFF'RENT, INT'REST, CAM'RA), the groups kept are those whose letters
    can spell the sounds; of equally good ones, the first group is kept and the earliest
    after it dropped, as English drops the vowel after a stressed first syllable, so
    DIFFERENT is DIPRENT, not DIPRANT (the sound's default letter) nor DEPRENT; None for
    each sound where the word has fewer groups than sounds (IDEA)."""
    if len(groups) < len(nuclei):
        return [None] * len(nuclei)

    def preference(kept: tuple[int, ...]) -> tuple[int, bool, tuple[int, ...]]:
        fits = sum(groups[g][0] in SPELT_WITH.get(n, groups[g][0]) for n, g in zip(nuclei, kept))
        return fits, kept[:1] == (0,), kept
    kept = max(itertools.combinations(range(len(groups)), len(nuclei)), key=preference)
    return [groups[g] for g in kept]


# Sounds Filipino writes two ways, left in `respell` as a mark and spelt both ways in `respellings`.
HOT = "\0"  # the vowel of HOT spelt O in English: O or A (POPKORN, PAPKORN)
REDUCED_E = "\1"  # a first-syllable E that speech reduces before the stress: E or I (EBENT, IBENT)
NG_K = "\2"  # NG before K: NG as in BANGKO, or N as the English spelling has it (PINK, TENKYU)
LE = "\3"  # the vowel of a final -LE, which English does not write: E or O (TRAYSIKEL, SIMPOL, PIPOL)
TD_MARKS = {"t": "\4", "d": "\5"}  # a T or D that speech may drop (`respellings`)
CHOICES = {HOT: ("o", "a"), REDUCED_E: ("e", "i"), NG_K: ("ng", "n"), LE: ("e", "o"),
           TD_MARKS["t"]: ("t", ""), TD_MARKS["d"]: ("d", "")}


def letter_for(sound: str, group: str | None, after: str) -> str:
    """The letter of an unstressed vowel: its spelling's where that is one Filipino writes
    for it, else the default; after SY or Y the I of -TION, -CIAN, -ION is the glide's."""
    if group is None:
        return SPELLED[sound]
    if after in (*SIBILANTS, "j") and len(group) > 1 and group[0] == "i":
        group = group[1:]
    letter = group[0]
    if sound in "ɑɒ":
        return HOT if letter == "o" else "a"
    if sound in "ɪᵻ":
        return letter if letter in "ei" else "i"
    if sound == "ɚ":
        return letter if letter in "aeo" else "e"
    return letter


def respell(word: str, ipa: str) -> str | None:
    """`word` (pronounced `ipa`) in Filipino spelling, each sound Filipino writes two ways
    left as its mark (`HOT`, `REDUCED_E`, `NG_K`, `LE`); None where a sound has no letter, or where the word is read letter by letter (CET, an
    abbreviation, is SI-I-TI: a syllable for each letter)."""
    heard = sounds(ipa)
    nuclei = [s for s in heard if s in NUCLEI]
    if len(nuclei) >= len(word):
        return None
    groups = aligned_groups(nuclei, vowel_letters(word))
    stressed = sum(s in NUCLEI for s in sounds(ipa.split("ˈ")[0])) if "ˈ" in ipa else -1
    out, vowel = [], 0
    for i, sound in enumerate(heard):
        nxt = heard[i + 1] if i + 1 < len(heard) else ""
        if sound in SPELLED:
            letter = letter_for(sound, groups[vowel], heard[i - 1] if i else "")
            reduced = sound in "ɪᵻ" and vowel == 0 and stressed == 1
            out.append(REDUCED_E if letter == "e" and reduced else letter)
            out.append("r" if sound == "ɚ" else "")
        elif sound == "ŋ" and nxt == "k":
            out.append(NG_K)
        elif sound in SIBILANTS:
            out.append("sy" if nxt in NUCLEI and nxt not in FRONT else "s")
        elif sound == "dʒ":
            out.append("dy" if nxt in NUCLEI else "ds")
        elif sound == "ɾ":
            out.append("d" if "d" in word and "t" not in word else "t")
        elif sound in PLAIN:
            out.append(PLAIN[sound])
        else:
            return None
        vowel += sound in NUCLEI
    spelt = re.sub(r"([^aeiou])\1+", r"\1", "".join(out))
    if re.search(r"[^aeiou]le$", word):
        spelt = re.sub(r"el$", LE + "l", spelt)
    return re.sub(r"^s(?=[bdgklmnpt])", "is", spelt)


VOWEL_MARKS = HOT + REDUCED_E + LE
DROPPABLE_TD = re.compile(f"(?<=[^aeiourlyw{VOWEL_MARKS}])[td](?=[^aeiourlsyh{VOWEL_MARKS}]|$)")


def respellings(word: str, ipa: str) -> set[str]:
    """The Filipino spellings of `word`: each sound Filipino writes two ways (`CHOICES`)
    spelt either way (POPKORN and PAPKORN; HOTDOG, HATDOG, HOTDAG and HATDAG); each T or
    D after another consonant that ends the word or comes before another consonant kept
    or dropped, as speech drops it (TEKS for TEXT, PREN for FRIEND, BESTPREN and BESPREN for
    BESTFRIEND, POSMAN); a T or D before L, R, S or Y stays, as it starts a syllable (KANTRI)
    or is one sound with it (the TS of BENTS, the DY of DYUS)."""
    spelt = respell(word, ipa)
    if spelt is None:
        return set()
    spelt = DROPPABLE_TD.sub(lambda m: TD_MARKS[m.group()], spelt)
    marks = [c for c in spelt if c in CHOICES]
    found = set()
    for pick in itertools.product(*(CHOICES[c] for c in marks)):
        letters = iter(pick)
        found.add("".join(next(letters) if c in CHOICES else c for c in spelt))
    return found
