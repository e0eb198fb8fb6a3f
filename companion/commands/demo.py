"""`companion demo [--game GAME]`: a generated table played live, no camera needed."""

from __future__ import annotations

import argparse
import logging
from typing import Callable

from companion.adapters import demo_games as scripted_games
from companion.commands.table_options import add_table_options, table_settings
from companion.demo import DemoPlayer
from companion.errors import UsageError
from companion.server import serve
from companion.web import Services

log = logging.getLogger(__name__)


def pick_game(wanted: str | None, default: str) -> str:
    """The game to demo: the one asked for, else the default setting, else any playable one."""
    playable = scripted_games()
    if not playable:
        raise UsageError("--game", "", "no game engine is installed")
    if wanted is not None:
        if wanted not in playable:
            raise UsageError("--game", wanted, f"not playable; one of {', '.join(playable)}")
        return wanted
    if default not in playable:
        log.warning("%s is not playable yet; demonstrating %s", default, playable[0])
        return playable[0]
    return default


def demo_games(wanted: str | None, default: str) -> list[str]:
    """The games the demo plays in turn: the one asked for, else every playable game
    starting with the default setting's."""
    first = pick_game(wanted, default)
    if wanted is not None:
        return [first]
    playable = scripted_games()
    start = playable.index(first)
    return playable[start:] + playable[:start]


def run_demo(args: argparse.Namespace) -> int:
    settings = table_settings(args)
    games = demo_games(args.game, settings.game)
    if args.speed <= 0:
        raise UsageError("--speed", str(args.speed), "must be more than 0")
    print(f"companion: demo of {', then '.join(games)}: generated tables filmed and read by the camera "
          "pipeline", flush=True)

    def start(services: Services) -> Callable[[], None]:
        return DemoPlayer(services.table, games, speed=args.speed, loop=not args.once,
                          answer_myself=args.answer_myself).start().stop

    return serve(settings, settings.port, settings.data_path / "demo.db", start)


def add_demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="game to demonstrate (default: every game in turn, the game setting's first)")
    parser.add_argument("--speed", type=float, default=1.0, help="play the recording this many times faster")
    parser.add_argument("--once", action="store_true", help="play each game once instead of looping")
    parser.add_argument("--answer-myself", action="store_true",
                        help="leave the camera's questions to the host page; the recording waits for the answer")
    add_table_options(parser)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("demo", help="play a generated table through the live pipeline and serve the scoreboard")
    add_demo_arguments(parser)
    parser.set_defaults(func=run_demo)
