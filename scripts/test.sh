#!/usr/bin/env bash
# The README's test command: sets up everything the tests need, lints (ruff) and type-checks
# (mypy; both configured in pyproject.toml), then runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
.venv/bin/ruff check --quiet .
.venv/bin/mypy
exec .venv/bin/python -m pytest -q "$@"
