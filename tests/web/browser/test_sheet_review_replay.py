"""A finished real-dice sheet on a phone (web/static/realdice.js, replay.js): the end screen shows the coach's
review of what was typed (the dice, the throw the player stopped on, the box) and links to the replay, which
steps through the typed entries only (no invented earlier throws) and says the dice were typed at the table."""

from __future__ import annotations

import json
import re
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.test_real_dice_pages import PHONE, _enter, _tap
from tests.web.servers import LiveServer

SOLVE_DEADLINE = 900.0  # a bound for the server's first solve of Generala, never a speed check


def _ask(url: str, body: object | None = None, token: str = "") -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, None


def _server_has_the_coach(base: str) -> None:
    """A servida Generala typed through the API, its review asked until the server has solved Generala (each ask
    waits on the solve): the page's own review is then answered at once."""
    token = secrets.token_hex(16)
    _status, made = _ask(f"{base}/api/sheets", {"rules": "generala", "players": ["A", "B"]}, token)
    version = 0
    for step in ({"kind": "start", "dice": [6]}, {"kind": "start", "dice": [1]},
                 {"kind": "enter", "dice": [3] * 5, "throw": 1, "slot": "generala"}):
        status, state = _ask(f"{base}/api/sheets/{made['id']}/steps", {"version": version, **step}, token)
        assert status == 200
        version = state["version"]
    deadline = time.monotonic() + SOLVE_DEADLINE
    while (status := _ask(f"{base}/api/sheets/{made['id']}/review")[0]) == 503 and time.monotonic() < deadline:
        pass
    assert status == 200


def _dice(page: Page) -> list[int]:
    return [int(d.get_attribute("data-face") or 0) for d in page.locator("[data-testid^=replay-die-]").all()]


def test_a_finished_sheet_shows_its_review_and_replays_only_the_typed_dice(web: LiveServer, new_page: NewPage) -> None:
    _server_has_the_coach(web.url)
    ana = new_page(locale="en-US", viewport=PHONE)
    ana.goto(f"{web.url}/sheet")
    ana.get_by_test_id("sheet-player-0").fill("Ana")
    ana.get_by_test_id("sheet-player-1").fill("Beto")
    ana.get_by_test_id("sheet-create").click()
    expect(ana).to_have_url(re.compile(r"/sheet/[a-z0-9]{8}$"))
    sheet = ana.url.rsplit("/", 1)[1]
    _tap(ana, [6])
    ana.get_by_test_id("start-submit").click()
    expect(ana.get_by_test_id("sheet-status")).to_contain_text("Beto")
    _tap(ana, [1])
    ana.get_by_test_id("start-submit").click()  # Ana's higher die: she starts
    expect(ana.get_by_test_id("sheet-status")).to_contain_text("Ana")
    _enter(ana, [1, 2, 3, 4, 5], 1, "1", 1)  # Ana: a servida escalera written in Unos (Escalera is open)
    _enter(ana, [2, 2, 3, 3, 3], 2, "full", 30)  # Beto
    _tap(ana, [4, 4, 4, 4, 4])
    ana.get_by_test_id("throw-1").click()
    ana.get_by_test_id("box-generala").click()  # Ana: a servida Generala wins at once
    expect(ana.get_by_test_id("sheet-status")).to_have_text("Ana won at once!")

    review = ana.get_by_test_id("sheet-review")
    expect(review).to_contain_text("Ana: ")
    expect(review).to_contain_text("Beto: ")
    worst = ana.get_by_test_id("sheet-worst-0")
    expect(worst).to_contain_text("1 2 3 4 5 on throw 1")  # the typed dice and the throw Ana stopped on
    expect(worst).to_contain_text("played: score Unos (1); best: score Escalera (25)")
    assert ana.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]

    ana.get_by_test_id("sheet-replay").click()
    expect(ana).to_have_url(re.compile(rf"/replay/{sheet}\?sheet=1$"))
    expect(ana.get_by_test_id("replay-real-dice")).to_contain_text("typed at the table")
    expect(ana.get_by_test_id("verify-result")).to_have_count(0)  # no seed: nothing to verify
    ana.get_by_test_id("replay-first").click()
    expect(ana.get_by_test_id("replay-step")).to_have_text("Step 0 of 3")  # three entries typed, nothing invented
    shown = [
        ("Ana: 1 2 3 4 5 on throw 1", "wrote Unos = 1", [1, 2, 3, 4, 5]),
        ("Beto: 2 2 3 3 3 on throw 2", "wrote Full = 30", [2, 2, 3, 3, 3]),
        ("Ana: 4 4 4 4 4 on throw 1", "Ana won at once!", [4, 4, 4, 4, 4]),
    ]
    for n, (typed, written, dice) in enumerate(shown, 1):
        ana.get_by_test_id("replay-next").click()
        expect(ana.get_by_test_id("replay-step")).to_have_text(f"Step {n} of 3")
        expect(ana.get_by_test_id("replay-action")).to_contain_text(typed)
        expect(ana.get_by_test_id("replay-action")).to_contain_text(written)
        assert _dice(ana) == dice
    expect(ana.get_by_test_id("result")).to_contain_text("Ana")
    expect(ana.get_by_test_id("review")).to_contain_text("Beto: ")

    # the games list opens the sheet where the players left it, with its replay beside it
    ana.goto(f"{web.url}/games")
    card = ana.get_by_test_id(f"game-{sheet}")
    expect(card.get_by_role("link", name="See the sheet")).to_have_attribute("href", f"/sheet/{sheet}")
    card.get_by_role("link", name="Replay").click()
    expect(ana).to_have_url(re.compile(rf"/replay/{sheet}\?sheet=1$"))
    expect(ana.get_by_test_id("replay-step")).to_have_text("Step 3 of 3")
