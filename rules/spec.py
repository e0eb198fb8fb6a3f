"""What the rest of the program knows about a game: one `GameSpec` per game.

The command line, the live table, the web pages, the exports and the benchmarks read a
game's facts (who may sit, which way the score counts, its options and their meaning,
its event forms) and its engine from its spec, never from a list of their own, so a
new game is its package plus one line in `rules.registry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from rules.core import GameState
from rules.event import Event
from rules.options import option_docs

Schema = dict[str, Any]


@dataclass(frozen=True)
class GameSpec:
    """One game: its facts and its engine.

    `goal` says how the game is won in the words a player would use, `unit` what its
    totals count. `printed_cards`: the cards name themselves in print (a value, a syllable), so the
    camera reads them with no deck enrolled. `lowest_wins`: the smallest total wins (the
    scoreboard and exports sort that way). `options` is the game's frozen dataclass of
    house switches, each field's `doc` metadata its one-line explanation.
    """

    name: str
    title: str
    goal: str
    unit: str
    min_players: int
    max_players: int | None
    lowest_wins: bool
    printed_cards: bool
    options: type
    new_game: Callable[[Sequence[str], Mapping[str, Any] | None, Mapping[str, Any] | None], GameState]
    score: Callable[[Mapping[str, Any]], dict[str, Any]]
    check: Callable[[Mapping[str, Any]], dict[str, Any]]
    action_from_dict: Callable[[Mapping[str, Any]], Event]
    event_schema: Callable[[GameState], Schema]

    def option_docs(self) -> list[tuple[str, Any, str]]:
        """(name, default, one-line explanation) of each house switch."""
        return option_docs(self.options)

    def players_text(self) -> str:
        """The player range as a person says it: "3 to 5" or "2 or more"."""
        most = self.max_players
        return f"{self.min_players} to {most}" if most is not None else f"{self.min_players} or more"
