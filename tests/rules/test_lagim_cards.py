"""Lagim's catalogue as the rulebook lists it (Game Components), and deck files over it.

`TABLE_DECK` is the deck file the tracker tests play with. Its levels and moon
alignments are invented for the tests (the book prints them only on the cards); the
other Lagim test modules import it from here.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core import BadInput
from rules.lagim.cards import catalogue_deck, load_deck, parse_level

_LEVELS = {
    "Mambabarang": (3, "full"), "Mangkukulam": (4, "full"), "Aswang": (3, "full"),
    "Manananggal": (4, "new"), "Kapre": (4, "full"), "Bungisngis": (3, "full"),
    "Tikbalang": (5, "new"), "Duwende": (1, "full"), "Nuno sa Punso": (2, "new"),
    "Alakdan at Alupihan": (1, None), "Sumpa ng Manika": (2, None), "Altar ng Kulam": (1, None),
    "Puno ng Acacia": (2, None), "Tiktik at Buwan": (1, None), "Dugo at Langis": (2, None),
    "Bungo at Tungkod": (1, None), "Espiritista": (2, None), "Albularyo": (3, None),
    "Amihan": (2, None), "Dante": (3, None), "Orasyon at Insenso": (1, None),
    "Buntot Pagi": (1, None), "Tabak, Bawang at Asin": (2, None), "Sibat at Sulo": (1, None),
    "Agimat": (1, None), "Gasera": (1, None),
}
TABLE_DECK = {"cards": [{"name": name, "level": level, **({"moon": moon} if moon else {})}
                        for name, (level, moon) in _LEVELS.items()]}


def _count(deck: str, kind: str | None = None) -> int:
    return sum(c.count for c in catalogue_deck().base_set(deck) if kind in (None, c.kind))


def test_the_forest_deck_holds_31_cards_19_lagim_and_12_hiwaga() -> None:
    assert (_count("forest"), _count("forest", "lagim"), _count("forest", "hiwaga")) == (31, 19, 12)


def test_the_baryo_deck_holds_31_cards_18_lakas_and_13_kontra() -> None:
    assert (_count("baryo"), _count("baryo", "lakas"), _count("baryo", "kontra")) == (31, 18, 13)


def test_lagim_creatures_by_archetype_as_listed() -> None:
    lagim = Counter()
    for card in catalogue_deck().base_set("forest"):
        if card.kind == "lagim":
            lagim[card.archetype] += card.count
    assert lagim == {"witch": 4, "ghoul": 4, "giant": 6, "dwarf": 5}


def test_every_listed_name_has_its_count() -> None:
    counts = {c.name: c.count for c in catalogue_deck()}
    assert counts["Duwende"] == 3 and counts["Nuno sa Punso"] == 2
    assert counts["Espiritista"] == counts["Albularyo"] == 4
    assert counts["Amihan"] == counts["Dante"] == 5
    assert counts["Tabak, Bawang at Asin"] == 3 and counts["Alakdan at Alupihan"] == 1


def test_agimat_and_gasera_are_special_kontra() -> None:
    deck = catalogue_deck()
    for name in ("Agimat", "Gasera"):
        card = deck.find(name)
        assert card is not None and card.kind == "kontra" and card.archetypes == ("special",)
        assert card.fits("medium") and card.fits("warrior")


def test_the_mortal_warrior_equips_fit_a_mortal_or_a_warrior_until_a_deck_file_says_which() -> None:
    tabak = catalogue_deck().find("Tabak, Bawang at Asin")
    assert tabak is not None and tabak.fits("mortal") and tabak.fits("warrior") and not tabak.fits("medium")
    narrowed = load_deck({"cards": [{"name": "Tabak, Bawang at Asin", "archetype": "warrior"}]})
    assert narrowed.find("Tabak, Bawang at Asin").archetypes == ("warrior",)  # type: ignore[union-attr]


def test_levels_are_unknown_except_the_sigbins_level_v() -> None:
    deck = catalogue_deck()
    assert all(c.level is None for c in deck if c.name != "Sigbin")
    sigbin = deck.find("Sigbin")
    assert sigbin is not None
    assert (sigbin.level, sigbin.archetype, sigbin.limited_edition) == (5, "bestial", True)
    assert sigbin not in deck.base_set("forest") + deck.base_set("baryo")


def test_a_deck_file_supplies_printed_levels_and_moon_alignments() -> None:
    deck = load_deck({"cards": [{"name": "kapre", "level": "IV", "moon": "full"}]})
    kapre = deck.find("Kapre")
    assert kapre is not None and (kapre.level, kapre.full_moon) == (4, True)


@pytest.mark.parametrize("numeral, value", [("I", 1), ("IV", 4), ("V", 5), ("IX", 9), ("XII", 12), (7, 7)])
def test_levels_read_as_the_roman_numeral_printed_on_the_card(numeral: str | int, value: int) -> None:
    assert parse_level(numeral, "level") == value


@pytest.mark.parametrize("entry, field", [
    ({"name": "Kapreh", "level": 3}, "setup.deck.cards[0].name"),
    ({"name": "Kapre", "level": "four"}, "setup.deck.cards[0].level"),
    ({"name": "Kapre", "level": -1}, "setup.deck.cards[0].level"),
    ({"name": "Dante", "archetype": "medium"}, "setup.deck.cards[0].archetype"),
])
def test_a_wrong_deck_file_entry_names_its_field(entry: dict, field: str) -> None:
    with pytest.raises(BadInput) as caught:
        load_deck({"cards": [entry]})
    assert caught.value.field == field
