"""The interface every game engine shares.

The live companion, the command line and the tests drive all four games through these
types, so a new game is a new package (see `rules.spec`), not a new code path. Modelled on OpenSpiel's
immutable states (`legal_actions`/`apply`) and PokerKit's chance-as-input: a card the
camera saw is part of the action that reveals it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Protocol, Sequence, runtime_checkable

from rules.payload import BadInput


class IllegalMove(Exception):
    """A move the rules forbid; `reason` is a sentence a person can hear at the table."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class PlayerScore:
    """One player's end score; `breakdown` is game-specific and JSON-ready."""

    name: str
    total: int
    breakdown: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "breakdown": dict(self.breakdown)}


@dataclass(frozen=True)
class ScoreResult:
    """The contract's `score` output: players in input order, every player sharing the win."""

    game: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
        }


def check_player_count(count: int, game: str, least: int, most: int | None = None,
                       path: str = "players", too_few_ok: bool = False) -> None:
    """BadInput unless `count` players may sit at `game`; with `too_few_ok` only a table
    larger than the game seats is refused (`seated_result` scores a smaller one)."""
    if (count < least and not too_few_ok) or (most is not None and count > most):
        span = f"{least} to {most}" if most is not None else f"{least} or more"
        raise BadInput(path, f"{game} is for {span} players, not {count}")


def seated_result(result: ScoreResult, game: str, least: int, most: int | None = None
                  ) -> dict[str, Any]:
    """The `score` answer for a table of `result`'s size: more players than `game` seats is
    BadInput; fewer than it needs are scored, but nobody wins a game that could not be
    played (a `note` says why), so one player alone is never named a winner."""
    count = len(result.players)
    check_player_count(count, game, least, most, too_few_ok=True)
    span = f"{least} to {most}" if most is not None else f"{least} or more"
    answer = result.to_dict()
    if count < least:
        answer["winners"] = []
        answer["note"] = f"{game} is for {span} players: no winner is named for {count}."
    return answer


def best_by(names: Sequence[str], keys: Sequence[tuple]) -> tuple[str, ...]:
    """Every name whose key tuple is the greatest: tie-breakers are later tuple entries."""
    if not names:
        return ()
    top = max(keys)
    return tuple(n for n, k in zip(names, keys) if k == top)


@runtime_checkable
class Action(Protocol):
    """One event at the table (a draw, a play, a reveal); `kind` names it."""

    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]: ...


@runtime_checkable
class GameState(Protocol):
    """An immutable game position. `apply` returns a new state or raises IllegalMove."""

    def current_player(self) -> int | None: ...

    def legal_actions(self) -> Sequence[Action]: ...

    def apply(self, action: Any) -> "GameState":
        """The state after `action`, one of this game's own events (IllegalMove for any other)."""
        ...

    def is_terminal(self) -> bool: ...

    def scores(self) -> ScoreResult: ...

    def to_dict(self) -> dict[str, Any]: ...
