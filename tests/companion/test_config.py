"""Settings: defaults, then the TOML file, then COMPANION_* variables; every mistake named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import ConfigError, Settings, load_settings


def test_defaults_apply_without_a_file(tmp_path: Path) -> None:
    settings = load_settings(env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert settings == Settings()
    assert settings.port == 8000


def test_file_overrides_defaults_and_environment_overrides_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('port = 9000\ngame = "gargon"\nconfidence = 1\n')
    settings = load_settings(config, env={"COMPANION_PORT": "9100", "COMPANION_SPEECH": "off"})
    assert (settings.port, settings.game, settings.confidence, settings.speech) == (9100, "gargon", 1.0, False)


def test_every_problem_is_reported_with_source_key_and_value(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('port = 70000\ncolour = "red"\ngame = "chess"\nspeech = "yes"\n')
    with pytest.raises(ConfigError) as caught:
        load_settings(config, env={"COMPANION_THREADS": "many"})
    problems = "\n".join(caught.value.problems)
    assert f"{config}: port = 70000: must be at most 65535" in problems
    assert "colour = 'red': unknown setting" in problems
    assert "game = 'chess': must be one of" in problems
    assert "speech = 'yes': must be bool" in problems
    assert "environment: COMPANION_THREADS = 'many': must be an integer" in problems


def test_broken_toml_is_named(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("port = = 1\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(config, env={})


def test_an_explicit_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_settings(tmp_path / "absent.toml", env={})


def test_config_check_command_exits_2_on_a_bad_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("port = 0\n")
    result = subprocess.run([sys.executable, "-m", "companion.cli", "--config", str(config), "config", "check"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"{config}: port = 0: must be at least 1"
