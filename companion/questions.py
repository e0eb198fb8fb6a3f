"""The answers a camera question offers: one tap for the likely ones.

A question about one card shows the identifier's best guesses as buttons (at least
three where it has them). An adapter's own answers are game events ("Yes, Higante",
"No, Kapre"); each gets the card it takes the card for and the identifier's confidence
in it. Guesses no event covers are offered as plain names: tapping one names the card,
and the table reads it again under that name. When the rules refused the camera's
reading, the events of the same kind the rules would allow stand in for it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Collection, Iterator, Mapping, Sequence

from companion.adapters import Choice
from vision.observations import Observation

LEAST_GUESSES = 3   # runner-up names offered, where the identifier has them
MOST_CHOICES = 6    # buttons on one question, before "none of these"
MOST_INSTEAD = 3    # legal events offered in place of a refused reading


def _fold(code: str) -> str:
    """Codes as the identifier, the deck and the rules may each spell them."""
    return code.casefold().replace("-", " ").replace("_", " ").strip()


def strings_in(value: Any) -> Iterator[str]:
    """Every string in an event but its kind: the cards, colours and names it holds."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if key != "kind":
                yield from strings_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings_in(item)


def ranked_codes(observation: Observation, spell: Callable[[str], str]) -> list[tuple[str, float | None]]:
    """The card's reading then its runner-ups, best first, each code once and spelt as
    the game spells it, with the identifier's confidence in each: its scores where they
    are confidences (0 to 1), else only the reading's own (a gallery's similarity scores
    rank the runner-ups but say nothing a person can read as a chance)."""
    probabilities = all(0.0 <= score <= 1.0 for _, score in observation.candidates)
    ranked: list[tuple[str, float | None]] = []
    if observation.code is not None:
        ranked.append((spell(observation.code), round(observation.confidence, 4)))
    for code, score in observation.candidates:
        if all(_fold(code) != _fold(known) for known, _ in ranked):
            ranked.append((spell(code), round(score, 4) if probabilities else None))
    return ranked


CARD_FIELDS = ("card", "cards", "groups", "per_seat")


def knowable_lists(schema: Mapping[str, Any], kinds: Collection[str]) -> set[str]:
    """The pick-lists of the card fields of the events of `kinds` (those the rules allow
    now): what a card on the table can be known as at this moment."""
    found: set[str] = set()

    def walk(fields: Sequence[Mapping[str, Any]]) -> None:
        for field in fields:
            if field["type"] in CARD_FIELDS and "list" in field:
                found.add(field["list"])
            walk(field.get("fields", ()))

    for event in schema.get("events", ()):
        if event["kind"] in kinds:
            walk(event["fields"])
    return found


def as_known(ranked: Sequence[tuple[str, float | None]], schema: Mapping[str, Any], lists: Collection[str]
             ) -> list[tuple[str, float | None]]:
    """A card's guesses as what can be known of it now: a guess none of `lists` holds
    stands for the entry of those lists its facts name, the chances of the guesses that
    fold into one entry added up. A face-down Gargon card is only its colour (its back
    shows no value), so `blue-3 30%, blue-8 19%` is `blue 49%`; a guess of that entry
    itself (the printed reader's bare colour, 90%) holds them all, so the entry's chance
    is the larger of it and their sum. Guesses nothing folds into stay as they are,
    except a guess that is only a fact of the cards needed (that bare colour, where the
    card's face is due; with no list now, a fact of any of the game's cards): no name
    for one of them."""
    entries = schema.get("lists", {})
    known = {_fold(e["code"]): e["code"] for name in lists for e in entries.get(name, ())
             if isinstance(e["code"], str)}
    facts = {_fold(e["code"]): e.get("facts", {}) for listed in entries.values() for e in listed
             if isinstance(e["code"], str)}
    facts_of = lists or entries  # every list where the rules allow events too many to list (a reveal)
    coarser = {_fold(v) for name in facts_of for e in entries.get(name, ()) for v in e.get("facts", {}).values()
               if isinstance(v, str)} - set(known)
    merged: dict[str, tuple[list[float | None], list[float | None]]] = {}  # entry -> (itself, folded into it)
    for code, score in ranked:
        if _fold(code) in coarser:
            continue
        into = known.get(_fold(code)) or next((known[_fold(v)] for v in facts.get(_fold(code), {}).values()
                                              if isinstance(v, str) and _fold(v) in known), code)
        merged.setdefault(into, ([], []))[_fold(into) != _fold(code)].append(score)
    return [(code, _chance(itself, folded)) for code, (itself, folded) in merged.items()]


def _chance(itself: list[float | None], folded: list[float | None]) -> float | None:
    if None in itself or None in folded:
        return None
    return round(min(1.0, max(sum(s for s in itself if s is not None), sum(s for s in folded if s is not None))), 4)


def _card_in(action: Mapping[str, Any] | None, ranked: Sequence[tuple[str, float | None]]
             ) -> tuple[str, float | None] | None:
    held = {_fold(s) for s in strings_in(action)}
    return next(((code, score) for code, score in ranked if _fold(code) in held), None)


def ask_choices(offered: Sequence[Choice], ranked: Sequence[tuple[str, float | None]]) -> list[Choice]:
    """`offered` (events) with the card each stands for, then the guesses no event
    names, as names to tap, up to MOST_CHOICES; at least LEAST_GUESSES guesses show."""
    choices = []
    for choice in offered:
        named = _card_in(choice.action, ranked)
        choices.append(Choice(choice.label, choice.action, *(named or (choice.code, choice.confidence))))
    named_codes = {_fold(c.code) for c in choices if c.code}
    rest = [(code, score) for code, score in ranked if _fold(code) not in named_codes]
    room = max(MOST_CHOICES - len(choices), LEAST_GUESSES - len(named_codes))
    choices += [Choice(f"It is {code}", None, code, score) for code, score in rest[:max(room, 0)]]
    return choices


def _swapped(value: Any, old: str, new: str, skip: int) -> tuple[Any, int]:
    """`value` with the `skip`-th string equal to `old` (as codes compare) set to `new`;
    the count left to skip (-1 once swapped)."""
    if isinstance(value, str):
        if skip >= 0 and _fold(value) == _fold(old):
            return (new, -1) if skip == 0 else (value, skip - 1)
        return value, skip
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            out[key], skip = (item, skip) if key == "kind" else _swapped(item, old, new, skip)
        return out, skip
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            changed, skip = _swapped(item, old, new, skip)
            items.append(changed)
        return items, skip
    return value, skip


def spelling(schema: Mapping[str, Any]) -> Callable[[str], str]:
    """A card's code as the game's pick-lists spell it (the identifier may say
    `tikbalang` where the deck says `Tikbalang`)."""
    known = {_fold(e["code"]): e["code"] for entries in schema.get("lists", {}).values()
             for e in entries if isinstance(e["code"], str)}
    return lambda code: known.get(_fold(code), code)


def swaps(action: Mapping[str, Any], cards: Sequence[Observation], spell: Callable[[str], str]) -> list[Choice]:
    """A reading of several cards with one card taken for its runner-up instead: each
    place the card's code stands in the event, each runner-up (spelt by `spell`), least
    sure cards first."""
    variants: list[Choice] = []
    for card in sorted(cards, key=lambda o: o.confidence):
        if card.code is None:
            continue
        places = sum(1 for s in strings_in(action) if _fold(s) == _fold(card.code))
        twins = sorted(o.track for o in cards if o.code is not None and _fold(o.code) == _fold(card.code))
        # cards of one code stand in the event in the order they were seen (by track), when each stands once
        where = [twins.index(card.track)] if places == len(twins) else range(places)
        for code, score in ranked_codes(card, spell)[1:]:
            for place in where:
                changed, _ = _swapped(action, card.code, code, place)
                label = f"Yes, with {code} for {spell(card.code)}"
                if all(changed != v.action and label != v.label for v in variants):
                    variants.append(Choice(label, changed, code, score))
    return variants


def legal_instead(refused: Mapping[str, Any], legal: Sequence[Any], describe: Callable[[Mapping[str, Any]], str],
                  offered: Sequence[Choice]) -> list[Choice]:
    """The events of the refused reading's kind (and player) the rules allow now, those
    nearest what the camera read (fewest cards apart) first."""
    kind = refused.get("kind")
    seat = refused.get("player", refused.get("seat"))
    read = Counter(_fold(s) for s in strings_in(refused))
    shown = [c.action for c in offered]
    alike = [a for a in (action.to_dict() for action in legal)
             if a.get("kind") == kind and a not in shown
             and (seat is None or a.get("player", a.get("seat")) in (seat, None))]
    def apart(action: Mapping[str, Any]) -> int:
        held = Counter(_fold(s) for s in strings_in(action))
        return sum(((read - held) + (held - read)).values())

    alike.sort(key=apart)
    return [Choice(describe(a), a) for a in alike[:MOST_INSTEAD]]


def pick_list(schema: Mapping[str, Any], codes: Sequence[str]) -> str | None:
    """The schema's pick-list holding the card a question is about (by the names the
    camera gave it, the first that a list holds), so "none of these" lists that game's
    cards of that sort."""
    lists: Mapping[str, Sequence[Mapping[str, Any]]] = schema.get("lists", {})
    for code in codes:
        for name, entries in lists.items():
            if any(isinstance(e["code"], str) and _fold(e["code"]) == _fold(code) for e in entries):
                return name
    return next(iter(lists), None)
