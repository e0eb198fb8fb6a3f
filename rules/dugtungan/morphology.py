"""Tagalog word building, undone: from a word at the table back to a lexicon root.

Tagalog makes words with affixes and reduplication (HABAG -> MAHAHABAG, KAIN -> KUMAIN),
and no word list holds them all. A word is accepted as derived when it parses as

    prefix chain + [CV reduplication] + core (+ infix) + [suffix]

with the core a lexicon word or its whole reduplication (ARAW-ARAW, TAGU-TAGUAN), or
as a whole reduplication of an accepted word (MASAYANG-MASAYA), or as an accepted word
with the linker written joined to it (ISANG, MAGANDANG, KAIBIGANG), or as a compound of two
words (BALIKBAYAN, LAKAD-TAKBO, LUKSONG-BAKA, PANTAWID-GUTOM). Cards spell no hyphen, so
all of these are written joined. Tagalog joins nearly any two words into a compound, so
no word list holds them all; what keeps a hand from spelling anything by gluing is that
each half must be a common word (`is_common`: counted by the frequency list, two
syllables or more, no marker, pronoun or prefix chain, no affixed form of another word
such as MAKAIN), the first maybe with the linker -NG or the PANG- word naming a thing
for a deed (PANTAWID, PAMATAY), the second maybe with a suffix (SILID-AKLATAN); an affix
goes around a compound, never inside it, so the end of the first half may not read as a
prefix of the second (KAMA + LUTO is no compound: it is also KA + MALUTO); the halves are
not one word said twice (that is reduplication, with its own rules), nor is the first
one syllable said twice (PAGPAG-LARO and BIBI-BILI stammer an affix). The rules are
Tagalog's, kept strict so that misspellings are refused:

- one prefix chain, from a fixed list (MAG-, NAKIPAG-, PINAKA-, IKA-, ...): no MAGMAG-;
- the nasal prefixes (PANG-, MANG-, NANG-, SANG-, ...) assimilate to the root's first
  sound (PAMBURA, PANSULAT, PANGHUGAS; PANGSULAT is refused), and PANG-/MANG-/NANG- may
  replace it (MAMILI from BILI, MANGISDA from ISDA);
- one infix, -UM- or -IN-, after the first consonant (or before a first vowel), only
  where no prefix stands before it (or I- for -IN-: IBINIGAY): no KUMINAIN, SINUMULAT;
- one reduplication of the first syllable: no TATATAKBO;
- a suffix -AN/-IN after a consonant, -HAN/-HIN after a vowel unless the root ends in a
  glottal stop (BASAIN), which spelling does not show, so the lexicon's own forms decide
  (`SuffixForms`); the last O of the root is said U before a suffix (SAGOT -> SAGUTIN,
  never SAGOTIN), and a D between vowels is said R (LAKAD -> LAKARIN, never LAKADIN);
- a core that is itself affixed takes no further affix (no TATATAKBO, MAGNAGLUTO);
- the linker is -NG after a vowel and -G after N (ISA -> ISANG, ULAN -> ULANG), on any
  accepted word but the markers, particles and conjunctions (no RING from RIN); of the
  closed classes only pronouns and demonstratives take it (AKING, KANYANG, ITONG), and a
  prefix chain is no word it links (PANG stays a prefix).

`analyses` yields every parse but compounds (which the build script must not count as
affixed forms); `derive` the first one found, shortest first, then a compound.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

VOWELS = frozenset("aeiou")
PREFIXES = ("mag", "nag", "pag", "ma", "ka")  # the simple prefixes the move finder wraps roots in
INFIXES = ("um", "in")
SUFFIXES = ("han", "an", "hin", "in")

# Suffixes a prefix chain may take: "an" stands for -an/-han, "in" for -in/-hin.
_BOTH, _AN, _NONE = frozenset({"an", "in"}), frozenset({"an"}), frozenset[str]()
CHAINS: dict[str, frozenset[str]] = {
    "": _BOTH, "pa": _BOTH, "pag": _BOTH, "ma": _BOTH, "na": _AN, "ka": _AN,
    "mag": _AN, "nag": _AN, "magka": _AN, "nagka": _AN, "pagka": _AN, "magpa": _AN, "nagpa": _AN,
    "pagpa": _AN, "pina": _AN, "pinag": _AN, "ipa": _NONE, "ipag": _NONE,
    "ipina": _NONE, "ipinag": _NONE, "ikina": _NONE, "i": _NONE, "ika": _NONE, "ikapag": _NONE,
    "maka": _NONE, "naka": _NONE, "makapag": _NONE, "nakapag": _NONE, "makipag": _AN,
    "nakipag": _AN, "pakikipag": _AN, "makapa": _NONE, "nakapa": _NONE, "pinaka": _NONE,
    "pinakama": _NONE, "napaka": _NONE, "taga": _NONE, "tagapag": _NONE, "mapa": _NONE,
    "napa": _NONE, "magsi": _NONE, "nagsi": _NONE, "magsipag": _NONE, "nagsipag": _NONE,
    "magpaka": _NONE, "nagpaka": _NONE, "mai": _NONE, "nai": _NONE, "maipa": _NONE,
    "naipa": _NONE, "pampa": _NONE, "ipagpa": _NONE, "pinapa": _AN, "pinagpa": _AN,
    "mapag": _BOTH,
}
# Chains whose own syllable is reduplicated (NAKAKA-, NAKIKIPAG-): no second reduplication.
REDUPLICATED_CHAINS: dict[str, frozenset[str]] = {
    "nakaka": _NONE, "makaka": _NONE, "nakakapag": _NONE, "makakapag": _NONE,
    "nakikipag": _AN, "makikipag": _AN, "nagpapa": _AN, "magpapa": _AN, "pagpapa": _AN,
    "nagkaka": _AN, "magkaka": _AN, "pagkaka": _AN, "nagsisi": _NONE, "magsisi": _NONE,
    "nagsisipag": _NONE, "magsisipag": _NONE, "ipinapa": _NONE, "pinapapa": _AN,
}
# Chains ending in a nasal that takes the root's place of articulation (PANG-, MANG-, SANG-,
# KASING-, ...), by the letters before the nasal: (suffixes taken, whether the nasal may
# replace the root's first sound).
NASAL_CHAINS: dict[str, tuple[frozenset[str], bool]] = {
    "pa": (_BOTH, True), "ma": (_AN, True), "na": (_AN, True), "ipa": (_NONE, True),
    "pagpa": (_NONE, True), "sa": (_NONE, False), "kasi": (_NONE, False), "si": (_NONE, False),
    "pina": (_AN, False), "ipina": (_NONE, False),
}
# Prefixes whose presence makes a lexicon word count as already affixed.
STACKED = ("mag", "nag", "pag", "um", "ma", "na", "naka", "maka", "ka", "pa", "i")
# Tagalog's closed classes (markers, pronouns, demonstratives, conjunctions, particles):
# they take no affix, so no parse may start from one (KUMINA is no -UM- form of KINA).
FUNCTION_WORDS = frozenset("""
    ang ng sa mga nang si sina ni nina kay kina ako ko akin ikaw ka mo iyo siya niya kaniya kanya
    kami namin amin tayo natin atin kayo ninyo inyo sila nila kanila ito nito dito iyan niyan diyan
    iyon niyon noon doon at o pero ngunit subalit kung kapag dahil sapagkat kaya kasi upang na pa
    nga ba daw raw din rin lang lamang naman pala po ho muna yata sana man ay
""".split())
# The closed-class words that take the linker (AKING, KANILANG, ITONG, SIYANG).
LINKING_FUNCTION_WORDS = frozenset("""
    ako ikaw siya kami tayo kayo sila niya namin natin ninyo nila akin iyo kaniya kanya amin atin
    inyo kanila ito iyan iyon nito niyan niyon
""".split())
# Every prefix chain as written (PAGKA, PINAG, PANG, ...), and the PAKA-/PAKI- of
# commands: none is half of a compound, even where a word list holds it.
AFFIX_CHAINS = frozenset([*CHAINS, *REDUPLICATED_CHAINS, "paka", "paki"]
                         + [stem + nasal for stem in NASAL_CHAINS for nasal in ("ng", "m", "n")])
# PANG- naming the thing for a deed (PANTAWID, PAMATAY): the one affixed first half.
INSTRUMENT_STEPS = frozenset({"pang-", "pam-", "pan-", "nasal substitution"})
MAX_DEPTH = 2           # a whole-word reduplication of a derived word, no deeper
LINKED_BASE_LETTERS = 3    # a word with the linker: ISA-NG, not MO-NG or LA-NG
COMPOUND_PART_LETTERS = 4  # each half of a compound has at least this many letters


def nasal_for(first: str) -> str:
    """The nasal a prefix such as PANG- takes before a root's first letter."""
    if first in "bp":
        return "m"
    return "n" if first in "dlrst" else "ng"


@dataclass(frozen=True)
class Derivation:
    """`word` reaches lexicon `root` through `steps` (outermost first): ('ma-', 'reduplication')."""

    word: str
    root: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class SuffixForms:
    """Which vowel-final roots take -AN/-IN without H: decided by the forms a word list
    holds (BASAIN), because the glottal stop that decides it is not written."""

    plain: frozenset[str] = frozenset()   # attested with -an/-in after the final vowel
    with_h: frozenset[str] = frozenset()  # attested with -han/-hin

    def allows(self, root: str, with_h: bool) -> bool:
        if root[-1:] not in VOWELS:
            return not with_h
        if with_h:
            return root in self.with_h or root not in self.plain
        return root in self.plain


class Grammar:
    """The rules above bound to a lexicon: `is_root` says what a core may be."""

    def __init__(self, is_root: Callable[[str], bool], suffixes: SuffixForms = SuffixForms(),
                 min_root_letters: int = 3, is_name: Callable[[str], bool] = lambda w: False,
                 is_common: Callable[[str], bool] = lambda w: False) -> None:
        self.is_root = lambda text: text not in FUNCTION_WORDS and is_root(text)
        self.is_linkable = lambda text: is_root(text) and (text not in FUNCTION_WORDS or text in LINKING_FUNCTION_WORDS)
        self.suffixes = suffixes
        self.min_root = min_root_letters
        self.is_name = is_name
        self.is_common = lambda text: self.is_root(text) and is_common(text) and _syllables(text) >= 2
        self._affixed_memo: dict[str, bool] = {}

    # --- the core: a root, or a root said twice ---

    def _root(self, text: str) -> bool:
        return len(text) >= self.min_root and self.is_root(text)

    def _cores(self, text: str) -> Iterator[tuple[str, tuple[str, ...]]]:
        """(root, steps) for a core: the root itself, or its whole reduplication."""
        if self._root(text) and not self._affixed(text):
            yield text, ()
        half = len(text) // 2
        for cut in range(max(2, half - 2), half + 1):
            first, second = text[:cut], text[cut:]
            if len(second) < 3 or not self.is_root(second) or self._affixed(second):
                continue
            if first in (second, _raised(second)) or (second.startswith(first) and _syllables(first) == 2
                                                      and _syllables(second) >= 3):
                yield second, ("whole reduplication",)

    def _affixed(self, word: str) -> bool:
        """Whether a lexicon word is itself a prefixed, infixed, suffixed or reduplicated
        form of another."""
        if word not in self._affixed_memo:
            self._affixed_memo[word] = self._prefixed(word) or self._suffixed_root(word)
        return self._affixed_memo[word]

    def _prefixed(self, word: str) -> bool:
        """Whether a lexicon word is a prefixed, infixed or reduplicated form of another."""
        for prefix in STACKED:
            rest = word[len(prefix):]
            if word.startswith(prefix) and len(rest) >= 4 and self.is_root(rest):
                return True
        for infix in INFIXES:
            if word[:1] not in VOWELS and word[1:3] == infix and len(word) >= 6 \
                    and self.is_root(word[0] + word[3:]):
                return True
        unreduplicated = _unreduplicate(word)
        return unreduplicated is not None and len(unreduplicated) >= 4 and self.is_root(unreduplicated)

    def _suffixed_root(self, word: str) -> bool:
        for suffix in SUFFIXES:
            base = word[: -len(suffix)]
            if word.endswith(suffix) and len(base) >= 4 and (self.is_root(base) or self.is_root(_lowered(base))):
                return True
        return False

    # --- a stem: [reduplication] core [suffix], with an infix where the chain allows ---

    def _suffixed(self, text: str, suffixes: frozenset[str]) -> Iterator[tuple[str, tuple[str, ...]]]:
        yield from self._cores(text)
        for suffix in SUFFIXES:
            if suffix[-2:] not in suffixes or not text.endswith(suffix) or len(text) - len(suffix) < 2:
                continue
            base, with_h = text[: -len(suffix)], suffix.startswith("h")
            if with_h and base[-1:] not in VOWELS:
                continue
            last = max((i for i, ch in enumerate(base) if ch in VOWELS), default=-1)
            if last < 0 or base[last] == "o":  # the last O of a root is said U before a suffix
                continue
            between_vowels = base[-2:-1] in VOWELS
            if between_vowels and base[-1] == "d":  # the D of a root is said R: LAKARIN
                continue
            roots = [base] + ([base[:last] + "o" + base[last + 1:]] if base[last] == "u" else [])
            if between_vowels and base[-1] == "r":
                roots += [root[:-1] + "d" for root in roots]
            for root in roots:
                for core, steps in self._cores(root):
                    if self.suffixes.allows(core, with_h):
                        yield core, steps + (f"-{suffix}",)

    def _stem(self, text: str, suffixes: frozenset[str], infix: bool, reduplicate: bool
              ) -> Iterator[tuple[str, tuple[str, ...]]]:
        forms: list[tuple[str, tuple[str, ...], frozenset[str]]] = [(text, (), suffixes)]
        if infix:
            for inner, step, allowed in _without_infix(text):
                forms.append((inner, (step,), suffixes & allowed))
        for form, steps, allowed in forms:
            yield from ((r, steps + s) for r, s in self._suffixed(form, allowed))
            if reduplicate:
                rest = _unreduplicate(form)
                if rest is not None:
                    yield from ((r, steps + ("reduplication",) + s) for r, s in self._suffixed(rest, allowed))

    # --- the whole word ---

    def analyses(self, word: str, depth: int = 0) -> Iterator[Derivation]:
        """Every parse of `word` down to a root, prefix chains tried shortest first."""
        if self.is_name(word) or _tripled(word):
            return
        for chain in _chains_of(word, CHAINS):
            for root, steps in self._stem(word[len(chain):], CHAINS[chain], chain in ("", "i"), True):
                yield Derivation(word, root, ((f"{chain}-",) if chain else ()) + steps)
        for chain in _chains_of(word, REDUPLICATED_CHAINS):
            for root, steps in self._stem(word[len(chain):], REDUPLICATED_CHAINS[chain], False, False):
                yield Derivation(word, root, (f"{chain}-",) + steps)
        yield from self._nasal(word)
        if depth < MAX_DEPTH:
            yield from self._doubled(word, depth)
            yield from self._linked(word, depth)

    def _nasal(self, word: str) -> Iterator[Derivation]:
        for stem, (suffixes, replaces) in NASAL_CHAINS.items():
            if not word.startswith(stem):
                continue
            rest = word[len(stem):]
            for nasal in ("ng", "m", "n"):
                if not rest.startswith(nasal) or len(rest) <= len(nasal) + 1:
                    continue
                after = rest[len(nasal):]
                if nasal_for(after[0]) == nasal:  # PAM+BURA, PAN+SULAT, PANG+HUGAS
                    for root, steps in self._stem(after, suffixes, False, True):
                        yield Derivation(word, root, (f"{stem}{nasal}-",) + steps)
                if replaces and after[0] in VOWELS:  # MANG+BILI -> MAMILI, MANG+KUHA -> MANGUHA
                    for first in _replaced(nasal):
                        for root, steps in self._stem(first + after, suffixes, False, False):
                            if root[0] in "aeioubpdstk":
                                yield Derivation(word, root, (f"{stem}ng-", "nasal substitution") + steps)
                    for redone in _nasal_reduplicated(nasal, after):
                        for first in _replaced(nasal):
                            for root, steps in self._stem(first + redone, suffixes, False, False):
                                yield Derivation(word, root, (f"{stem}ng-", "nasal substitution",
                                                              "reduplication") + steps)

    def compounds(self, word: str) -> Iterator[Derivation]:
        """LAKAD-TAKBO, LUKSONG-BAKA, PANTAWID-GUTOM: a common word after a common word, as
        the module's docstring says; the derivation's root is the first half's."""
        if self.is_name(word) or _tripled(word):
            return
        for cut in range(COMPOUND_PART_LETTERS, len(word) - COMPOUND_PART_LETTERS + 1):
            first, second = word[:cut], word[cut:]
            if _syllable_twice(first) or not self._compound_half(second, self._prefixed):
                continue
            heads = list(self._compound_heads(first))
            if heads and not self._prefixes(first, second):  # the costly test last
                yield from (Derivation(word, head.root, head.steps + (f"compound with {second.upper()}",))
                            for head in heads)

    def _compound_heads(self, first: str) -> Iterator[Derivation]:
        """The readings of a compound's first half: a word, a word with the linker -NG, or
        the PANG- word naming a thing for a deed (PANTAWID, PAMATAY)."""
        if self._compound_half(first):
            yield Derivation(first, first, ())
        head = first[:-2]
        if first.endswith("ng") and head[-1:] in VOWELS and self._compound_half(head):
            yield Derivation(first, head, ("linker -ng",))
        for tool in self._nasal(first):
            if set(tool.steps) <= INSTRUMENT_STEPS and self._compound_half(tool.root):
                yield tool

    def _prefixes(self, first: str, second: str) -> bool:
        """Whether the end of `first` reads as a prefix of `second` (KAMA-LUTO is also
        KA + MALUTO, KAPA-ALIS is KA + PAALIS): such a split is an affix, not a compound."""
        return any(found.root == second for cut in range(1, len(first))
                   for found in self.analyses(first[cut:] + second, MAX_DEPTH))

    def _compound_half(self, text: str, affixed: Callable[[str], bool] | None = None) -> bool:
        """A word that may be half of a compound; the second half may be suffixed
        (SILID-AKLATAN), by `affixed`."""
        return text not in AFFIX_CHAINS and self.is_common(text) and not (affixed or self._affixed)(text)

    def _whole(self, word: str, depth: int) -> Derivation | None:
        return next(iter(self.analyses(word, depth + 1)), None) if not self._root(word) else \
            Derivation(word, word, ())

    def _doubled(self, word: str, depth: int) -> Iterator[Derivation]:
        """MASAYANG-MASAYA: an accepted word said twice, with the linker -NG or without."""
        for linker in ("", "ng"):
            size = (len(word) - len(linker)) // 2
            first, second = word[:size], word[size + len(linker):]
            if size >= 3 and first == second and word[size:size + len(linker)] == linker \
                    and (not linker or first[-1] in VOWELS):
                found = self._whole(second, depth)
                if found:
                    yield Derivation(word, found.root, ("whole reduplication",) + found.steps)


    def _linked(self, word: str, depth: int) -> Iterator[Derivation]:
        """ISANG, MAGANDANG, KAIBIGANG: an accepted word with the linker, which is written
        joined to it."""
        if word in AFFIX_CHAINS:
            return
        for base in _linker_bases(word):
            if len(base) < LINKED_BASE_LETTERS:
                continue
            if self.is_linkable(base):
                yield Derivation(word, base, ("linker -ng",))
            else:
                found = next(iter(self.analyses(base, depth + 1)), None)
                if found and found.root != base:
                    yield Derivation(word, found.root, found.steps + ("linker -ng",))


_LONGEST_CHAIN = max(map(len, [*CHAINS, *REDUPLICATED_CHAINS]))


def _chains_of(word: str, chains: dict[str, frozenset[str]]) -> list[str]:
    """The chains `word` starts with (leaving letters after them), in the table's order."""
    order = list(chains)
    found = [word[:n] for n in range(min(len(word) - 1, _LONGEST_CHAIN) + 1) if word[:n] in chains]
    return sorted(found, key=order.index)


def _linker_bases(word: str) -> Iterator[str]:
    """The words `word` may be with the linker: less -NG after a vowel (ISA-NG), less -G
    after N (ULAN-G)."""
    if word.endswith("ng"):
        if word[-3:-2] in VOWELS:
            yield word[:-2]
        yield word[:-1]


def _syllables(text: str) -> int:
    return sum(1 for ch in text if ch in VOWELS)


def _tripled(word: str) -> bool:
    """A letter three times in a row (IIINOM) spells no Tagalog word."""
    return any(a == b == c for a, b, c in zip(word, word[1:], word[2:]))


def _syllable_twice(text: str) -> bool:
    """PAGPAG, BIBI: one syllable (CV or CVC) said twice and nothing else."""
    half = len(text) // 2
    return len(text) % 2 == 0 and text[:half] == text[half:] and _syllables(text[:half]) == 1


def _raised(word: str) -> str:
    """The word with the O of its last syllable said U (HALO -> HALU), as the first half of
    a whole reduplication may have it (HALU-HALO, TAGU-TAGUAN)."""
    last = max((i for i, ch in enumerate(word) if ch in VOWELS), default=-1)
    return word[:last] + "u" + word[last + 1:] if last >= 0 and word[last] == "o" else word


def _lowered(word: str) -> str:
    last = max((i for i, ch in enumerate(word) if ch in VOWELS), default=-1)
    return word[:last] + "o" + word[last + 1:]


def _unreduplicate(text: str) -> str | None:
    """The text without its reduplicated first syllable (A+ALIS, HA+HABAG, NGI+NGITI)."""
    if text[:1] in VOWELS:
        return text[1:] if text[1:2] == text[0] else None
    onset = "ng" if text.startswith("ng") else text[:1]
    syllable = text[: len(onset) + 1]
    if syllable[-1:] in VOWELS and text[len(syllable):].startswith(syllable):
        return text[len(syllable):]
    return None


def _without_infix(text: str) -> Iterator[tuple[str, str, frozenset[str]]]:
    """(text without its infix, the step, the suffixes still allowed). -UM- takes no
    suffix; NI- stands for -IN- before L and Y (NILINIS)."""
    for infix, allowed in (("um", _NONE), ("in", _AN)):
        if text.startswith(infix) and text[2:3] in VOWELS:
            yield text[2:], f"-{infix}-", allowed
        elif text[:1] not in VOWELS and text[1:3] == infix and text[3:4] in VOWELS:
            yield text[0] + text[3:], f"-{infix}-", allowed
    if text.startswith("ni") and text[2:3] in ("l", "y"):
        yield text[2:], "-in-", _AN


def _replaced(nasal: str) -> Iterator[str]:
    """The first sounds a nasal may have replaced (MANG+BILI -> MA+MILI, +TAHI -> NAHI),
    or merged with (MANG+NOOD -> MANOOD)."""
    if nasal == "m":
        yield from ("p", "b", "m")
    elif nasal == "n":
        yield from ("t", "s", "d", "n")
    else:
        yield "k"
        yield ""


def _nasal_reduplicated(nasal: str, after: str) -> Iterator[str]:
    """MAMIMILI: the replaced syllable said twice (MI+MILI); yields the text after it."""
    syllable = nasal + after[:1]
    if after[:1] in VOWELS and after[1:].startswith(syllable):
        yield after[1 + len(nasal):]


@lru_cache(maxsize=16)
def _grammar(is_root: Callable[[str], bool], suffixes: SuffixForms, min_root_letters: int,
             is_name: Callable[[str], bool], is_common: Callable[[str], bool]) -> Grammar:
    """One grammar per table, so what it learnt of its lexicon words serves later checks."""
    return Grammar(is_root, suffixes, min_root_letters, is_name, is_common)


def derive(word: str, is_root: Callable[[str], bool], min_root_letters: int = 3,
           suffixes: SuffixForms | None = None, is_name: Callable[[str], bool] | None = None,
           is_common: Callable[[str], bool] | None = None) -> Derivation | None:
    """The first analysis of `word` that reaches a root (other than the word itself), else
    its first compound. The lexicon's suffix forms, proper names and common words are used
    unless others are given."""
    if suffixes is None or is_name is None or is_common is None:
        from rules.dugtungan.lexicon import common_words, proper_names, suffix_forms
        suffixes = suffix_forms() if suffixes is None else suffixes
        is_name = proper_names().__contains__ if is_name is None else is_name
        is_common = common_words().__contains__ if is_common is None else is_common
    grammar = _grammar(is_root, suffixes, min_root_letters, is_name, is_common)
    for found in grammar.analyses(word):
        if found.root != word:
            return found
    return next(grammar.compounds(word), None)
