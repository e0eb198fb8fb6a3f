"""One adapter per game: what the camera's observations mean as that game's events.

The rules engines know game events (a combo put down, a Halimaw defeated, a word
formed); vision knows cards in zones. An adapter is the small translation between the
two for one game, plus the words the scoreboard uses for each event and a scripted
table recording for the demo. Nothing here decides legality: the engine does.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence, TypeVar

from rules.core import BadInput, GameState
from rules.event import Event
from rules.registry import game_names, game_spec
from rules.spec import GameSpec
from vision.observations import Observation



@dataclass(frozen=True)
class Choice:
    """One answer a host can give: a label to tap and the game event it stands for.

    On a question about one card, `code` is the card the answer takes it for and
    `confidence` how sure the identifier was of that card; an answer with a code and no
    action only names the card, which is then read again under that name.
    """

    label: str
    action: Mapping[str, Any] | None
    code: str | None = None
    confidence: float | None = None


@dataclass(frozen=True)
class Reading:
    """What the adapter thinks an observation means, and how to ask if unsure.

    `choices[0]` is the camera's own reading; the others come from the identifier's
    runner-up codes, so a correction is one tap. `tracks` are the cards the reading
    accounts for: once it is scored or answered they are spent, and the adapter no longer
    sees them (combos put down earlier in a turn are not put down again).
    """

    question: str
    choices: tuple[Choice, ...]
    confidence: float
    tracks: frozenset[int] = frozenset()

    @property
    def action(self) -> Mapping[str, Any]:
        action = self.choices[0].action
        assert action is not None, "an adapter's reading always offers its own event first"
        return action


@dataclass(frozen=True)
class HostEvent:
    """A scripted host's tap in a recording: an event entered by hand, or an answer to
    the open question (every recording plays to its game's own end, never a host's End)."""

    action: Event | None = None
    answer: int | None = None


@dataclass(frozen=True)
class Step:
    """One moment of a recorded table: after `delay` seconds, this happens."""

    delay: float
    observation: Observation | None = None
    host: HostEvent | None = None


@dataclass(frozen=True)
class Recording:
    """A short scripted game for `companion demo`: who sits where and what happens."""

    players: tuple[str, ...]
    steps: tuple[Step, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    setup: Mapping[str, Any] = field(default_factory=dict)


class Adapter(Protocol):
    game: str

    def interpret(self, observation: Observation, state: GameState,
                  seen: Mapping[int, Observation]) -> Sequence[Reading]:
        """The game events this observation suggests (often none: a card just moved).
        `seen` holds the cards on the table that no scored event has spent yet."""
        ...

    def settle(self, state: GameState, seen: Mapping[int, Observation]) -> Sequence[Reading]:
        """What the cards on the table already mean once the host enters an event by hand
        (e.g. a Gargon play is complete when the next player passes)."""
        ...

    def known_as(self, observation: Observation, state: GameState) -> tuple[str, float] | None:
        """What a card the camera could not name is, as far as the game needs to know it
        now, and the chance of that (a Gargon card laid face down is its colour alone);
        None when the game needs its full name."""
        ...

    def laid_aside(self, observation: Observation, state: GameState,
                   accounted: Sequence[Observation]) -> Observation | None:
        """A card just put down that is no move of the game, as the game knows it: one the
        game already accounted for and lays aside (a Gargon card won in battle, laid
        face down before its winner) or one it never reads where it lies (a Lagim card
        outside the acting player's seat); None for a card in play. `accounted` holds
        the cards events already took that still lie in view (those laid aside, and a
        Gargon card won and turned over where it lay, which the camera follows as the
        face it was) and those laid aside that this card now covers. A card laid aside
        that leaves is no move either: it was accounted for. The table neither reads such
        a card as a move nor asks its name."""
        ...

    def host_templates(self, state: GameState) -> Sequence[Choice]:
        """Events the host may enter by hand, pre-filled (anything the camera cannot see)."""
        ...

    def recording(self) -> Recording:
        """The demo's scripted table for this game."""
        ...

    def recordings(self) -> Sequence[Recording]:
        """Every scripted table of the demo for this game (other numbers of players), the
        first being `recording()`."""
        ...


class HostAdapter:
    """The table of a game the camera cannot follow yet: the host enters every event on
    the host page (its forms come from the game's event schema), and each event's own
    `describe` gives the log's line. A game needs a camera adapter module here only to
    read cards from the camera or to have a scripted demo table."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.game = spec.name

    def interpret(self, observation: Observation, state: GameState,
                  seen: Mapping[int, Observation]) -> Sequence[Reading]:
        return ()

    def settle(self, state: GameState, seen: Mapping[int, Observation]) -> Sequence[Reading]:
        return ()

    def known_as(self, observation: Observation, state: GameState) -> tuple[str, float] | None:
        return None

    def laid_aside(self, observation: Observation, state: GameState,
                   accounted: Sequence[Observation]) -> Observation | None:
        return None

    def host_templates(self, state: GameState) -> Sequence[Choice]:
        names = [p["name"] for p in state.to_dict()["players"]]
        return [Choice(describe(self.game, a.to_dict(), names), a.to_dict()) for a in state.legal_actions()]

    def recording(self) -> Recording:
        raise BadInput("game", f"{self.game} has no scripted demo table")

    def recordings(self) -> Sequence[Recording]:
        return ()


def adapter_for(game: object) -> Adapter:
    """The adapter of `game`: its module `companion.adapters.<game>` when it has one,
    else a `HostAdapter`; BadInput for an unknown game or a missing dependency."""
    spec = game_spec(game)
    module_name = f"{__name__}.{spec.name}"
    if importlib.util.find_spec(module_name) is None:
        return HostAdapter(spec)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise BadInput("game", f"{spec.name} is not playable at the table yet ({exc.name} is missing)") from None
    adapter: Adapter = module.ADAPTER
    return adapter


def playable_games() -> list[str]:
    """The games whose engine and adapter are both installed."""
    names = []
    for game in game_names():
        try:
            adapter_for(game)
        except BadInput:
            continue
        names.append(game)
    return names


def demo_games() -> list[str]:
    """The playable games that have a scripted demo table."""
    return [game for game in playable_games() if adapter_for(game).recordings()]


S = TypeVar("S")


def game_state(state: GameState, kind: type[S]) -> S:
    """`state` as its game's own state class, so an adapter reads only attributes that
    class declares (the shared GameState protocol declares none of a game's own)."""
    if not isinstance(state, kind):
        raise TypeError(f"a {kind.__name__} was expected, not {type(state).__name__}")
    return state


def describe(game: str, action: Mapping[str, Any], players: Sequence[str], told: bool = False) -> str:
    """The scoreboard's line for a stored event, said by the event itself (`told`: as the
    whole table hears it, without the cards only its player saw); an event the rules no
    longer read (stored before a rules change) shows its kind."""
    try:
        event = game_spec(game).action_from_dict(action)
    except BadInput:
        return str(action.get("kind"))
    return (event.told() if told else event).describe(players)
