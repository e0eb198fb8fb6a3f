"""Logging to stderr, which systemd hands to journald on a Pi; no log files to rotate."""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str | int) -> None:
    """(Re)configure the root logger; app commands call it again with the settings' level."""
    logging.basicConfig(level=level, stream=sys.stderr, format=FORMAT, force=True)
