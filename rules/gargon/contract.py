"""Gargon (Amigo, 2001): the engine behind `companion score`/`check` and the live table.

The rules live in the package's other modules; this module reads the contract's JSON
requests and answers them.

Where `check` draws the line between an answer and an error:
- `play` judges plays, so any play a person can physically lay down (three cards of one
  colour, four cards, a follower breaking the pattern, a start player passing) is a
  normal answer, `valid: false` with a reason. Only what cannot be a play at all is bad
  input: an unknown colour, a non-list.
- `battle` fights plays that were already made, so it needs legal ones: three cards of
  one colour, a follower off the pattern, a card revealed twice or an unknown card code
  (`red-16`) are bad input naming the player's `revealed` entry.
"""

from __future__ import annotations

from typing import Any, Mapping

from rules.core import BadInput, check_player_count, seated_result
from rules.gargon.battle import battle_order, describe, resolve_colour
from rules.gargon.cards import (GAME, MAX_PLAYERS, MIN_PLAYERS, amulet_table, cards_from_codes, colour_from_name,
                                 too_many_copies)
from rules.gargon.events import action_from_dict
from rules.gargon.options import Options
from rules.gargon.play import judge_round, pattern_name, pattern_of
from rules.gargon.scoring import score_won
from rules.gargon.state import new_game, seat_names
from rules.options import parse_options
from rules.payload import expect, obj, player_names, req

__all__ = ["GAME", "Options", "score", "check", "new_game", "action_from_dict"]


def score(payload: Mapping[str, Any]) -> dict[str, Any]:
    """End scoring from each player's won cards; a deck may override `amulets`."""
    options = parse_options(Options, payload.get("options"))
    amulets = amulet_table(payload.get("amulets"))
    players = req(payload, "players", list)
    names = player_names(players)
    won = [cards_from_codes(req(obj(p, f"players[{i}]"), "won", list, f"players[{i}]"),
                            f"players[{i}].won") for i, p in enumerate(players)]
    return seated_result(score_won(names, won, amulets, options), "Gargon", MIN_PLAYERS, MAX_PLAYERS)


def check(payload: Mapping[str, Any]) -> dict[str, Any]:
    parse_options(Options, payload.get("options"))
    kind = req(payload, "check", str)
    checks = {"play": _check_play, "battle": _check_battle}
    if kind not in checks:
        raise BadInput("check", f"unknown Gargon check {kind!r}; one of {', '.join(checks)}")
    return checks[kind](payload)


def _check_play(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Each seat's play or pass, in turn order; reasons name seats as "Player 2"."""
    entries = req(payload, "plays", list)
    if not entries:
        raise BadInput("plays", "needs one entry per player, the start player's first")
    check_player_count(len(entries), "Gargon", MIN_PLAYERS, MAX_PLAYERS, "plays")
    plays = [None if entry is None else
             tuple(colour_from_name(c, f"plays[{i}][{j}]")
                   for j, c in enumerate(expect(entry, list, f"plays[{i}]")))
             for i, entry in enumerate(entries)]
    verdicts = judge_round(plays)
    lead = plays[0]
    return {
        "valid": [v.valid for v in verdicts],
        "reason": [f"{'The start player' if i == 0 else f'Player {i + 1}'} {v.reason}."
                   for i, v in enumerate(verdicts)],
        "pattern": pattern_name(pattern_of(lead)) if verdicts[0].valid and lead else None,
    }


def _check_battle(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Every colour's battles for the revealed cards, colours in the order chosen when
    each chooser takes their colours in the order listed."""
    names = seat_names(req(payload, "players", list))
    check_player_count(len(names), "Gargon", MIN_PLAYERS, MAX_PLAYERS)
    revealed = req(payload, "revealed", dict)
    for name in revealed:
        if name not in names:
            raise BadInput(f"revealed.{name}", "not among players")
    played = [cards_from_codes(revealed[n], f"revealed.{n}") if n in revealed else () for n in names]
    verdicts = judge_round([tuple(c.colour for c in cards) if n in revealed else None
                            for n, cards in zip(names, played)])
    for name, verdict in zip(names, verdicts):
        if not verdict.valid:
            where = f"revealed.{name}" if name in revealed else "revealed"
            raise BadInput(where, f"{name} {verdict.reason}; only legal plays go to battle")
    twice = too_many_copies([c for cards in played for c in cards])
    if twice is not None:
        raise BadInput("revealed", f"{twice.code} is revealed more often than the deck holds it")
    colours: dict[str, list[dict[str, Any]]] = {}
    won_by_player: dict[str, list[str]] = {name: [] for name in names}
    said: list[str] = []
    for colour in battle_order(played):
        battles = resolve_colour(colour, played)
        colours[colour] = [{
            "winner": None if b.winner is None else names[b.winner],
            "won": [c.code for c in b.won],
            "discarded": [c.code for _, c in b.discarded],
            "draws": [names[p] for p in b.drawers],
            "case": b.case,
        } for b in battles]
        for b in battles:
            if b.winner is not None:
                won_by_player[names[b.winner]] += [c.code for c in b.won]
        said += [describe(b, names) for b in battles]
    return {"colours": colours, "won_by_player": won_by_player, "order": list(colours),
            "announcements": said}
