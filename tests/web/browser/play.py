"""What a player does in the browser, step by step, for the browser tests (no test logic here)."""

from __future__ import annotations

import json
import re
import secrets
import time
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

# a short house rule (2 turns each) so whole games stay quick; the bots play it like any rules.
# A Generala servida does not end it, so a test's turns go as planned.
SHORT_PROFILE = """base = "generala"
name = "generala-corta"
rounds = 2
[box.generala]
instant_win = false
"""
# Generala whose servida is scored and play goes on: no game ends on a lucky first throw
NO_SUDDEN_END = "generala-sin-gana"


def http_json(url: str, body: object | None = None, token: str | None = None) -> Any:
    """GET (or POST a JSON body to) the server, as the browser holding ``token`` if given; the parsed answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data else {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def create_table(
    base: str,
    seats: list[dict[str, str]],
    *,
    rules: str | None = None,
    profile: str | None = None,
    coach: bool = False,
    timer: int | None = None,
) -> str:
    """A new table through the HTTP API; its id."""
    body: dict[str, Any] = {"seats": seats, "coach": coach, "timer": timer}
    if profile is not None:
        body["profile"] = profile
    else:
        body["rules"] = rules or "generala"
    made = http_json(f"{base}/api/tables", body)
    return str(made["id"])


def table_state(base: str, table_id: str) -> dict[str, Any]:
    """``GET /api/tables/<id>``: table info and state."""
    return http_json(f"{base}/api/tables/{table_id}")  # type: ignore[no-any-return]


def wait_solved(base: str, table_id: str, timeout: float = 600.0) -> None:
    """Wait until the table's rules are solved (its state stops saying "solving"): the session's server solves
    each rule set the first time a table asks, and a hint asked meanwhile is the labelled approximation (a test
    that needs the exact advice may run first in a shuffled run)."""
    deadline = time.monotonic() + timeout
    while table_state(base, table_id)["state"]["solving"] is not None:
        assert time.monotonic() < deadline, f"table {table_id}: its rules were not solved in {timeout:.0f} s"
        time.sleep(0.2)


def open_table(page: Page, base: str, table_id: str) -> None:
    """Open a table's link and wait until the first state is shown."""
    page.goto(f"{base}/t/{table_id}")
    expect(page.get_by_test_id("sheet")).to_be_visible()


def sit(page: Page, seat: int, name: str) -> None:
    """Take an empty seat with a name and wait until the page shows it as ours."""
    page.get_by_test_id(f"seat-name-input-{seat}").fill(name)
    page.get_by_test_id(f"sit-{seat}").click()
    expect(page.get_by_test_id(f"col-{seat}")).to_contain_text(name)
    expect(page.get_by_test_id(f"col-{seat}")).to_have_class(re.compile(r"\byou\b"))


def wait_my_turn_or_end(page: Page) -> bool:
    """Wait until the Roll button is enabled (our turn) or the game is over; True if it is our turn."""
    page.wait_for_function(
        """() => {
            const roll = document.querySelector('[data-testid=roll]');
            return document.querySelector('[data-testid=result]') || (roll && !roll.disabled);
        }""",
        timeout=180_000,  # a bot's turn on a loaded 2-core machine (a cold first run) passed 60 s at load 12
    )
    return page.get_by_test_id("result").count() == 0


def roll(page: Page) -> list[int]:
    """Press Roll and wait for the new throw; the faces on the table."""
    before = page.get_by_test_id("status").text_content()
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("status")).not_to_have_text(before or "")
    return dice(page)


def dice(page: Page) -> list[int]:
    """The faces shown, by position (0 for a die not thrown yet)."""
    return [int(f) for f in page.eval_on_selector_all("[data-testid^=die-]", "els => els.map(e => e.dataset.face)")]


def options(page: Page) -> dict[str, int]:
    """The slots the current player may write now and their points, from the clickable cells."""
    pairs = page.eval_on_selector_all(
        "button[data-testid^=slot-]", "els => els.map(e => [e.dataset.testid.slice(5), Number(e.textContent)])"
    )
    return {slot: points for slot, points in pairs}


def write_best(page: Page) -> tuple[str, int]:
    """Write the dice in the slot that pays most now (confirming a scratch); the slot and points."""
    page.locator("button[data-testid^=slot-]").first.wait_for()
    choices = options(page)
    slot, points = max(choices.items(), key=lambda kv: kv[1])
    page.get_by_test_id(f"slot-{slot}").click()
    if points == 0:
        page.get_by_test_id("confirm-yes").click()
    return slot, points


def play_turn(page: Page) -> tuple[str, int] | None:
    """One whole turn: throw once, then write the best slot (None if the throw ended the game or,
    in a tie-break round, after standing on the hand)."""
    roll(page)
    page.wait_for_function(
        """() => document.querySelector('button[data-testid^=slot-]')
                 || document.querySelector('[data-testid=result]')
                 || document.querySelector('[data-testid=stand]:not([disabled])')"""
    )
    if page.get_by_test_id("result").count():
        return None  # a Generala servida wins at once
    if page.get_by_test_id("stand").count():
        page.get_by_test_id("stand").click()
        return None
    return write_best(page)


def play_to_end(page: Page, limit: int = 60) -> int:
    """Play every turn of ours until the result shows; how many boxes we wrote."""
    written = turns = 0
    while wait_my_turn_or_end(page):
        written += play_turn(page) is not None
        turns += 1
        assert turns <= limit, "the game did not end"
    return written


def boxes(page: Page, testids: list[str]) -> dict[str, dict[str, float] | None]:
    """Each element's box (x, y, width, height), all measured in one evaluation: a re-render between
    finding an element and measuring it (a state frame arriving) would otherwise detach it."""
    found: list[dict[str, float] | None] = page.evaluate(
        """(ids) => ids.map((id) => {
            const e = document.querySelector(`[data-testid="${id}"]`);
            if (!e || !e.getClientRects().length) return null;
            const r = e.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
        })""",
        testids,
    )
    return dict(zip(testids, found, strict=True))


def bot_tournament(base: str, bots: int = 3) -> str:
    """A knock-out of random bots made and started through the HTTP API, played to its end; its id."""
    organiser = secrets.token_hex(16)
    made = http_json(f"{base}/api/tournaments", {"name": "Copa de bots", "rules": "generala", "format": "knockout"},
                     organiser)
    tid = str(made["id"])
    http_json(f"{base}/api/tournaments/{tid}/bots", {"level": "random", "count": bots}, organiser)
    http_json(f"{base}/api/tournaments/{tid}/start", {}, organiser)
    end = time.monotonic() + 180  # a bound for a loaded machine: the bots play at once
    while http_json(f"{base}/api/tournaments/{tid}")["status"] != "finished":
        assert time.monotonic() < end, "the bots' tournament did not finish"
        time.sleep(0.1)
    return tid
