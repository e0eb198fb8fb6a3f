"""The host's token survives a restart, can be rotated from the host page, and is never too short."""

from __future__ import annotations

import dataclasses
import logging
import re
import stat

import pytest

from companion.config import ConfigError, load_settings
from companion.server import banner, build_services, close_services
from companion.web import create_app
from tests.companion.conftest import table_settings
from tests.companion.test_web import host_session


def kept_token_services(folder):
    return build_services(dataclasses.replace(table_settings(folder), host_token=""), folder / "games.db",
                          "http://192.0.2.1:8000")


def test_the_host_token_is_kept_in_the_data_folder_across_restarts(tmp_path):
    first = kept_token_services(tmp_path)
    token = first.host_token
    close_services(first)
    again = kept_token_services(tmp_path)
    try:
        assert again.host_token == token and len(token) >= 12
        assert (tmp_path / "host-token").read_text().strip() == token
        assert stat.S_IMODE((tmp_path / "host-token").stat().st_mode) == 0o600
        assert f"/host?token={token}" in banner(again)
    finally:
        close_services(again)


def test_the_host_rotates_the_token_and_every_older_link_and_session_dies(tmp_path, caplog):
    services = kept_token_services(tmp_path)
    try:
        old = services.host_token
        app = create_app(services, {"TESTING": True})
        rotating, other = app.test_client(), app.test_client()
        for client in (rotating, other):
            assert client.get(f"/host/login?token={old}").status_code == 302
        csrf = re.search(r'<meta id="csrf" content="([^"]+)">', rotating.get("/host").get_data(as_text=True)).group(1)
        with caplog.at_level(logging.WARNING, logger="companion.web.auth"):
            answer = rotating.post("/api/host/token", headers={"X-CSRF-Token": csrf}).get_json()
        new = answer["token"]
        assert new != old and answer["link"] == f"http://192.0.2.1:8000/host?token={new}"
        assert (tmp_path / "host-token").read_text().strip() == new
        assert any("host token rotated" in r.getMessage() for r in caplog.records)
        assert rotating.post("/api/host/speech", json={}, headers={"X-CSRF-Token": answer["csrf"]}).status_code == 200
        assert other.get("/host").status_code == 302  # logged out
        assert app.test_client().get(f"/host/login?token={old}").status_code == 403
        assert app.test_client().get(f"/host/login?token={new}").status_code == 302
    finally:
        close_services(services)


def test_a_token_set_in_the_settings_is_not_rotated_from_the_page(client):
    csrf = host_session(client)
    response = client.post("/api/host/token", headers={"X-CSRF-Token": csrf})
    assert response.status_code == 409 and "set in the settings" in response.get_json()["error"]


def test_a_host_token_shorter_than_six_characters_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="COMPANION_HOST_TOKEN = '1234': must be empty or at least 6"):
        load_settings(env={"COMPANION_HOST_TOKEN": "1234", "XDG_CONFIG_HOME": str(tmp_path)})
    assert load_settings(env={"COMPANION_HOST_TOKEN": "mañana", "XDG_CONFIG_HOME": str(tmp_path)}).host_token == "mañana"
