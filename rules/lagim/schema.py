"""Lagim's events as the host page's forms (see `rules.event_schema`)."""

from __future__ import annotations

from typing import Any, Callable

from rules.core import GameState
from rules.event_schema import Schema, card, cards, choice, entry, event, number, seat
from rules.lagim.cards import MAX_LEVEL, roman
from rules.lagim.state import LagimState


def event_schema(state: GameState) -> Schema:
    assert isinstance(state, LagimState)
    deck = state.table.deck
    faces = sorted(deck, key=lambda c: (c.deck, c.kind, c.name))

    def listed(test: Callable[[Any], bool]) -> list[dict[str, Any]]:
        return [entry(c.name, _label(c), deck=c.deck, kind=c.kind, archetypes=list(c.archetypes),
                       level=c.level) for c in faces if test(c)]

    archetypes = sorted({a for c in faces for a in c.archetypes})
    return {
        "lists": {"forest": listed(lambda c: c.deck == "forest"),
                  "lagim": listed(lambda c: c.kind == "lagim"),
                  "hiwaga": listed(lambda c: c.kind == "hiwaga"),
                  "defenders": listed(lambda c: c.deck == "baryo" and (c.kind == "lakas" or "special" in c.archetypes)),
                  "lakas": listed(lambda c: c.kind == "lakas"),
                  "kontra": listed(lambda c: c.kind == "kontra"),
                  "special": listed(lambda c: c.kind == "kontra" and "special" in c.archetypes),
                  "nullifiers": listed(lambda c: c.nullifies) or listed(lambda c: c.deck == "baryo"),
                  "all": listed(lambda c: True)},
        "events": [
            event("draw_baryo", "Draw a Baryo card", seat()),
            event("build_defence", "Build the defence line", seat(),
                  number("defenders", "New Defenders laid face down", 0, 3),
                  number("equips", "Kontra equipped", 0, 9)),
            event("forest_attack", "A Forest card attacks the Baryo", seat(), card("card", "forest", "Forest card")),
            event("battle", "Battle with Defenders", seat(),
                  {"key": "defenders", "type": "records", "label": "Defenders", "item": "Defender", "min": 1,
                   "fields": [card("name", "defenders", "Defender"),
                              cards("equip", "kontra", "Kontra equipped")]},
                  choice("archetype", "Repel Dwellers of (at Dawn)", [(a, a) for a in archetypes], optional=True),
                  cards("split", "forest", "Split off by an Agimat", optional=True)),
            event("standby", "Stand by (no battle)", seat()),
            event("hasik", "Raid a Baryo (HASIK)", seat(), seat("target", "Raided player"),
                  cards("cards", "forest", "Captured cards sent", 1, 3),
                  card("summoned", "lagim", "Summoned from the Forest Deck", optional=True)),
            event("pagtauli", "Send the raid back (PAGTAULI)", seat(), card("hiwaga", "hiwaga", "Hiwaga added")),
            event("angkla", "Anchor Hiwaga (ANGKLA)", seat(), seat("target", "On whose Dweller"),
                  cards("cards", "hiwaga", "Hiwaga", 1, 3)),
            event("sacrifice_dark_coin", "Sacrifice a Dark Soul Coin", seat(),
                  cards("dwellers", "forest", "Own Dwellers captured", 0, 2),
                  cards("from_deck", "forest", "Cards captured from the Forest Deck", 0, 2)),
            event("baryo_offering", "Baryo offering", seat(), card("lakas", "lakas", "Lakas"),
                  cards("kontra", "kontra", "Four different Kontra", 4, 4)),
            event("special_kontra", "Cast a Special Kontra", seat(), card("card", "special", "Special Kontra")),
            event("switch_defence", "Switch the defence line", seat(),
                  number("back_defenders", "Defenders taken back into the hand", 0, 3),
                  number("back_equips", "Kontra taken back into the hand", 0, 9),
                  number("defenders", "New Defenders laid face down", 0, 3),
                  number("equips", "Kontra equipped", 0, 9)),
            event("salag", "Block with a nullifying card (SALAG)", seat(),
                  card("nullifier", "nullifiers", "Nullifying card"),
                  card("wielder", "lakas", "Lakas Defender wielding it", optional=True),
                  choice("archetype", "On the Dwellers of (at Dawn)", [(a, a) for a in archetypes], optional=True)),
            event("reap", "A Lagim reaps a Soul Coin (REAP)", seat("player", "Reaper"),
                  card("card", "lagim", "Lagim card"), seat("target", "From whose Baryo")),
            event("disable", "A Forest card disables Defenders (DISABLE)", seat(),
                  card("card", "forest", "Forest card"), number("defenders", "Defenders disabled", 1, 3)),
            event("end_phase", "End the phase (no draw possible)", seat()),
            event("printed", "A card's printed level or moon (no deck file)", card("card", "all", "Card"),
                  choice("level", "Entity level", [(n, roman(n)) for n in range(1, MAX_LEVEL + 1)], optional=True),
                  choice("moon", "Moon alignment", [("full", "Full Moon (circular line)"), ("other", "another phase")],
                         optional=True)),
        ],
    }


def _label(card_info: Any) -> str:
    level = f", level {card_info.level}" if card_info.level is not None else ""
    return f"{card_info.name} ({card_info.kind}, {'/'.join(card_info.archetypes)}{level})"
