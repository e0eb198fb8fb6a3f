"""How the demo's camera does: each game's recording filmed, read by vision, played to its end.

For every game: how many of the recording's card changes vision reported right, wrong,
as a question (unsure), or missed, the reports that were no recorded change, how the game
ended, and the frames per second the demo sustains when it films as fast as it can
(`--speed` high; the demo itself films at 8 frames a second). Medians over `--runs` runs,
each on another generated table, and how many of the games reached their final scores.
`--load N` runs N CPU-bound processes beside it the whole time, as a busy Pi or a shared
machine has: the demo must slow down, never derail. The questions the table asked the
host, by kind (`name`: a card found but not named; `unsure`: a reading under the bar;
`refused`: a reading the rules refused), and how each was answered (`choice`, `picker`,
`not a card`, `dismissed`, `by camera`), summed over the runs: the demo stages a stray
thing (a card found but not named) and a card under a thumb in every game, and a play
the rules refuse in Gargon. `--ask-host` leaves every
unsure card to the table's questions (as `companion demo --answer-myself` does; the
script then answers them as the host would) instead of the script naming it at once.
Prints JSON.

    .venv/bin/python scripts/bench_demo.py [--games bagani,gargon] [--runs 3] [--speed 1000] [--load 1] [--ask-host]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from companion.config import Settings
from companion.demo import DemoPlayer
from companion.server import build_services, close_services
from rules.registry import game_names



@contextmanager
def cpu_load(processes: int) -> Iterator[None]:
    """`processes` busy loops beside the benchmark, ended when it ends."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def play(game: str, folder: Path, run: int, speed: float, ask_host: bool) -> dict:
    settings = dataclasses.replace(Settings(), data_dir=str(folder), speech=False, host_token="bench")
    services = build_services(settings, folder / f"demo-{game}-{run}.db", "http://192.0.2.1:8000")
    try:
        player = DemoPlayer(services.table, game, speed=speed, loop=False, seed=run,
                            script_names_unsure=not ask_host).start()
        if not player.wait(900):
            raise RuntimeError(f"the {game} demo did not end in 15 minutes")
        snap = services.table.snapshot()
        return {**player.tally.to_dict(), "status": snap["status"], "winners": snap["winners"],
                "totals": [p["total"] for p in snap["players"]]}
    finally:
        close_services(services)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_names()))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--speed", type=float, default=1000.0, help="1 is the demo's own pace")
    parser.add_argument("--load", type=int, default=0, help="CPU-bound processes running beside it")
    parser.add_argument("--ask-host", action="store_true", help="every unsure card becomes a question")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    out: dict = {"speed": args.speed, "load_processes": args.load, "ask_host": args.ask_host}
    finished = played = 0
    with tempfile.TemporaryDirectory() as tmp, cpu_load(args.load):
        for game in args.games.split(","):
            runs = [play(game, Path(tmp), run, args.speed, args.ask_host) for run in range(args.runs)]
            counted = ("right", "wrong", "asked", "named_later", "missed", "extra", "refused", "ended_by_script", "fps")
            out[game] = {key: statistics.median(r[key] for r in runs) for key in counted}
            out[game]["changes"] = runs[0]["right"] + runs[0]["wrong"] + runs[0]["asked"] + runs[0]["missed"]
            out[game]["finished"] = sum(r["status"] == "finished" for r in runs)
            for key in ("questions", "answers"):
                out[game][key] = dict(sum((Counter(r[key]) for r in runs), Counter()))
            out[game]["runs"] = runs
            finished += out[game]["finished"]
            played += len(runs)
    out["games_finished"] = f"{finished} of {played}"
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
