"""A host's taps on the event forms of the host page: select, tap a card, tap +, never type.

`enter(page, action)` fills the form of `action["kind"]` field by field from the game's
event schema (the same `/api/schema` the page draws it from) and sends it; `fill_form`
only fills, for a correction already open in the form.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from playwright.sync_api import Locator, Page


def schema_of(page: Page) -> dict[str, Any]:
    return page.evaluate("async () => (await fetch('/api/schema')).json()")


def pick(page: Page, code: Any) -> None:
    """Tap a card in the open picker (scrolling it into view, as a thumb would); a card the
    list does not hold (a deck's own Halimaw) is typed into the search and added."""
    listed = page.locator(f"#picker-list button[data-code={json.dumps(str(code))}]")
    if not listed.count():
        page.locator("#picker-search").fill(str(code))
        listed = page.locator(f"#picker-list button[data-new={json.dumps(str(code))}]")
    listed.click()


def _field(box: Locator, key: str) -> Locator:
    return box.locator(f":scope > .field[data-key={json.dumps(key)}]")


def _clear(box: Locator, selector: str) -> None:
    while box.locator(selector).count():
        box.locator(selector).first.click()


def fill(page: Page, box: Locator, field: Mapping[str, Any], value: Any) -> None:
    kind = field["type"]
    if kind == "seat":
        box.locator("select").select_option(str(value))
    elif kind == "choice":
        values = [o["value"] for o in field["options"]]
        box.locator("select").select_option("" if value is None else str(values.index(value)))
    elif kind == "card":
        button = box.locator(":scope > button.card-pick")
        if value is None:
            if button.get_attribute("data-code"):
                button.click()
                page.locator("#picker-none").click()
        elif button.get_attribute("data-code") != str(value):
            button.click()
            pick(page, value)
    elif kind == "cards":
        _clear(box, ":scope > ul.picked button.chip")
        for code in value or []:
            box.locator(":scope > button.add").click()
            pick(page, code["name"] if isinstance(code, Mapping) else code)  # a card with its facts
    elif kind in ("groups", "records"):
        _clear(box, ":scope > .group-list > .group > button.small")
        item = ({"type": "cards", "list": field["list"]} if kind == "groups"
                else {"type": "record", "fields": field["fields"]})
        for part in value or []:
            box.locator(":scope > button.add").click()
            fill(page, box.locator(":scope > .group-list > .group").last.locator(":scope > .field"), item, part)
    elif kind == "per_seat":
        for seat, hand in enumerate(value or []):
            fill(page, box.locator(":scope > .field").nth(seat), {"type": "cards", "list": field["list"]}, hand)
    elif kind == "record":
        parts = {"name": value} if isinstance(value, str) else dict(value or {})
        for sub in field["fields"]:
            if sub["key"] in parts and (sub["key"] == "name" or parts[sub["key"]] is not None):
                fill(page, _field(box, sub["key"]), sub, parts[sub["key"]])
    elif kind == "number":
        entry = box.locator("input")
        for _ in range(field["max"] - field["min"] + 2):
            now = entry.input_value()
            if now != "" and int(now) == value:
                break
            step = "+" if now == "" or int(now) < value else "−"
            box.locator(f"button.step:text-is('{step}')").click()
        assert int(entry.input_value()) == value
    elif kind == "multi":
        boxes = box.locator("input[type=checkbox]")
        for i, option in enumerate(field["options"]):
            boxes.nth(i).set_checked(option["value"] in (value or []))
    elif kind == "bool":
        box.locator("input[type=checkbox]").set_checked(bool(value))
    else:
        raise AssertionError(f"no taps for a {kind} field")


def fill_form(page: Page, schema: Mapping[str, Any], action: Mapping[str, Any]) -> None:
    spec = next(e for e in schema["events"] if e["kind"] == action["kind"])
    form = page.locator("#event-form")
    for field in spec["fields"]:
        fill(page, _field(form, field["key"]), field, action.get(field["key"]))


def send(page: Page, path: str = "action") -> None:
    """Send the form; fails unless the server accepted it. The next taps may follow at
    once: the pushes the event makes never rebuild a form the host has started."""
    with page.expect_response(f"**/api/host/{path}") as answer:
        page.locator("#send-action").click()
    assert answer.value.status == 200, page.locator("#host-error").inner_text()


def enter(page: Page, schema: Mapping[str, Any], action: Mapping[str, Any]) -> None:
    """Choose the event's kind, fill its form with taps, send it."""
    page.locator("#event-kind").select_option(action["kind"])
    fill_form(page, schema, action)
    send(page)
