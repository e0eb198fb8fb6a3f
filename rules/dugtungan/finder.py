"""The move finder: every word a hand can make around the PAMATO, longest first.

It gives hints, and settles "I have no move" before a player passes. The search lays the
hand's cards one after another, the PAMATO among them exactly once, and abandons a
sequence as soon as its letters can no longer grow into a word: a lexicon word, a house
word, or a lexicon root wrapped the way Tagalog wraps it (one prefix ma-, mag-, nag-,
pag-, ka-; a first-syllable reduplication; an infix -um-/-in- after the root's first
consonant; a suffix -an, -in, -han). Every candidate is then judged by the same
`Dictionary` as `check`, so a suggestion is never a word the table would refuse.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Sequence

from rules.dugtungan.cards import Card
from rules.dugtungan.lexicon import finder_builds, lexicon_words
from rules.dugtungan.morphology import INFIXES, PREFIXES, SUFFIXES, VOWELS
from rules.dugtungan.words import Dictionary, WordVerdict


MEMO_LIMIT = 200_000  # readings remembered before the memo starts afresh (bounds memory)


@dataclass(frozen=True)
class Move:
    """A word the hand can lay: its cards in order, and what the dictionary says of it."""

    cards: tuple[Card, ...]
    pamato_at: int             # where the PAMATO lies among the cards
    verdict: WordVerdict

    @property
    def from_hand(self) -> tuple[Card, ...]:
        return self.cards[:self.pamato_at] + self.cards[self.pamato_at + 1:]

    @property
    def letters(self) -> int:
        return len(self.verdict.text)


def _beginnings(affixes: Sequence[str]) -> frozenset[str]:
    return frozenset(a[:n] for a in affixes for n in range(1, len(a) + 1))


_PREFIX_BEGINNINGS = _beginnings(PREFIXES)
_INFIX_BEGINNINGS = _beginnings(INFIXES)
_SUFFIX_BEGINNINGS = _beginnings(SUFFIXES)


@lru_cache(maxsize=8)
def _sorted_lexicon(min_zipf: float, derived: bool) -> tuple[str, ...]:
    """The words the automaton spells: with derived words on, the roots and the words it
    cannot build from them (the rest it finds by wrapping a root)."""
    words = lexicon_words(min_zipf)
    return tuple(sorted(words - finder_builds() if derived else words))


class _Shapes:
    """Which letter strings can still grow into a word shape, as a small automaton.

    A state is one reading of the letters so far: ("P", prefix so far), ("D", reduplicated
    consonant), ("R", root so far, letters the reduplication still demands), ("I", root so
    far, infix so far), ("S", suffix so far).
    """

    def __init__(self, words: Sequence[str], extra: frozenset[str], derived: bool, min_root: int) -> None:
        self.words = tuple(sorted(set(words) | extra))
        self.known = frozenset(self.words)
        self.derived = derived
        self.min_root = min_root
        self._joined = "\n".join(self.words)
        self._backwards = sorted((w[::-1], i) for i, w in enumerate(self.words))
        self._starts = [0]
        for word in self.words[:-1]:
            self._starts.append(self._starts[-1] + len(word) + 1)
        # readings -> letter -> readings after it: the memo every search shares
        self._moves: dict[frozenset[tuple], dict[str, frozenset[tuple]]] = {}
        self._holders: dict[str, tuple[str, ...]] = {}
        self._complete: dict[frozenset[tuple], bool] = {}
        self._toward: dict[str, dict[frozenset[tuple], frozenset[tuple]]] = {}

    def _grows(self, root: str, words: Sequence[str] | None = None) -> bool:
        words = self.words if words is None else words
        at = bisect_left(words, root)
        return at < len(words) and words[at].startswith(root)

    def _holding(self, syllable: str) -> tuple[str, ...]:
        """The words whose surface can hold `syllable`: it is inside the word or, when words
        are derived, it runs on into a suffix (HABA|G+AN holds GAN)."""
        if syllable not in self._holders:
            if self.derived and any(syllable in s for s in SUFFIXES):
                self._holders[syllable] = self.words
                return self.words
            hits = set()
            at = self._joined.find(syllable)
            while at != -1:
                hits.add(bisect_right(self._starts, at) - 1)
                at = self._joined.find(syllable, at + 1)
            if self.derived:
                for cut in range(1, len(syllable)):
                    head, tail = syllable[:cut], syllable[cut:]
                    if tail in _SUFFIX_BEGINNINGS:
                        backwards = head[::-1]
                        at = bisect_left(self._backwards, (backwards,))
                        while at < len(self._backwards) and self._backwards[at][0].startswith(backwards):
                            hits.add(self._backwards[at][1])
                            at += 1
            self._holders[syllable] = tuple(self.words[i] for i in sorted(hits))
        return self._holders[syllable]

    def toward(self, states: frozenset[tuple], syllable: str) -> frozenset[tuple]:
        """The readings that can still take `syllable` (the PAMATO, not yet laid) later on.

        A root reading of two letters or more must begin a word that holds the syllable (the
        shorter ones may still take an infix); a suffix reading must have the syllable in
        the rest of its suffix; the other readings are kept as they are."""
        memo = self._toward.setdefault(syllable, {})
        if states not in memo:
            holders = self._holding(syllable)
            memo[states] = frozenset(s for s in states if self._may_hold(s, syllable, holders))
        return memo[states]

    def _may_hold(self, state: tuple, syllable: str, holders: Sequence[str]) -> bool:
        if state[0] == "R":
            return len(state[1]) < 2 or self._grows(state[1], holders)
        if state[0] == "S":
            return any(syllable in s[len(state[1]):] for s in SUFFIXES if s.startswith(state[1]))
        return True

    def start(self) -> frozenset[tuple]:
        return self._closure({("P", "")} if self.derived else {("R", "", "")})

    def _closure(self, states: set[tuple]) -> frozenset[tuple]:
        out = set(states)
        for state in states:
            if state[0] == "P" and (state[1] == "" or state[1] in PREFIXES):
                out |= {("R", "", ""), ("D", "")}
            if self.derived and state[0] == "R" and not state[2] and len(state[1]) >= self.min_root \
                    and state[1] in self.known:
                out.add(("S", ""))
        return frozenset(out)

    def moves(self, states: frozenset[tuple]) -> dict[str, frozenset[tuple]]:
        """The memo of what follows `states`: letters or whole syllables -> readings."""
        return self._moves.setdefault(states, {})

    def step(self, states: frozenset[tuple], letters: str) -> frozenset[tuple]:
        """The readings after `letters` more (empty: no word grows from here). Memoised a
        letter at a time and a syllable at a time, as card orders meet again."""
        memo = self.moves(states)
        if letters not in memo:
            after = states
            for ch in letters:
                after_moves = self.moves(after)
                if ch not in after_moves:
                    after_moves[ch] = self._closure({n for s in after for n in self._next(s, ch)})
                after = after_moves[ch]
                if not after:
                    break
            memo[letters] = after
        return memo[letters]

    def forget_if_full(self) -> None:
        if len(self._moves) + sum(map(len, self._toward.values())) > MEMO_LIMIT:
            self._moves.clear()
            self._toward.clear()
            self._complete.clear()

    def _next(self, state: tuple, ch: str) -> Iterator[tuple]:
        kind = state[0]
        if kind == "P":
            if state[1] + ch in _PREFIX_BEGINNINGS:
                yield ("P", state[1] + ch)
        elif kind == "D":
            if state[1] == "" and ch not in VOWELS:
                yield ("D", ch)
            elif ch in VOWELS:
                yield ("R", "", state[1] + ch)
        elif kind == "R":
            root, must = state[1], state[2]
            if (not must or must[0] == ch) and self._grows(root + ch):
                yield ("R", root + ch, must[1:])
            first_consonant = len(root) == 1 and root not in VOWELS
            if self.derived and not must and (root == "" or first_consonant):
                yield from (("I", root, ch) for i in INFIXES if i[0] == ch)
        elif kind == "I":
            root, infix = state[1], state[2] + ch
            if infix in INFIXES:
                yield ("R", root, "")
            elif infix in _INFIX_BEGINNINGS:
                yield ("I", root, infix)
        elif kind == "S":
            if state[1] + ch in _SUFFIX_BEGINNINGS:
                yield ("S", state[1] + ch)

    def complete(self, states: frozenset[tuple]) -> bool:
        """Whether the letters so far are a whole word shape."""
        if states not in self._complete:
            self._complete[states] = self._is_complete(states)
        return self._complete[states]

    def _is_complete(self, states: frozenset[tuple]) -> bool:
        return any((s[0] == "R" and not s[2] and s[1] in self.known) or
                   (s[0] == "S" and s[1] in SUFFIXES) for s in states)


@lru_cache(maxsize=8)
def _shapes(min_zipf: float, house: frozenset[str], derived: bool, min_root: int) -> _Shapes:
    """One automaton per table setting, so its memo of steps serves every later search."""
    return _Shapes(_sorted_lexicon(min_zipf, derived), house, derived, min_root)


def find_words(pamato: Card, hand: Sequence[Card], dictionary: Dictionary,
               actions_left: int | None = None) -> list[Move]:
    """Every valid word the hand can lay around the PAMATO, longest first.

    `actions_left` caps the action cards the hand may spend (the PAMATO never counts);
    by default one when the table plays one action card per turn. A TODAS word is found
    by passing the TODAS card as the PAMATO with no actions left.
    """
    house = frozenset(w for w in dictionary.house.accept if w.isascii() and w.isalpha())
    opts = dictionary.options
    shapes = _shapes(opts.min_zipf, house, opts.derived_words, opts.min_root_letters)
    shapes.forget_if_full()
    by_text: dict[str, list[Card]] = {}
    for card in sorted(hand, key=lambda c: c.action is not None):  # plain cards are spent first
        by_text.setdefault(card.text, []).append(card)
    if actions_left is None:
        actions_left = 1 if dictionary.options.one_action_card_per_turn else len(hand)
    left = {t: len(cs) for t, cs in by_text.items()}
    found: dict[str, Move] = {}

    syllable = pamato.text

    def lay(text: str, laid: list[Card], pamato_at: int | None, states: frozenset[tuple], actions: int) -> None:
        pamato_laid = pamato_at is not None
        if pamato_at is not None and len(laid) >= 2 and text not in found and shapes.complete(states):
            verdict = dictionary.judge(text)
            if verdict.valid:
                found[text] = Move(tuple(laid), pamato_at, verdict)
        memo = shapes.moves(states)
        if not pamato_laid:
            after = memo.get(syllable)
            if after is None:
                after = shapes.step(states, syllable)
            if after:
                lay(text + syllable, laid + [pamato], len(laid), after, actions)
        for piece, n in left.items():
            if not n:
                continue
            card = by_text[piece][len(by_text[piece]) - n]
            spent = actions + (card.action is not None)
            if spent > actions_left:
                continue
            after = memo.get(piece)
            if after is None:
                after = shapes.step(states, piece)
            if after and not pamato_laid:
                after = shapes.toward(after, syllable)
            if after:
                left[piece] = n - 1
                lay(text + piece, laid + [card], pamato_at, after, spent)
                left[piece] = n

    lay("", [], None, shapes.start(), 0)
    return sorted(found.values(), key=lambda m: (-m.letters, -len(m.cards), m.verdict.text))
