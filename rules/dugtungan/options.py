"""dugtungan's house-default switches.

Only the Tagalog FAQ of dug2ngan is public; every rule the project had to reconstruct
(RULES-NOTES) is a field here, so a table that reads the game differently flips a switch
instead of patching code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DECK_RUNS_OUT_CHOICES = ("ask", "reshuffle", "score")
MIN_ZIPF, MAX_ZIPF = 0.0, 8.0  # wordfreq's Zipf scale: 8 would be one word in ten


def _option(default: Any, doc: str) -> Any:
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True)
class Options:
    min_zipf: float = _option(3.0, "frequency floor of the lexicon (wordfreq Zipf scale); 3.0 keeps "
                                   "every word of wordfreq's Filipino list, 4.0 only common ones")
    derived_words: bool = _option(True, "accept a word whose affixes and reduplication lead to a "
                                        "lexicon root (MAHAHABAG from HABAG)")
    derived_need_vote: bool = _option(False, "a derived word is valid only after the table approves "
                                             "it in a challenge vote")
    min_root_letters: int = _option(4, "shortest lexicon root a derived word may lead to")
    one_action_card_per_turn: bool = _option(True, "a turn lays at most one action card, counting the "
                                                   "word's cards and the new PAMATO")
    sapaw_own_word: bool = _option(False, "the player who formed or last sapawed a word may sapaw it "
                                          "again at once (the FAQ lets them only after another player)")
    revealed_actions_fire: bool = _option(False, "an action card revealed from the deck (first or "
                                                 "after a dead card) takes effect as if laid")
    deck_runs_out: str = _option("ask", "when the draw deck is empty and a draw is due: ask the table, "
                                        "always reshuffle the banks, or always score letters")
    hand_size: int = _option(7, "cards dealt to each player when the setup gives no hands")

    def __post_init__(self) -> None:
        if self.deck_runs_out not in DECK_RUNS_OUT_CHOICES:
            raise ValueError(f"deck_runs_out must be one of {', '.join(DECK_RUNS_OUT_CHOICES)}")
        if not MIN_ZIPF <= self.min_zipf <= MAX_ZIPF:
            raise ValueError(f"min_zipf must be between {MIN_ZIPF} and {MAX_ZIPF}, the Zipf scale")
        if self.min_root_letters < 2:
            raise ValueError("min_root_letters must be at least 2")
        if self.hand_size < 1:
            raise ValueError("hand_size must be at least 1")
