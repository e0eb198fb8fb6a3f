"""`companion start`: the one command a newcomer runs (the README's first command).

With a camera attached and card recognition installed it runs the live table;
otherwise it plays the demo, and says which and why.
"""

from __future__ import annotations

import argparse

from companion.camera import CameraSetup, camera_problem
from companion.commands.demo import add_demo_arguments, run_demo
from companion.commands.run import run_table
from companion.commands.table_options import table_settings


def start_table(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    game = args.game or settings.game
    problem = camera_problem(CameraSetup(settings.camera, settings.deck, game, settings.zones_file))
    if problem is None:
        args.camera, args.deck, args.new = settings.camera, settings.deck, False
        args.players = "Player 1,Player 2,Player 3"
        return run_table(args)
    print(f"companion: {problem}; starting the demo table instead", flush=True)
    return run_demo(args)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("start", help="start the table: the live camera when one is attached, else the demo")
    add_demo_arguments(parser)
    parser.set_defaults(func=start_table)
