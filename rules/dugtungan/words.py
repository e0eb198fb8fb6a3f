"""Is it a word, and was it laid by the rules? DUGTONG, SAPAW and TODAS verdicts.

Each verdict carries a reason a person can read aloud at the table ("HABAG is a word; the
PAMATO BA is inside it"), because a verdict nobody can follow starts an argument instead
of ending one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rules.dugtungan.cards import Card, show, spell
from rules.dugtungan.lexicon import HouseWords, lexicon_words, unaffixed
from rules.dugtungan.morphology import Derivation, derive
from rules.dugtungan.options import Options

TODAS = "TODAS"


@dataclass(frozen=True)
class WordVerdict:
    """What the table's dictionary says about one spelled word.

    `source`: lexicon, house (accepted by the table), derived, needs-vote (derived, and
    the table must approve derived words), rejected (by the table), unknown.
    """

    text: str
    source: str
    derivation: Derivation | None = None

    @property
    def valid(self) -> bool:
        return self.source in ("lexicon", "house", "derived")

    @property
    def root(self) -> str | None:
        return self.derivation.root if self.derivation else None

    def phrase(self) -> str:
        word = self.text.upper()
        if self.derivation:
            how = f"derived from {self.derivation.root.upper()} ({', '.join(self.derivation.steps)})"
            if self.source == "needs-vote":
                return f"{word} is {how} and needs the table's vote"
            return f"{word} is a word {how}"
        return {
            "lexicon": f"{word} is a word",
            "house": f"{word} is a house word of this table",
            "rejected": f"{word} is a word this table rejected",
            "unknown": f"{word} is not in the word list",
        }[self.source]


class Dictionary:
    """The lexicon at the table's frequency floor, the house lists and the affix analysis."""

    def __init__(self, options: Options | None = None, house: HouseWords | None = None) -> None:
        self.options = options or Options()
        self.house = house or HouseWords()
        self.words = lexicon_words(self.options.min_zipf)
        self._whole_only = unaffixed()
        self._verdicts: dict[str, WordVerdict] = {}

    def is_root(self, text: str) -> bool:
        """Whether an affixed form or a compound may be built on `text`: a word of the
        table's but a respelt English loan, which stands only as itself."""
        if text in self.house.reject:
            return False
        return text in self.house.accept or text in self.words and text not in self._whole_only

    def judge(self, text: str) -> WordVerdict:
        if text not in self._verdicts:
            self._verdicts[text] = self._judge(text)
        return self._verdicts[text]

    def _judge(self, text: str) -> WordVerdict:
        if text in self.house.reject:
            return WordVerdict(text, "rejected")
        if text in self.house.accept:
            return WordVerdict(text, "house")
        if text in self.words:
            return WordVerdict(text, "lexicon")
        if self.options.derived_words:
            found = derive(text, self.is_root, self.options.min_root_letters)
            if found:
                return WordVerdict(text, "needs-vote" if self.options.derived_need_vote else "derived", found)
        return WordVerdict(text, "unknown")


@dataclass(frozen=True)
class Verdict:
    """A ruling on cards laid: the contract's `valid`, `word` and `reason`."""

    valid: bool
    word: str
    reason: str
    judged: WordVerdict | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "word": self.word, "reason": self.reason}
        if self.judged:
            out["source"] = self.judged.source
            out["root"] = self.judged.root.upper() if self.judged.root else None
        return out


def _action_cards(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c.action)


def _too_many_actions(added: Sequence[Card], options: Options) -> bool:
    return options.one_action_card_per_turn and _action_cards(added) > 1


def _ruled(cards: Sequence[Card], dictionary: Dictionary, how_laid: str) -> Verdict:
    blank = next((c for c in cards if not c.syllable), None)
    if blank is not None:
        return Verdict(False, show(cards), f"the {blank.code} card has no syllable, so it cannot be part of a word")
    judged = dictionary.judge(spell(cards))
    if judged.valid:
        return Verdict(True, show(cards), f"{judged.phrase()}; {how_laid}", judged)
    return Verdict(False, show(cards), judged.phrase(), judged)


def pamato_place(index: int, length: int) -> str:
    if index == 0:
        return "starts it"
    return "ends it" if index == length - 1 else "is inside it"


def judge_dugtong(pamato: Card, cards: Sequence[Card], dictionary: Dictionary) -> Verdict:
    """DUGTONG: hand cards before, after or around the PAMATO, order kept, one word."""
    word = show(cards)
    if pamato not in cards:
        return Verdict(False, word, f"the PAMATO {pamato.syllable} is not in {word}")
    if len(cards) < 2:
        return Verdict(False, word, "a dugtong adds at least one card from the hand to the PAMATO")
    index = list(cards).index(pamato)
    added = list(cards[:index]) + list(cards[index + 1:])
    if _too_many_actions(added, dictionary.options):
        return Verdict(False, word, "only one action card may be laid in a turn")
    return _ruled(cards, dictionary, f"the PAMATO {pamato.syllable} {pamato_place(index, len(cards))}")


def added_cards(old: Sequence[Card], new: Sequence[Card]) -> list[Card] | None:
    """The cards `new` adds around and between `old`'s cards, or None when `new` does not
    keep every card of `old` in its order."""
    added: list[Card] = []
    position = 0
    for card in new:
        if position < len(old) and card == old[position]:
            position += 1
        else:
            added.append(card)
    return added if position == len(old) else None


def judge_sapaw(old: Sequence[Card], new: Sequence[Card], dictionary: Dictionary) -> Verdict:
    """SAPAW: cards inserted before, inside or after a word, never reordering it."""
    word, before = show(new), " ".join(c.syllable for c in old)
    added = added_cards(old, new)
    if added is None:
        return Verdict(False, word, f"{word} does not keep the cards of {before} in their order: "
                                    "a sapaw adds cards but never reorders the word")
    if not added:
        return Verdict(False, word, "a sapaw adds at least one card")
    if _too_many_actions(added, dictionary.options):
        return Verdict(False, word, "only one action card may be laid in a sapaw")
    return _ruled(new, dictionary, f"{' '.join(c.syllable for c in added)} added to {before} "
                                   "without changing its order")


def judge_todas(cards: Sequence[Card], dictionary: Dictionary) -> Verdict:
    """TODAS: a word from the hand alone, with the TODAS card in it; the PAMATO stays."""
    word = show(cards)
    if not any(c.action == TODAS for c in cards):
        return Verdict(False, word, "a word from the hand alone needs a TODAS card in it")
    if len(cards) < 2:
        return Verdict(False, word, "a word needs at least two cards")
    if _too_many_actions(cards, dictionary.options):
        return Verdict(False, word, "only one action card may be laid in a turn")
    return _ruled(cards, dictionary, "formed with TODAS from the hand; the PAMATO stays in play")
