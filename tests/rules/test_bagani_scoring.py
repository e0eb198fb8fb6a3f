"""Bagani end scoring as the Tagapagtanggol Kodigo and the Winner section read."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import bagani
from rules.bagani.cards import COLOURS, NATURAL_CODES, BIYAYA

ALL_COLOURS = list(COLOURS)


def halimaw(color, dp=1, name=None):
    return {"name": name or f"{color} halimaw", "color": color, "dp": dp}


def player(name, colours=(), hand=(), dp=1):
    return {"name": name, "defeated": [halimaw(c, dp) for c in colours], "hand": list(hand)}


def scored(*players, **extra):
    result = bagani.score({"game": "bagani", "players": list(players), **extra})
    return {p["name"]: p for p in result["players"]}, result["winners"]


def awards_of(entry):
    return {a["award"]: a["dp"] for a in entry["breakdown"]["awards"]}


def test_strictly_most_of_a_colour_gets_7():
    table, _ = scored(player("Ana", ["red", "red"]), player("Ben", ["red"]))
    assert awards_of(table["Ana"]) == {"red": 7}
    assert awards_of(table["Ben"]) == {}


def test_exactly_two_tied_for_most_get_3_each():
    table, _ = scored(player("Ana", ["red"]), player("Ben", ["red"]), player("Cy"))
    assert awards_of(table["Ana"]) == awards_of(table["Ben"]) == {"red": 3}


def test_three_tied_for_most_get_nothing():
    table, _ = scored(player("Ana", ["red"]), player("Ben", ["red"]), player("Cy", ["red"]))
    assert all(awards_of(p) == {} for p in table.values())


def test_two_tied_below_a_leader_get_nothing():
    table, _ = scored(player("Ana", ["red"] * 3), player("Ben", ["red"]), player("Cy", ["red"]))
    assert awards_of(table["Ana"]) == {"red": 7}
    assert awards_of(table["Ben"]) == awards_of(table["Cy"]) == {}


def test_nobody_gets_a_colour_nobody_defeated():
    table, _ = scored(player("Ana"), player("Ben"))
    assert all(p["breakdown"]["awards"] == [] for p in table.values())


def test_sansinukob_goes_to_every_player_with_all_five_colours():
    table, _ = scored(player("Ana", ALL_COLOURS), player("Ben", ALL_COLOURS),
                      player("Cy", ALL_COLOURS), player("Dee", ALL_COLOURS[:4]))
    for name in ("Ana", "Ben", "Cy"):
        assert awards_of(table[name])["sansinukob"] == 7
    assert "sansinukob" not in awards_of(table["Dee"])


def test_total_is_halimaw_dp_plus_awards_plus_twice_the_hand_ap():
    table, _ = scored(player("Ana", ["blue"], hand=["blue-circle", "blue-circle", BIYAYA], dp=3))
    ana = table["Ana"]
    assert ana["breakdown"]["halimaw_dp"] == 3
    assert ana["breakdown"]["awards_dp"] == 7
    assert ana["breakdown"]["hand_dp"] == 4
    assert [c["combo"] for c in ana["breakdown"]["hand_combos"]] == ["trio"]
    assert ana["total"] == 14


def test_most_dangal_points_wins():
    _, winners = scored(player("Ana", ["red"], dp=5), player("Ben", ["blue"], dp=4))
    assert winners == ["Ana"]


def test_tie_goes_to_more_awards_and_a_shared_award_counts():
    ana = {"name": "Ana", "defeated": [halimaw("red", 3), halimaw("red", 0)], "hand": []}
    ben = {"name": "Ben", "defeated": [halimaw("blue", 0), halimaw("green", 0)], "hand": []}
    cy = {"name": "Cy", "defeated": [halimaw("blue", 0)], "hand": []}
    table, winners = scored(ana, ben, cy)
    assert table["Ana"]["total"] == table["Ben"]["total"] == 10
    assert winners == ["Ben"]  # red 7 against green 7 + a shared blue 3


def test_tie_goes_to_more_awards_and_sansinukob_counts():
    ana = {"name": "Ana", "defeated": [halimaw(c, 0) for c in ALL_COLOURS], "hand": []}
    ben = {"name": "Ben", "hand": [], "defeated": [
        halimaw("yellow", 0), halimaw("blue", 0), halimaw("red", 0), halimaw("green", 0),
        halimaw("red", 7)]}
    table, winners = scored(ana, ben)
    assert table["Ana"]["total"] == table["Ben"]["total"] == 23
    assert len(table["Ana"]["breakdown"]["halimaw"]) == len(table["Ben"]["breakdown"]["halimaw"])
    assert winners == ["Ana"]  # four colour awards + Sansinukob against four


def test_then_more_halimaw_defeated_wins():
    _, winners = scored({"name": "Ana", "defeated": [halimaw("red", 3)], "hand": []},
                        {"name": "Ben", "defeated": [halimaw("blue", 1), halimaw("blue", 2)],
                         "hand": []})
    assert winners == ["Ben"]


def test_still_tied_is_a_shared_win():
    _, winners = scored({"name": "Ana", "defeated": [halimaw("red", 3)], "hand": []},
                        {"name": "Ben", "defeated": [halimaw("blue", 3)], "hand": []})
    assert winners == ["Ana", "Ben"]


def test_final_hand_combos_count_double():
    table, _ = scored(player("Ana", hand=["yellow-square", "blue-square", "red-square",
                                          "green-square", "violet-square", BIYAYA]))
    assert table["Ana"]["breakdown"]["hand_ap"] == 5
    assert table["Ana"]["total"] == 10


def test_a_deck_file_supplies_halimaw_stats():
    deck = {"halimaw": [{"name": "Sarimaw", "color": "violet", "dp": 9},
                        {"name": "Higante", "color": "blue", "dp": 4, "count": 2},
                        {"name": None, "count": 18}]}
    table, _ = scored({"name": "Ana", "defeated": [{"name": "Higante"}, {"name": "Sarimaw"}],
                       "hand": []}, deck=deck)
    assert table["Ana"]["breakdown"]["halimaw_dp"] == 13


def test_players_keep_the_input_order():
    result = bagani.score({"game": "bagani", "players": [player("Zed"), player("Ana")]})
    assert [p["name"] for p in result["players"]] == ["Zed", "Ana"]


tables = st.lists(
    st.tuples(st.lists(st.tuples(st.sampled_from(ALL_COLOURS), st.integers(0, 6)), max_size=6),
              st.lists(st.sampled_from(NATURAL_CODES + (BIYAYA,)), max_size=8)),
    min_size=2, max_size=6)


@settings(max_examples=150, deadline=None)
@given(players=tables, order=st.randoms(use_true_random=False))
def test_permuting_player_order_changes_no_score(players, order):
    entries = [{"name": f"P{i}", "hand": hand,
                "defeated": [halimaw(colour, dp, f"H{j}") for j, (colour, dp) in enumerate(won)]}
               for i, (won, hand) in enumerate(players)]
    shuffled = entries[:]
    order.shuffle(shuffled)
    first, first_winners = scored(*entries)
    second, second_winners = scored(*shuffled)
    assert first == second
    assert sorted(first_winners) == sorted(second_winners)
