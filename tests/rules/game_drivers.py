"""Whole games of all four engines played at random by a real table of shuffled cards.

Each driver deals real cards, picks a random legal event at every step (the chance events,
a card drawn or revealed, come from the shuffled deck) and returns the game as a log:
players, options, set-up and events, ready to store and replay. `test_games_end` plays
them to show that every game reaches an end; the golden logs in `data/golden/` were
recorded with them (`python tests/rules/game_drivers.py`).
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import test_bagani_games as bagani_table  # noqa: E402
import test_gargon_tracker as gargon_table  # noqa: E402
import test_lagim_random as lagim_table  # noqa: E402
from rules import dugtungan, gargon  # noqa: E402
from rules.core import GameState, IllegalMove  # noqa: E402
from rules.dugtungan.events import Draw as WordDraw, Reveal as WordReveal  # noqa: E402
from rules.dugtungan.cards import deck_counts  # noqa: E402
from rules.dugtungan.state import DRAW, REVEAL  # noqa: E402
from rules.gargon.events import Draw as PileDraw  # noqa: E402
from rules.registry import game_spec  # noqa: E402
from test_lagim_cards import TABLE_DECK  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
SEEDS_TRIED = 30  # seeds tried for a game whose events mean something else under the defaults
# the most events a game may take, from one deck for dugtungan: every turn draws, and a turn
# takes at most 3 events a card drawn, so a deck of 123 cards lasts fewer than 400
MAX_EVENTS = {"bagani": 3000, "gargon": 400, "dugtungan": 600, "lagim": 3000}

Log = dict[str, Any]


def _log(game: str, players: list[str], options: dict, setup: dict, events: list[dict]) -> Log:
    return {"game": game, "players": players, "options": options, "setup": setup, "events": events}


def bagani_game(seed: int, players: int, options: dict) -> Log:

    _, _, (setup, *events) = bagani_table.play_game(seed, players, options, 0.5)
    return _log("bagani", bagani_table.NAMES[:players], options, setup, events)


def gargon_game(seed: int, players: int, options: dict) -> Log:

    rng = random.Random(seed)
    names = ["Adam", "Bernd", "Collette", "Dagmar", "Eva"][:players]
    state, table, events = gargon.new_game(names, options), gargon_table.Table(players, rng), []
    while not state.is_terminal() and len(events) < MAX_EVENTS["gargon"]:
        if state.phase == "revealing":
            action = table.reveal()
        else:
            legal = [a for a in state.legal_actions() if table.can(a)]
            draws = [a for a in legal if isinstance(a, PileDraw)]
            action = rng.choice(draws if draws and rng.random() < 0.9 else legal)
        state = state.apply(action)
        table.do(action)
        events.append(action.to_dict())
    return _log("gargon", names, options, {}, events)


def dugtungan_deck() -> list[str]:
    """Every card of the default deck, unshuffled."""
    return [c.code for c, n in deck_counts().items() for _ in range(n)]


def dugtungan_event(state: Any, deck: list[str], rng: random.Random) -> Any:
    """A random legal event; a reveal or a draw takes the top card of the real deck."""
    if state.phase == REVEAL:
        return WordReveal(deck.pop())
    action = rng.choice(state.legal_actions())
    return WordDraw(state.turn, deck.pop()) if state.phase == DRAW else action


def dugtungan_deck_after(after: Any, deck: list[str], rng: random.Random) -> list[str]:
    """The real deck after an event: when the tracker reshuffled the banks (asked, or by
    the option, after the event may have banked the word it replaced), every card not
    on the table, shuffled."""
    if after.deck == len(deck):
        return deck
    deck = list((Counter(dugtungan_deck()) - dugtungan_cards_out(after)).elements())
    rng.shuffle(deck)
    return deck


def dugtungan_cards_out(state: Any) -> Counter[str]:
    """Every card out of the draw deck: hands, banks, the word, the PAMATO and dead cards."""
    out = Counter(c for cards in (*state.hands, *state.banks, state.word, state.discards) for c in cards)
    return out + Counter([state.pamato] if state.pamato else [])


def dugtungan_game(seed: int, players: int, options: dict) -> Log:
    rng = random.Random(seed)
    options = {"min_zipf": 4.0, "hand_size": 5, **options}
    deck = dugtungan_deck()
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(options["hand_size"])] for _ in range(players)]
    setup = {"hands": hands}
    names = [f"P{i}" for i in range(players)]
    state, events = dugtungan.new_game(names, options, setup), []
    while not state.is_terminal() and longest_deck_pass(events) < MAX_EVENTS["dugtungan"]:
        action = dugtungan_event(state, deck, rng)
        state = state.apply(action)
        deck = dugtungan_deck_after(state, deck, rng)
        events.append(action.to_dict())
    return _log("dugtungan", names, options, setup, events)


def longest_deck_pass(events: list[dict]) -> int:
    """The most events played from one deck. When dugtungan's deck runs out the table may
    shuffle the banks into a new deck as often as it likes (the FAQ: "Magdecide ang
    grupo"), so a game's length is the table's choice; each pass through a deck is not."""
    longest = run = 0
    for event in events:
        run = 0 if event["kind"] == "reshuffle" else run + 1
        longest = max(longest, run)
    return longest


def lagim_game(seed: int, players: int, options: dict) -> Log:
    rng = random.Random(seed)
    setup = {"deck": TABLE_DECK}
    state, events = game_spec("lagim").new_game(lagim_table.NAMES[:players], options, setup), []
    while not state.is_terminal() and len(events) < MAX_EVENTS["lagim"]:
        action = rng.choice(state.legal_actions() + lagim_table._hidden_events(state, rng))  # type: ignore[attr-defined]
        try:
            state = state.apply(action)
        except IllegalMove:
            continue
        events.append(action.to_dict())
    return _log("lagim", lagim_table.NAMES[:players], options, setup, events)


DRIVERS: dict[str, Callable[[int, int, dict], Log]] = {
    "bagani": bagani_game, "gargon": gargon_game, "dugtungan": dugtungan_game, "lagim": lagim_game}


def replay(log: Log) -> GameState:
    """The state a stored log ends in, every event read back through `action_from_dict`."""
    rules = game_spec(log["game"])
    state = rules.new_game(log["players"], log["options"], log["setup"])
    for event in log["events"]:
        state = state.apply(rules.action_from_dict(event))
    return state


# One golden game per game and per option switched from its default.
GOLDEN_GAMES: list[tuple[str, int, dict]] = [
    ("bagani", 3, {}), ("bagani", 3, {"hand_limit": True}), ("bagani", 4, {"reveal_after_attack": False}),
    ("bagani", 3, {"final_round": True}), ("bagani", 2, {"random_sarimaw": True}),
    ("bagani", 3, {"remove_four_halimaw": True}), ("bagani", 3, {"biyaya_fills_colour_slots": False}),
    ("bagani", 3, {"biyaya_only_combos": False}),
    ("gargon", 4, {}), ("gargon", 3, {"shared_win": False}), ("gargon", 5, {"open_won_cards": True}),
    ("dugtungan", 2, {}), ("dugtungan", 3, {"deck_runs_out": "score"}),
    ("dugtungan", 3, {"deck_runs_out": "reshuffle"}), ("dugtungan", 2, {"derived_words": False}),
    ("dugtungan", 2, {"one_action_card_per_turn": False}), ("dugtungan", 3, {"revealed_actions_fire": True}),
    ("dugtungan", 2, {"sapaw_own_word": True}), ("dugtungan", 2, {"min_root_letters": 5}),
    ("dugtungan", 2, {"derived_need_vote": True}),
    ("lagim", 2, {}), ("lagim", 4, {}), ("lagim", 6, {"dark_coins_in_box": 8}),
]


def golden_name(game: str, players: int, options: dict) -> str:
    switched = "-".join(f"{k}-{v}".lower() for k, v in options.items()) or "defaults"
    return f"{game}-{players}p-{switched}.json"


def differs_under_defaults(log: Log, state: GameState) -> bool:
    """Whether the same events with every option at its default are refused or end in
    another position: the game shows what its switch changes."""
    try:
        plain = replay({**log, "options": {k: v for k, v in log["options"].items() if k == "min_zipf"
                                           or k == "hand_size"}})
    except IllegalMove:
        return True
    return plain.to_dict() != state.to_dict()


def record() -> None:
    """Writes each golden game that ends (and, for a switched option, whose events mean
    something else under the defaults), with the scores its final state gives."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game, players, options in GOLDEN_GAMES:
        ending = None
        for seed in range(SEEDS_TRIED):
            log = DRIVERS[game](seed, players, options)
            state = replay(log)
            if not state.is_terminal():
                continue
            log["switch_shows"] = bool(options) and differs_under_defaults(log, state)
            ending = ending or (seed, log, state)
            if log["switch_shows"] or not options:
                ending = (seed, log, state)
                break
        if ending is None:
            raise SystemExit(f"no {game} game with {options} ended")
        seed, log, state = ending
        log["seed"] = seed
        log["scores"] = state.scores().to_dict()
        path = GOLDEN / golden_name(game, players, options)
        path.write_text(json.dumps(log, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")
        print(path.name, seed, len(log["events"]), "events", log["scores"]["winners"], log["switch_shows"])


if __name__ == "__main__":
    record()
