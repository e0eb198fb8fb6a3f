"""The card play phase: the five patterns, following, and the last player's colour limit.

A play is judged by the colours on the backs of the cards, which everyone at the table
sees even while the cards lie face down; values only matter in the battle phase. One
function, `judge_round`, judges a whole round in turn order, because whether a play is
legal depends on the plays before it (the start player's pattern, the colours already
used); the tracker asks it about a round so far plus one new play.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from rules.gargon.cards import spoken_list

#: A pattern is the count of cards per colour, largest first: (2, 1) is "2:1".
Pattern = tuple[int, ...]
PATTERNS: tuple[Pattern, ...] = ((1,), (2,), (1, 1), (2, 1), (1, 1, 1))
MAX_CARDS = 3

#: A play is the colours laid face down, or None for a pass.
Play = Sequence[str] | None


def pattern_of(colours: Sequence[str]) -> Pattern:
    return tuple(sorted(Counter(colours).values(), reverse=True))


def pattern_name(pattern: Pattern) -> str:
    """The book's way of writing a pattern: "1:0", "2:0", "1:1", "2:1", "1:1:1"."""
    return ":".join(str(n) for n in (pattern + (0,) if len(pattern) == 1 else pattern))


@dataclass(frozen=True)
class Verdict:
    """Whether one seat's play is legal; `reason` completes a sentence whose subject is the player."""

    valid: bool
    reason: str


def judge_round(plays: Sequence[Play], seats: int | None = None) -> list[Verdict]:
    """A verdict for each play of a round in turn order, the start player's first.

    `seats` is how many players the round has, when `plays` holds only the plays made so
    far: the colour limit binds the last of them. Only legal plays set the pattern to
    follow and the colours the last player may use.
    """
    seats = len(plays) if seats is None else seats
    verdicts: list[Verdict] = []
    lead: Pattern | None = None
    used: list[str] = []
    for position, play in enumerate(plays):
        verdict = _judge(play, position, position == seats - 1, lead, used)
        verdicts.append(verdict)
        if verdict.valid and play is not None:
            lead = lead or pattern_of(play)
            used += [c for c in dict.fromkeys(play) if c not in used]
    return verdicts


def _judge(play: Play, position: int, last: bool, lead: Pattern | None,
           used: Sequence[str]) -> Verdict:
    if play is None:
        if position == 0:
            return Verdict(False, "cannot pass: a round begins with the start player's play")
        return Verdict(True, "passes and draws one to three cards from the draw piles")
    shape = pattern_of(play)
    named = spoken_list(list(play))
    if not 1 <= len(play) <= MAX_CARDS:
        return Verdict(False, f"lays {len(play)} cards; a play is one to three cards")
    if shape not in PATTERNS:
        return Verdict(False, f"lays three {play[0]} cards; three cards of one colour are never allowed")
    if position == 0:
        return Verdict(True, f"leads {pattern_name(shape)} with {named}")
    if lead is None:
        return Verdict(False, "has no legal start play to follow")
    if shape != lead:
        return Verdict(False, f"lays {pattern_name(shape)} but must follow the start player's "
                              f"pattern {pattern_name(lead)}")
    new = [c for c in dict.fromkeys(play) if c not in used]
    if last and new:
        return Verdict(False, f"is the last player and may only use colours already played this "
                              f"round ({spoken_list(list(used), 'or')}), not {spoken_list(new)}")
    return Verdict(True, f"follows {pattern_name(shape)} with {named}")
