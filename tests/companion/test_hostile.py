"""A hostile client on the table's network: odd inputs answer 4xx, never 500; guessing
the host token is slowed and logged; the host is answered throughout."""

from __future__ import annotations

import logging
import time

import pytest

from companion.web import create_app
from tests.companion.conftest import HOST_TOKEN
from tests.companion.test_web import host_session

BEARER = {"Authorization": f"Bearer {HOST_TOKEN}"}
ATTACKER = {"REMOTE_ADDR": "192.0.2.66"}


def test_api_errors_are_json_with_their_status(client):
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and "error" in missing.get_json()
    wrong_method = client.get("/api/host/undo", headers=BEARER)
    assert wrong_method.status_code == 405 and "error" in wrong_method.get_json()
    assert "POST" in wrong_method.headers["Allow"]
    huge = client.post("/api/host/rename", data=b"{" + b" " * 70000 + b"}", headers=BEARER,
                       content_type="application/json")
    assert huge.status_code == 413 and "error" in huge.get_json()


@pytest.mark.parametrize("body, problem", [
    (b'{"seat": 0, "name": "Anna"', "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b'{"seat": 0, "name": "\\ud800"}', "surrogate"),
    (b'{"seat": 0, "name": "' + b"x" * 500 + b'"}', "at most 40"),
    (b'{"seat": 0, "name": "Ana\\u0000"}', "control characters"),
    (b'{"seat": 0, "name": "Ana\\nWARNING companion: host logged out"}', "line breaks"),
    (b"[" * 20000 + b"]" * 20000, "nested too deeply"),
    (b'{"a":' * 10000 + b"1" + b"}" * 10000, "nested too deeply"),
    (b'["seat", 0]', "must be a JSON object"),
])
def test_bad_bodies_are_named_not_500(client, body, problem):
    response = client.post("/api/host/rename", data=body, headers=BEARER, content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)
    assert problem in response.get_json()["error"]
    assert client.get("/api/state").get_json()["players"][0]["name"] == "Ana"


def test_ids_beyond_any_integer_are_not_found(client):
    assert client.get("/history/99999999999999999999999").status_code == 404
    response = client.get("/api/games/99999999999999999999999/score.csv")
    assert response.status_code == 404 and "error" in response.get_json()


def test_a_csv_export_never_carries_a_spreadsheet_formula(client, gargon):
    csrf = host_session(client)
    for seat, name in enumerate(["=HYPERLINK(\"http://x\")", "+1+2", "@SUM(A1)"]):
        assert client.post("/api/host/rename", json={"seat": seat, "name": name},
                           headers={"X-CSRF-Token": csrf}).status_code == 200
    client.post("/api/host/end", headers={"X-CSRF-Token": csrf})
    rows = client.get("/api/games/1/score.csv").get_data(as_text=True).splitlines()[1:]
    assert [row.split(",")[1] for row in rows] == ["\"'=HYPERLINK(\"\"http://x\"\")\"", "'+1+2", "'@SUM(A1)"]


def test_every_answer_forbids_framing_sniffing_and_foreign_scripts(client):
    for path in ("/", "/host/login", "/api/state", "/api/nothing-here", "/static/board.js"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], path
        assert "unsafe-inline" not in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"


def test_non_ascii_tokens_are_refused_not_500(client):
    assert client.get("/host/login?token=%C3%B1").status_code == 403
    assert client.post("/api/host/undo", headers={"Authorization": "Bearer ñ".encode().decode("latin-1")}
                       ).status_code == 403


def test_a_non_ascii_host_token_logs_in(gargon):
    gargon.host_token = "mañana"
    client = create_app(gargon, {"TESTING": True}).test_client()
    assert client.get("/host/login?token=ma%C3%B1ana").status_code == 302
    assert client.post("/host/login", data={"token": "mañana"}).status_code == 302
    header = {"Authorization": "Bearer mañana".encode().decode("latin-1")}  # UTF-8 bytes on the wire
    assert client.post("/api/host/speech", json={}, headers=header).status_code == 200


@pytest.mark.slow
def test_ten_thousand_guesses_are_refused_slowed_and_logged_while_the_host_is_answered(client, caplog):
    csrf = host_session(client)
    guesser = create_app(client.application.extensions["companion"], {"TESTING": True}).test_client()
    guesser.application.extensions["companion-logins"] = client.application.extensions["companion-logins"]
    statuses: dict[int, int] = {}
    slowest_host = 0.0
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="companion.web.auth"):
        for guess in range(10_000):
            if guess % 2:
                response = guesser.post("/api/host/undo", headers={"Authorization": f"Bearer {guess:04d}"},
                                        environ_base=ATTACKER)
            else:
                response = guesser.get(f"/host/login?token={guess:04d}", environ_base=ATTACKER)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if guess % 500 == 0:
                begun = time.monotonic()
                answer = client.post("/api/host/rename", json={"seat": 0, "name": f"Ana {guess}"},
                                     headers={"X-CSRF-Token": csrf})
                slowest_host = max(slowest_host, time.monotonic() - begun)
                assert answer.status_code == 200
    assert set(statuses) <= {403, 429} and sum(statuses.values()) == 10_000
    checked = statuses.get(403, 0)
    assert checked <= 5 + time.monotonic() - started  # a few free, then one per doubling wait
    misses = [r.getMessage() for r in caplog.records if "wrong host token from 192.0.2.66" in r.getMessage()]
    assert len(misses) == checked and "refused for" in misses[-1]
    assert slowest_host < 1.0
    assert client.post("/api/host/undo", headers=BEARER).status_code in (200, 409)  # other clients unaffected


def test_after_five_wrong_tokens_a_client_waits_even_with_the_right_one(client, caplog):
    with caplog.at_level(logging.WARNING, logger="companion.web.auth"):
        answers = [client.get(f"/host/login?token=guess{i}", environ_base=ATTACKER).status_code for i in range(7)]
        waited = client.post("/api/host/undo", headers=BEARER, environ_base=ATTACKER)
    assert answers == [403] * 6 + [429]
    assert waited.status_code == 429 and int(waited.headers["Retry-After"]) >= 1
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "wrong host token from 192.0.2.66 (1 misses)"
    assert lines[-1] == "wrong host token from 192.0.2.66 (6 misses); refused for 1 s" and len(lines) == 6
    assert client.post("/api/host/undo", headers=BEARER).status_code in (200, 409)  # another client is not held up
