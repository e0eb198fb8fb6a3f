"""Bagani combos as the Combo Kodigo lists them, and the final-hand optimiser.

The optimiser is checked against a brute force that tries every way of splitting a hand
into combos the `combo` rule accepts, so the two can only agree if both read the book
the same way.
"""

from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bagani.cards import BIYAYA, NATURAL_CODES
from rules.bagani.combos import BOOK, best_hand, classify
from rules.bagani.options import Options
from rules.core import IllegalMove

B = BIYAYA
LIMANG_SQUARE = ["yellow-square", "blue-square", "red-square", "green-square", "violet-square"]


def combo_of(cards, options=BOOK):
    return classify(cards, options).combo


@pytest.mark.parametrize("cards, combo, ap", [
    (["blue-circle"] * 2, "pair", 1),
    (["blue-circle"] * 3, "trio", 2),
    (["blue-circle"] * 4, "quadro", 3),
    (LIMANG_SQUARE, "limang-bagani", 4),
    (LIMANG_SQUARE + [B], "bagani-ni-apo", 5),
])
def test_combo_list_gives_the_kodigo_attack_points(cards, combo, ap):
    result = classify(cards)
    assert (result.combo, result.ap) == (combo, ap)


def test_example_1_trio_needs_same_shape():
    with pytest.raises(IllegalMove, match="same shape"):
        classify(["blue-circle", "blue-circle", "blue-square"])


def test_example_1_trio_needs_same_colour():
    with pytest.raises(IllegalMove, match="same colour"):
        classify(["red-circle", "blue-circle", "blue-circle"])


def test_example_2_limang_bagani_needs_one_shape():
    with pytest.raises(IllegalMove, match="same shape"):
        classify(["yellow-square", "blue-circle", "red-square", "green-square", "violet-square"])


def test_example_2_limang_bagani_needs_all_five_colours():
    with pytest.raises(IllegalMove, match="blue"):
        classify(["yellow-square", "blue-square", "red-square", "green-square", "blue-square"])


def test_biyaya_takes_any_colour_and_shape():
    assert combo_of(["green-square", B]) == "pair"
    four_colours = ["yellow-square", "blue-square", "red-square", "green-square"]
    assert combo_of(four_colours + [B]) == "limang-bagani"


def test_bagani_ni_apo_needs_a_biyaya_beyond_the_five_colours():
    assert combo_of(LIMANG_SQUARE) == "limang-bagani"
    assert combo_of(LIMANG_SQUARE + [B]) == "bagani-ni-apo"
    with pytest.raises(IllegalMove):
        classify(LIMANG_SQUARE + ["blue-square"])


def test_bagani_ni_apo_with_biyaya_in_a_colour_slot_is_a_house_default():
    cards = ["yellow-square", "blue-square", "red-square", "green-square", B, B]
    assert combo_of(cards) == "bagani-ni-apo"
    with pytest.raises(IllegalMove, match="cannot stand in"):
        classify(cards, Options(biyaya_fills_colour_slots=False))


def test_biyaya_only_combo_is_a_house_default():
    assert combo_of([B, B]) == "pair"
    with pytest.raises(IllegalMove, match="only of Biyaya"):
        classify([B, B], Options(biyaya_only_combos=False))


@pytest.mark.parametrize("cards", [["blue-circle"], ["blue-circle"] * 5, ["blue-circle"] * 7])
def test_no_combo_of_other_sizes(cards):
    with pytest.raises(IllegalMove):
        classify(cards)


# --- the final-hand optimiser ------------------------------------------------------------

@lru_cache(maxsize=None)
def every_combo(options):
    """Every multiset of 2 to 6 card codes that `classify` accepts, indexed by each code
    it holds, as ((code, count), ...) with its AP."""
    index = {}
    for size in range(2, 7):
        for cards in combinations_with_replacement(sorted(NATURAL_CODES + (BIYAYA,)), size):
            try:
                ap = classify(cards, options).ap
            except IllegalMove:
                continue
            counts = tuple(Counter(cards).items())
            for code, _ in counts:
                index.setdefault(code, []).append((counts, ap))
    return index


def wild_last(card):
    return card == BIYAYA, card


def brute_force_ap(cards, options):
    """Best total AP over every split of the hand into combos `classify` accepts.

    The first card of what is left either stays out of every combo or is in one of the
    accepted combos that fit in what is left. Biyaya sort last, so the first card is a
    natural while any is left: fewer combos hold it.
    """
    combos = every_combo(options)

    @lru_cache(maxsize=None)
    def best(rest):
        if not rest:
            return 0
        found = best(rest[1:])
        have = Counter(rest)
        for counts, ap in combos.get(rest[0], ()):
            if all(have[code] >= n for code, n in counts):
                left = have.copy()
                left.subtract(dict(counts))
                found = max(found, ap + best(tuple(sorted(left.elements(), key=wild_last))))
        return found
    return best(tuple(sorted(cards, key=wild_last)))


OPTION_SETS = [Options(), Options(biyaya_fills_colour_slots=False),
               Options(biyaya_only_combos=False),
               Options(biyaya_fills_colour_slots=False, biyaya_only_combos=False)]

hands = st.tuples(
    st.lists(st.sampled_from(NATURAL_CODES), max_size=12),
    st.integers(0, 3),
).map(lambda t: t[0][:12 - t[1]] + [BIYAYA] * t[1])


@settings(max_examples=2000, deadline=None)
@given(hand=hands, options=st.sampled_from(OPTION_SETS))
def test_final_hand_optimiser_equals_brute_force(hand, options):
    combos = best_hand(hand, options)
    assert sum(c.ap for c in combos) == brute_force_ap(hand, options)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(NATURAL_CODES + (BIYAYA,) * 3), max_size=24),
       options=st.sampled_from(OPTION_SETS))
def test_final_hand_combos_are_valid_and_disjoint(hand, options):
    combos = best_hand(hand, options)
    for combo in combos:
        assert classify(combo.cards, options) == combo
    used = Counter(card for combo in combos for card in combo.cards)
    assert not used - Counter(hand)


def test_final_hand_with_many_biyaya():
    assert sum(c.ap for c in best_hand([B] * 12)) == 10  # two all-Biyaya Bagani ni Apo
    assert sum(c.ap for c in best_hand([B] * 12, Options(biyaya_only_combos=False))) == 0


def test_final_hand_prefers_bagani_ni_apo_to_pairs():
    combos = best_hand(LIMANG_SQUARE + [B])
    assert [c.combo for c in combos] == ["bagani-ni-apo"]
