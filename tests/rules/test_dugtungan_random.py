"""Random legal games: the tracker never crashes and never gains or loses a card."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import example, given, settings, strategies as st

from rules.core import IllegalMove
from rules.dugtungan import action_from_dict, new_game
from game_drivers import dugtungan_cards_out, dugtungan_deck, dugtungan_deck_after, dugtungan_event
from rules.dugtungan.events import Sapaw
from rules.dugtungan.state import DugtunganState

MAX_EVENTS = 80
# a smaller word list keeps each legal_actions() search quick; the rules are the same
OPTIONS = {"min_zipf": 4.0, "hand_size": 5}


def try_a_sapaw(state: DugtunganState, rng: random.Random) -> DugtunganState:
    """Someone slips one of their cards into the word; refused sapaws change nothing."""
    seat = rng.randrange(len(state.names))
    if not state.word or not state.hands[seat]:
        return state
    word = list(state.word)
    word.insert(rng.randrange(len(word) + 1), rng.choice(state.hands[seat]))
    try:
        return state.apply(Sapaw(seat, tuple(word)))
    except IllegalMove:
        return state


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
@example(seed=2010, players=2)  # once listed a dugtong taking the PAMATO's twin from the hand
def test_random_legal_games_never_crash_and_conserve_cards(seed: int, players: int) -> None:
    rng = random.Random(seed)
    deck = dugtungan_deck()
    full = Counter(deck)
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(OPTIONS["hand_size"])] for _ in range(players)]
    state = new_game([f"P{i}" for i in range(players)], OPTIONS, {"hands": hands})
    for _ in range(MAX_EVENTS):
        if state.is_terminal():
            break
        action = dugtungan_event(state, deck, rng)
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        state = state.apply(action)
        deck = dugtungan_deck_after(state, deck, rng)
        if rng.random() < 0.2:
            state = try_a_sapaw(state, rng)
        assert len(deck) == state.deck
        assert dugtungan_cards_out(state) + Counter(deck) == full
        json.dumps(state.to_dict())
