"""One Lagim battle: Defenders against a Forest card stack.

Kept apart from the turn tracker because the same verdict answers `companion check`
(cards described in the request) and the live table (cards looked up in the deck).
The rulebook's battle mechanics: Forest cards of one archetype stack and add their
entity levels and must be fought whole unless a Defender carries an Agimat; each
Defender adds the levels of the Kontra equipped to it that share its archetype (Special
Kontra fit any), and a misfit adds nothing; greater total -> BIHAG, equal -> TABLA,
less -> the defence fails. Used Defenders are discarded whatever the outcome.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

AGIMAT = "agimat"


@dataclass(frozen=True)
class ForestFighter:
    """A Lagim or Hiwaga card in the attacking stack."""

    name: str
    kind: str  # lagim or hiwaga
    archetype: str
    level: int


@dataclass(frozen=True)
class Equip:
    """A Kontra card equipped to a Defender; `archetypes` holds "special" for Agimat, Gasera."""

    name: str
    archetypes: tuple[str, ...]
    level: int

    def fits(self, archetype: str) -> bool:
        return "special" in self.archetypes or archetype in self.archetypes


@dataclass(frozen=True)
class Defender:
    """A Lakas card (or a Special Kontra standing alone) on the defence line."""

    name: str
    archetype: str
    level: int
    equip: tuple[Equip, ...] = ()

    @property
    def cards(self) -> int:
        return 1 + len(self.equip)

    def strength(self) -> int:
        return self.level + sum(e.level for e in self.equip if e.fits(self.archetype))

    def misfits(self) -> list[Equip]:
        return [e for e in self.equip if not e.fits(self.archetype)]

    def carries_agimat(self) -> bool:
        return any(n.casefold() == AGIMAT for n in (self.name, *(e.name for e in self.equip)))


@dataclass(frozen=True)
class Verdict:
    """The battle's result; `fought` is the stack, or the part an Agimat split off."""

    outcome: str  # bihag, tabla or fail
    attack_level: int
    defence_level: int
    fought: tuple[ForestFighter, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "attack_level": self.attack_level,
                "defence_level": self.defence_level, "fought": [f.name for f in self.fought],
                "reason": self.reason}


def stack_problem(stack: Sequence[ForestFighter]) -> str | None:
    """Why `stack` is not one Forest card stack, or None when it is."""
    if not stack:
        return "an attack needs at least one Forest card"
    kinds = sorted({f.archetype for f in stack})
    if len(kinds) > 1:
        return f"a Forest card stack is one archetype, these are {' and '.join(kinds)}"
    return None


def split_stack(stack: Sequence[ForestFighter], names: Sequence[str]) -> tuple[ForestFighter, ...]:
    """The cards of `stack` named in `names` (each name once per copy); ValueError if absent."""
    wanted = Counter(n.casefold() for n in names)
    if not wanted:
        raise ValueError("an Agimat must split off at least one card")
    chosen: list[ForestFighter] = []
    for card in stack:
        if wanted[card.name.casefold()] > 0:
            wanted[card.name.casefold()] -= 1
            chosen.append(card)
    missing = [n for n, left in wanted.items() if left > 0]
    if missing:
        raise ValueError(f"{', '.join(missing)} is not in the attacking stack")
    return tuple(chosen)


def judge(stack: Sequence[ForestFighter], defenders: Sequence[Defender],
          split: Sequence[str] | None = None) -> Verdict:
    """Fight `stack` (one archetype, checked by the caller) with `defenders`.

    `split` names the cards an Agimat separates from the stack; without an Agimat among
    the Defenders the whole stack is fought and the reason says so.
    """
    notes = [f"{e.name} ({'/'.join(e.archetypes)}) does not fit {d.name} ({d.archetype}) "
             "and adds nothing." for d in defenders for e in d.misfits()]
    fought = tuple(stack)
    if split is not None:
        if any(d.carries_agimat() for d in defenders):
            fought = split_stack(stack, split)
            if len(fought) < len(stack):
                notes.append(f"The Agimat splits the stack: only {_names(fought)} "
                             f"{'is' if len(fought) == 1 else 'are'} fought.")
        else:
            notes.append("No Defender carries an Agimat, so the whole stack is fought.")
    attack = sum(f.level for f in fought)
    defence = sum(d.strength() for d in defenders)
    stack_name = f"the {fought[0].archetype.capitalize()} stack" if len(fought) > 1 else fought[0].name
    if defence > attack:
        outcome, said = "bihag", (f"Defence {defence} beats {stack_name} at {attack}: BIHAG, "
                                  f"{_names(fought)} captured.")
    elif defence == attack:
        outcome, said = "tabla", (f"Defence {defence} equals {stack_name} at {attack}: TABLA, "
                                  f"{_names(fought)} to the Graveyard.")
    else:
        outcome, said = "fail", f"Defence {defence} is below {stack_name} at {attack}: the defence fails."
    return Verdict(outcome, attack, defence, fought,
                   " ".join([said, *notes, "The Defenders used are discarded."]))


def _names(cards: Sequence[ForestFighter]) -> str:
    names = [c.name for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
