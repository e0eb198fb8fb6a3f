"""`companion score` and `companion check`: the rules engines behind the JSON contract."""

from __future__ import annotations

import argparse
from typing import Any, Callable, Mapping

from companion.errors import UsageError
from companion.jsonio import print_json, read_json
from rules.core import BadInput, GameRules
from rules.registry import game_rules


def _answer(path: str, ask: Callable[[GameRules, Mapping[str, Any]], dict[str, Any]]) -> int:
    source = "<stdin>" if path == "-" else path
    payload = read_json(path)
    try:
        if not isinstance(payload, dict):
            raise BadInput("", "the request must be a JSON object")
        answer = ask(game_rules(payload.get("game")), payload)
    except BadInput as exc:
        raise UsageError(source, exc.field, exc.problem) from None
    print_json(answer)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    score = sub.add_parser("score", help="end-of-game scoring of a JSON table description")
    score.add_argument("file", help="JSON file, or - for stdin")
    score.set_defaults(func=lambda args: _answer(args.file, lambda g, p: g.score(p)))

    check = sub.add_parser("check", help="adjudicate one situation at the table (JSON)")
    check.add_argument("file", help="JSON file, or - for stdin")
    check.set_defaults(func=lambda args: _answer(args.file, lambda g, p: g.check(p)))
