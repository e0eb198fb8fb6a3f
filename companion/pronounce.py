"""How a prompt is said: Tagalog words with Tagalog sounds, syllables as syllables.

espeak-ng's English voice reads Halimaw and Sapaw to rhyme with "saw", Lagim as
"LAJ-im", Ligaya as "LIG-ay-a", and spells a dugtungan syllable such as LA letter by
letter. It has no Tagalog voice, and its SSML language switch does not switch back
(espeak-ng 1.51 reads the rest of the sentence with the second voice), so prompts stay
in one English voice and each Tagalog word goes in as espeak-ng phoneme input
(`[[...]]`). Tagalog spelling is phonemic, so the phonemes follow from the letters by
rule; stress falls on the second-last syllable unless the word carries an accent
(`halimáw`). `scripts/measure_speech.py` measures how each word then comes out.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

#: Words of the four games that prompts say, spelt with their stress where it is not
#: on the second-last syllable (Tagalog dictionaries' acute accent).
GLOSSARY = (
    "Bagani", "Biyaya", "ni", "Apo", "Halimaw", "halimáw", "Sarimáw", "Sapáw", "Higante", "Mansisilat",
    "Lagím", "Baryo", "Agimat", "Salág", "Kontra", "Lakas", "Kulam", "Albularyo", "Alakdan", "at",
    "Alupihan", "Altar", "ng", "Amihan", "Aswáng", "Bungisngis", "Bungo", "Tungkod", "Buntot", "Pagi",
    "Dugo", "Langis", "Duwende", "Espiritista", "Gasera", "Kapre", "Mambabarang", "Manananggál",
    "Mangkukulam", "Nuno", "sa", "Punso", "Orasyon", "Insenso", "Puno", "Akasya", "Sibat", "Sulo",
    "Sigbin", "Sumpa", "Manika", "Tabák", "Bawang", "Asín", "Tikbalang", "Tiktik", "Buwan",
    "dugtungan", "Pamato", "Laktaw", "Toki", "Pitik", "Todas", "Dos", "Kwatro", "Bihag", "Tabla",
    "Hasik",
)
#: Words not said as spelt: the particle ng is "nang".
_SAID_AS = {"ng": "nang"}
#: Capitals in prompts that are English abbreviations, spelt out as they are.
ABBREVIATIONS = frozenset({"AP", "DP"})

_ACUTE = "\u0301"
_VOWELS = {"a": "a", "e": "E", "i": "i", "o": "o", "u": "u"}
#: Two letters that make one sound; checked before single letters.
_PAIRS = {"ng": "N", "ch": "tS", "sh": "S", "ll": "lj", "qu": "k"}
_CONSONANTS = {
    "b": "b", "k": "k", "d": "d", "g": "g", "h": "h", "l": "l", "m": "m", "n": "n", "p": "p",
    "r": "r", "s": "s", "t": "t", "w": "w", "y": "j", "f": "f", "v": "b", "z": "s", "j": "h",
    "x": "ks", "ñ": "n^",
}
#: A vowel and a glide that is not followed by a vowel make one sound (araw, bahay).
_DIPHTHONGS = {("a", "w"): "aU", ("a", "j"): "aI", ("o", "j"): "OI", ("u", "j"): "uI",
               ("E", "j"): "eI"}


@dataclass(frozen=True)
class Sound:
    phoneme: str    # espeak-ng's phoneme input for it
    vowel: bool


def _letters(word: str) -> tuple[str, int | None]:
    """The word in lower case without stress accents, and where its accented vowel is."""
    accent = None
    plain: list[str] = []
    for ch in unicodedata.normalize("NFD", word.lower()):
        if ch in (_ACUTE, "\u0300", "\u0302"):
            accent = len(plain) - 1
        elif ch == "\u0303" and plain and plain[-1] == "n":
            plain[-1] = "ñ"
        elif not unicodedata.combining(ch):
            plain.append(ch)
    return "".join(plain), accent


def sounds(word: str) -> tuple[list[Sound], int]:
    """The word's sounds and the index (among its vowels) of the stressed one."""
    letters, accent = _letters(word)
    out: list[Sound] = []
    accented_vowel: int | None = None
    i = 0
    while i < len(letters):
        ch, pair = letters[i], letters[i:i + 2]
        step = 1
        if pair in _PAIRS:
            out.append(Sound(_PAIRS[pair], False))
            step = 2
        elif ch in _VOWELS:
            if accent == i:
                accented_vowel = sum(s.vowel for s in out)
            out.append(Sound(_VOWELS[ch], True))
        elif ch == "c":
            out.append(Sound("s" if letters[i + 1:i + 2] in ("e", "i") else "k", False))
        elif ch in _CONSONANTS:
            out.append(Sound(_CONSONANTS[ch], False))
        elif ch == "-" and letters[i + 1:i + 2] in _VOWELS:
            out.append(Sound("?", False))  # pag-asa: a glottal stop, not a linked vowel
        i += step
    merged: list[Sound] = []
    for k, s in enumerate(out):
        follows_vowel = k + 1 < len(out) and out[k + 1].vowel
        if (merged and merged[-1].vowel and not follows_vowel
                and (merged[-1].phoneme, s.phoneme) in _DIPHTHONGS):
            merged[-1] = Sound(_DIPHTHONGS[(merged[-1].phoneme, s.phoneme)], True)
        else:
            merged.append(s)
    vowels = sum(s.vowel for s in merged)
    stressed = accented_vowel if accented_vowel is not None else max(0, vowels - 2)
    return merged, min(stressed, max(0, vowels - 1))


def phonemes(word: str) -> str:
    """espeak-ng phoneme input for a Tagalog word, with its stress mark.

    The mark goes before the consonant that opens the stressed syllable: Tagalog gives
    one consonant between vowels to the syllable after it. A hyphen between two parts
    of two syllables or more (Ñañez-Dimaculangan, araw-araw) joins two words, each
    with its own stress; a shorter part is a prefix (pag-asa), said with a glottal stop.
    """
    halves = word.split("-")
    if len(halves) > 1 and all(sum(s.vowel for s in sounds(h)[0]) >= 2 for h in halves):
        return " ".join(phonemes(h) for h in halves)
    parts, stressed = sounds(word)
    vowel_at = [k for k, s in enumerate(parts) if s.vowel]
    if not vowel_at:
        return ""
    v = vowel_at[stressed]
    mark = 0 if stressed == 0 else (v - 1 if not parts[v - 1].vowel else v)
    names = [s.phoneme for s in parts]
    return "".join(names[:mark]) + "'" + "".join(names[mark:])


_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_PATTERN = re.compile(r"\b\d+(?::\d+)+\b")  # Gargon's 2:1, 1:1:1


def _key(word: str) -> str:
    return _letters(word)[0]


@lru_cache(maxsize=1)
def _glossary() -> dict[str, str]:
    return {_key(w): w for w in GLOSSARY}


def _syllable_card(token: str) -> str:
    """A dugtungan card as said: a lone consonant by its Filipino letter name (N is "na")."""
    return token + "a" if not any(ch in _VOWELS for ch in token.lower()) else token


def spoken(text: str, names: Iterable[str] = (), syllable_cards: bool = False) -> str:
    """The prompt as espeak-ng input: Tagalog words and players' names as phonemes.

    `syllable_cards` (dugtungan) makes every capitalised token a word or syllable of
    cards, a lone letter included; elsewhere a capitalised token other than the
    abbreviations is a Tagalog term (SAPAW, BIHAG). Gargon's patterns are said in words:
    "1:1" is "1 and 1".
    """
    name_words = {_key(part) for name in names for part in _WORD.findall(name)}
    glossary = _glossary()

    def say(match: re.Match[str]) -> str:
        token = match.group(0)
        key = _key(token)
        if token.isupper() and (syllable_cards or (len(token) > 1 and token not in ABBREVIATIONS)):
            return f"[[{phonemes(_syllable_card(token) if syllable_cards else token)}]]"
        if key in _SAID_AS:
            return f"[[{phonemes(_SAID_AS[key])}]]"
        if key in glossary:
            return f"[[{phonemes(glossary[key])}]]"
        if key in name_words:
            return f"[[{phonemes(token)}]]"
        return token

    text = _PATTERN.sub(lambda m: " and ".join(m.group(0).split(":")), text)
    return _WORD.sub(say, text)
