"""`companion check` (`battle`) and `score` for Lagim refuse what the rulebook rules out.

Each test quotes the sentence it holds the engine to; each request here was answered
(wrongly) before the engine checked it.
"""

from __future__ import annotations

import pytest

from rules import lagim
from rules.core import BadInput
from test_lagim_battle import battle, forest, kontra, lakas, standing


def _refused(field: str, match: str, *args: list[dict]) -> None:
    with pytest.raises(BadInput, match=match) as caught:
        battle(*args)
    assert caught.value.field == field


def test_four_defenders_are_more_than_a_defence_line_holds() -> None:
    """RULES-NOTES: "Defence line: at most 3 cards on a Baryo at any time, Defenders and
    equipped Kontra together"; the book: "placing a maximum of 3 Lakas or Special Kontra
    cards face-down on your Baryo"."""
    four = [lakas("Dante", "warrior", 3)] * 4
    _refused("defenders", "at most 3", [forest("Kapre", 4, "giant")], four)
    three_cards = [lakas("Dante", "warrior", 3, kontra("Agimat", "special", 1)),
                   lakas("Amihan", "mortal", 2, kontra("Sibat at Sulo", "mortal", 1))]
    _refused("defenders", "at most 3", [forest("Kapre", 4, "giant")], three_cards)


def test_a_lakas_card_cannot_be_equipped() -> None:
    """The book: "Equip them with Kontra cards to increase their strength"."""
    _refused("defenders[0].equip[0].name", "only Kontra cards",
             [forest("Kapre", 4, "giant")], [lakas("Dante", "warrior", 3, kontra("Dante", "warrior", 3))])


@pytest.mark.parametrize("card", [kontra("Orasyon at Insenso", "medium", 1),
                                  kontra("Kapre", "medium", 4)])
def test_a_kontra_or_a_lagim_creature_is_no_defender(card: dict) -> None:
    """The book: "Lakas cards placed on your Baryo are your Defenders", and "Special Kontra
    cards can ... be played as solo/ standalone" (the Agimat and Gasera only)."""
    _refused("defenders[0].name", "cannot be a Defender", [forest("Kapre", 4, "giant")], [card])


def test_a_card_keeps_its_printed_archetype_and_level() -> None:
    """The book prints Sigbin "ENTITY LEVEL ... Bestial V"; a Lakas card's archetype is
    printed on it ("each can only equip Kontra cards of the same Archetype")."""
    _refused("defenders[0].archetype", "Dante is warrior",
             [forest("Kapre", 4, "giant")], [lakas("Dante", "medium", 3)])


@pytest.mark.parametrize("level", ["VX", "IIIIIII", "IIII", "L", 10 ** 23, 21, -1, 2.5])
def test_levels_are_strict_roman_numerals_in_the_games_range(level: object) -> None:
    """The book: "Entity levels are printed on the cards" in Roman numerals (Sigbin "V")."""
    _refused("attack[0].level", "level|must", [forest("Kapre", level, "giant")], [lakas("Dante", "warrior", 3)])


def test_standard_numerals_still_read() -> None:
    answer = battle([forest("Kapre", "IV", "giant")], [lakas("Dante", "warrior", "V")])
    assert (answer["attack_level"], answer["defence_level"]) == (4, 5)


def test_score_seats_two_to_six_players_and_one_alone_never_wins() -> None:
    """The book's set-up table runs from "2 - 3 players" to "5 - 6 players"."""
    with pytest.raises(BadInput, match="Lagim is for 2 to 6 players, not 7"):
        standing(**{f"P{i}": (2, 0) for i in range(7)})
    alone = standing(Ana=(3, 0))
    assert alone["winners"] == [] and "no winner is named for 1" in alone["note"]


def test_score_refuses_more_soul_coins_than_set_up_deals() -> None:
    """The book: "Distribute the coins according to the number of players" (3 each for
    2-4 players), and "After gaining 3 Soul Coins, a player automatically completes a
    Spirit Path and is declared the winner"."""
    with pytest.raises(BadInput, match="must be 0 to 3"):
        standing(Ana=(9, 7), Ben=(3, 0))
    with pytest.raises(BadInput, match="must be 0 to 3"):
        standing(Ana=(3, 7), Ben=(3, 0))
    with pytest.raises(BadInput, match="more than the 6"):
        standing(Ana=(3, 2), Ben=(3, 0))
    with pytest.raises(BadInput, match="only one Spirit Path"):
        standing(Ana=(1, 3), Ben=(1, 3), Cai=(0, 0), Dan=(0, 0))


def test_an_ended_game_goes_to_the_longest_path_then_the_most_coins_never_the_eliminated() -> None:
    """RULES-NOTES (two-player end): "most coins on the Spirit Path wins, then most starting
    coins left; a tie is shared. An eliminated Baryo never wins." """
    def ended(**players: tuple[int, int]) -> list[str]:
        return lagim.score({"players": [{"name": n, "soul_coins": c, "spirit_path": p}
                                        for n, (c, p) in players.items()], "ended": True})["winners"]
    assert ended(Ana=(1, 2), Ben=(2, 1)) == ["Ana"]
    assert ended(Ana=(1, 1), Ben=(2, 1)) == ["Ben"]
    assert ended(Ana=(2, 1), Ben=(2, 1)) == ["Ana", "Ben"]
    assert ended(Ana=(0, 2), Ben=(1, 0), Cai=(1, 0)) == ["Ben", "Cai"]
