"""Each player's record over the table's past games, as score apps keep it.

Totals of different games are different units (Dangal Points, letters left in hand), so
a record is kept per game: games played, games won, the average total and the best one
(the lowest in a game where the fewest wins). Names are matched as written: the table's
own names are the players' identities, as in BG Stats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from rules.registry import game_spec
from companion.store import GameRecord


@dataclass
class PlayerRecord:
    """One player's games of one kind."""

    name: str
    totals: list[int] = field(default_factory=list)
    wins: int = 0

    @property
    def games(self) -> int:
        return len(self.totals)

    @property
    def average(self) -> float:
        return round(sum(self.totals) / len(self.totals), 1)

    def best(self, lowest_wins: bool) -> int:
        return min(self.totals) if lowest_wins else max(self.totals)


@dataclass(frozen=True)
class GameRecords:
    """Every player's record in one game, most wins first."""

    game: str
    lowest_wins: bool
    players: tuple[PlayerRecord, ...]


def player_records(records: Iterable[GameRecord]) -> list[GameRecords]:
    """Records per game kind from finished games (games with no result are skipped)."""
    by_game: dict[str, dict[str, PlayerRecord]] = {}
    for record in records:
        if record.result is None:
            continue
        winners = set(record.result.get("winners", []))
        seats = by_game.setdefault(record.result.get("game", record.game), {})
        for player in record.result["players"]:
            if not isinstance(player.get("total"), (int, float)):
                continue
            kept = seats.setdefault(player["name"], PlayerRecord(player["name"]))
            kept.totals.append(player["total"])
            kept.wins += player["name"] in winners
    out = []
    for game in sorted(by_game):
        lowest = game_spec(game).lowest_wins
        sign = 1 if lowest else -1
        ranked = sorted(by_game[game].values(),
                        key=lambda p: (-p.wins, sign * p.average, p.name.casefold()))
        out.append(GameRecords(game, lowest, tuple(ranked)))
    return out
