"""The `companion` command: one entry point, one subcommand module each.

Bad input anywhere ends as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Sequence

from companion.commands import config, demo, enroll, judge, markers, recognize, run, start, words
from companion.errors import UsageError
from companion.logs import configure_logging

COMMANDS = (judge, config, markers, demo, run, start, enroll, recognize, words)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion: recognises cards, runs the rules, keeps score, serves a live scoreboard.")
    parser.add_argument("--config", metavar="FILE", help="settings file (TOML); default "
                        "~/.config/table-companion/config.toml or $COMPANION_CONFIG")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
