"""Bagani answers that contradicted the rulebook, each held to the sentence it breaks."""

import pytest

from rules import bagani
from rules.bagani.events import End
from rules.core import BadInput, IllegalMove
from test_bagani_check import check
from test_bagani_tracker import ben_defeats_sarimaw, sarimaw_waits, start

FIVE = [{"name": f"Halimaw {i}", "lakas": 1} for i in range(5)]
PAIRS = [["blue-circle"] * 2] * 5


def test_at_most_the_four_face_up_halimaw_fall_in_a_turn_without_a_row():
    """Book: "Use the Attack Points to hit and defeat ANY NUMBER of Halimaw from the the
    four (4) face-up Halimaw Cards." """
    answer = check("attack", combos=PAIRS, targets=FIVE)
    assert answer["valid"] is False and answer["ap"] == 5
    assert "4 face-up Halimaw" in answer["reason"]
    assert check("attack", combos=PAIRS[:4], targets=FIVE[:4])["valid"] is True


def test_the_lakas_the_book_prints_wins_over_the_request():
    """Book, Halimaw list: "Higante ... 3" Lakas; "To defeat a Halimaw, you must use Attack
    Points equal to its Lakas." A Higante said to have Lakas 1 is refused, not defeated by
    a pair."""
    with pytest.raises(BadInput, match="Higante has Lakas 3 printed on the card, not 1") as caught:
        check("attack", combos=[["blue-circle"] * 2], targets=[{"name": "Higante", "lakas": 1}])
    assert caught.value.field == "targets[0].lakas"
    with pytest.raises(BadInput, match="Lakas 3 printed"):
        check("attack", combos=[["blue-circle"] * 2], targets=[{"name": "Higante"}],
              row=[{"name": "Higante", "lakas": 1}])


def test_a_target_takes_its_lakas_from_the_face_up_row():
    """Book: "hit and defeat ANY NUMBER of Halimaw from the the four (4) face-up Halimaw
    Cards": a target is one of the row, so the row's Lakas is the target's."""
    row = [{"name": "Tikbalang", "lakas": 2}, {"name": "Kapre", "lakas": 4}]
    answer = check("attack", combos=[["red-square"] * 3], targets=[{"name": "Tikbalang"}], row=row)
    assert (answer["valid"], answer["defeated"], answer["unused_ap"]) == (True, ["Tikbalang"], 0)


def test_the_game_ends_only_once_sarimaw_is_defeated():
    """Book, Game End: "The game is over once Sarimaw is defeated!" """
    state = start()
    assert End() not in state.legal_actions()
    with pytest.raises(IllegalMove, match="only after Sarimaw is defeated"):
        state.apply(End())
    with pytest.raises(IllegalMove, match="only after Sarimaw is defeated"):
        sarimaw_waits().apply(End())
    over = ben_defeats_sarimaw(sarimaw_waits())
    assert End() in over.legal_actions()


def test_a_hand_larger_than_the_deck_is_refused_at_once():
    """Book: the Bagani deck holds 55 cards (RULES-NOTES "55 Bagani cards"); a hand of 400
    is no hand, and refusing it keeps the optimiser from minutes of work."""
    with pytest.raises(BadInput, match="400 cards: the deck has only 55") as caught:
        check("hand", cards=["biyaya", "blue-circle"] * 200)
    assert caught.value.field == "cards"
    with pytest.raises(BadInput, match="60 cards in all"):
        bagani.score({"players": [{"name": n, "defeated": [], "hand": ["red-square"] * 30}
                                  for n in ("Ana", "Ben")]})


def test_a_deck_file_cannot_make_an_impossible_hand_possible():
    """A deck file "supplies" the split of the cards (RULES-NOTES), but no physical deck
    holds 10^20 copies of a card: the count is refused, not used to allow a 400-card hand."""
    with pytest.raises(BadInput, match="must be 0 to 20") as caught:
        check("hand", cards=["biyaya"] * 400, deck={"bagani": {"per_colour_shape": 10 ** 20}})
    assert caught.value.field == "deck.bagani.per_colour_shape"
