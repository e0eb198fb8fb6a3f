"""`companion run --game GAME [--camera SOURCE]`: the live table.

The game in progress is restored from the store on start (a crash or a power cut loses
nothing); otherwise a new game starts with the players given. The camera is optional:
everything it would report can be entered by hand on the host page.
"""

from __future__ import annotations

import argparse
import logging
from typing import Callable

from companion.camera import CameraSetup, TableCamera, source_problem
from companion.commands.demo import pick_game
from companion.commands.table_options import add_table_options, table_settings
from companion.camera_files import table_camera, table_deck, table_zones
from companion.errors import UsageError
from companion.server import serve
from companion.web import Services
from rules.core import BadInput
from rules.registry import game_spec

log = logging.getLogger(__name__)


def run_table(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    game = pick_game(args.game, settings.game)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    camera = args.camera or table_camera(settings.camera, settings.data_path)
    try:
        game_spec(game).new_game(players, None, None)  # a bad table is refused before the port opens
    except BadInput as exc:
        raise UsageError("--players", args.players, exc.problem) from None
    problem = source_problem(camera)
    if problem:
        raise UsageError("--camera" if args.camera else "the camera setting", "", problem)

    def start(services: Services) -> Callable[[], None] | None:
        restored = services.table.snapshot()
        if restored["status"] in ("playing", "broken") and not args.new:  # broken: the host decides
            print(f"companion: resumed game {restored['game_id']} ({restored['game']})", flush=True)
        else:
            services.table.start_game(game, players)
        def setup() -> CameraSetup | None:
            """The camera as set up now: the command line, else the host page, else the settings."""
            source = args.camera or table_camera(settings.camera, settings.data_path)
            if source == "none":
                return None
            game = services.table.snapshot()["game"]
            deck = args.deck or table_deck(settings.deck, settings.data_path, game)
            return CameraSetup(source, deck, game, table_zones(settings.zones_file, settings.data_path),
                               settings.threads, settings.camera_size)

        services.camera = TableCamera(services.table, setup)
        return services.camera.start()

    return serve(settings, settings.port, settings.data_path / "games.db", start)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="the live table: camera (optional), rules, store, scoreboard")
    parser.add_argument("--game", help="game to play (default: the game setting)")
    parser.add_argument("--camera", metavar="SOURCE", help="camera source (default: the camera setting); "
                        "'none' for a table run by hand from the host page")
    parser.add_argument("--deck", help="enrolled deck profile for the camera (default: the deck setting, else the deck "
                        "enrolled on the host page)")
    parser.add_argument("--players", default="Player 1,Player 2,Player 3",
                        help="names in turn order, comma-separated (renamed on the host page)")
    parser.add_argument("--new", action="store_true", help="start a new game even if one is in progress")
    add_table_options(parser)
    parser.set_defaults(func=run_table)
