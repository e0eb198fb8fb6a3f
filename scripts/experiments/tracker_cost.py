"""What the tracker costs a frame (vision/track.py), against its version at another commit.

Eight cards lying still (detections jittered by half a pixel), and every 5 s a card held
above the table for 1 s, 500 frames; the median of 5 runs, the two versions in turn twice
in the same process, so both see the same load. Prints JSON (milliseconds per update).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/experiments/tracker_cost.py --baseline 0a473d3
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))

import vision.track as current  # noqa: E402
from test_track import CountingIdentifier, card  # noqa: E402


def at_commit(commit: str, folder: Path) -> ModuleType:
    """vision/track.py as it was at `commit`, imported beside the current one."""
    path = folder / "track_then.py"
    path.write_text(subprocess.run(["git", "show", f"{commit}:vision/track.py"], cwd=ROOT, check=True,
                                   capture_output=True, text=True).stdout)
    spec = importlib.util.spec_from_file_location("vision.track_then", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cost(module: ModuleType, rng: np.random.Generator) -> float:
    """Milliseconds per update, median of 5 runs of 500 frames."""
    cards = [card(150 + 140 * (i % 4), 150 + 250 * (i // 4), 10 * i) for i in range(8)]
    runs = []
    for _ in range(5):
        tracker, identify = module.Tracker(), CountingIdentifier()
        for i in range(5):
            tracker.update(cards, i / 10, identify)
        start = time.perf_counter()
        for i in range(5, 505):
            quads = [c + rng.normal(0, 0.5, c.shape) for c in cards]
            if i % 50 < 10:
                quads.append(card(700, 400, length=150) + rng.normal(0, 2, (4, 2)))
            tracker.update(quads, i / 10, identify)
        runs.append((time.perf_counter() - start) / 500 * 1000)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="the commit to compare with")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        then = at_commit(args.baseline, Path(folder))
        times: dict[str, list[float]] = {"baseline": [], "now": []}
        for _ in range(2):
            times["baseline"].append(cost(then, rng))
            times["now"].append(cost(current, rng))
    medians = {name: round(statistics.median(t), 3) for name, t in times.items()}
    print(json.dumps({"ms_per_update": medians, "ratio": round(medians["now"] / medians["baseline"], 2),
                      "baseline": args.baseline, "runs": {k: [round(v, 3) for v in t] for k, t in times.items()}}))


if __name__ == "__main__":
    main()
