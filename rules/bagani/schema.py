"""Bagani's events as the host page's forms (see `rules.event_schema`)."""

from __future__ import annotations

from rules.bagani import cards as bagani_cards
from rules.bagani.state import BaganiState
from rules.core import GameState
from rules.event_schema import Schema, card, cards, choice, entry, event, groups, number, per_seat, seat


def event_schema(state: GameState) -> Schema:
    assert isinstance(state, BaganiState)
    kinds = state.deck.kinds
    colours = [(c, f"{c} ({bagani_cards.REGIONS[c]})") for c in bagani_cards.COLOURS]
    attacks = [(a, f"{a}: {text['text']}") for a, text in bagani_cards.ATTACKS.items()]
    codes = sorted(bagani_cards.CARD_CODES, key=lambda c: (c == bagani_cards.BIYAYA, c))
    halimaw = [entry(h.name, h.name, color=h.color, lakas=h.lakas, dp=h.dp,
                      attacks=list(h.attacks) if h.attacks is not None else None)
               for h in sorted(kinds.values(), key=lambda h: h.name)]
    # A Halimaw as the host tells it: the facts the book prints come filled in (`prefill`),
    # the rest (the book prints few) typed once, when the card first shows.
    halimaw_facts = [card("name", "halimaw", "Which Halimaw", new="a Halimaw of this deck"),
                     choice("color", "Colour", colours, optional=True),
                     number("lakas", "Lakas", 1, 20, optional=True),
                     number("dp", "DP", 0, 50, optional=True),
                     {"key": "attacks", "type": "multi", "label": "Attacks", "optional": True,
                      "options": [{"value": v, "label": t} for v, t in attacks]}]
    return {
        "lists": {"bagani": [entry(c, c.replace("-", " ") if c != bagani_cards.BIYAYA
                                    else bagani_cards.BIYAYA_NAME) for c in codes],
                  "halimaw": halimaw},
        "events": [
            event("setup", "The face-up rows at the start",
                  cards("bagani", "bagani", "Five face-up Bagani cards", 5, 5),
                  {"key": "halimaw", "type": "records", "label": "Four face-up Halimaw", "item": "Halimaw",
                   "min": 4, "max": 4, "prefill": "halimaw", "fields": halimaw_facts}),
            event("draw", "Draw a card", seat(),
                  choice("source", "From", [("row", "the face-up row"), ("deck", "the deck top")]),
                  card("card", "bagani", "Card (if seen)", optional=True)),
            event("refill", "Refill the face-up row", card("card", "bagani", "Card")),
            event("discard", "Discard (hand limit)", seat(), card("card", "bagani", "Card (if seen)", optional=True)),
            event("combos", "Put down combos", seat(), groups("combos", "bagani", "Combos", "Combo")),
            event("defeat", "Defeat a Halimaw", seat(), card("halimaw", "halimaw", "Halimaw")),
            event("done", "End the attack step (or pass)", seat()),
            event("reveal", "Reveal the next Halimaw",
                  {"key": "halimaw", "type": "record", "label": "Halimaw", "prefill": "halimaw",
                   "fields": halimaw_facts}),
            event("show", "A hand shown to the table", seat(), cards("cards", "bagani", "Cards")),
            event("end", "Score the final hands", per_seat("hands", "bagani", "Final hand", optional=True)),
        ],
    }
