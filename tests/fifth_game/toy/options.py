"""Sampu's house switch."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    target: int = field(default=10, metadata={"doc": "the count that wins when reached exactly"})

    def __post_init__(self) -> None:
        if not 3 <= self.target <= 50:
            raise ValueError("target must be 3 to 50")
