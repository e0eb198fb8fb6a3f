"""Lagim's house-default switches.

The rulebook leaves one number open that the tracker needs: how many Dark Soul Coins
the Coin Vessel holds, which bounds the Baryo offerings that can be paid out. It is a
field here so a table with a different box changes a switch, not code.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    dark_coins_in_box: int = field(default=6, metadata={
        "doc": "Dark Soul Coins in the box (not printed; one per Baryo on the board): the Coin "
               "Vessel pays Baryo offerings from what set-up leaves"})

    def __post_init__(self) -> None:
        if self.dark_coins_in_box < 0:
            raise ValueError("dark_coins_in_box must not be negative")
