"""A Sampu table: the count, whose turn it is, and who won."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from rules.core import IllegalMove, PlayerScore, ScoreResult, check_player_count
from rules.options import parse_options
from rules.payload import player_names
from tests.fifth_game.toy.events import MOST, Add
from tests.fifth_game.toy.options import Options

GAME = "toy"
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class ToyState:
    names: tuple[str, ...]
    options: Options
    count: int = 0
    turn: int = 0
    winner: int | None = None
    announcements: tuple[str, ...] = ()

    def current_player(self) -> int | None:
        return None if self.winner is not None else self.turn

    def legal_actions(self) -> list[Add]:
        if self.winner is not None:
            return []
        return [Add(self.turn, a) for a in range(1, MOST + 1) if self.count + a <= self.options.target]

    def apply(self, action: Any) -> ToyState:
        if not isinstance(action, Add) or action not in self.legal_actions():
            raise IllegalMove(f"{self.names[self.turn]} may add 1 to {MOST}, up to {self.options.target}.")
        count = self.count + action.amount
        won = count == self.options.target
        said = f"{self.names[action.player]} reaches {count}" + (" and wins!" if won else ".")
        return replace(self, count=count, turn=(self.turn + 1) % len(self.names),
                       winner=action.player if won else None, announcements=(said,))

    def is_terminal(self) -> bool:
        return self.winner is not None

    def scores(self) -> ScoreResult:
        players = tuple(PlayerScore(n, int(i == self.winner)) for i, n in enumerate(self.names))
        return ScoreResult(GAME, players, () if self.winner is None else (self.names[self.winner],))

    def to_dict(self) -> dict[str, Any]:
        current = self.current_player()
        return {"game": GAME, "count": self.count, "players": [{"name": n} for n in self.names],
                "current_player": None if current is None else self.names[current]}


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             setup: Mapping[str, Any] | None = None) -> ToyState:
    names = player_names([{"name": p} for p in players])
    check_player_count(len(names), "Sampu", MIN_PLAYERS, MAX_PLAYERS)
    return ToyState(tuple(names), parse_options(Options, options))
