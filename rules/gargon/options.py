"""Gargon's house-default switches (RULES-NOTES marks them; the README lists them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    """Readings of the rulebook that a table may switch. Amulet counts are deck data, not
    options: a deck passes them as `amulets` (see `rules.gargon.cards.amulet_table`)."""

    shared_win: bool = field(default=True, metadata={
        "doc": "players tied for the most points share the win; off, the tie goes to whoever "
               "won more cards (still tied: shared)"})
    open_won_cards: bool = field(default=False, metadata={
        "doc": "the book's variant: won cards stay face up, so the live scoreboard shows "
               "every player's won cards and running total; off, only how many each has won"})
