"""Bagani: the Card Game, behind the engine interface every game shares.

This module reads the contract's JSON (`score`, `check`) and starts the tracker; the
rules themselves live in the package's other modules.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from rules.bagani.events import action_from_dict
from rules.bagani.attack import HALIMAW_ROW, Target, judge_attack
from rules.bagani.cards import Deck, read_cards, read_colour, read_deck
from rules.bagani.combos import TITLES, best_hand, classify
from rules.bagani.options import Options
from rules.bagani.scoring import Defeated, PlayerTable, score_tables
from rules.bagani.state import GAME, BaganiState, new_state
from rules.core import BadInput, IllegalMove, seated_result
from rules.options import parse_options
from rules.payload import expect, items, obj, opt, player_names, req

MIN_PLAYERS = 2  # the book prints no range; a table of one has nobody to beat

__all__ = ["GAME", "Options", "action_from_dict", "check", "new_game", "score"]


def _options_and_deck(payload: Mapping[str, Any]) -> tuple[Options, Deck]:
    return (parse_options(Options, payload.get("options")),
            read_deck(payload.get("deck"), "deck"))


def _stat(entry: Mapping[str, Any], key: str, known: Any, path: str, name: str) -> Any:
    """A Halimaw stat from the request, or from the deck when the request leaves it out.

    What the rulebook or the deck prints wins: a request that gives another value (a
    Higante of Lakas 1) is refused rather than judged as if the card said so."""
    given = entry.get(key)
    if given is None:
        if known is None:
            raise BadInput(f"{path}.{key}", f"missing, and the deck does not give {name}'s {key}")
        return known
    if known is not None and given != known:
        raise BadInput(f"{path}.{key}", f"{name} has {_STAT_NAMES[key]} {known} printed on the card, "
                                        f"not {given!r}")
    return given


_STAT_NAMES = {"lakas": "Lakas", "dp": "DP", "color": "colour"}


def _read_defeated(deck: Deck) -> Callable[[Any, str], Defeated]:
    def read(value: Any, path: str) -> Defeated:
        entry = obj(value, path)
        name = req(entry, "name", str, path)
        kind = deck.kind(name)
        color = read_colour(_stat(entry, "color", kind.color, path, name), f"{path}.color")
        dp = expect(_stat(entry, "dp", kind.dp, path, name), int, f"{path}.dp")
        if dp < 0:
            raise BadInput(f"{path}.dp", "must be 0 or more")
        return Defeated(name, color, dp)
    return read


def _read_target(deck: Deck, row: Sequence[Target] = ()) -> Callable[[Any, str], Target]:
    """Targets read with the deck's printed Lakas, or else the face-up row's for that name."""
    def read(value: Any, path: str) -> Target:
        entry = obj(value, path)
        name = req(entry, "name", str, path)
        known = deck.kind(name).lakas
        if known is None:
            known = next((t.lakas for t in row if t.name == name), None)
        lakas = expect(_stat(entry, "lakas", known, path, name), int, f"{path}.lakas")
        if lakas < 1:
            raise BadInput(f"{path}.lakas", "must be at least 1")
        return Target(name, lakas)
    return read


def score(payload: Mapping[str, Any]) -> dict[str, Any]:
    """End scoring of `{"players": [{"name", "defeated", "hand"}], "options"?, "deck"?}`."""
    options, deck = _options_and_deck(payload)
    players = req(payload, "players", list)
    names = player_names(players)
    tables = []
    for i, (name, player) in enumerate(zip(names, players)):
        path = f"players[{i}]"
        defeated = items(req(player, "defeated", list, path), f"{path}.defeated",
                         _read_defeated(deck))
        hand = _read_hand(opt(player, "hand", list, [], path), f"{path}.hand", deck)
        tables.append(PlayerTable(name, tuple(defeated), tuple(hand)))
    held = sum(len(t.hand or ()) for t in tables)
    if held > deck.bagani_total:
        raise BadInput("players", f"the hands hold {held} cards in all; the deck has only "
                                  f"{deck.bagani_total} Bagani cards")
    return seated_result(score_tables(GAME, tables, options), "Bagani", MIN_PLAYERS)


def _check_combo(payload: Mapping[str, Any], options: Options, deck: Deck) -> dict[str, Any]:
    cards = read_cards(req(payload, "cards", list), "cards")
    try:
        combo = classify(cards, options)
    except IllegalMove as exc:
        return {"valid": False, "combo": None, "ap": 0, "reason": exc.reason}
    return {"valid": True, "combo": combo.combo, "ap": combo.ap,
            "reason": f"A {TITLES[combo.combo]} gives {combo.ap} AP."}


def _check_attack(payload: Mapping[str, Any], options: Options, deck: Deck) -> dict[str, Any]:
    combos = items(req(payload, "combos", list), "combos", read_cards)
    row_data = opt(payload, "row", list, None)
    row = None if row_data is None else items(row_data, "row", _read_target(deck))
    if row is not None and len(row) > HALIMAW_ROW:
        raise BadInput("row", f"at most {HALIMAW_ROW} Halimaw are face up")
    targets = items(req(payload, "targets", list), "targets", _read_target(deck, row or ()))
    return judge_attack(combos, targets, row, options)


def _read_hand(value: Any, path: str, deck: Deck) -> list[str]:
    """A hand's card codes; more cards than the whole deck holds cannot be a hand.

    Which codes and how many of each is not checked (RULES-NOTES: six blue-circles in one
    hand is scored), only the size, which also keeps the optimiser's work bounded."""
    if isinstance(value, list) and len(value) > deck.bagani_total:
        raise BadInput(path, f"{len(value)} cards: the deck has only {deck.bagani_total} Bagani cards")
    return read_cards(value, path)


def _check_hand(payload: Mapping[str, Any], options: Options, deck: Deck) -> dict[str, Any]:
    combos = best_hand(_read_hand(req(payload, "cards", list), "cards", deck), options)
    ap = sum(c.ap for c in combos)
    return {"combos": [c.to_dict() for c in combos], "ap": ap, "dp": 2 * ap}


_CHECKS = {"combo": _check_combo, "attack": _check_attack, "hand": _check_hand}


def check(payload: Mapping[str, Any]) -> dict[str, Any]:
    """One situation at the table: `combo`, `attack` or `hand` (see CONTRACT.md)."""
    kind = req(payload, "check", str)
    if kind not in _CHECKS:
        raise BadInput("check", f"unknown check {kind!r}; one of {', '.join(_CHECKS)}")
    options, deck = _options_and_deck(payload)
    return _CHECKS[kind](payload, options, deck)


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             setup: Mapping[str, Any] | None = None) -> BaganiState:
    """A tracker for `players` in seat order, first player first.

    `setup` may hold `"deck"` (a deck file's JSON) and the opening rows as a setup event
    (`"bagani"`: 5 card codes, `"halimaw"`: 4 names or Halimaw objects, `"hands"`?).
    """
    names = player_names([{"name": p} for p in expect(list(players), list, "players")])
    deck = read_deck(None if setup is None else setup.get("deck"), "setup.deck")
    return new_state(names, parse_options(Options, options), deck, setup)

