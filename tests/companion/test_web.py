"""The web app: viewers read, only the host writes (phones' live stream: test_stream.py)."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

from companion.web import create_app
from tests.companion.conftest import HOST_TOKEN

PLAY = {"kind": "play", "player": 0, "colours": ["red"]}


def host_session(client):
    """Log in as the host the way a phone does (the link with the token); the page's CSRF token."""
    assert client.get(f"/host?token={HOST_TOKEN}", follow_redirects=True).status_code == 200
    page = client.get("/host").get_data(as_text=True)
    return re.search(r'<meta id="csrf" content="([^"]+)">', page).group(1)


def test_the_state_has_the_contract_fields(client):
    state = client.get("/api/state").get_json()
    assert {"game", "players", "winners", "prompt", "table"} <= set(state)
    assert [p["name"] for p in state["players"]] == ["Ana", "Ben", "Carla"]
    assert all({"name", "total", "breakdown"} <= set(p) for p in state["players"])
    assert state["winners"] == []


def test_a_viewer_cannot_write(client):
    for path in ("action", "undo", "end", "rename", "answer", "correct", "start", "speech"):
        response = client.post(f"/api/host/{path}", json={"action": PLAY})
        assert response.status_code == 403, path
    assert client.get("/api/state").get_json()["log"] == []


def test_a_wrong_token_does_not_open_the_host_page(client):
    assert client.get("/host/login?token=guess").status_code == 403
    assert client.get("/host").status_code == 302
    assert client.post("/api/host/undo", headers={"Authorization": "Bearer guess"}).status_code == 403


def test_the_host_session_needs_the_csrf_token_for_every_write(client):
    csrf = host_session(client)
    assert client.post("/api/host/action", json={"action": PLAY}).status_code == 403
    assert client.post("/api/host/action", json={"action": PLAY}, headers={"X-CSRF-Token": "forged"}).status_code == 403
    done = client.post("/api/host/action", json={"action": PLAY}, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 200
    assert done.get_json()["log"][0]["text"] == "Ana plays red face down"


def test_a_script_may_write_with_the_bearer_token(client):
    response = client.post("/api/host/action", json={"action": PLAY},
                           headers={"Authorization": f"Bearer {HOST_TOKEN}"})
    assert response.status_code == 200


def test_an_illegal_event_is_refused_with_the_reason(client):
    response = client.post("/api/host/action", json={"action": {**PLAY, "player": 1}},
                           headers={"Authorization": f"Bearer {HOST_TOKEN}"})
    assert response.status_code == 409
    assert response.get_json()["error"] == "It is Ana's turn, not Ben's."


def test_a_malformed_event_names_the_field(client):
    response = client.post("/api/host/action", json={"action": {"kind": "play", "player": 0, "colours": ["pink"]}},
                           headers={"Authorization": f"Bearer {HOST_TOKEN}"})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("colours[0]:")


def test_pages_are_served_with_their_own_assets(client):
    page = client.get("/").get_data(as_text=True)
    assert "http" not in re.sub(r'href="http[^"]*"', "", page).split("<main>")[0].replace("http-equiv", "")
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        assert client.get(asset).status_code == 200
    assert client.get("/qr.svg").mimetype == "image/svg+xml"


def test_the_host_page_shows_the_qr_code_of_the_lan_address(client):
    host_session(client)
    page = client.get("/host").get_data(as_text=True)
    assert "http://192.0.2.1:8000/" in page and "<svg" in page


def test_a_finished_game_exports_score_csv_and_bgstats(client, gargon):
    headers = {"Authorization": f"Bearer {HOST_TOKEN}"}
    client.post("/api/host/end", headers=headers)
    game_id = gargon.table.snapshot()["game_id"]
    score = client.get(f"/api/games/{game_id}/score.json").get_json()
    assert score["game"] == "gargon" and score["winners"] == ["Ana", "Ben", "Carla"]
    csv = client.get(f"/api/games/{game_id}/score.csv").get_data(as_text=True).splitlines()
    assert csv[0].startswith("game,name,total,winner") and csv[1].startswith("gargon,Ana,0,yes")
    bgstats = client.get(f"/api/games/{game_id}/bgstats.json").get_json()
    assert bgstats["link"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(unquote(bgstats["link"].split("data=", 1)[1]))
    assert play == bgstats["play"]
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
        ("Ana", 0, True), ("Ben", 0, True), ("Carla", 0, True)]
    history = client.get("/history").get_data(as_text=True)
    assert f"/history/{game_id}" in history
    assert client.get(f"/history/{game_id}").status_code == 200


def test_a_game_in_progress_has_no_export(client, gargon):
    assert client.get(f"/api/games/{gargon.table.snapshot()['game_id']}/score.json").status_code == 404


def test_the_host_starts_a_new_game_from_the_page(client):
    csrf = host_session(client)
    response = client.post("/api/host/start", json={"game": "gargon", "players": ["Dan", "Eve", "Fay"]},
                           headers={"X-CSRF-Token": csrf})
    assert response.status_code == 200
    assert [p["name"] for p in response.get_json()["players"]] == ["Dan", "Eve", "Fay"]


def test_mute_and_rate_are_the_hosts(client, gargon):
    headers = {"Authorization": f"Bearer {HOST_TOKEN}"}
    speech = client.post("/api/host/speech", json={"muted": True, "rate": 200}, headers=headers).get_json()["speech"]
    assert speech["muted"] is True and speech["rate"] == 200
    assert client.post("/api/host/speech", json={"rate": 20}, headers=headers).status_code == 400


def test_the_host_picks_the_voice_and_hears_the_last_prompt_again(client, gargon):
    headers = {"Authorization": f"Bearer {HOST_TOKEN}"}
    speech = client.post("/api/host/speech", json={"voice": "en-gb"}, headers=headers).get_json()["speech"]
    assert speech["voice"] == "en-gb" and gargon.speaker.voice == "en-gb"
    assert client.post("/api/host/speech", json={"voice": "klingon"}, headers=headers).status_code == 400
    gargon.table.bus.flush()
    said = gargon.speaker.last
    assert said is not None
    assert client.post("/api/host/say-again", headers=headers).status_code == 200
    assert gargon.speaker.last == said


def test_create_app_takes_config_over_the_defaults(gargon):
    app = create_app(gargon, {"TESTING": True, "MAX_CONTENT_LENGTH": 10})
    assert app.config["MAX_CONTENT_LENGTH"] == 10 and app.config["SESSION_COOKIE_SAMESITE"] == "Strict"


def test_the_host_may_type_the_token_instead_of_scanning_it(client):
    assert client.post("/host/login", data={"token": "wrong"}).status_code == 403
    response = client.post("/host/login", data={"token": f"  {HOST_TOKEN} "})
    assert response.status_code == 302 and response.headers["Location"].endswith("/host")
    assert 'id="csrf"' in client.get("/host").get_data(as_text=True)
