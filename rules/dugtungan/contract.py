"""dugtungan (dug2ngan): the engine behind `companion score`/`check` and the live table.

The rules live in the package's other modules; this module reads the contract's JSON
requests and answers them.

`check` judges words a person can lay down, so an unknown word, a reordered sapaw or a
PAMATO missing from the word is a normal answer (`valid: false` with a reason); only what
cannot be judged at all (an unknown card code, a missing field, an unknown option) is bad
input. A request may carry the table's house lists as `"house": {"accept": [...],
"reject": [...]}`.
"""

from __future__ import annotations

from typing import Any, Mapping

from rules.core import BadInput, seated_result
from rules.dugtungan.events import action_from_dict
from rules.dugtungan.cards import parse_card, parse_cards
from rules.dugtungan.finder import find_words
from rules.dugtungan.lexicon import HouseWords
from rules.dugtungan.options import Options
from rules.dugtungan.scoring import GAME, MAX_PLAYERS, MIN_PLAYERS, score_hands
from rules.dugtungan.state import new_game
from rules.dugtungan.words import Dictionary, judge_dugtong, judge_sapaw, judge_todas
from rules.options import parse_options
from rules.payload import obj, player_names, req

__all__ = ["GAME", "Options", "score", "check", "new_game", "action_from_dict"]


def _dictionary(payload: Mapping[str, Any]) -> Dictionary:
    """The table's dictionary from a request's `options` and `house` lists."""
    options = parse_options(Options, payload.get("options"))
    house = HouseWords.from_dict(payload["house"]) if payload.get("house") is not None else HouseWords()
    return Dictionary(options, house)


def score(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Letters left in each hand (1 a letter, NG is 2); the lowest total wins."""
    parse_options(Options, payload.get("options"))
    players = req(payload, "players", list)
    names = player_names(players)
    hands = [parse_cards(req(obj(p, f"players[{i}]"), "hand", list, f"players[{i}]"), f"players[{i}].hand")
             for i, p in enumerate(players)]
    return seated_result(score_hands(names, [[c.code for c in hand] for hand in hands]), GAME,
                         MIN_PLAYERS, MAX_PLAYERS)


def check(payload: Mapping[str, Any]) -> dict[str, Any]:
    kind = req(payload, "check", str)
    checks = {"dugtong": _check_dugtong, "sapaw": _check_sapaw, "todas": _check_todas, "moves": _check_moves}
    if kind not in checks:
        raise BadInput("check", f"unknown dugtungan check {kind!r}; one of {', '.join(checks)}")
    return checks[kind](payload, _dictionary(payload))


def _check_dugtong(payload: Mapping[str, Any], words: Dictionary) -> dict[str, Any]:
    pamato = parse_card(req(payload, "pamato", str), "pamato")
    return judge_dugtong(pamato, parse_cards(req(payload, "word", list), "word"), words).to_dict()


def _check_sapaw(payload: Mapping[str, Any], words: Dictionary) -> dict[str, Any]:
    old = parse_cards(req(payload, "word", list), "word")
    if not old:
        raise BadInput("word", "needs the cards of the word on the table")
    return judge_sapaw(old, parse_cards(req(payload, "new", list), "new"), words).to_dict()


def _check_todas(payload: Mapping[str, Any], words: Dictionary) -> dict[str, Any]:
    return judge_todas(parse_cards(req(payload, "word", list), "word"), words).to_dict()


def _check_moves(payload: Mapping[str, Any], words: Dictionary) -> dict[str, Any]:
    """The move finder: every word `hand` can make around `pamato`, longest first."""
    pamato = parse_card(req(payload, "pamato", str), "pamato")
    moves = find_words(pamato, parse_cards(req(payload, "hand", list), "hand"), words)
    return {"moves": [{"word": [c.code for c in m.cards], "text": m.verdict.text.upper(),
                       "reason": m.verdict.phrase()} for m in moves]}
