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
from companion.camera_files import table_camera, table_deck, table_zones


def start_table(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    game = args.game or settings.game
    camera = args.camera or table_camera(settings.camera, settings.data_path)
    deck = args.deck or table_deck(settings.deck, settings.data_path, game)
    problem = camera_problem(CameraSetup(camera, deck, game, table_zones(settings.zones_file, settings.data_path)))
    if problem is None:
        args.camera, args.deck, args.new = camera, deck, False
        return run_table(args)
    print(f"companion: {problem}; starting the demo table instead", flush=True)
    return run_demo(args)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "start", help="start the table: the live camera when one is attached, else the demo",
        description="Starts the live table when a camera is attached and its cards can be recognised (an "
        "enrolled deck, or a game read from print); otherwise plays the demo table, and says why.")
    add_demo_arguments(parser)
    live = parser.add_argument_group("the live table (used when a camera is attached)")
    live.add_argument("--camera", metavar="SOURCE", help="camera source (default: the camera setting, auto)")
    live.add_argument("--deck", help="enrolled deck profile (default: the deck setting, else the deck "
                      "enrolled on the host page)")
    live.add_argument("--players", default="Player 1,Player 2,Player 3",
                      help="names in turn order, comma-separated (renamed on the host page)")
    parser.set_defaults(func=start_table)
