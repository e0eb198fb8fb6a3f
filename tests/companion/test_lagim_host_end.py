"""The host ending a Lagim game early never names an eliminated Baryo the winner.

The book: "Your starting Soul Coins represent your life points in the game", and a Baryo
with none left is eliminated; RULES-NOTES: "An eliminated Baryo never wins."
"""

from __future__ import annotations

from companion.web import Services
from tests.companion.conftest import PLAYERS


def test_an_eliminated_baryo_with_the_longest_spirit_path_does_not_win(services: Services) -> None:
    table = services.table
    table.start_game("lagim", PLAYERS)
    for seat, card in ((0, "Kapre"), (1, "Aswang")):  # a Lagim card dwells on Ana's and Ben's Baryo
        table.submit({"kind": "draw_baryo", "player": seat})
        table.submit({"kind": "forest_attack", "player": seat, "card": card})
        table.submit({"kind": "standby", "player": seat})
        table.submit({"kind": "draw_baryo", "player": seat})
    reaps = [(1, "Kapre", 0), (1, "Kapre", 0), (2, "Aswang", 1), (0, "Aswang", 1), (2, "Aswang", 1)]
    for reaper, card, target in reaps:
        table.submit({"kind": "reap", "player": reaper, "card": card, "target": target})
    players = {p["name"]: p["breakdown"] for p in table.snapshot()["players"]}
    assert (players["Ben"]["spirit_path"], players["Ben"]["eliminated"]) == (2, True)
    assert (players["Carla"]["spirit_path"], players["Carla"]["eliminated"]) == (2, False)
    table.end()
    assert table.snapshot()["winners"] == ["Carla"]
