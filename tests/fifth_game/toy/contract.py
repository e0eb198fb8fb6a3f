"""Sampu's JSON requests: `score` (wins per player) and `check` (may this be added?)."""

from __future__ import annotations

from typing import Any, Mapping

from rules.core import BadInput, PlayerScore, ScoreResult, best_by, seated_result
from rules.options import parse_options
from rules.payload import obj, player_names, req
from tests.fifth_game.toy.events import read_amount
from tests.fifth_game.toy.options import Options
from tests.fifth_game.toy.state import GAME, MAX_PLAYERS, MIN_PLAYERS


def score(payload: Mapping[str, Any]) -> dict[str, Any]:
    players = req(payload, "players", list)
    names = player_names(players)
    wins = [req(obj(p, f"players[{i}]"), "wins", int, f"players[{i}]") for i, p in enumerate(players)]
    result = ScoreResult(GAME, tuple(PlayerScore(n, w) for n, w in zip(names, wins)),
                         best_by(names, [(w,) for w in wins]))
    return seated_result(result, "Sampu", MIN_PLAYERS, MAX_PLAYERS)


def check(payload: Mapping[str, Any]) -> dict[str, Any]:
    options = parse_options(Options, payload.get("options"))
    if req(payload, "check", str) != "add":
        raise BadInput("check", "unknown Sampu check; one of add")
    count, amount = req(payload, "count", int), read_amount(payload.get("amount"), "amount")
    if not 0 <= count < options.target:
        raise BadInput("count", f"must be 0 to {options.target - 1}")
    total = count + amount
    valid = total <= options.target
    return {"valid": valid, "reason": f"{count} + {amount} = {total}"
            + ("" if valid else f", past {options.target}")}
