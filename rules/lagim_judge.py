"""Lagim's answers to the JSON contract: `check` (`battle`) and `score`.

Lagim has no points: a Baryo wins by completing its Spirit Path with 3 stolen Soul
Coins, or by being the last Baryo with starting Soul Coins left. So `score` reports
those two things: `total` is the stolen coins on the Spirit Path (the only count that
moves a player towards a win), the breakdown shows the Soul Coins left in the stash and
whether the Baryo is eliminated, and `winners` follows the book's two endings. The live
tracker ranks its players through the same `standings`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rules.core import BadInput, PlayerScore, ScoreResult
from rules.lagim_battle import Defender, Equip, ForestFighter, judge, stack_problem
from rules.lagim_cards import baryo_archetypes, forest_archetypes, parse_level
from rules.lagim_options import Options
from rules.options import parse_options
from rules.payload import expect, items, obj, opt, player_names, req

GAME = "lagim"
SPIRIT_PATH_COINS = 3
FOREST_KINDS = ("lagim", "hiwaga")


def standings(names: Sequence[str], soul_coins: Sequence[int], spirit_paths: Sequence[int]) -> ScoreResult:
    """Who stands where, and who has won by either of the book's two endings."""
    players = tuple(
        PlayerScore(name, path, {"spirit_path": path, "soul_coins": coins, "eliminated": coins == 0,
                                 "path_complete": path >= SPIRIT_PATH_COINS})
        for name, coins, path in zip(names, soul_coins, spirit_paths, strict=True))
    winners = [p.name for p in players if p.breakdown["path_complete"]]
    standing = [p.name for p in players if not p.breakdown["eliminated"]]
    if not winners and len(standing) == 1:
        winners = standing
    return ScoreResult(GAME, players, tuple(winners))


def score(payload: Mapping[str, Any]) -> dict[str, Any]:
    """`players`: `{"name", "soul_coins" (starting coins left), "spirit_path" (stolen coins)}`."""
    parse_options(Options, payload.get("options"))
    players = req(payload, "players", list)
    names = player_names(players)
    coins = [_count(p, "soul_coins", f"players[{i}]") for i, p in enumerate(players)]
    paths = [_count(p, "spirit_path", f"players[{i}]") for i, p in enumerate(players)]
    return standings(names, coins, paths).to_dict()


def _count(player: Mapping[str, Any], key: str, path: str) -> int:
    value = req(player, key, int, path)
    if value < 0:
        raise BadInput(f"{path}.{key}", "must not be negative")
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


def _forest_card(value: Any, path: str) -> ForestFighter:
    raw = obj(value, path)
    return ForestFighter(req(raw, "name", str, path), _choice(raw, "kind", FOREST_KINDS, path),
                         _choice(raw, "archetype", forest_archetypes(), path),
                         parse_level(req(raw, "level", (int, str), path), f"{path}.level"))


def _equip(value: Any, path: str) -> Equip:
    raw = obj(value, path)
    return Equip(req(raw, "name", str, path), (_choice(raw, "archetype", baryo_archetypes(), path),),
                 parse_level(req(raw, "level", (int, str), path), f"{path}.level"))


def _defender(value: Any, path: str) -> Defender:
    raw = obj(value, path)
    return Defender(req(raw, "name", str, path), _choice(raw, "archetype", baryo_archetypes(), path),
                    parse_level(req(raw, "level", (int, str), path), f"{path}.level"),
                    tuple(items(opt(raw, "equip", list, [], path), f"{path}.equip", _equip)))
