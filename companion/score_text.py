"""A final score as a table for people (`companion score --text`).

JSON stays the contract's output; this is what someone at the table reads off a
terminal: players ranked, the winner named, and the breakdown's numbers as columns.
"""

from __future__ import annotations

from typing import Any, Mapping

from rules.registry import game_spec

_UNITS = {"dp": "DP", "ap": "AP"}


def _heading(key: str) -> str:
    """`halimaw_dp` as "halimaw DP": the breakdown's keys in the games' own units."""
    return " ".join(_UNITS.get(part, part) for part in key.split("_"))


def score_table(result: Mapping[str, Any]) -> str:
    lowest = game_spec(result["game"]).lowest_wins
    players = sorted(result["players"], key=lambda p: p["total"] if lowest else -p["total"])
    columns = [k for k, v in (players[0]["breakdown"] if players else {}).items()
               if isinstance(v, (int, float)) and not isinstance(v, bool)]
    rows = [["#", "player", "total", *map(_heading, columns)]]
    for p in players:
        rank = 1 + sum(1 for q in players if (q["total"] < p["total"] if lowest else q["total"] > p["total"]))
        rows.append([str(rank), p["name"], str(p["total"]), *(str(p["breakdown"].get(k, "")) for k in columns)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    winners = result.get("winners") or []
    rule = "lowest total wins" if lowest else "highest total wins"
    won = f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the win'}" if winners else "no winner"
    title = f"{result['game'].title()}: {won} ({rule})"
    return "\n".join([title, *lines])
