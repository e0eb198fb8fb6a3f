"""Lagim's answers to the JSON contract: `check` (`battle`) and `score`.

`score` checks that the coins given are a position the game can reach and ranks the
players by `rules.lagim.scoring.standings`, as the live tracker does.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from rules.core import BadInput, check_player_count, seated_result
from rules.lagim.battle import Defender, Equip, ForestFighter, judge, stack_problem
from rules.lagim.cards import CardInfo, baryo_archetypes, catalogue_deck, forest_archetypes, parse_level
from rules.lagim.options import Options
from rules.lagim.scoring import (DEFENCE_LINE_CARDS, MAX_PLAYERS, MIN_PLAYERS, SPIRIT_PATH_COINS, soul_coins_each,
                                 standings)
from rules.options import parse_options
from rules.payload import expect, items, obj, opt, player_names, req

FOREST_KINDS = ("lagim", "hiwaga")


def score(payload: Mapping[str, Any]) -> dict[str, Any]:
    """`players`: `{"name", "soul_coins" (starting coins left), "spirit_path" (stolen coins)}`;
    `ended`: true when the game stopped before a Spirit Path or a last Baryo decided it.

    The coins must be a position the game can reach: no Baryo holds more than set-up
    gave it, no Spirit Path holds more than the 3 that complete it, only one can be
    complete (the game ends at once), and no coin is counted twice."""
    parse_options(Options, payload.get("options"))
    players = req(payload, "players", list)
    names = player_names(players)
    check_player_count(len(names), "Lagim", MIN_PLAYERS, MAX_PLAYERS, too_few_ok=True)
    dealt = soul_coins_each(len(names))
    coins = [_count(p, "soul_coins", f"players[{i}]", dealt) for i, p in enumerate(players)]
    paths = [_count(p, "spirit_path", f"players[{i}]", SPIRIT_PATH_COINS)
             for i, p in enumerate(players)]
    if sum(path == SPIRIT_PATH_COINS for path in paths) > 1:
        raise BadInput("players", "only one Spirit Path can be complete: the game ends when the "
                                  "first one is")
    if sum(coins) + sum(paths) > dealt * len(names):
        raise BadInput("players", f"{sum(coins)} Soul Coins in the stashes and {sum(paths)} on the "
                                  f"Spirit Paths are more than the {dealt * len(names)} set-up "
                                  f"deals {len(names)} players")
    return seated_result(standings(names, coins, paths, opt(payload, "ended", bool, False)),
                         "Lagim", MIN_PLAYERS, MAX_PLAYERS)


def _count(player: Mapping[str, Any], key: str, path: str, most: int) -> int:
    value = req(obj(player, path), key, int, path)
    if not 0 <= value <= most:
        raise BadInput(f"{path}.{key}", f"must be 0 to {most}, not {value}")
    return value


def check(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The contract's `battle` check, plus `fought` (the cards battled) and an optional
    `split`: names of the stack's cards an Agimat separates to fight alone."""
    parse_options(Options, payload.get("options"))
    kind = req(payload, "check", str)
    if kind != "battle":
        raise BadInput("check", f"unknown Lagim check {kind!r}; one of battle")
    stack = items(req(payload, "attack", list), "attack", _forest_card)
    problem = stack_problem(stack)
    if problem:
        raise BadInput("attack", problem)
    defenders = items(req(payload, "defenders", list), "defenders", _defender)
    if not defenders:
        raise BadInput("defenders", "a battle needs at least one Defender")
    cards = sum(d.cards for d in defenders)
    if cards > DEFENCE_LINE_CARDS:
        raise BadInput("defenders", f"{cards} cards: a defence line holds at most "
                                    f"{DEFENCE_LINE_CARDS}, Defenders and equipped Kontra together")
    split = opt(payload, "split", list, None)
    if split is not None:
        split = items(split, "split", lambda v, p: expect(v, str, p))
    try:
        return judge(stack, defenders, split).to_dict()
    except ValueError as exc:
        raise BadInput("split", str(exc)) from None


def _choice(raw: Mapping[str, Any], key: str, allowed: Sequence[str], path: str) -> str:
    value = req(raw, key, str, path).strip().lower()
    if value not in allowed:
        raise BadInput(f"{path}.{key}", f"unknown {key} {value!r}; one of {', '.join(allowed)}")
    return value


def _printed(raw: Mapping[str, Any], path: str, role: str, fits: Callable[[CardInfo], bool]
             ) -> tuple[str, int]:
    """The card's name and level, checked against what the rulebook prints for that name:
    a card the catalogue knows must be able to play `role` (its kind, its archetype) and
    keep the level printed on it. Names the book does not list (a deck's own) are taken
    as described."""
    name = req(raw, "name", str, path)
    level = parse_level(req(raw, "level", (int, str), path), f"{path}.level")
    card = catalogue_deck().find(name)
    if card is None:
        return name, level
    archetype = raw["archetype"].strip().lower()
    if not fits(card):
        raise BadInput(f"{path}.name", f"{card.name} is a {_described(card)} and cannot be {role}")
    if archetype not in card.archetypes:
        raise BadInput(f"{path}.archetype", f"{card.name} is {' or '.join(card.archetypes)}, "
                                            f"not {archetype}")
    if card.level is not None and card.level != level:
        raise BadInput(f"{path}.level", f"{card.name} has level {card.level} printed, not {level}")
    return card.name, level


def _described(card: CardInfo) -> str:
    return f"{'/'.join(card.archetypes).capitalize()} {card.kind.capitalize()} card"


def _forest_card(value: Any, path: str) -> ForestFighter:
    raw = obj(value, path)
    kind = _choice(raw, "kind", FOREST_KINDS, path)
    archetype = _choice(raw, "archetype", forest_archetypes(), path)
    name, level = _printed(raw, path, f"attacking as a {kind.capitalize()} card",
                           lambda c: c.deck == "forest" and c.kind == kind)
    return ForestFighter(name, kind, archetype, level)


def _equip(value: Any, path: str) -> Equip:
    raw = obj(value, path)
    archetype = _choice(raw, "archetype", baryo_archetypes(), path)
    name, level = _printed(raw, path, "equipped: only Kontra cards are", lambda c: c.kind == "kontra")
    return Equip(name, (archetype,), level)


def _defender(value: Any, path: str) -> Defender:
    raw = obj(value, path)
    archetype = _choice(raw, "archetype", baryo_archetypes(), path)
    name, level = _printed(raw, path, "a Defender: a Defender is a Lakas card or a Special Kontra",
                           lambda c: c.kind == "lakas" or "special" in c.archetypes)
    return Defender(name, archetype, level,
                    tuple(items(opt(raw, "equip", list, [], path), f"{path}.equip", _equip)))
