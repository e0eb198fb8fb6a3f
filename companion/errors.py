"""The one way a command reports bad input: file, field, problem, exit status 2."""

from __future__ import annotations


class UsageError(Exception):
    """Bad input to a command. `main` prints it as one line and exits with status 2."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        parts = [p for p in (source, field, problem) if p]
        super().__init__(": ".join(parts))
        self.source = source
        self.field = field
        self.problem = problem
