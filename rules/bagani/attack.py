"""The attack step judged on its own: combos put down, AP spent on face-up Halimaw.

AP is the sum of the combos; it may be split between Halimaw, each needs AP equal to
its Lakas, only face-up Halimaw can be hit and whatever is not spent is lost.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from rules.bagani.combos import combos_ap
from rules.bagani.options import Options
from rules.core import IllegalMove

HALIMAW_ROW = 4  # "the four (4) face-up Halimaw Cards"


@dataclass(frozen=True)
class Target:
    name: str
    lakas: int


def _names(targets: Sequence[Target]) -> str:
    names = [t.name for t in targets]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def judge_attack(combos: Sequence[Sequence[str]], targets: Sequence[Target],
                 row: Sequence[Target] | None, options: Options) -> dict[str, Any]:
    """The contract's `attack` answer; `ap` is given whenever every combo is valid."""
    try:
        ap = combos_ap(combos, options)
    except IllegalMove as exc:
        return {"valid": False, "ap": None, "defeated": [], "unused_ap": None,
                "reason": exc.reason}
    try:
        if options.reveal_after_attack and len(targets) > HALIMAW_ROW:
            raise IllegalMove(f"Only the {HALIMAW_ROW} face-up Halimaw can be hit in a turn, "
                              f"not {len(targets)}.")
        if row is not None:
            _check_face_up(targets, row)
        need = sum(t.lakas for t in targets)
        if need > ap:
            raise IllegalMove(f"The combos give {ap} AP but {_names(targets)} "
                              f"{'needs' if len(targets) == 1 else 'need'} {need}.")
    except IllegalMove as exc:
        return {"valid": False, "ap": ap, "defeated": [], "unused_ap": None, "reason": exc.reason}
    unused = ap - need
    said = f"{ap} AP defeats {_names(targets)}" if targets else f"{ap} AP and no Halimaw hit"
    return {"valid": True, "ap": ap, "defeated": [t.name for t in targets], "unused_ap": unused,
            "reason": f"{said}; {unused} AP unused is lost."}


def _check_face_up(targets: Sequence[Target], row: Sequence[Target]) -> None:
    """Each target must be a distinct face-up Halimaw with the Lakas the row shows."""
    face_up = Counter(row)
    for target in targets:
        if face_up[target] > 0:
            face_up[target] -= 1
            continue
        same = [h for h in row if h.name == target.name]
        if not same:
            raise IllegalMove(f"{target.name} is not one of the face-up Halimaw.")
        if all(h.lakas != target.lakas for h in same):
            raise IllegalMove(f"{target.name} has Lakas {same[0].lakas}, not {target.lakas}.")
        raise IllegalMove(f"Only {len(same)} {target.name} {'is' if len(same) == 1 else 'are'} "
                          f"face up; each Halimaw can be defeated once.")
