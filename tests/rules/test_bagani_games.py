"""Random whole games of Bagani driven through the tracker.

A simulated table holds every real card (seeded shuffles); it tells the tracker what a
camera would: face-up cards always, deck draws only sometimes. After every event the
tracker must agree with the table on every count it can know, and at the end its scores
must equal `score` on the real table.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules import bagani
from rules.bagani.events import Defeat, Discard, Done, Draw, End, PutDown, Refill, Reveal, Show
from rules.bagani.cards import ATTACKS, BIYAYA, CARD_CODES, COLOURS, DEFAULT_DECK, Halimaw
from rules.bagani.combos import best_hand
from rules.core import IllegalMove

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fe"]


def random_halimaw_deck(rng):
    """A deck file's Halimaw list: ten kinds of two cards each, and Sarimaw."""
    kinds = [{"name": f"Halimaw {i}", "color": rng.choice(COLOURS), "lakas": rng.randint(1, 5),
              "dp": rng.randint(1, 6), "attacks": rng.sample(sorted(ATTACKS), rng.randint(0, 2)),
              "count": 2} for i in range(10)]
    return kinds + [{"name": "Sarimaw", "color": rng.choice(COLOURS), "dp": rng.randint(5, 10)}]


class Table:
    """The real cards on a real table; `report` is what it tells the tracker."""

    def __init__(self, rng, players, options, seen):
        self.rng, self.options, self.seen = rng, options, seen
        self.deck = [code for code, n in DEFAULT_DECK.bagani_cards.items() for _ in range(n)]
        rng.shuffle(self.deck)
        self.discard = []
        self.hands = [[self.deck.pop() for _ in range(3)] for _ in range(players)]
        self.row = [self.deck.pop() for _ in range(5)]
        self.kinds = random_halimaw_deck(rng)
        cards = [k["name"] for k in self.kinds[:-1] for _ in range(k["count"])]
        rng.shuffle(cards)
        if options.get("remove_four_halimaw"):
            cards = cards[4:]
        tail = 4 if options.get("random_sarimaw") else 1
        last = cards[len(cards) - tail + 1:] + ["Sarimaw"]
        rng.shuffle(last)
        self.halimaw = cards[:len(cards) - tail + 1] + last
        self.stats = {k["name"]: k for k in self.kinds}
        self.stats["Sarimaw"] = {**self.stats["Sarimaw"], "lakas": 5,
                                 "attacks": ["discard-random", "discard-faceup-biyaya"]}
        self.halimaw_row = [self.halimaw.pop(0) for _ in range(4)]
        self.defeated = [[] for _ in range(players)]

    def setup(self):
        return {"deck": {"halimaw": self.kinds}, "bagani": list(self.row),
                "halimaw": list(self.halimaw_row),
                "hands": [list(h) for h in self.hands] if self.rng.random() < 0.5 else None}

    def top(self):
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def all_in_hands(self):
        """Every Bagani card is in a hand: nobody can draw until someone puts combos down,
        which a table keeping its cards for a Halimaw it cannot beat would never do."""
        return not (self.deck or self.discard or any(self.row))

    def attack(self, attack):
        holders = [i for i, hand in enumerate(self.hands) if hand]
        if attack == "discard-faceup-biyaya":
            self.discard += [c for c in self.row if c == BIYAYA]
            self.row = [None if c == BIYAYA else c for c in self.row]
        elif attack == "discard-random":
            for i in holders:
                hand = self.hands[i]
                self.discard.append(hand.pop(self.rng.randrange(len(hand))))
        elif attack != "reveal-hands" and len(holders) > 1:
            step = 1 if attack in ("draw-right", "pass-left") else -1  # where cards travel
            moving = {i: self.hands[i].pop(self.rng.randrange(len(self.hands[i]))) for i in holders}
            for k, i in enumerate(holders):
                self.hands[holders[(k + step) % len(holders)]].append(moving[i])


def agrees(state, table):
    assert [h.count for h in state.hands] == [len(h) for h in table.hands]
    for hand, real in zip(state.hands, table.hands):
        assert not Counter(hand.known) - Counter(real)
    assert list(state.bagani_row) == table.row
    assert (state.bagani_deck, state.discard_pile) == (len(table.deck), len(table.discard))
    assert state.halimaw_deck == len(table.halimaw)
    assert [h and h.name for h in state.halimaw_row] == table.halimaw_row
    on_table = len(table.deck) + len(table.discard) + sum(map(len, table.hands))
    assert on_table + sum(1 for c in table.row if c) == DEFAULT_DECK.bagani_total


def every_listed_action_applies(state):
    for action in state.legal_actions():
        state.apply(action)


def next_event(state, table, rng):
    """The event the table produces next, with the table already changed to match."""
    seat = state.turn
    if rng.random() < 0.05:
        shown = rng.randrange(len(table.hands))
        return Show(shown, tuple(table.hands[shown]))
    if None in table.row and (table.deck or table.discard):
        card = table.top()
        table.row[table.row.index(None)] = card
        return Refill(card)
    if state.phase == "draw":
        draw = rng.choice([a for a in state.legal_actions() if isinstance(a, Draw)])
        if draw.source == "row":
            table.row[table.row.index(draw.card)] = None
            table.hands[seat].append(draw.card)
            return draw
        card = table.top()
        table.hands[seat].append(card)
        return Draw(seat, "deck", card if rng.random() < table.seen else None)
    if state.phase == "discard":
        card = table.hands[seat].pop(rng.randrange(len(table.hands[seat])))
        table.discard.append(card)
        return Discard(seat, card if rng.random() < table.seen else None)
    if state.phase == "attack":
        combos = [c.cards for c in best_hand(table.hands[seat], state.options)]
        weakest = min((h.lakas for h in state.halimaw_row if h), default=None)
        ap = sum(len(c) - 1 for c in combos)  # every combo is worth a card less than its size
        if combos and state.ap == 0 and weakest is not None and (ap >= weakest or table.all_in_hands()):
            for card in (c for combo in combos for c in combo):
                table.hands[seat].remove(card)
                table.discard.append(card)
            return PutDown(seat, tuple(combos))
        targets = [h for h in state.halimaw_row if h and h.lakas <= state.ap]
        if targets and rng.random() < 0.9:
            target = rng.choice(targets)
            slot = table.halimaw_row.index(target.name)
            table.halimaw_row[slot] = None
            table.defeated[seat].append(table.stats[target.name])
            return Defeat(seat, target.name)
        return Done(seat)
    if state.phase == "reveal":
        name = table.halimaw.pop(0)
        row = table.halimaw_row
        if None in row:
            row[row.index(None)] = name
        else:
            row.append(name)
        for attack in table.stats[name]["attacks"]:
            table.attack(attack)
        stats = table.stats[name]
        said = Halimaw(name) if rng.random() < 0.5 else Halimaw(
            name, stats["color"], stats["lakas"], stats["dp"], tuple(stats["attacks"]))
        return Reveal(said)
    return End(tuple(tuple(h) for h in table.hands))


def play_game(seed, players, options, seen):
    rng = random.Random(seed)
    table = Table(rng, players, options, seen)
    setup = table.setup()
    state = bagani.new_game(NAMES[:players], options, setup)
    log = []
    while not state.is_terminal() and len(log) < 3000:
        event = next_event(state, table, rng)
        assert bagani.action_from_dict(event.to_dict()) == event
        state = state.apply(event)
        log.append(event)
        agrees(state, table)
        if len(log) % 40 == 0:  # spot checks: the full lists cost more than the game
            json.dumps(state.to_dict())
            every_listed_action_applies(state)
    return state, table, [setup] + [event.to_dict() for event in log]


option_sets = st.fixed_dictionaries({}, optional={
    name: st.booleans() for name in ("hand_limit", "reveal_after_attack", "final_round",
                                     "random_sarimaw", "remove_four_halimaw")})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 6), options=option_sets,
       seen=st.sampled_from([0.0, 0.5, 1.0]))
def test_random_games_end_with_the_scores_of_the_real_table(seed, players, options, seen):
    state, table, _ = play_game(seed, players, options, seen)
    assert state.is_terminal() and state.sarimaw_down
    expected = bagani.score({"game": "bagani", "options": options, "players": [
        {"name": name, "hand": hand,
         "defeated": [{"name": k["name"], "color": k["color"], "dp": k["dp"]} for k in won]}
        for name, hand, won in zip(NAMES, table.hands, table.defeated)]})
    assert state.scores().to_dict() == expected


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 6))
def test_a_game_replays_from_its_event_log(seed, players):
    state, _, (setup, *events) = play_game(seed, players, {}, 0.5)
    replayed = bagani.new_game(NAMES[:players], {}, setup)
    for event in events:
        replayed = replayed.apply(bagani.action_from_dict(event))
    assert replayed == state


def test_an_event_out_of_turn_is_refused_and_changes_nothing():
    table = Table(random.Random(7), 3, {}, 1.0)
    state = bagani.new_game(NAMES[:3], {}, table.setup())
    before = state.to_dict()
    with pytest.raises(IllegalMove, match="Ana's turn"):
        state.apply(Done(1))
    assert state.to_dict() == before


def stray_event(state, rng):
    """Any event at all, legal or not, as a confused camera might report one."""
    seat = rng.randrange(len(state.players) + 1)
    card = rng.choice(sorted(CARD_CODES))
    name = rng.choice(["Sarimaw", "Halimaw 0", "Halimaw 9", "Kapre"])
    return rng.choice([
        Draw(seat, rng.choice(["row", "deck"]), card), Refill(card), Discard(seat, card),
        PutDown(seat, (tuple(rng.choice(sorted(CARD_CODES)) for _ in range(rng.randint(0, 7))),)),
        Defeat(seat, name), Done(seat), Reveal(Halimaw(name)), End()])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 6), options=option_sets)
@example(seed=14, players=6, options={})  # all 55 cards in hands after 394 events: nobody could draw
@example(seed=2542759337, players=6, options={"final_round": False, "random_sarimaw": False})  # the last
# deck card refilled a row of face-up Biyaya after a first draw: no second draw was left
def test_any_event_is_applied_or_refused_with_a_reason(seed, players, options):
    rng = random.Random(seed)
    played, _, (setup, *events) = play_game(seed, players, options, 0.5)
    assert played.is_terminal()
    state = bagani.new_game(NAMES[:players], options, setup)
    for event in events:
        try:
            state.apply(stray_event(state, rng))
        except IllegalMove as refused:
            assert refused.reason.endswith((".", "!"))
        state = state.apply(bagani.action_from_dict(event))
