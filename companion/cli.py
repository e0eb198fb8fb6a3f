"""The `companion` command: one entry point, one subcommand module each.

Bad input anywhere ends as one line on stderr and exit status 2, never a traceback.
Only the module of the command being run is imported, so `companion score` on a Pi does
not wait for OpenCV, onnxruntime and Flask to load.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from typing import Sequence

from companion.errors import UsageError
from companion.logs import configure_logging

# command name -> the module in companion.commands that registers it, in help order
COMMANDS = {
    "start": "start", "demo": "demo", "run": "run", "score": "judge", "check": "judge",
    "enroll": "enroll", "recognize": "recognize", "markers": "markers", "words": "words",
    "config": "config",
}


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser for `argv`'s command alone, or for every command (help, a mistyped name)."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion: recognises cards, runs the rules, keeps score, serves a live scoreboard.")
    parser.add_argument("--config", metavar="FILE", help="settings file (TOML); default "
                        "~/.config/table-companion/config.toml or $COMPANION_CONFIG")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = next((arg for arg in argv if arg in COMMANDS), None)
    modules = [COMMANDS[named]] if named else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(f"companion.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args, stray = parser.parse_known_args(argv)
    if stray:  # argparse leaves positionals after an option unread: `words check --data-dir D WORD`
        if not hasattr(args, "trailing") or any(arg.startswith("-") for arg in stray):
            parser.error(f"unrecognized arguments: {' '.join(stray)}")
        getattr(args, args.trailing).extend(stray)
    configure_logging(logging.DEBUG if args.verbose else logging.WARNING)
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `companion score game.json | head` is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
