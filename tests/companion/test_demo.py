"""Each game's demo table plays through the whole live pipeline to a scored end."""

from __future__ import annotations

import pytest

from companion.demo import DemoPlayer


def play(services, game):
    player = DemoPlayer(services.table, game, speed=1000, loop=False).start()
    assert player.wait(30)
    services.table.bus.flush()
    return services.table.snapshot()


def test_the_bagani_demo_ends_with_sarimaw_down_and_the_final_hands_scored(services):
    snap = play(services, "bagani")
    assert snap["status"] == "finished" and snap["winners"] == ["Ana"]
    assert [p["total"] for p in snap["players"]] == [19, 15]
    texts = [line["text"] for line in snap["log"]][::-1]
    assert "Asked the host: Did Ana defeat the Aswang?" in texts
    assert texts[-1] == "Final hands: Ana: yellow-square; Ben: no cards"
    assert "Ben defeats Sarimaw" in texts


def test_the_gargon_demo_plays_two_rounds_to_the_end(services):
    snap = play(services, "gargon")
    assert snap["status"] == "finished" and snap["winners"] == ["Ben"]
    assert "Asked the host: Is Ben's card the blue 7?" in [line["text"] for line in snap["log"]]


def test_the_dugtungan_demo_reads_words_from_the_row_and_ends_lowest_wins(services):
    snap = play(services, "dugtungan")
    texts = [line["text"] for line in snap["log"]][::-1]
    assert "Ana makes BAHALA; new PAMATO KA" in texts
    assert "Ben makes TAPOS; new PAMATO LI" in texts
    assert snap["status"] == "finished" and snap["winners"] == ["Ben"]


def test_the_lagim_demo_reads_forest_attacks_and_defenders_from_the_seats(services):
    snap = play(services, "lagim")
    sources = {line["text"]: line["source"] for line in snap["log"]}
    assert sources["Duwende attacks Ana's Baryo"] == "camera"
    assert sources["Ana battles with Amihan"] == "camera"
    assert snap["state"]["players"][1]["dwellers"] == ["Kapre", "Duwende"]  # captured, then raided onto Ben
    assert snap["status"] == "finished"


@pytest.mark.parametrize("game", ["bagani", "gargon", "dugtungan", "lagim"])
def test_a_demo_game_replays_from_its_log_to_the_same_scoreboard(services, game):
    from tests.companion.test_table import replayed, visible

    snap = play(services, game)
    assert visible(replayed(services)) == visible(snap)
