"""Random Lagim games: whatever the table does, the tracker never crashes and nothing
is created or lost.

Each step picks one listed legal action (which must apply), or an event that reveals
hidden cards (a battle with random Defenders, an offering, a Special Kontra spell),
which may only be refused with an IllegalMove. After every step Soul Coins, Dark Soul
Coins and cards are conserved, the state is JSON-ready, and at the end the event log
replays to the same table.
"""

from __future__ import annotations

import json
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules import lagim
from rules.core import IllegalMove
from rules.lagim.events import BaryoOffering, Battle, Disable, Reap, RevealedDefender, Salag, SpecialKontra
from rules.lagim.cards import catalogue_deck
from rules.lagim.state import LagimState
from test_lagim_cards import TABLE_DECK

NAMES = ["Ana", "Ben", "Cai", "Dan", "Eva", "Fe"]
_CARDS = list(catalogue_deck().base_set("baryo"))
DEFENDER_NAMES = [c.name for c in _CARDS if c.kind == "lakas" or "special" in c.archetypes]
KONTRA_NAMES = [c.name for c in _CARDS if c.kind == "kontra"]
LAKAS_NAMES = [c.name for c in _CARDS if c.kind == "lakas"]
NULLIFIER_NAMES = [c.name for c in _CARDS if c.nullifies]
FOREST_CARDS = sum(c.count for c in catalogue_deck().base_set("forest"))
BARYO_CARDS = sum(c.count for c in _CARDS)


def _hidden_events(state: LagimState, rng: random.Random) -> list[object]:
    """Events naming cards the tracker cannot see beforehand, drawn at random."""
    seat, table = state.current_player(), state.table
    assert seat is not None
    baryo = table.baryos[seat]
    events: list[object] = []
    if baryo.defenders and (table.incoming is not None or (table.phase == "dawn" and baryo.dwellers)):
        defenders = tuple(
            RevealedDefender(rng.choice(DEFENDER_NAMES), tuple(rng.sample(KONTRA_NAMES, rng.randint(0, 1))))
            for _ in range(rng.randint(1, baryo.defenders)))
        stack = table.incoming.cards if table.incoming else baryo.dwellers
        archetype = None if table.incoming else table.archetype(rng.choice(baryo.dwellers))
        split = (rng.choice(stack),) if rng.random() < 0.3 else None
        events.append(Battle(seat, defenders, archetype, split))
    if table.phase == "dawn" and table.incoming is None:
        events.append(BaryoOffering(seat, rng.choice(LAKAS_NAMES), tuple(rng.sample(KONTRA_NAMES, 4))))
        events.append(SpecialKontra(seat, rng.choice(KONTRA_NAMES)))
    if baryo.hand and (table.incoming is not None or (table.phase == "dawn" and baryo.dwellers)):
        stack = table.incoming.cards if table.incoming else baryo.dwellers
        events.append(Salag(seat, rng.choice(NULLIFIER_NAMES), rng.choice([None, *LAKAS_NAMES]),
                            None if table.incoming else table.archetype(rng.choice(stack))))
    if table.phase == "dawn" and table.incoming is None and baryo.defenders:
        for block in baryo.blocks:
            defenders = (RevealedDefender(rng.choice(LAKAS_NAMES)),)
            events.append(Battle(seat, defenders, table.archetype(block.cards[0])))
    lagim_on_boards = [(s, n) for s, b in enumerate(table.baryos) for n in b.dwellers
                       if table.info(n).kind == "lagim"]
    if lagim_on_boards and rng.random() < 0.1:
        target, card = rng.choice(lagim_on_boards)
        events.append(Reap(rng.randrange(len(table.baryos)), card, target))
        events.append(Disable(target, card, rng.randint(1, 2)))
    return events


def _assert_conserved(state: LagimState) -> None:
    t = state.table
    assert sum(b.soul_coins + b.spirit_path for b in t.baryos) + t.vessel_soul == t.coins_dealt
    assert sum(b.dark_coins for b in t.baryos) + t.vessel_dark == t.options.dark_coins_in_box
    arriving = len(t.incoming.cards) if t.incoming else 0
    assert len(t.forest_deck) + len(t.graveyard) + arriving + sum(
        len(b.captured) + len(b.dwellers) + len(b.held) for b in t.baryos) == FOREST_CARDS
    assert t.baryo_deck + t.resting + sum(
        b.hand + b.defence_cards + sum(k.baryo_cards for k in b.blocks) for b in t.baryos) == BARYO_CARDS
    assert all(b.defence_cards <= 3 for b in t.baryos)
    assert all(b.soul_coins >= 0 and b.defenders <= b.defence_cards for b in t.baryos)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), steps=st.integers(20, 160))
@example(players=6, seed=41369, steps=96)  # two SALAGs lapse at once and the first eliminates the Baryo
@example(players=5, seed=904, steps=100)  # a REAP eliminates the raider while its raid waits for an answer
@example(players=2, seed=1475, steps=90)  # a lapsing SALAG's landing passes the Lagim Limit, wiping the other
def test_random_legal_turns_never_crash_and_conserve_coins_and_cards(
        players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    start = lagim.new_game(NAMES[:players], setup={"deck": TABLE_DECK})
    state, log = start, []
    for _ in range(steps):
        if state.is_terminal():
            assert state.current_player() is None and state.legal_actions() == []
            break
        listed = state.legal_actions()
        assert listed, "a game that is not over always has a legal event"
        hidden = _hidden_events(state, rng)
        action = rng.choice(listed + hidden)
        assert lagim.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        try:
            state = state.apply(action)
        except IllegalMove as refusal:
            assert action in hidden, f"listed {action} refused: {refusal.reason}"
            continue
        log.append(action)
        _assert_conserved(state)
        json.dumps(state.to_dict())
    replayed = start
    for action in log:
        replayed = replayed.apply(lagim.action_from_dict(action.to_dict()))
    assert replayed.to_dict() == state.to_dict()
