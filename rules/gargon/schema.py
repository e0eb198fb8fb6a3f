"""Gargon's events as the host page's forms (see `rules.event_schema`)."""

from __future__ import annotations

from rules.core import GameState
from rules.event_schema import Schema, cards, choice, entry, event, per_seat, seat
from rules.gargon import cards as gargon_cards


def event_schema(state: GameState) -> Schema:
    colours = [(c, f"{c} ({gargon_cards.CREATURES[c]})") for c in gargon_cards.COLOURS]
    piles = [(1, "pile 1"), (2, "pile 2")]
    return {
        "lists": {"gargon": [entry(c.code, f"{c.colour} {c.value}", colour=c.colour, value=c.value)
                             for c in sorted(set(gargon_cards.full_deck()),
                                             key=lambda c: (gargon_cards.COLOURS.index(c.colour), c.value))],
                  "colours": [entry(c, text) for c, text in colours],
                  "piles": [entry(p, text) for p, text in piles]},
        "events": [
            event("play", "Lay cards face down", seat(label="Seat"),
                  cards("colours", "colours", "Colours on the backs", 1)),
            event("pass", "Pass and draw", seat(label="Seat"), cards("draws", "piles", "Piles drawn from")),
            event("reveal", "Turn the played cards up", per_seat("cards", "gargon", "Cards turned up")),
            event("battle", "Choose the colour fought", seat(label="Seat"), choice("colour", "Colour", colours)),
            event("draw", "Draw a replacement", seat(label="Seat"), choice("pile", "Pile", piles)),
        ],
    }
