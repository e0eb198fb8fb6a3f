"""Each game's events as forms: what the host page draws so nobody types JSON.

An event schema lists, per game, every event kind a host can enter or correct, each
with its fields in the order a person fills them in: a seat, one card or several from a
named pick-list, a choice, a number with limits, a yes/no. The form a page builds from
it produces exactly the event `action_from_dict` reads, so the rules stay the only
judge of what is legal. Pick-lists carry the facts the rulebook (or the table's deck
file) prints, so choosing a Halimaw fills in its colour, Lakas, DP and attacks, and a
Lagim card's list shows only the cards that can stand there (a Forest card attacks,
a Lakas defends, a Kontra equips).

The schema depends on the game in play (its deck, its seats), so it is built from a
state, not stored: `event_schema(game, state)`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from rules.bagani import cards as bagani_cards
from rules.dugtungan import cards as dugtungan_cards
from rules.gargon import cards as gargon_cards
from rules.core import GameState

Field = dict[str, Any]
Schema = dict[str, Any]


def seat(key: str = "player", label: str = "Player") -> Field:
    return {"key": key, "type": "seat", "label": label}


def card(key: str, list_: str, label: str, optional: bool = False) -> Field:
    return {"key": key, "type": "card", "list": list_, "label": label, "optional": optional}


def cards(key: str, list_: str, label: str, least: int = 0, most: int | None = None,
          optional: bool = False) -> Field:
    """Several cards from one pick-list, in the order tapped (a word's order matters)."""
    return {"key": key, "type": "cards", "list": list_, "label": label, "min": least, "max": most,
            "optional": optional}


def groups(key: str, list_: str, label: str, item: str) -> Field:
    """A list of card lists (Bagani's combos), each built like `cards`."""
    return {"key": key, "type": "groups", "list": list_, "label": label, "item": item}


def per_seat(key: str, list_: str, label: str, optional: bool = False) -> Field:
    """One list of cards per seat, in seat order (final hands, cards turned up);
    `optional`: every list left empty means not shown (null), not empty hands."""
    return {"key": key, "type": "per_seat", "list": list_, "label": label, "optional": optional}


def choice(key: str, label: str, options: Sequence[tuple[Any, str]], optional: bool = False) -> Field:
    return {"key": key, "type": "choice", "label": label, "optional": optional,
            "options": [{"value": v, "label": text} for v, text in options]}


def number(key: str, label: str, least: int, most: int, optional: bool = False) -> Field:
    return {"key": key, "type": "number", "label": label, "min": least, "max": most, "optional": optional}


def event(kind: str, label: str, *fields: Field) -> dict[str, Any]:
    return {"kind": kind, "label": label, "fields": list(fields)}


def _entry(code: Any, label: str, **facts: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"code": code, "label": label}
    if facts:
        entry["facts"] = facts
    return entry


# --- Bagani ----------------------------------------------------------------------------

def _bagani(state: GameState) -> Schema:
    kinds = getattr(state, "deck").kinds
    colours = [(c, f"{c} ({bagani_cards.REGIONS[c]})") for c in bagani_cards.COLOURS]
    attacks = [(a, f"{a}: {text['text']}") for a, text in bagani_cards.ATTACKS.items()]
    codes = sorted(bagani_cards.CARD_CODES, key=lambda c: (c == bagani_cards.BIYAYA, c))
    halimaw = [_entry(h.name, h.name, color=h.color, lakas=h.lakas, dp=h.dp,
                      attacks=list(h.attacks) if h.attacks is not None else None)
               for h in sorted(kinds.values(), key=lambda h: h.name)]
    return {
        "lists": {"bagani": [_entry(c, c.replace("-", " ") if c != bagani_cards.BIYAYA
                                    else bagani_cards.BIYAYA_NAME) for c in codes],
                  "halimaw": halimaw},
        "events": [
            event("setup", "The face-up rows at the start",
                  cards("bagani", "bagani", "Five face-up Bagani cards", 5, 5),
                  cards("halimaw", "halimaw", "Four face-up Halimaw", 4, 4)),
            event("draw", "Draw a card", seat(),
                  choice("source", "From", [("row", "the face-up row"), ("deck", "the deck top")]),
                  card("card", "bagani", "Card (if seen)", optional=True)),
            event("refill", "Refill the face-up row", card("card", "bagani", "Card")),
            event("discard", "Discard (hand limit)", seat(), card("card", "bagani", "Card (if seen)", optional=True)),
            event("combos", "Put down combos", seat(), groups("combos", "bagani", "Combos", "Combo")),
            event("defeat", "Defeat a Halimaw", seat(), card("halimaw", "halimaw", "Halimaw")),
            event("done", "End the attack step (or pass)", seat()),
            event("reveal", "Reveal the next Halimaw",
                  {"key": "halimaw", "type": "record", "label": "Halimaw", "prefill": "halimaw", "fields": [
                      card("name", "halimaw", "Which Halimaw"),
                      choice("color", "Colour", colours, optional=True),
                      number("lakas", "Lakas", 1, 20, optional=True),
                      number("dp", "DP", 0, 50, optional=True),
                      {"key": "attacks", "type": "multi", "label": "Attacks", "optional": True,
                       "options": [{"value": v, "label": t} for v, t in attacks]}]}),
            event("show", "A hand shown to the table", seat(), cards("cards", "bagani", "Cards")),
            event("end", "Score the final hands", per_seat("hands", "bagani", "Final hand", optional=True)),
        ],
    }


# --- Gargon ----------------------------------------------------------------------------

def _gargon(state: GameState) -> Schema:
    colours = [(c, f"{c} ({gargon_cards.CREATURES[c]})") for c in gargon_cards.COLOURS]
    piles = [(1, "pile 1"), (2, "pile 2")]
    return {
        "lists": {"gargon": [_entry(c.code, f"{c.colour} {c.value}", colour=c.colour, value=c.value)
                             for c in sorted(set(gargon_cards.full_deck()),
                                             key=lambda c: (gargon_cards.COLOURS.index(c.colour), c.value))],
                  "colours": [_entry(c, text) for c, text in colours],
                  "piles": [_entry(p, text) for p, text in piles]},
        "events": [
            event("play", "Lay cards face down", seat("seat", "Seat"),
                  cards("colours", "colours", "Colours on the backs", 1)),
            event("pass", "Pass and draw", seat("seat", "Seat"), cards("draws", "piles", "Piles drawn from")),
            event("reveal", "Turn the played cards up", per_seat("cards", "gargon", "Cards turned up")),
            event("battle", "Choose the colour fought", seat("seat", "Seat"), choice("colour", "Colour", colours)),
            event("draw", "Draw a replacement", seat("seat", "Seat"), choice("pile", "Pile", piles)),
        ],
    }


# --- dugtungan -------------------------------------------------------------------------

def _dugtungan(state: GameState) -> Schema:
    codes = sorted(dugtungan_cards.deck_counts(), key=lambda c: (c.action is not None, c.syllable, c.code))
    word = lambda key, label: cards(key, "syllables", label, 1)  # noqa: E731
    return {
        "lists": {"syllables": [_entry(c.code, c.code) for c in codes]},
        "events": [
            event("reveal", "Turn up a new PAMATO", card("card", "syllables", "Card")),
            event("draw", "Draw a card (BUNOT)", seat("seat", "Seat"),
                  card("card", "syllables", "Card (if seen)", optional=True)),
            event("dugtong", "Make a word around the PAMATO (DUGTONG)", seat("seat", "Seat"),
                  word("word", "The word, card by card"),
                  card("pamato", "syllables", "New PAMATO (none if the hand is empty)", optional=True)),
            event("todas", "A word from the hand (TODAS)", seat("seat", "Seat"), word("word", "The word, card by card")),
            event("pass", "Pass", seat("seat", "Seat")),
            event("sapaw", "Re-lay the word (SAPAW)", seat("seat", "Seat"), word("word", "The whole new word")),
            event("pitik", "PITIK: a player draws from the layer's hand", seat("seat", "Seat"),
                  seat("target", "Who draws"), card("card", "syllables", "Card (if seen)", optional=True)),
            event("reshuffle", "Shuffle the banks into a new deck"),
            event("score-letters", "Score the letters left in hand", per_seat("hands", "syllables", "Hand")),
            event("challenge", "The table voted on a word",
                  {"key": "word", "type": "word", "label": "Word"},
                  {"key": "accepted", "type": "bool", "label": "Accepted"}),
        ],
    }


# --- Lagim -----------------------------------------------------------------------------

def _lagim(state: GameState) -> Schema:
    deck = getattr(state, "table").deck
    faces = sorted(deck, key=lambda c: (c.deck, c.kind, c.name))

    def listed(test: Callable[[Any], bool]) -> list[dict[str, Any]]:
        return [_entry(c.name, _lagim_label(c), deck=c.deck, kind=c.kind, archetypes=list(c.archetypes),
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
                  "nullifiers": listed(lambda c: c.nullifies) or listed(lambda c: c.deck == "baryo")},
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
        ],
    }


def _lagim_label(card_info: Any) -> str:
    level = f", level {card_info.level}" if card_info.level is not None else ""
    return f"{card_info.name} ({card_info.kind}, {'/'.join(card_info.archetypes)}{level})"


_SCHEMAS: Mapping[str, Callable[[GameState], Schema]] = {
    "bagani": _bagani, "gargon": _gargon, "dugtungan": _dugtungan, "lagim": _lagim}


def event_schema(game: str, state: GameState) -> Schema:
    """The forms of `game`'s events for the game as `state` stands (its deck, its seats)."""
    return {"game": game, **_SCHEMAS[game](state)}


def card_list_of(schema: Schema, action: Mapping[str, Any], path: Sequence[Any]) -> str | None:
    """The pick-list the card at `path` inside an event of this schema comes from (for
    the picker of a camera question), or None when that field holds no card."""
    spec = next((e for e in schema["events"] if e["kind"] == action.get("kind")), None)
    fields = spec["fields"] if spec else []
    for step in path:
        if isinstance(step, int):
            continue
        field = next((f for f in fields if f["key"] == step), None)
        if field is None:
            return None
        if "fields" in field:
            fields = field["fields"]
            continue
        return field.get("list")
    return None
