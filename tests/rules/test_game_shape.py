"""Every game is one package of one shape (issue 24): the same role-named modules, a state
class named after the game, and scoring in its own module that both the tracker and the
`score` request use."""

from __future__ import annotations

import importlib
import importlib.util

import pytest

from rules.registry import GAMES, game_spec

ROLES = ("cards", "events", "state", "scoring", "contract", "options", "schema")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_package_has_the_same_roles(game: str) -> None:
    missing = [role for role in ROLES if importlib.util.find_spec(f"{GAMES[game]}.{role}") is None]
    assert not missing, f"{GAMES[game]} has no {', '.join(missing)}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_state_class_is_named_after_its_game(game: str) -> None:
    """BaganiState, GargonState, DugtunganState, LagimState: exported by the package, and
    what its spec's new_game returns."""
    name = f"{game.capitalize()}State"
    package = importlib.import_module(GAMES[game])
    assert name in package.__all__
    spec = game_spec(game)
    players = ["Ana", "Ben", "Cora", "Dan"][:max(spec.min_players, 3)]
    assert type(spec.new_game(players, None, None)) is getattr(package, name)


def test_dugtungan_counts_letters_in_one_place() -> None:
    """The tracker's scores and the `score` request give the same breakdown for one hand."""
    from rules.dugtungan import score

    state = game_spec("dugtungan").new_game(["Ana", "Ben"], {"hand_size": 2, "deck_runs_out": "score"},
                                             {"hands": [["NG", "A"], ["BA", "SA:+DOS"]]})
    answer = score({"players": [{"name": "Ana", "hand": ["NG", "A"]}, {"name": "Ben", "hand": ["BA", "SA:+DOS"]}]})
    assert state.scores().to_dict()["players"] == answer["players"]
    assert answer["winners"] == ["Ana"]
