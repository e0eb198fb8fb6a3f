#!/usr/bin/env python3
"""Timings of the rules engines, printed as one JSON object.

Each measured thing is one function returning its figures; `BENCHMARKS` lists them, so
a new measurement is a new function and a new entry. Figures are medians over many
runs of seeded random inputs, in milliseconds, taken with `time.perf_counter`.

    .venv/bin/python scripts/bench_rules.py
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import bagani  # noqa: E402
from rules.bagani.cards import COLOURS, DEFAULT_DECK, MAX_STAT  # noqa: E402
from rules.bagani.combos import best_hand  # noqa: E402
from rules.dugtungan.cards import deck_counts  # noqa: E402
from rules.dugtungan.finder import find_words  # noqa: E402
from rules.dugtungan.words import Dictionary  # noqa: E402


def _timed_ms(run: Callable[[], Any], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _figures(times: list[float], **extra: Any) -> dict[str, Any]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered), 4),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 4),
            "max_ms": round(ordered[-1], 4), "runs": len(ordered), **extra}


def _bagani_cards() -> list[str]:
    return [code for code, n in DEFAULT_DECK.bagani_cards.items() for _ in range(n)]


def bagani_final_hand_20_cards(hands: int = 300) -> dict[str, Any]:
    """The final-hand optimiser on 20 cards dealt from the default 55-card deck."""
    rng = random.Random(20)
    deck = _bagani_cards()
    times = []
    for _ in range(hands):
        hand = rng.sample(deck, 20)
        times += _timed_ms(lambda: best_hand(hand), 1)
    return _figures(times, goal_ms=5)


def bagani_final_hand_largest(repeats: int = 7) -> dict[str, Any]:
    """The largest hands `score` and `check hand` accept: the whole default deck (55 cards,
    5 Biyaya) and the whole of the largest deck a deck file may describe (20 of each card:
    220 cards, 20 Biyaya); `ratio` is against the 20-card median of the same run."""
    baseline = bagani_final_hand_20_cards(60)["median_ms"]
    whole = _bagani_cards()
    largest = [code for code in DEFAULT_DECK.bagani_cards for _ in range(MAX_STAT)]
    figures = {}
    for name, hand in (("whole_default_deck", whole), ("largest_deck_file", largest)):
        median = statistics.median(_timed_ms(lambda: best_hand(hand), repeats))
        figures[name] = {"cards": len(hand), "median_ms": round(median, 2),
                         "ratio_to_20_cards": round(median / baseline, 1)}
    return {**figures, "baseline_20_cards_ms": baseline, "runs": repeats}


def bagani_end_scoring_6_players(games: int = 50, repeats: int = 5) -> dict[str, Any]:
    """`score` of a finished 6-player game: 21 Halimaw shared out, up to 12 cards a hand."""
    rng = random.Random(6)
    times = []
    for _ in range(games):
        deck = _bagani_cards()
        rng.shuffle(deck)
        players = [{"name": f"P{i}", "defeated": [],
                    "hand": [deck.pop() for _ in range(rng.randint(0, 12))]} for i in range(6)]
        for h in range(21):
            rng.choice(players)["defeated"].append(
                {"name": f"H{h}", "color": rng.choice(COLOURS), "dp": rng.randint(1, 8)})
        payload = {"game": "bagani", "players": players}
        times.append(statistics.median(_timed_ms(lambda: bagani.score(payload), repeats)))
    return _figures(times, note=f"median of {repeats} runs per game")


def dugtungan_move_finder_15_cards(hands: int = 60) -> dict[str, Any]:
    """The move finder: every word a 15-card hand makes around a PAMATO (default deck,
    default lexicon and options). The first search pays for loading the lexicon."""
    rng = random.Random(15)
    deck = [card for card, n in deck_counts().items() for _ in range(n)]
    table = Dictionary()
    times, cpu, words = [], [], []
    for _ in range(hands):
        pamato, *hand = rng.sample(deck, 16)
        started = time.process_time()
        times += _timed_ms(lambda: words.append(len(find_words(pamato, hand, table))), 1)
        cpu.append((time.process_time() - started) * 1000)
    # CPU time as well: on a machine shared with other work the wall clock overstates
    return _figures(times[1:], goal_ms=50, first_search_ms=round(times[0], 1),
                    cpu_median_ms=round(statistics.median(cpu[1:]), 1),
                    median_words_found=statistics.median(words))


_LEXICON_LOAD = """
import json, sys, time, tracemalloc
if sys.argv[1] == "memory":
    tracemalloc.start()
start = time.perf_counter()
from rules.dugtungan.cards import parse_card
from rules.dugtungan.finder import find_words
from rules.dugtungan.words import Dictionary
table = Dictionary()
find_words(parse_card("BA", "pamato"), [parse_card("HA", "hand")], table)
print(json.dumps({"ms": (time.perf_counter() - start) * 1000, "words": len(table.words),
                  "held": tracemalloc.get_traced_memory()[0]}))
"""


def dugtungan_lexicon_load(repeats: int = 5) -> dict[str, Any]:
    """A fresh interpreter imports the dugtungan engine, reads the lexicon and makes its
    first search; `memory_mib` is what Python still holds for it afterwards (tracemalloc)."""
    root = str(Path(__file__).resolve().parent.parent)

    def fresh(mode: str) -> dict[str, Any]:
        out = subprocess.run([sys.executable, "-c", _LEXICON_LOAD, mode], cwd=root, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)

    runs = [fresh("time") for _ in range(repeats)]
    memory = fresh("memory")
    return _figures([r["ms"] for r in runs], words=runs[0]["words"],
                    memory_mib=round(memory["held"] / 2**20, 1))


BENCHMARKS: dict[str, Callable[[], dict[str, Any]]] = {
    "bagani_final_hand_20_cards": bagani_final_hand_20_cards,
    "bagani_final_hand_largest": bagani_final_hand_largest,
    "bagani_end_scoring_6_players": bagani_end_scoring_6_players,
    "dugtungan_move_finder_15_cards": dugtungan_move_finder_15_cards,
    "dugtungan_lexicon_load": dugtungan_lexicon_load,
}


def main() -> None:
    results: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine()}
    for name, measure in BENCHMARKS.items():
        results[name] = measure()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
