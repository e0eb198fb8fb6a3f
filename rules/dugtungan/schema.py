"""dugtungan's events as the host page's forms (see `rules.event_schema`)."""

from __future__ import annotations

from rules.core import GameState
from rules.dugtungan import cards as dugtungan_cards
from rules.event_schema import Schema, card, cards, entry, event, per_seat, seat


def event_schema(state: GameState) -> Schema:
    codes = sorted(dugtungan_cards.deck_counts(), key=lambda c: (c.action is not None, c.syllable, c.code))
    word = lambda key, label: cards(key, "syllables", label, 1)  # noqa: E731
    return {
        "lists": {"syllables": [entry(c.code, c.code) for c in codes]},
        "events": [
            event("reveal", "Turn up a new PAMATO", card("card", "syllables", "Card")),
            event("draw", "Draw a card (BUNOT)", seat(label="Seat"),
                  card("card", "syllables", "Card (if seen)", optional=True)),
            event("dugtong", "Make a word around the PAMATO (DUGTONG)", seat(label="Seat"),
                  word("word", "The word, card by card"),
                  card("pamato", "syllables", "New PAMATO (none if the hand is empty)", optional=True)),
            event("todas", "A word from the hand (TODAS)", seat(label="Seat"), word("word", "The word, card by card")),
            event("pass", "Pass", seat(label="Seat")),
            event("sapaw", "Re-lay the word (SAPAW)", seat(label="Seat"), word("word", "The whole new word")),
            event("pitik", "PITIK: a player draws from the layer's hand", seat(label="Seat"),
                  seat("target", "Who draws"), card("card", "syllables", "Card (if seen)", optional=True)),
            event("reshuffle", "Shuffle the banks into a new deck"),
            event("score-letters", "Score the letters left in hand", per_seat("hands", "syllables", "Hand")),
            event("challenge", "The table voted on a word",
                  {"key": "word", "type": "word", "label": "Word"},
                  {"key": "accepted", "type": "bool", "label": "Accepted"}),
        ],
    }
