"""Every page on a phone (360x740 and 390x844) in es, pt and en: nothing wider than the screen, and what a
player needs where a thumb reaches it (issue 25, web item 2): the five dice on one row even with the
Portuguese "GUARDADO" labels, the boards' Best column on screen, the score sheet not pushed down by open
hints, the coach's "score ..." a real button of at least 44x44 CSS px, the end screen's scores on the first
screen, and the replay's sheet next to its stepper.

One server and one finished game of two people (ranked, so the leaderboard and a player's page have rows)
serve every language; each language loads its pages in one browser context, at both sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    NO_SUDDEN_END,
    bot_tournament,
    boxes,
    create_table,
    http_json,
    open_table,
    roll,
    sit,
    wait_my_turn_or_end,
)
from tests.web.servers import LiveServer
from tests.web.test_crash import RULES, Match

PHONES = [(360, 740), (390, 844)]
LOCALES = {"es": "es-AR", "pt": "pt-BR", "en": "en-US"}

# Every visible element past the right edge, except what a scrolling (or clipping) box holds: the box
# itself is measured, and its inside is scrolled by the player, not cut off the page.
OVERFLOW_JS = """() => {
    const width = window.innerWidth;
    const wide = [];
    for (const e of document.body.querySelectorAll('*')) {
        const r = e.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
        let inside = false;
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
            if (getComputedStyle(a).overflowX !== 'visible') { inside = true; break; }
        }
        if (!inside && r.right > width + 0.5) {
            const id = e.dataset.testid ? `[${e.dataset.testid}]` : '';
            wide.push(`${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className}${id} right=${r.right}`);
        }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
}"""


def assert_fits(page: Page, what: str) -> None:
    """No element wider than the viewport, and the page does not scroll sideways."""
    found: dict[str, Any] = page.evaluate(OVERFLOW_JS)
    assert found["scrollWidth"] <= found["width"], (what, found)
    assert not found["wide"], (what, found)


def assert_checkboxes_whole(page: Page, what: str) -> None:
    """Every labelled checkbox keeps its 22x22 box: a label of two lines once squeezed two of them to 13 px wide."""
    shown = "els => els.filter(e => e.offsetParent).map(e => [e.dataset.testid, e.getBoundingClientRect().width])"
    sizes = page.eval_on_selector_all(".check input", shown)
    assert all(width >= 21.5 for _, width in sizes), (what, sizes)


def in_first_screen(page: Page, testid: str) -> bool:
    """The element's box lies wholly inside the viewport with the page scrolled to the top."""
    return bool(
        page.evaluate(
            """(id) => {
            window.scrollTo(0, 0);
            const e = document.querySelector(`[data-testid="${id}"]`);
            if (!e) return false;
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
        }""",
            testid,
        )
    )


@pytest.fixture(scope="module")
def ranked_game(web: LiveServer) -> dict[str, str]:
    """A finished game of two people (rated): its table id and one player's public id."""
    match = Match(web)
    match.sit()
    while match.state["status"] != "finished":
        match.step()
    pid = str(match.state["seats"][0]["pid"])
    match.drop()
    return {"table": match.table, "pid": pid}


def toggle_all(page: Page, held: bool) -> None:
    """Click each of the five dice; each ends held (or let go)."""
    for i in range(5):
        page.get_by_test_id(f"die-{i}").click()
        expect(page.get_by_test_id(f"die-{i}")).to_have_attribute("aria-pressed", "true" if held else "false")


def check_dice_in_one_row(page: Page, what: str) -> None:
    dice = boxes(page, [f"die-{i}" for i in range(5)])
    tops = {round(box["y"]) for box in dice.values() if box is not None}
    assert len(tops) == 1 and None not in dice.values(), (what, "the five dice are not on one row", dice)
    cut = page.eval_on_selector_all(".die .held-label", "els => els.filter(e => e.scrollWidth > e.clientWidth).length")
    assert cut == 0, (what, "a held label is cut short")


def check_table_in_play(page: Page, web: LiveServer, code: str) -> None:
    """A seated player's turn: five held dice on one row; after the last throw, the coach's hints open, the
    sheet still on the first screen and the best advice a button a finger can press."""
    table_id = create_table(
        web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], rules=NO_SUDDEN_END, coach=True
    )
    open_table(page, web.url, table_id)
    sit(page, 0, "Teléfono")
    assert wait_my_turn_or_end(page)
    roll(page)
    toggle_all(page, held=True)
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        what = f"{code} table {width}x{height}"
        assert_fits(page, what)
        check_dice_in_one_row(page, what)
    toggle_all(page, held=False)  # all five are thrown again
    roll(page)
    roll(page)  # the last throw: the coach's advice is where to score
    page.get_by_test_id("hint").click()
    best = page.get_by_test_id("advice-0").locator("button")
    expect(best).to_be_visible()
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        what = f"{code} hints {width}x{height}"
        assert_fits(page, what)
        assert in_first_screen(page, "col-0"), (
            what,
            "the sheet is pushed off the first screen",
            boxes(page, ["sheet", "hints"]),
        )
        tap = best.bounding_box()
        assert tap is not None and tap["width"] >= 44 and tap["height"] >= 44, (what, tap)
    # pressing the coach's advice writes it, as the sheet's own button would (a zero asks first)
    slot = best.get_attribute("data-slot")
    assert slot
    best.click()
    if page.get_by_test_id("confirm").count():
        page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id(f"cell-0-{slot}")).to_have_class(re.compile(r"\bwritten\b"))


@pytest.mark.parametrize("code", list(LOCALES))
def test_every_page_fits_a_phone(web: LiveServer, new_page: NewPage, ranked_game: dict[str, str], code: str) -> None:
    page = new_page(locale=LOCALES[code], viewport=PHONES[0])
    table_id, pid = ranked_game["table"], ranked_game["pid"]
    pages = [
        ("/", "seat-kind-0"),
        ("/games", f"game-{table_id}"),
        (f"/leaderboard?preset={RULES}", "board"),
        (f"/p/{pid}", "player-stats"),
        (f"/t/{table_id}", "result"),
        (f"/replay/{table_id}", "replay-step"),
        ("/tournaments", "tour-form"),
        ("/sheet", "sheet-create"),
        ("/clubs", "club-create"),
        (f"/tournaments/{bot_tournament(web.url)}", "tour-standings"),
    ]
    for path, ready in pages:
        page.goto(f"{web.url}{path}")
        expect(page.get_by_test_id(ready).first).to_be_visible()
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            what = f"{code} {path} {width}x{height}"
            assert_fits(page, what)
            assert_checkboxes_whole(page, what)
            if path.startswith("/t/"):  # the end screen: every player's score without scrolling
                for seat in range(2):
                    assert in_first_screen(page, f"result-total-{seat}"), (
                        what,
                        seat,
                        boxes(page, ["dice", "result-box"]),
                    )
            if path.startswith("/replay/"):  # the sheet right below the stepper, not past the review
                gap = page.evaluate("""() => {
                    const stepper = document.querySelector('.replay-felt').getBoundingClientRect();
                    const sheet = document.querySelector('[data-testid=sheet]').getBoundingClientRect();
                    return sheet.top - stepper.bottom;
                }""")
                assert gap < 120, (what, "the sheet is far below the stepper", gap)
    page.goto(f"{web.url}/")  # the house rules' fields (their box table scrolls inside its own frame)
    page.get_by_test_id("rules").select_option("__profile__")
    expect(page.get_by_test_id("house-on-doble")).to_be_visible()
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        assert_fits(page, f"{code} house rules {width}x{height}")
    check_table_in_play(page, web, code)


def test_the_boards_show_the_best_column(web: LiveServer, new_page: NewPage, ranked_game: dict[str, str]) -> None:
    # the leaderboard's and the player's Best column on screen (the issue measured it cut off at 390 px)
    rows = http_json(f"{web.url}/api/leaderboard?preset={RULES}")
    assert rows
    page = new_page(locale="pt-BR", viewport=PHONES[0])
    for path, board in ((f"/leaderboard?preset={RULES}", "board"), (f"/p/{ranked_game['pid']}", "player-stats")):
        page.goto(f"{web.url}{path}")
        best = page.get_by_test_id(board).locator("thead th").last
        expect(best).to_be_visible()
        box = best.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONES[0][0], (path, box)
