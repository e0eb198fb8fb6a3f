"""Lagim's standings: who is ahead, and who has won.

Lagim has no points: a Baryo wins by completing its Spirit Path with 3 stolen Soul
Coins, or by being the last Baryo with starting Soul Coins left. So `total` is the
stolen coins on the Spirit Path (the only count that moves a player towards a win), the
breakdown shows the Soul Coins left in the stash and whether the Baryo is eliminated,
and `winners` follows the book's two endings.
"""

from __future__ import annotations

from typing import Sequence

from rules.core import PlayerScore, ScoreResult, best_by

GAME = "lagim"
SPIRIT_PATH_COINS = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEFENCE_LINE_CARDS = 3  # RULES-NOTES: "at most 3 cards on a Baryo", Defenders and Kontra together


def soul_coins_each(players: int) -> int:
    """Set-up: 3 Soul Coins each for 2-4 players, 2 each for 5-6."""
    return 3 if players <= 4 else 2


def standings(names: Sequence[str], soul_coins: Sequence[int], spirit_paths: Sequence[int],
              ended: bool = False) -> ScoreResult:
    """Who stands where, and who has won by either of the book's two endings.

    `ended` is a game stopped before either ending: the two-player end with both decks
    empty (RULES-NOTES), or the host ending it. Then the most coins on the Spirit Path
    wins, then the most starting coins left, a tie shared; an eliminated Baryo never wins.
    """
    players = tuple(
        PlayerScore(name, path, {"spirit_path": path, "soul_coins": coins, "eliminated": coins == 0,
                                 "path_complete": path >= SPIRIT_PATH_COINS})
        for name, coins, path in zip(names, soul_coins, spirit_paths, strict=True))
    standing = [p for p in players if not p.breakdown["eliminated"]]
    winners = tuple(p.name for p in standing if p.breakdown["path_complete"])
    if not winners and (len(standing) == 1 or ended):
        winners = best_by([p.name for p in standing],
                          [(p.total, p.breakdown["soul_coins"]) for p in standing])
    return ScoreResult(GAME, players, winners)
