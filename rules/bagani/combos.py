"""Bagani combos: what a set of cards is worth, and the best combos a hand can form.

Every combo is worth one AP less than its number of cards (Pair 2 cards 1 AP ... Bagani
ni Apo 6 cards 5 AP), so the final-hand optimiser maximises cards used minus combos
formed. It is exact for any number of Biyaya: the two shapes only share the Biyaya, so
each shape is solved on its own for every Biyaya budget (a max-plus knapsack over the five
colours, for each count of five-colour combos), then the budgets are combined.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from rules.bagani.cards import BIYAYA, BIYAYA_NAME, COLOURS, SHAPES, colour_of, shape_of
from rules.bagani.options import Options
from rules.core import IllegalMove

SAME_COLOUR = {2: "pair", 3: "trio", 4: "quadro"}
LIMANG, APO = "limang-bagani", "bagani-ni-apo"
COMBO_AP = {"pair": 1, "trio": 2, "quadro": 3, LIMANG: 4, APO: 5}
TITLES = {"pair": "Pair", "trio": "Trio", "quadro": "Quadro", LIMANG: "Limang Bagani",
           APO: "Bagani ni Apo"}

BOOK = Options()  # the book's rules, every house switch at its default


@dataclass(frozen=True)
class Combo:
    combo: str
    cards: tuple[str, ...]

    @property
    def ap(self) -> int:
        return COMBO_AP[self.combo]

    def to_dict(self) -> dict[str, Any]:
        return {"combo": self.combo, "cards": list(self.cards), "ap": self.ap}


def classify(cards: Sequence[str], options: Options = BOOK) -> Combo:
    """The combo these cards form; IllegalMove with a sentence saying why when none."""
    n = len(cards)
    naturals = [c for c in cards if c != BIYAYA]
    if n < 2:
        raise IllegalMove("A combo needs at least two cards.")
    if n > 6:
        raise IllegalMove("A combo has at most six cards, the Bagani ni Apo.")
    if len({shape_of(c) for c in naturals}) > 1:
        raise IllegalMove("All cards of a combo must have the same shape.")
    if not naturals and not options.biyaya_only_combos:
        raise IllegalMove(f"A combo made only of {BIYAYA_NAME} does not count at this table.")
    colours = [colour_of(c) for c in naturals]
    if n <= 4:
        if len(set(colours)) > 1:
            raise IllegalMove(f"A {TITLES[SAME_COLOUR[n]]} needs {n} cards of the same colour "
                              f"and shape; these have {' and '.join(sorted(set(colours)))}.")
        return Combo(SAME_COLOUR[n], tuple(cards))
    repeated = sorted({c for c in colours if colours.count(c) > 1})
    if repeated:
        raise IllegalMove(f"A {TITLES[LIMANG if n == 5 else APO]} needs one card of each colour; "
                          f"{' and '.join(repeated)} appears more than once.")
    if n == 5:
        return Combo(LIMANG, tuple(cards))
    if len(naturals) < 5 and not options.biyaya_fills_colour_slots:
        raise IllegalMove(f"A Bagani ni Apo needs one card of each of the five colours and one "
                          f"{BIYAYA_NAME}; at this table a {BIYAYA_NAME} cannot stand in "
                          f"for a colour.")
    return Combo(APO, tuple(cards))


def combos_ap(combos: Sequence[Sequence[str]], options: Options = BOOK) -> int:
    """The AP of combos put down together; IllegalMove naming the first invalid one."""
    total = 0
    for i, cards in enumerate(combos):
        try:
            total += classify(cards, options).ap
        except IllegalMove as exc:
            raise IllegalMove(f"Combo {i + 1}: {exc.reason}") from None
    return total


# --- the final-hand optimiser -------------------------------------------------------

_NEG = -(10 ** 9)


@lru_cache(maxsize=None)
def _groups(naturals: int, biyaya: int) -> tuple[int, int, int]:
    """Best same-colour combos from `naturals` cards of one colour and shape plus up to
    `biyaya` wilds, each combo holding a natural: (AP, combos, biyaya used).

    q combos of 2..4 cards hold at most min(4q, cards) cards and are worth cards - q.
    """
    best = (0, 0, 0)
    for q in range(1, naturals + 1):
        used = min(4 * q, naturals + biyaya)
        if used >= 2 * q and used - q > best[0]:
            best = (used - q, q, max(0, used - naturals))
    return best


@lru_cache(maxsize=None)
def _biyaya_only(biyaya: int, options: Options) -> tuple[tuple[int, ...], ...]:
    """Combos of Biyaya alone, for each budget 0..biyaya: (AP, size, size, ...)."""
    sizes = [2, 3, 4, 5] + ([6] if options.biyaya_fills_colour_slots else [])
    table: list[tuple[int, ...]] = [(0,)]
    for k in range(1, biyaya + 1):
        best = table[k - 1]
        if options.biyaya_only_combos:
            for size in sizes:
                if size <= k and table[k - size][0] + size - 1 > best[0]:
                    best = (table[k - size][0] + size - 1,) + table[k - size][1:] + (size,)
        table.append(best)
    return tuple(table)


@dataclass(frozen=True)
class _ShapePlan:
    """How one shape's cards are used.

    `fives` five-colour combos, the first `natural` of them all natural, `apos` of them
    with the extra Biyaya of a Bagani ni Apo; per colour (naturals in the five-colour
    combos, Biyaya added to that colour's own combos).
    """

    ap: int
    fives: int
    natural: int
    apos: int
    per_colour: tuple[tuple[int, int], ...]


def _shape_plans(counts: Sequence[int], biyaya: int, options: Options) -> list[_ShapePlan | None]:
    """The best plan of one shape for every exact Biyaya budget 0..biyaya (None: none fits).

    When a Biyaya may not fill a colour slot of a Bagani ni Apo, each Bagani ni Apo is
    one of the `natural` all-natural five-colour combos, so that count is searched too.
    """
    best: list[_ShapePlan | None] = [None] * (biyaya + 1)
    for fives in range((sum(counts) + biyaya) // 5 + 1):
        fills = options.biyaya_fills_colour_slots
        for natural in ((0,) if fills else range(fives + 1)):
            layers = _colour_layers(counts, biyaya, fives, natural, options)
            if layers is None:
                continue
            values, choices = layers
            for spent in range(biyaya + 1):
                if values[spent] == _NEG:
                    continue
                for apos in range(min(fives if fills else natural, biyaya - spent) + 1):
                    ap = values[spent] + 4 * fives + apos
                    plan = best[spent + apos]
                    if plan is None or ap > plan.ap:
                        best[spent + apos] = _ShapePlan(ap, fives, natural, apos, choices[spent])
    return best


def _colour_layers(counts: Sequence[int], biyaya: int, fives: int, natural: int, options: Options
                   ) -> tuple[list[int], list[tuple[tuple[int, int], ...]]] | None:
    """Max-plus knapsack over the five colours for `fives` five-colour combos.

    Per colour choose n >= `natural` naturals for the five-colour combos (their other
    fives - n slots take Biyaya) and k Biyaya for that colour's own combos. The state is
    (Biyaya spent, naturals beyond the all-natural combos, capped at what is needed):
    when Biyaya-only combos are barred, each of the other five-colour combos needs one.
    """
    needed = fives - natural if not options.biyaya_only_combos else 0
    Layer = dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...]]]
    layer: Layer = {(0, 0): (0, ())}
    for count in counts:
        nxt: Layer = {}
        for n in range(natural, min(fives, count) + 1):
            slot_cost = fives - n
            for (spent, covered), (value, picks) in layer.items():
                room = biyaya - spent - slot_cost
                for k in range(room + 1):
                    ap, _, used = _groups(count - n, k)
                    if used < k:
                        continue  # a smaller budget already leaves these Biyaya free
                    key = (spent + slot_cost + k, min(needed, covered + n - natural))
                    if key not in nxt or value + ap > nxt[key][0]:
                        nxt[key] = (value + ap, picks + ((n, k),))
        if not nxt:
            return None
        layer = nxt
    values = [_NEG] * (biyaya + 1)
    choices: list[tuple[tuple[int, int], ...]] = [()] * (biyaya + 1)
    for (spent, covered), (value, picks) in layer.items():
        if covered == needed and value > values[spent]:
            values[spent], choices[spent] = value, picks
    return values, choices


def best_hand(cards: Sequence[str], options: Options = BOOK) -> tuple[Combo, ...]:
    """The disjoint combos of greatest total AP that `cards` can form (provably optimal)."""
    biyaya = sum(1 for c in cards if c == BIYAYA)
    counts = {code: 0 for code in (f"{c}-{s}" for s in SHAPES for c in COLOURS)}
    for c in cards:
        if c != BIYAYA:
            counts[c] += 1
    plans = [_shape_plans([counts[f"{c}-{s}"] for c in COLOURS], biyaya, options) for s in SHAPES]
    alone = _biyaya_only(biyaya, options)
    best: tuple[int, tuple[_ShapePlan, ...], int] = (-1, (), 0)
    for first in range(biyaya + 1):
        one = plans[0][first]
        if one is None:
            continue
        for second in range(biyaya - first + 1):
            two = plans[1][second]
            if two is None:
                continue
            rest = biyaya - first - second
            ap = one.ap + two.ap + alone[rest][0]
            if ap > best[0]:
                best = (ap, (one, two), rest)
    _, shape_plans, rest = best
    combos = [combo for shape, plan in zip(SHAPES, shape_plans)
              for combo in _build_shape(shape, plan, counts)]
    combos += [Combo(_all_biyaya_name(size), (BIYAYA,) * size) for size in alone[rest][1:]]
    return tuple(sorted(combos, key=lambda c: (-c.ap, c.cards)))


def _all_biyaya_name(size: int) -> str:
    return SAME_COLOUR.get(size) or (LIMANG if size == 5 else APO)


def _build_shape(shape: str, plan: _ShapePlan, counts: dict[str, int]) -> list[Combo]:
    """The concrete combos of a plan: five-colour combos first, then same-colour groups.

    The first `natural` five-colour combos take a natural of every colour (they carry
    any Bagani ni Apo's extra Biyaya); each colour's other naturals are dealt to the
    remaining combos round the circle, so every combo gets one when there are enough.
    """
    slots = [[BIYAYA] * len(COLOURS) for _ in range(plan.fives)]
    others = plan.fives - plan.natural
    turn = 0
    for c, (colour, (n, _)) in enumerate(zip(COLOURS, plan.per_colour)):
        for i in range(plan.natural):
            slots[i][c] = f"{colour}-{shape}"
        for _ in range(n - plan.natural):
            slots[plan.natural + turn % others][c] = f"{colour}-{shape}"
            turn += 1
    combos = [Combo(APO, tuple(cards) + (BIYAYA,)) if i < plan.apos else Combo(LIMANG, tuple(cards))
              for i, cards in enumerate(slots)]
    for colour, (n, k) in zip(COLOURS, plan.per_colour):
        code = f"{colour}-{shape}"
        combos += _build_groups(code, counts[code] - n, k)
    return combos


def _build_groups(code: str, naturals: int, biyaya: int) -> list[Combo]:
    """Same-colour combos as `_groups` counts them: sizes as even as possible, naturals
    dealt first so every combo holds one."""
    _, groups, used_biyaya = _groups(naturals, biyaya)
    if not groups:
        return []
    pool = [code] * min(naturals, 4 * groups) + [BIYAYA] * used_biyaya
    size, extra = divmod(len(pool), groups)
    sizes = [size + (1 if i < extra else 0) for i in range(groups)]
    hands: list[list[str]] = [[] for _ in range(groups)]
    slot = 0
    for card in pool:
        while len(hands[slot % groups]) >= sizes[slot % groups]:
            slot += 1
        hands[slot % groups].append(card)
        slot += 1
    return [Combo(SAME_COLOUR[len(h)], tuple(h)) for h in hands]
