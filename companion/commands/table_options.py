"""Options shared by the commands that serve a table (`demo`, `run`, `start`)."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from companion.config import ConfigError, Settings, load_settings
from companion.errors import UsageError
from companion.logs import configure_logging


def add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, help="port of the scoreboard (default: the port setting, 8000)")
    parser.add_argument("--data-dir", metavar="DIR", help="where the game database lives "
                        "(default: the data_dir setting)")


def table_settings(args: argparse.Namespace) -> Settings:
    """The settings with this command's options over them, logging at their level; a
    settings mistake ends here."""
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        for line in exc.problems[1:]:
            print(f"companion: {line}", file=sys.stderr)
        raise UsageError("", "", exc.problems[0]) from None
    if args.port is not None and not 1 <= args.port <= 65535:
        raise UsageError("--port", str(args.port), "must be 1 to 65535")
    changes = {k: v for k, v in (("port", args.port), ("data_dir", args.data_dir)) if v is not None}
    if not args.verbose:
        configure_logging(settings.log_level)  # a table logs what it does (journald on a Pi)
    return dataclasses.replace(settings, **changes)
