"""The Bagani catalogue holds only what the rulebook prints; a deck file supplies the rest."""

import pytest

from rules import bagani
from rules.bagani.cards import ATTACKS, DEFAULT_DECK, read_deck
from rules.core import BadInput

ROW = ["biyaya", "blue-circle", "red-square", "green-circle", "yellow-square"]


def test_the_default_deck_has_55_bagani_cards_and_21_halimaw():
    assert DEFAULT_DECK.bagani_total == 55
    assert DEFAULT_DECK.halimaw_total == 21


def test_the_catalogue_knows_the_halimaw_the_rulebook_shows():
    assert DEFAULT_DECK.kind("Sarimaw").lakas == 5
    assert DEFAULT_DECK.kind("Sarimaw").attacks == ("discard-random", "discard-faceup-biyaya")
    assert DEFAULT_DECK.kind("Higante").lakas == 3
    assert DEFAULT_DECK.kind("Higante").attacks == ("pass-right",)
    assert DEFAULT_DECK.kind("Dragon").attacks == ("draw-left",)
    assert DEFAULT_DECK.halimaw_cards["Higante"] == 2  # Example 4 shows two


def test_stats_the_rulebook_does_not_print_are_unknown():
    assert DEFAULT_DECK.kind("Higante").unknown() == ["colour", "DP"]
    assert DEFAULT_DECK.kind("Mansisilat").unknown() == ["colour", "Lakas", "DP", "attack"]


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_every_attack_has_text_to_read_and_a_prompt_to_speak(attack):
    assert ATTACKS[attack]["text"]
    assert "{name}" in ATTACKS[attack]["prompt"]


def test_a_deck_file_sets_the_bagani_split():
    deck = read_deck({"bagani": {"per_colour_shape": 6, "biyaya": 4}})
    assert deck.bagani_total == 64
    deck = read_deck({"bagani": {"cards": {"blue-circle": 10, "biyaya": 2}}})
    assert deck.bagani_total == 12


def test_the_tracker_deals_from_the_deck_file_split():
    state = bagani.new_game(["Ana", "Ben"], None, {
        "deck": {"bagani": {"per_colour_shape": 6, "biyaya": 4}}, "bagani": ROW,
        "halimaw": [{"name": "Higante", "color": "blue", "dp": 4}] * 2 + [
            {"name": "Kapre", "color": "red", "lakas": 2, "dp": 2, "attacks": []}] * 2})
    assert state.bagani_deck == 64 - 2 * 3 - 5


def test_a_deck_file_fills_unknown_stats_and_keeps_the_book_s():
    deck = read_deck({"halimaw": [{"name": "Higante", "color": "blue", "dp": 4, "count": 3},
                                  {"name": "Sarimaw", "color": "violet", "dp": 10}]})
    higante = deck.kind("Higante")
    assert (higante.color, higante.lakas, higante.dp) == ("blue", 3, 4)
    assert higante.attacks == ("pass-right",)
    assert deck.halimaw_total == 4


@pytest.mark.parametrize("deck, field", [
    ({"halimaw": [{"name": "Higante"}]}, "deck.halimaw"),
    ({"halimaw": [{"name": "Sarimaw", "attacks": ["sneeze"]}]}, "deck.halimaw[0].attacks[0]"),
    ({"halimaw": [{"name": "Sarimaw", "color": "pink"}]}, "deck.halimaw[0].color"),
    ({"bagani": {"cards": {"blue-triangle": 3}}}, "deck.bagani.cards"),
    ({"bagani": {"biyaya": -1}}, "deck.bagani.biyaya"),
])
def test_a_bad_deck_file_names_the_field(deck, field):
    with pytest.raises(BadInput) as caught:
        read_deck(deck)
    assert caught.value.field == field
