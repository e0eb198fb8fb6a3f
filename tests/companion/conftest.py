"""Fixtures for the live table: a temporary store, the wired services, the web app."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Iterator

import pytest

from companion.config import Settings
from companion.server import build_services, close_services
from companion.web import Services, create_app

HOST_TOKEN = "host-secret"
PLAYERS = ["Ana", "Ben", "Carla"]


def table_settings(tmp_path: Path, **changes: object) -> Settings:
    return dataclasses.replace(Settings(), data_dir=str(tmp_path), speech=False, host_token=HOST_TOKEN,
                               **changes)


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    made = build_services(table_settings(tmp_path), tmp_path / "games.db", "http://192.0.2.1:8000")
    yield made
    close_services(made)


@pytest.fixture
def gargon(services: Services) -> Services:
    """A Gargon game at the deal: Ana starts, ten cards each, piles of 6 and 6."""
    services.table.start_game("gargon", PLAYERS, setup={"piles": [6, 6]})
    return services


@pytest.fixture
def client(gargon: Services):
    app = create_app(gargon, {"TESTING": True})
    return app.test_client()
