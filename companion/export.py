"""A finished game in the formats players already use.

The contract's `score` JSON (the same shape `companion score` prints), a CSV with one
row per player, and a BG Stats play through the app's documented import link
(`https://app.bgstatsapp.com/createPlay.html?data=<JSON>`), so a table's results land
where the players keep their statistics.
"""

from __future__ import annotations

import csv
import io
import json
import time
from typing import Any, Mapping
from urllib.parse import quote

from companion.store import GameRecord
from rules.registry import game_spec

BGSTATS_IMPORT = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Table Companion"


def score_json(record: GameRecord) -> dict[str, Any]:
    """The final score as the contract's `score` output."""
    if record.result is None:
        raise ValueError(f"game {record.id} has not finished")
    return dict(record.result)


def _flatten(prefix: str, value: Any, into: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), inner, into)
    elif isinstance(value, list):
        into[prefix] = json.dumps(value, ensure_ascii=False)
    else:
        into[prefix] = value


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (`=HYPERLINK(...)` in a player's
    name) gets a leading apostrophe, which spreadsheets show as plain text."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def score_csv(record: GameRecord) -> str:
    """One row per player: name, total, winner, then every breakdown entry as a column;
    text that a spreadsheet would read as a formula is neutralised."""
    result = score_json(record)
    winners = set(result["winners"])
    rows = []
    for player in result["players"]:
        row: dict[str, Any] = {"game": result["game"], "name": player["name"], "total": player["total"],
                               "winner": "yes" if player["name"] in winners else "no"}
        breakdown: dict[str, Any] = {}
        _flatten("", player.get("breakdown", {}), breakdown)
        row.update({f"breakdown.{k}": v for k, v in breakdown.items()})
        rows.append(row)
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({column: _inert(value) for column, value in row.items()} for row in rows)
    return out.getvalue()


def bgstats_play(record: GameRecord) -> dict[str, Any]:
    """The play in BG Stats' import format: players, scores, winners, ranks, date, duration."""
    result = score_json(record)
    lowest = game_spec(result["game"]).lowest_wins
    totals = sorted({p["total"] for p in result["players"]}, reverse=not lowest)
    ended = record.ended_at or record.started_at
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"table-companion-{record.id}-{int(record.started_at)}",
        "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.started_at)),
        "durationMin": max(1, round((ended - record.started_at) / 60)),
        "game": {"name": result["game"].capitalize(), "sourceGameId": result["game"],
                 "highestWins": not lowest},
        "players": [{"name": p["name"], "sourcePlayerId": p["name"], "score": p["total"],
                     "winner": p["name"] in result["winners"], "rank": totals.index(p["total"]) + 1,
                     "startPlayer": i == 0}
                    for i, p in enumerate(result["players"])],
    }


def bgstats_link(record: GameRecord) -> str:
    """The link that opens BG Stats (app or web) with this play ready to save."""
    data = json.dumps(bgstats_play(record), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_IMPORT + quote(data, safe="")
