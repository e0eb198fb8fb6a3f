"""The host's token, kept in the data folder so the host's link survives a power cut.

A token set in the settings (`host_token`) wins and is never written; otherwise the
first start writes a random one to `host-token` beside the game database (readable by
the owner only), every later start reads it back, and the host page may rotate it when
a link has leaked.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from companion.errors import UsageError

TOKEN_FILE = "host-token"
SHORTEST = 6  # characters: with the login guard, enough to resist guessing at a table


def new_host_token() -> str:
    """A short token that is easy to type from the terminal and hard to guess."""
    return secrets.token_urlsafe(9)


def save_host_token(path: Path, token: str) -> None:
    """Write `token` to `path` whole or not at all, readable by the owner only."""
    part = path.with_name(path.name + ".new")
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(token + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)


def stored_host_token(path: Path) -> str:
    """The token kept at `path`, made and saved on the first start; UsageError if the file
    cannot be read or written, or holds a token too short to be safe."""
    try:
        if path.exists():
            token = path.read_text(encoding="utf-8").strip()
            if len(token) < SHORTEST:
                raise UsageError(str(path), "", f"the host token must be at least {SHORTEST} characters; "
                                 "delete the file for a new one")
            return token
        token = new_host_token()
        save_host_token(path, token)
        return token
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(str(path), "", f"cannot keep the host token: {exc}") from None
