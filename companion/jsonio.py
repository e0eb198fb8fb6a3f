"""Reading a JSON request from a file or stdin, and writing JSON answers."""

from __future__ import annotations

import json
import sys
from typing import Any

from companion.errors import UsageError


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
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(source, "", f"not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))
