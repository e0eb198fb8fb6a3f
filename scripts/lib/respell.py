"""English words as Filipino spelling writes them when it borrows them (SELPON, ISKUL).

Filipino writes a modern English loan the way it sounds, in the letters of the Abakada
(the Komisyon sa Wikang Filipino's spelling rules): F is P, V is B, X is KS, TH is T, CH is TS,
J is DY, SH is SY, a word-initial S before a consonant gets an I (ISKUL, ISTAMBAY), the
vowels are the five of Tagalog (CAKE is KEYK, BIKE is BAYK), and no letter is doubled.
Spelling alone cannot say how English sounds (the O of HOT and of HOME), so the sounds
come from espeak-ng's American English; spelling only decides what the sounds cannot:
which of A, E, I, O or U an unstressed vowel is written with (KOMPYUTER, BASKETBOL,
ELEKTRISYAN, DOKTOR), where each English vowel letter group lines up with one sound.
The vowel of HOT, where English spells it O, is written either way (POPKORN, HATDOG),
so a word gets one spelling for each choice.
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


HOT = "\0"  # the vowel of HOT spelt O in English: O or A in Filipino, chosen in `respellings`


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
    """`word` (pronounced `ipa`) in Filipino spelling, the vowel of HOT left as `HOT`; None
    where a sound has no letter, or where the word is read letter by letter (CET, an
    abbreviation, is SI-I-TI: a syllable for each letter)."""
    heard = sounds(ipa)
    nuclei = [s for s in heard if s in NUCLEI]
    if len(nuclei) >= len(word):
        return None
    groups: list[str | None] = list(vowel_letters(word))
    if len(groups) != len(nuclei):
        groups = [None] * len(nuclei)
    out, vowel = [], 0
    for i, sound in enumerate(heard):
        nxt = heard[i + 1] if i + 1 < len(heard) else ""
        if sound in SPELLED:
            out.append(letter_for(sound, groups[vowel], heard[i - 1] if i else ""))
            out.append("r" if sound == "ɚ" else "")
        elif sound in SIBILANTS:
            out.append("sy" if nxt in NUCLEI else "s")
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
    return re.sub(r"^s(?=[bdgklmnpt])", "is", spelt)


def respellings(word: str, ipa: str) -> set[str]:
    """The Filipino spellings of `word`: each vowel of HOT spelt O either way (POPKORN and
    PAPKORN; HOTDOG, HATDOG, HOTDAG and HATDAG); where it ends in T or D after another
    consonant, also without it, as speech drops it (TEKS for TEXT, RESPEK, PREN for FRIEND)."""
    spelt = respell(word, ipa)
    if spelt is None:
        return set()
    found = {"".join(c if c != HOT else next(pick) for c in spelt) for pick in
             map(iter, itertools.product("oa", repeat=spelt.count(HOT)))}
    return found | {s[:-1] for s in found if re.search(r"[^aeiourlyw][td]$", s)}
