"""A finished game's score over time, rebuilt from its event log.

The store keeps events, not totals, so the chart on the history page replays the game
through the same projection the live scoreboard used: each accepted event (undone ones
left out, corrections in) gives one point per player, so the line ends at the final score.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.projection import Projection


@dataclass(frozen=True)
class Timeline:
    """`totals[p][i]` is player `p`'s total after `i` accepted events (0: the start)."""

    names: tuple[str, ...]
    totals: tuple[tuple[int, ...], ...]

    @property
    def steps(self) -> int:
        return len(self.totals[0]) - 1 if self.totals else 0


def score_timeline(projection: Projection) -> Timeline:
    """The running totals of a replayed game (`companion.projection.project`), seat by
    seat, from its first event to its last."""
    states = [projection.initial] + [applied.state for applied in projection.applied]
    rows = [[p.total for p in state.scores().players] for state in states]
    seats = len(projection.names)
    return Timeline(tuple(projection.names),
                    tuple(tuple(row[seat] if seat < len(row) else 0 for row in rows) for seat in range(seats)))
