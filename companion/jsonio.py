"""Reading a JSON request from a file or stdin, and writing JSON answers.

Python's `json` accepts more than JSON: `NaN` and `Infinity`, integers of any length
(whose conversion then fails past 4,300 digits), nesting until the interpreter's stack
runs out, and `\\ud800` escapes that make strings no encoder can write back. A request is
refused for each of these with one line naming the file and the field, before any rule
sees it.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Iterator

from companion.errors import UsageError

MAX_DEPTH = 64  # the deepest contract request nests 5 levels
MAX_INT_DIGITS = 30  # no count, level or value of any game comes near


class _Refused(ValueError):
    """Raised by the parse hooks; turned into a UsageError naming the file."""


def _refuse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer of {len(text.lstrip('-'))} digits is too long "
                       f"(at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"the number {text} is too large")
    return value


def _nodes(data: Any) -> Iterator[tuple[str, Any, int]]:
    """Every value of `data` with its path and depth, without recursion."""
    stack: list[tuple[str, Any, int]] = [("", data, 0)]
    while stack:
        path, value, depth = stack.pop()
        yield path, value, depth
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}" if path else str(k), v, depth + 1) for k, v in value.items())
            stack.extend((f"{path}.{k}" if path else str(k), k, depth + 1) for k in value)
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v, depth + 1) for i, v in enumerate(value))


def _check_shape(data: Any, source: str) -> None:
    """UsageError for nesting deeper than MAX_DEPTH or a string that is not Unicode text."""
    for path, value, depth in _nodes(data):
        if depth > MAX_DEPTH:
            raise UsageError(source, path, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise UsageError(source, path, "holds a lone surrogate escape (\\ud800-\\udfff), "
                                               "not a Unicode character") from None


def parse_json(text: str, source: str) -> Any:
    """`text` as JSON, or UsageError naming `source` and saying what is wrong."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_int=_parse_int,
                          parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        raise UsageError(source, "", f"not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except _Refused as exc:
        raise UsageError(source, "", str(exc)) from None
    except RecursionError:
        raise UsageError(source, "", f"nested more than {MAX_DEPTH} levels deep") from None
    _check_shape(data, source)
    return data


def read_json(path: str) -> Any:
    """The parsed JSON of `path` (`-` for stdin); UsageError naming the file otherwise."""
    source = "<stdin>" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except FileNotFoundError:
        raise UsageError(source, "", "no such file") from None
    except IsADirectoryError:
        raise UsageError(source, "", "is a directory, not a JSON file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(source, "", f"cannot read: {exc}") from None
    return parse_json(text, source)


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))
