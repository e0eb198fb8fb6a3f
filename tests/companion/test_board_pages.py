"""The pieces behind the scoreboard's and history's pages: records, the score timeline and
its chart, the start form's house rules, the pages' game words, the QR code file."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from companion import qr
from companion.projection import project
from companion.records import player_records
from companion.store import GameRecord
from companion.timeline import Timeline, score_timeline
from companion.web import create_app
from companion.web.chart import line_chart, nice_top
from companion.web.game_setup import option_fields
from companion.web.game_words import combo_name, goals, page_words
from companion.web.pages import CHARTED_GAMES
from rules.registry import GAMES, game_spec
from tests.companion.conftest import HOST_TOKEN

SVG = "{http://www.w3.org/2000/svg}"
RED_BATTLE = ({"kind": "play", "player": 0, "colours": ["red"]}, {"kind": "play", "player": 1, "colours": ["red"]},
              {"kind": "pass", "player": 2, "draws": [1]}, {"kind": "reveal", "cards": [["red-3"], ["red-12"], []]},
              {"kind": "battle", "player": 0, "colour": "red"})


def finished(game_id: int, game: str, totals: dict[str, int], winners: list[str]) -> GameRecord:
    result = {"game": game, "players": [{"name": n, "total": t, "breakdown": {}} for n, t in totals.items()],
              "winners": winners}
    return GameRecord(game_id, game, tuple(totals), {}, {}, 0.0, 60.0, "finished", result)


def test_the_qr_code_file_is_svg_with_its_namespace():
    root = ET.fromstring(qr.svg_document("http://192.0.2.1:8000/"))
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "QR code of http://192.0.2.1:8000/"


def test_the_qr_code_link_serves_the_file_as_an_svg_image(client):
    response = client.get("/qr.svg")
    assert response.mimetype == "image/svg+xml"
    assert ET.fromstring(response.data).tag == f"{SVG}svg"


def test_a_record_counts_games_wins_average_and_best_per_game():
    records = player_records([finished(1, "gargon", {"Ana": 30, "Ben": 12}, ["Ana"]),
                              finished(2, "gargon", {"Ana": 10, "Ben": 40}, ["Ben"]),
                              finished(3, "gargon", {"Ana": 25, "Ben": 5}, ["Ana"])])
    (gargon,) = records
    ana, ben = gargon.players
    assert (ana.name, ana.games, ana.wins, ana.average, ana.best(gargon.lowest_wins)) == ("Ana", 3, 2, 21.7, 30)
    assert (ben.name, ben.wins, ben.best(False)) == ("Ben", 1, 40)


def test_in_dugtungan_the_best_record_is_the_fewest_letters():
    (kind,) = player_records([finished(1, "dugtungan", {"Ana": 0, "Ben": 6}, ["Ana"]),
                              finished(2, "dugtungan", {"Ana": 4, "Ben": 2}, ["Ben"])])
    assert kind.lowest_wins
    assert {p.name: p.best(kind.lowest_wins) for p in kind.players} == {"Ana": 0, "Ben": 2}


def test_records_keep_each_game_apart():
    records = player_records([finished(1, "gargon", {"Ana": 30}, ["Ana"]),
                              finished(2, "bagani", {"Ana": 19}, ["Ana"])])
    assert [(r.game, r.players[0].totals) for r in records] == [("bagani", [19]), ("gargon", [30])]


def test_the_timeline_replays_the_game_to_its_final_score(gargon):
    for action in RED_BATTLE:
        gargon.table.submit(action)
    gargon.table.undo()
    gargon.table.submit(RED_BATTLE[-1])
    gargon.table.end()
    record = gargon.store.game(gargon.table.snapshot()["game_id"])
    timeline = score_timeline(project(gargon.store, record))
    assert timeline.names == ("Ana", "Ben", "Carla") and timeline.steps == len(RED_BATTLE)  # the undo left out
    assert [row[-1] for row in timeline.totals] == [p["total"] for p in record.result["players"]]
    assert timeline.totals[1][0] == 0 and timeline.totals[1][-1] == 11


@pytest.mark.parametrize(("value", "top"), [(0, 1), (1, 1), (7, 10), (11, 20), (33, 50), (100, 100)])
def test_the_chart_axis_ends_on_a_round_number(value, top):
    assert nice_top(value) == top


def test_the_chart_draws_one_line_per_player_through_every_step():
    timeline = Timeline(("Ana", "Ben <3"), ((0, 3, 3, 9), (0, -2, 5, 5)))
    root = ET.fromstring(str(line_chart(timeline, "DP")))
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("data-player") for line in lines] == ["Ana", "Ben <3"]
    assert all(len(line.get("points").split()) == 4 for line in lines)
    ys = [float(p.split(",")[1]) for line in lines for p in line.get("points").split()]
    assert min(ys) >= 0 and max(ys) <= 210  # a negative total stays inside the chart
    assert root.find(f"{SVG}desc").text == "Ana ends on 9 DP; Ben <3 ends on 5 DP, after 3 events."


def test_every_house_rule_on_the_start_form_has_its_explanation():
    for game in GAMES:
        fields = option_fields(game)
        defaults = game_spec(game).options()
        assert fields and all(f.doc for f in fields), game
        assert {f.name: f.default for f in fields} == {f.name: getattr(defaults, f.name) for f in fields}
    runs_out = {f.name: f for f in option_fields("dugtungan")}["deck_runs_out"]
    assert runs_out.kind == "choice" and runs_out.choices == ("ask", "reshuffle", "score")


def test_every_game_says_how_it_is_won():
    assert set(goals()) == set(GAMES)
    words = page_words()["games"]
    assert words["dugtungan"]["lowest_wins"] and words["dugtungan"]["goal"].startswith("Lowest wins")
    assert not words["bagani"]["lowest_wins"]
    assert combo_name("bagani-ni-apo") == "Bagani ni Apo" and combo_name("limang-bagani") == "Limang Bagani"


def test_the_start_page_is_the_hosts_only(gargon):
    client = create_app(gargon, {"TESTING": True}).test_client()
    assert client.get("/host/start").status_code == 302
    client.get(f"/host?token={HOST_TOKEN}", follow_redirects=True)
    page = client.get("/host/start").get_data(as_text=True)
    assert 'id="gargon-open_won_cards"' in page and "won cards stay face up" in page


def test_history_shows_each_game_with_its_winner_and_the_records(client, gargon):
    for action in RED_BATTLE:
        gargon.table.submit(action)
    gargon.table.end()
    game_id = gargon.table.snapshot()["game_id"]
    history = client.get("/history").get_data(as_text=True)
    assert "Won by <strong>Ben</strong>" in history and 'table class="records" data-game="gargon"' in history
    page = client.get(f"/history/{game_id}").get_data(as_text=True)
    assert page.count("<polyline") == 3 and "app.bgstatsapp.com" in page


def test_history_draws_the_charts_of_the_newest_games_only(client, gargon):
    for _ in range(CHARTED_GAMES + 1):
        gargon.table.start_game("gargon", ["Ana", "Ben", "Carla"])
        for action in RED_BATTLE:
            gargon.table.submit(action)
        gargon.table.end()
    history = client.get("/history").get_data(as_text=True)
    assert history.count('<svg class="chart"') == CHARTED_GAMES
    assert len(set(re.findall(r'id="(chart-\d+-title)"', history))) == CHARTED_GAMES  # ids stay unique
