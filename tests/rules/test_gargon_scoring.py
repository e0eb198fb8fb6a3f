"""Gargon's end scoring (colour bonuses, amulets, 0s, winners) through `companion score`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import gargon
from rules.core import BadInput
from rules.gargon.cards import full_deck

#: The book's scoring example: Adam's cards, and others' won cards that give the book's
#: bonus situation (most violet and green; tied with Bernd and Collette on white; not
#: most yellow).
ADAM = ["violet-0", "violet-5", "violet-13", "green-7", "green-13", "white-1", "white-10",
        "yellow-2", "yellow-6"]
OTHERS = {"Bernd": ["white-3", "white-4"], "Collette": ["white-5", "white-6"],
          "Dagmar": ["yellow-3", "yellow-4", "yellow-5"]}


def score(won: dict[str, list[str]], **extra: object) -> dict:
    players = [{"name": name, "won": cards} for name, cards in won.items()]
    return gargon.score({"game": "gargon", "players": players, **extra})


def totals(answer: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in answer["players"]}


def test_adams_won_cards_in_the_books_example_score_47() -> None:
    adam = score({"Adam": ADAM, **OTHERS})["players"][0]
    assert adam["total"] == 47
    assert (adam["breakdown"]["bonus"], adam["breakdown"]["amulets"]) == (25, 22)
    assert adam["breakdown"]["colours"]["violet"] == {
        "cards": 3, "zeros": 1, "printed_amulets": 3, "amulets": 6, "bonus": 10}


def test_the_single_player_with_most_cards_of_a_colour_gets_10() -> None:
    assert totals(score({"Ana": ["red-13", "red-14"], "Ben": ["red-15"]})) == {"Ana": 10, "Ben": 0}


def test_every_player_tied_for_most_gets_5_however_many_they_are() -> None:
    answer = score({"Ana": ["red-13"], "Ben": ["red-14"], "Cy": ["red-15"]})
    assert totals(answer) == {"Ana": 5, "Ben": 5, "Cy": 5}


def test_nobody_scores_a_colour_nobody_won() -> None:
    assert totals(score({"Ana": [], "Ben": []})) == {"Ana": 0, "Ben": 0}


def test_one_zero_doubles_the_colours_amulets_and_both_zeros_triple_them() -> None:
    """red-1 carries 5 amulets: 5 plain, 10 with one red 0, 15 with both (+10 bonus each)."""
    answer = score({"Ana": ["red-1"], "Ben": ["red-1", "red-0"], "Cy": ["red-1", "red-0", "red-0"]})
    amulets = [p["breakdown"]["amulets"] for p in answer["players"]]
    assert amulets == [5, 10, 15]


def test_a_zero_multiplies_only_its_own_colour() -> None:
    answer = score({"Ana": ["red-0", "blue-1"]})
    assert answer["players"][0]["breakdown"]["amulets"] == 5


def test_a_deck_may_override_the_amulets_of_a_value() -> None:
    assert totals(score({"Ana": ["red-3"]}))["Ana"] == 10 + 4
    assert totals(score({"Ana": ["red-3"]}, amulets={"3": 2}))["Ana"] == 10 + 2


def test_a_tie_for_most_points_is_a_shared_win() -> None:
    answer = score({"Ana": ["red-13"], "Ben": ["blue-13"], "Cy": []})
    assert answer["winners"] == ["Ana", "Ben"]


def test_without_shared_wins_more_won_cards_break_the_tie() -> None:
    won = {"Ana": ["red-1"], "Ben": ["blue-1", "blue-13", "blue-14"], "Cy": []}   # 15 points each
    assert score(won)["winners"] == ["Ana", "Ben"]
    assert score(won, options={"shared_win": False})["winners"] == ["Ben"]


@pytest.mark.parametrize("payload, field, problem", [
    ({"players": [{"name": "Ana", "won": ["red-1", "red-16"]}]}, "players[0].won[1]",
     "values run 0 to 15"),
    ({"players": [{"name": "Ana", "won": ["mauve-1"]}]}, "players[0].won[0]", "unknown card code"),
    ({"players": [{"name": "Ana"}]}, "players[0].won", "missing"),
    ({"players": [{"name": "Ana", "won": []}], "amulets": {"3": -1}}, "amulets.3", "negative"),
])
def test_bad_score_input_names_the_field(payload: dict, field: str, problem: str) -> None:
    with pytest.raises(BadInput) as caught:
        gargon.score({"game": "gargon", **payload})
    assert caught.value.field == field
    assert problem in caught.value.problem


@st.composite
def won_piles(draw: st.DrawFn) -> list[list[str]]:
    """A deal of some of the deck's cards into 3 to 5 won piles."""
    deck = draw(st.permutations(full_deck()))
    seats = draw(st.integers(3, 5))
    owners = draw(st.lists(st.integers(-1, seats - 1), min_size=len(deck), max_size=len(deck)))
    return [[c.code for c, owner in zip(deck, owners) if owner == seat] for seat in range(seats)]


@settings(max_examples=40, deadline=None)
@given(won_piles(), st.randoms(use_true_random=False))
def test_seat_order_does_not_change_anyones_score(piles: list[list[str]], rng) -> None:
    names = ["Ana", "Ben", "Cy", "Dee", "Eva"][:len(piles)]
    before = score(dict(zip(names, piles)))
    order = list(range(len(piles)))
    rng.shuffle(order)
    after = score({names[i]: piles[i] for i in order})
    by_name = {p["name"]: p for p in after["players"]}
    assert all(by_name[p["name"]] == p for p in before["players"])
    assert sorted(after["winners"]) == sorted(before["winners"])
