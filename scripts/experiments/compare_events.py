"""Two runs of `scripts/experiments/layout_events.py` side by side: each video whose right
or wrong events changed, and the totals, so that a tracker or detector rule is judged
video by video (a rule that gains on one video and loses on another shows both).

    nice .venv/bin/python scripts/experiments/layout_events.py --videos 6 > before.json
    ... change the code ...
    nice .venv/bin/python scripts/experiments/layout_events.py --videos 6 > after.json
    .venv/bin/python scripts/experiments/compare_events.py before.json after.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def videos(path: Path) -> dict[tuple[str, int], dict]:
    """Each video's line of a layout_events.py output (its last line, the totals, left out)."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {(line["layout"], line["seed"]): line for line in lines if "layout" in line}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = videos(args.before), videos(args.after)
    for key in sorted(before.keys() & after.keys()):
        a, b = before[key], after[key]
        if (a["right"], a["events"]) != (b["right"], b["events"]):
            print(f"{key[0]} {key[1]} ({a['table']}, {a['game']}): right {a['right']} of {a['truth']}, "
                  f"wrong {a['events'] - a['right']} -> right {b['right']}, wrong {b['events'] - b['right']}")
    for name, runs in (("before", before), ("after", after)):
        right = sum(v["right"] for v in runs.values())
        print(f"{name}: {len(runs)} videos, right {right}, wrong {sum(v['events'] for v in runs.values()) - right}"
              f" of {sum(v['truth'] for v in runs.values())} truth events")
    if before.keys() != after.keys():
        print("videos in one run only:", sorted(before.keys() ^ after.keys()))


if __name__ == "__main__":
    main()
