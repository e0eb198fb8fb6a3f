"""`companion score` and `companion check`: the rules engines behind the JSON contract."""

from __future__ import annotations

import argparse
from typing import Any, Callable, Mapping

from companion.errors import UsageError
from companion.jsonio import print_json, read_json
from companion.score_text import score_table
from rules.core import BadInput
from rules.spec import GameSpec
from rules.registry import game_spec


def _answer(path: str, ask: Callable[[GameSpec, Mapping[str, Any]], dict[str, Any]],
            text: Callable[[dict[str, Any]], str] | None = None) -> int:
    source = "<stdin>" if path == "-" else path
    payload = read_json(path)
    try:
        if not isinstance(payload, dict):
            raise BadInput("", "the request must be a JSON object")
        answer = ask(game_spec(payload.get("game")), payload)
    except BadInput as exc:
        raise UsageError(source, exc.field, exc.problem) from None
    print(text(answer)) if text else print_json(answer)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    score = sub.add_parser("score", help="end-of-game scoring of a JSON table description")
    score.add_argument("file", help="JSON file, or - for stdin")
    score.add_argument("--text", action="store_true", help="a table for people instead of JSON")
    score.set_defaults(func=lambda args: _answer(args.file, lambda g, p: g.score(p),
                                                 score_table if args.text else None))

    check = sub.add_parser("check", help="adjudicate one situation at the table (JSON)")
    check.add_argument("file", help="JSON file, or - for stdin")
    check.set_defaults(func=lambda args: _answer(args.file, lambda g, p: g.check(p)))
