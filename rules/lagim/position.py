"""A Lagim table at one moment: the Baryos, the decks, the piles and the Coin Vessel.

Pure data with read-only questions about it. What the camera cannot see is counted,
not named: Baryo cards in a hand, face-down Defence cards, the Baryo deck and the
Resting Pile. Forest cards are always public (attacks are drawn face-up, captures and
Dwellers are shown), so the Forest deck is known as a set of names in no order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import ScoreResult
from rules.lagim.cards import CardInfo, Deck
from rules.lagim.scoring import standings
from rules.lagim.options import Options

LAGIM_LIMIT = 3  # "A Baryo can only hold a maximum of 3 Lagim Dwellers"
RAID_MAX_CARDS = 3  # Hasik: 3 Lagim of one archetype; Angkla: 3 Hiwaga of one archetype
PHASE_NAMES = {"twilight": "Takipsilim (Twilight)", "midnight": "Hating-gabi (Midnight)",
               "dawn": "Bukang-liwayway (Dawn)"}


def starting_baryo_cards(players: int) -> int:
    """Set-up: 4 Baryo cards each for 2-3 players, 3 each for 4-6."""
    return 4 if players <= 3 else 3


@dataclass(frozen=True)
class Block:
    """A SALAG on a Baryo: `cards` held under `nullifier` (taken from the hand), wielded by
    `wielder` (a Lakas Defender turned face-up; None for an Agimat). `ready` turns true when
    the owner's next turn begins: that turn may repel the stack, and at its end an
    unrepelled block lapses (the cards settle, the blocking cards are discarded)."""

    nullifier: str
    wielder: str | None
    cards: tuple[str, ...]
    ready: bool = False

    @property
    def baryo_cards(self) -> int:
        return 1 if self.wielder is None else 2

    def to_dict(self) -> dict[str, Any]:
        return {"nullifier": self.nullifier, "wielder": self.wielder, "cards": list(self.cards),
                "ready": self.ready}


@dataclass(frozen=True)
class Baryo:
    """One player's Baryo; `soul_coins` are the starting coins left (life points)."""

    name: str
    soul_coins: int
    dark_coins: int = 1
    spirit_path: int = 0
    hand: int = 0  # Baryo cards in hand, unseen
    captured: tuple[str, ...] = ()  # Forest cards in hand, captured in the open
    defenders: int = 0  # Defender slots on the defence line
    defence_cards: int = 0  # face-down cards on the defence line, Defenders and equips
    dwellers: tuple[str, ...] = ()
    blocks: tuple[Block, ...] = ()  # SALAG stacks held on the Baryo
    disabled: tuple[tuple[str, int], ...] = ()  # (disabling Dweller, Defenders it disables)

    @property
    def eliminated(self) -> bool:
        return self.soul_coins == 0

    @property
    def ready_defenders(self) -> int:
        """Defenders that can be used: "As long as the disabler is a Dweller in your Baryo,
        the disabled card will remain disabled." """
        disabled = sum(n for card, n in self.disabled if card in self.dwellers)
        return max(0, self.defenders - disabled)

    @property
    def held(self) -> tuple[str, ...]:
        """Forest cards held under a SALAG."""
        return tuple(c for b in self.blocks for c in b.cards)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "soul_coins": self.soul_coins, "dark_soul_coins": self.dark_coins,
                "spirit_path": self.spirit_path, "baryo_cards_in_hand": self.hand,
                "captured": list(self.captured), "defenders": self.defenders,
                "defence_cards": self.defence_cards, "dwellers": list(self.dwellers),
                "salag": [b.to_dict() for b in self.blocks],
                "disabled_defenders": self.defenders - self.ready_defenders, "eliminated": self.eliminated}


@dataclass(frozen=True)
class Incoming:
    """Forest cards arriving on `target`'s Baryo and waiting for its answer.

    `raider` is None for a Forest attack at Midnight, else the seat whose raid it is
    (after a PAGTAULI, the counter-raider). `summoned` is the card a Full Moon pair
    brought, which a nullifying Defender sends back.
    """

    target: int
    cards: tuple[str, ...]
    raider: int | None = None
    summoned: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "cards": list(self.cards), "raider": self.raider,
                "summoned": self.summoned}


@dataclass(frozen=True)
class Table:
    """The whole position. `coins_dealt` is what set-up put in the Coin Stashes: stashes,
    Spirit Paths and the Coin Vessel always add up to it."""

    deck: Deck
    options: Options
    baryos: tuple[Baryo, ...]
    coins_dealt: int
    turn: int = 0
    phase: str = "twilight"
    drew: bool = False  # Twilight's Baryo draw is done
    incoming: Incoming | None = None
    forest_deck: tuple[str, ...] = ()  # sorted names: the order is unknown
    graveyard: tuple[str, ...] = ()
    baryo_deck: int = 0
    resting: int = 0
    vessel_soul: int = 0  # Soul Coins discarded into the Coin Vessel during play
    vessel_dark: int = 0
    ended: bool = False  # the two-player end: both decks empty, the round played out
    announcements: tuple[str, ...] = ()

    def card(self, name: str) -> CardInfo | None:
        """The card called `name` as a player or the camera wrote it; None if there is none."""
        return self.deck.find(name)

    def info(self, name: str) -> CardInfo:
        """A card the table already holds (its names were checked when it came into play)."""
        return self.deck.cards[name.casefold()]

    def standing(self) -> list[int]:
        return [i for i, b in enumerate(self.baryos) if not b.eliminated]

    def may_reshuffle(self) -> bool:
        """Discards refill an empty deck, except when only 2 players are left."""
        return len(self.standing()) > 2

    def can_draw_baryo(self) -> bool:
        return self.baryo_deck > 0 or (self.resting > 0 and self.may_reshuffle())

    def can_draw_forest(self) -> bool:
        return bool(self.forest_deck) or (bool(self.graveyard) and self.may_reshuffle())

    def archetype(self, name: str) -> str:
        return self.info(name).archetype

    def lagim_count(self, names: tuple[str, ...]) -> int:
        return sum(self.info(n).kind == "lagim" for n in names)

    def decks_spent(self) -> bool:
        """RULES-NOTES: with 2 players left and both decks empty there is no reshuffle, and
        the game ends at the end of that round."""
        return len(self.standing()) == 2 and not self.forest_deck and not self.baryo_deck

    def dwellers_of(self, seat: int, archetype: str) -> tuple[str, ...]:
        return tuple(n for n in self.baryos[seat].dwellers if self.archetype(n) == archetype)

    def standings(self) -> ScoreResult:
        return standings([b.name for b in self.baryos], [b.soul_coins for b in self.baryos],
                         [b.spirit_path for b in self.baryos], self.ended)

    def winners(self) -> tuple[str, ...]:
        return self.standings().winners

    def to_dict(self) -> dict[str, Any]:
        return {"players": [b.to_dict() for b in self.baryos],
                "turn": self.baryos[self.turn].name, "phase": self.phase,
                "phase_name": PHASE_NAMES[self.phase],
                "incoming": None if self.incoming is None else self.incoming.to_dict(),
                "forest_deck": len(self.forest_deck), "graveyard": list(self.graveyard),
                "baryo_deck": self.baryo_deck, "resting_pile": self.resting,
                "coin_vessel": {"soul_coins": self.vessel_soul, "dark_soul_coins": self.vessel_dark},
                "winners": list(self.winners())}
