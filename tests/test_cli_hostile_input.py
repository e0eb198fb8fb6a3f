"""Requests that used to end in a traceback (exit 1) are one line and exit status 2.

Each request is text as a file would hold it: Python's `json` reads `NaN`, integers of
any length, nesting to the stack's end and lone surrogate escapes, so the command line
must refuse them itself.
"""

from __future__ import annotations

import json

import pytest

from test_cli import assert_one_line_error, companion

GARGON = '{"game": "gargon", "players": [{"name": "Ana", "won": %s}, {"name": "Ben", "won": []}, ' \
         '{"name": "Cy", "won": []}]%s}'


@pytest.mark.parametrize("text, fragments", [
    ('{"game": "gargon", "x": ' + "[" * 1200 + "]" * 1200 + "}", ("nested more than 64",)),
    ('{"game": "gargon", "x": ' + "[" * 80 + "]" * 80 + "}", ("x" + "[0]" * 64, "nested")),
    (GARGON % ("[]", ', "options": {"shared_win": ' + "9" * 5000 + "}"), ("5000 digits",)),
    (GARGON % ("[]", ', "options": {"shared_win": NaN}'), ("NaN is not a JSON number",)),
    (GARGON % ("[]", ', "options": {"shared_win": -Infinity}'), ("-Infinity",)),
    (GARGON % ("[]", ', "options": {"shared_win": 1e400}'), ("too large",)),
    ('{"game": "dugtungan", "check": "dugtong", "pamato": "BA", "word": ["BA", "SA"], '
     '"options": {"min_zipf": 1e308}}', ("options", "min_zipf must be between")),
    ('{"game": "gargon", "players": [{"name": "\\ud800", "won": []}]}',
     ("players[0].name", "lone surrogate")),
])
def test_hostile_json_is_one_line_and_exit_2(text: str, fragments: tuple[str, ...]) -> None:
    assert_one_line_error(companion("score", "-", stdin=text), "<stdin>", *fragments)


@pytest.mark.parametrize("code", ["red-\u00b2", "red-\u0663", "red-01", "red-+1", "red- 1", "red-1\n"])
def test_a_gargon_value_is_plain_ascii_digits_without_a_leading_zero(code: str) -> None:
    """The book: "Each colour: two 0s and one each of 1..15" (RULES-NOTES); codes are
    `red-14`, so a superscript two, an Arabic-Indic three or `01` is no card."""
    assert_one_line_error(companion("score", "-", stdin=GARGON % (json.dumps([code]), "")),
                          "players[0].won[0]", "unknown card code")
