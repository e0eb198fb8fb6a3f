"""`companion config check|show`: find a settings mistake before the table sits down."""

from __future__ import annotations

import argparse
import sys

from companion.config import ConfigError, load_settings, settings_fields


def _check(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return 2
    if args.action == "show":
        for f in settings_fields():
            value = getattr(settings, f.name)
            print(f"{f.name} = {value!r}".replace("'", '"').replace("True", "true").replace("False", "false")
                  + f"  # {f.metadata['doc']}")
    else:
        print("settings ok")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("config", help="check or show the settings (TOML file + COMPANION_* variables)")
    parser.add_argument("action", choices=("check", "show"))
    parser.set_defaults(func=_check)
