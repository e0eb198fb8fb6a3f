"""Settings: defaults in code, a TOML file over them, COMPANION_* variables over that.

One typed object with a description and bounds on every field, so `companion config
check` can name the file, key, value and problem of any mistake before the table starts.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from companion.speech import DEFAULT_VOICE, VOICES
from rules.registry import game_names

ENV_PREFIX = "COMPANION_"
GAMES = game_names()
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
CAMERA_SIZE = (1280, 720)  # asked of a camera by default: the frames recognition is measured on


def _setting(default: Any, doc: str, *, low: float | None = None, high: float | None = None,
             choices: tuple[str, ...] | None = None, shortest: int = 0) -> Any:
    return field(default=default, metadata={"doc": doc, "low": low, "high": high, "choices": choices,
                                            "shortest": shortest})


@dataclass(frozen=True)
class Settings:
    host: str = _setting("0.0.0.0", "address the web app listens on; all interfaces so phones can reach it")
    port: int = _setting(8000, "port of the scoreboard web app", low=1, high=65535)
    data_dir: str = _setting("~/.local/share/table-companion",
                             "where the game database and enrolled decks live")
    game: str = _setting("bagani", "game played when none is named", choices=GAMES)
    camera: str = _setting("auto", "camera source: auto, a webcam index, a device path, a stream URL, "
                                   "a video file or an image folder")
    camera_width: int = _setting(CAMERA_SIZE[0], "frame width asked of a webcam or the Pi camera (left alone, most webcams "
                                       "send 640x480, where small cards are named less often)", low=320, high=3840)
    camera_height: int = _setting(CAMERA_SIZE[1], "frame height asked of a webcam or the Pi camera", low=240, high=2160)
    deck: str = _setting("", "enrolled deck profile the camera identifies cards with (companion enroll --out)")
    zones_file: str = _setting("", "seat zones saved by companion markers --calibrate; empty: seats spread "
                                   "evenly around the frame")
    confidence: float = _setting(0.8, "readings below this become a question for the host", low=0.0, high=1.0)
    speech: bool = _setting(True, "speak prompts aloud (falls back to text when there is no audio)")
    speech_rate: int = _setting(165, "speaking rate in words per minute", low=80, high=400)
    speech_voice: str = _setting(DEFAULT_VOICE, "espeak-ng voice that speaks the prompts", choices=VOICES)
    threads: int = _setting(1, "CPU threads for vision models (a Pi 4 has 4 cores)", low=1, high=16)
    host_token: str = _setting("", "the host's token for the host page; empty: a random one kept in the data "
                                   "folder (host-token), rotated from the host page", shortest=6)
    web_threads: int = _setting(8, "threads for page and API requests; phones' live streams take none",
                                low=2, high=64)
    log_level: str = _setting("INFO", "logging threshold on stderr", choices=LOG_LEVELS)

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()

    @property
    def camera_size(self) -> tuple[int, int]:
        return self.camera_width, self.camera_height


class ConfigError(Exception):
    """Every problem found in the settings sources, one `source: key = value: problem` each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def settings_fields() -> list[dataclasses.Field]:
    return list(dataclasses.fields(Settings))


def _convert(f: dataclasses.Field, raw: Any, from_env: bool) -> Any:
    """`raw` as the field's type, or ValueError with the problem."""
    kind = f.type if isinstance(f.type, type) else {"str": str, "int": int, "float": float,
                                                    "bool": bool}[str(f.type)]
    if from_env:
        if kind is bool:
            lowered = raw.strip().lower()
            if lowered not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError("must be true or false")
            value: Any = lowered in ("1", "true", "yes", "on")
        elif kind in (int, float):
            try:
                value = kind(raw)
            except ValueError:
                raise ValueError(f"must be {'an integer' if kind is int else 'a number'}") from None
        else:
            value = raw
    else:
        value = raw
        if kind is float and isinstance(raw, int) and not isinstance(raw, bool):
            value = float(raw)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise ValueError(f"must be {kind.__name__}, got {type(raw).__name__}")
    meta = f.metadata
    if isinstance(value, str) and value and len(value) < meta["shortest"]:
        raise ValueError(f"must be empty or at least {meta['shortest']} characters")
    if meta["low"] is not None and value < meta["low"]:
        raise ValueError(f"must be at least {meta['low']}")
    if meta["high"] is not None and value > meta["high"]:
        raise ValueError(f"must be at most {meta['high']}")
    if meta["choices"] is not None:
        if kind is str and f.name == "log_level":
            value = value.upper()
        if value not in meta["choices"]:
            raise ValueError(f"must be one of {', '.join(meta['choices'])}")
    return value


def default_config_path(env: Mapping[str, str]) -> Path:
    explicit = env.get(f"{ENV_PREFIX}CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    base = Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "table-companion" / "config.toml"


def load_settings(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings from defaults, the TOML file and the environment; ConfigError lists all problems.

    An explicit `path` must exist; the default path is optional.
    """
    env = os.environ if env is None else env
    config_path = Path(path).expanduser() if path else default_config_path(env)
    problems: list[str] = []
    values: dict[str, Any] = {}
    by_name = {f.name: f for f in settings_fields()}

    table: dict[str, Any] = {}
    if config_path.exists():
        try:
            table = tomllib.loads(config_path.read_text("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            problems.append(f"{config_path}: not valid TOML: {exc}")
        except OSError as exc:
            problems.append(f"{config_path}: cannot read: {exc}")
    elif path:
        problems.append(f"{config_path}: no such file")
    for key, raw in table.items():
        if key not in by_name:
            problems.append(f"{config_path}: {key} = {raw!r}: unknown setting")
            continue
        try:
            values[key] = _convert(by_name[key], raw, from_env=False)
        except ValueError as exc:
            problems.append(f"{config_path}: {key} = {raw!r}: {exc}")

    for name, f in by_name.items():
        var = f"{ENV_PREFIX}{name.upper()}"
        if var in env:
            try:
                values[name] = _convert(f, env[var], from_env=True)
            except ValueError as exc:
                problems.append(f"environment: {var} = {env[var]!r}: {exc}")
    if problems:
        raise ConfigError(problems)
    return Settings(**values)
