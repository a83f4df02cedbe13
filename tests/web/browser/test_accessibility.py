"""The site for screen readers and keyboards.

axe-core on every page of the site, in English and Spanish: no ``serious`` or ``critical`` violation; the
names of the dice and boxes and the live region's words; the table's and the replay's keys.

axe's JavaScript comes from the ``axe-playwright-python`` package (the ``test`` extra). The site's CSP
(``script-src 'self'``) blocks injected script tags, so the source is run through ``page.evaluate`` (a
DevTools evaluation, which the CSP does not apply to).
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    NO_SUDDEN_END,
    SHORT_PROFILE,
    bot_tournament,
    create_table,
    dice,
    http_json,
    open_table,
    options,
    play_to_end,
    roll,
    sit,
    table_state,
    wait_my_turn_or_end,
    write_best,
)
from tests.web.servers import LiveServer

BLOCKING = ("serious", "critical")


@cache
def axe_source() -> str:
    return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [v for v in found if v.get("impact") in BLOCKING]


def describe(where: str, violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{where}: {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:  # what axe measured on each element says what to change
            why = "; ".join(check["message"] for check in node["any"] + node["all"] + node["none"])
            lines.append(f"    {' '.join(node['target'])}: {why}")
    return "\n".join(lines)


@pytest.mark.parametrize("locale", ["en-US", "es-AR"])
def test_no_serious_violation_on_any_page(web: LiveServer, new_page: NewPage, locale: str) -> None:
    page = new_page(locale=locale)
    problems: list[str] = []

    def check(where: str) -> None:
        found = axe_violations(page)
        if found:
            problems.append(describe(where, found))

    page.goto(f"{web.url}/")
    expect(page.locator("main h1").first).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])  # a screen reader's voice follows it
    check("home")
    page.get_by_test_id("rules").select_option("__profile__")  # the house rules' fields
    expect(page.get_by_test_id("house-on-doble")).to_be_visible()
    check("home, house rules")

    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                            profile=SHORT_PROFILE, coach=True)  # fmt: skip
    open_table(page, web.url, table_id)
    sit(page, 0, "Axel")
    roll(page)
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("advice-0")).to_be_visible()
    page.keyboard.press("?")  # the keys' help open too
    expect(page.get_by_test_id("keys-help")).to_be_visible()
    check("table in play, hints open")

    play_to_end(page)
    expect(page.get_by_test_id("result")).to_be_visible()
    check("end screen")
    # the chances while new numbers are on their way (a moment the check once caught by chance): still readable
    page.evaluate("() => document.querySelector('[data-testid=chances]').classList.add('stale')")
    check("end screen, chances updating")
    pid = table_state(web.url, table_id)["state"]["seats"][0]["pid"]

    page.goto(f"{web.url}/games")
    expect(page.get_by_test_id(f"game-{table_id}")).to_be_visible()
    check("games")
    page.goto(f"{web.url}/leaderboard")
    expect(page.locator("main h1").first).to_be_visible()
    check("leaderboard")
    page.goto(f"{web.url}/p/{pid}")
    expect(page.get_by_test_id(f"game-{table_id}")).to_be_visible()
    check("player")
    page.goto(f"{web.url}/replay/{table_id}")
    expect(page.get_by_test_id("replay-step")).to_be_visible()
    check("replay")
    page.goto(f"{web.url}/lobby")
    expect(page.locator("main h1").first).to_be_visible()
    check("lobby")
    page.goto(f"{web.url}/daily")
    expect(page.locator("main h1").first).to_be_visible()
    check("daily")
    page.goto(f"{web.url}/tournaments")
    expect(page.get_by_test_id("tour-form")).to_be_visible()
    check("tournaments")
    page.goto(f"{web.url}/tournaments/{bot_tournament(web.url)}")
    expect(page.get_by_test_id("tour-standings")).to_be_visible()
    check("a finished tournament")
    page.goto(f"{web.url}/sheet")
    page.get_by_test_id("sheet-player-0").fill("Ana")
    page.get_by_test_id("sheet-player-1").fill("Beto")
    page.get_by_test_id("sheet-create").click()
    expect(page.get_by_test_id("pad-1")).to_be_visible()
    check("a sheet for real dice")
    page.goto(f"{web.url}/clubs")
    page.get_by_test_id("club-name").fill("Club")
    page.get_by_test_id("club-create").click()
    expect(page.get_by_test_id("club-organiser")).to_be_visible()
    check("a club, as its organiser")

    assert not problems, "axe found serious or critical violations:\n" + "\n".join(problems)


FACE_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def test_dice_boxes_and_moves_have_names_a_screen_reader_says(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], rules=NO_SUDDEN_END)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    faces = roll(page)
    # the live region says the throw with every face, then whose turn it is
    expect(page.get_by_test_id("announce")).to_have_attribute("aria-live", "polite")
    expect(page.get_by_test_id("announce")).to_have_text(
        f"Ana threw {' '.join(map(str, faces))}. Your turn — throw 1 of 3"
    )

    # each die is a toggle button named with its position and face word
    die = page.get_by_test_id("die-2")
    expect(die).to_have_accessible_name(f"Die 3: {FACE_WORDS[faces[2]]}")
    expect(die).to_have_attribute("aria-pressed", "false")
    die.click()
    expect(die).to_have_accessible_name(f"Die 3: {FACE_WORDS[faces[2]]}, held")
    expect(die).to_have_attribute("aria-pressed", "true")
    die.click()
    expect(die).to_have_attribute("aria-pressed", "false")

    # each open box names itself, the points it would score and that it is not written yet
    page.locator("button[data-testid^=slot-]").first.wait_for()
    for slot, points in options(page).items():
        label = page.locator(f"tr[data-slot='{slot}'] th").inner_text().strip()
        name = f"{label}: scratch (0 points), not written" if points == 0 else f"{label}: {points} points, not written"
        expect(page.get_by_test_id(f"slot-{slot}")).to_have_accessible_name(name)
    # every text the live region takes from now on (the bot plays at once, so the write is said only briefly)
    page.evaluate("""() => {
        window.said = [];
        const region = document.querySelector('[data-testid=announce]');
        new MutationObserver(() => window.said.push(region.textContent))
            .observe(region, { childList: true, characterData: true, subtree: true });
    }""")
    slot, points = write_best(page)
    label = page.locator(f"tr[data-slot='{slot}'] th").inner_text().strip()
    expect(page.get_by_test_id(f"cell-0-{slot}")).to_have_attribute("aria-label", f"{label}: {points} points, written")
    said = f"Ana scratched {label}" if points == 0 else f"Ana wrote {points} in {label}"
    page.wait_for_function("(said) => window.said.some((text) => text.startsWith(said + '. '))", arg=said)
    # the turn passing is said too: the bot's turn, then Ana's again
    assert wait_my_turn_or_end(page)
    expect(page.get_by_test_id("announce")).to_have_text(re.compile(r"\. Your turn: throw the dice$"))


def test_every_table_action_has_a_key(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                            rules=NO_SUDDEN_END, coach=True)  # fmt: skip
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Kiko")
    assert wait_my_turn_or_end(page)
    expect(page).to_have_title(re.compile(r"^\(Your turn\) "))  # the tab says so while the page is elsewhere
    page.locator("body").click(position={"x": 1, "y": 1})  # focus on no button: Space is the table's

    status = page.get_by_test_id("status")
    page.keyboard.press(" ")
    expect(status).to_have_text("Your turn — throw 1 of 3")
    page.keyboard.press("2")
    expect(page.get_by_test_id("die-1")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("2")
    expect(page.get_by_test_id("die-1")).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("5")
    expect(page.get_by_test_id("die-4")).to_have_attribute("aria-pressed", "true")
    kept = dice(page)[4]
    page.keyboard.press("r")
    expect(status).to_have_text("Your turn — throw 2 of 3")
    assert dice(page)[4] == kept  # the held die stayed
    page.keyboard.press("r")
    expect(status).to_have_text("Your turn — throw 3 of 3")

    # the coach's advice now is a box: H asks for it, W writes it
    page.keyboard.press("h")
    expect(page.get_by_test_id("advice-0")).to_be_visible()
    slot = page.get_by_test_id("advice-0").get_attribute("data-slot")
    assert slot
    page.keyboard.press("w")
    if page.get_by_test_id("confirm").count():  # a scratch asks first; Enter on its focused Yes confirms
        page.keyboard.press("Enter")
    expect(page.get_by_test_id(f"cell-0-{slot}")).to_have_class(re.compile(r"\bwritten\b"))

    # ? shows the keys and hides them again
    help_line = page.get_by_test_id("keys-help")
    expect(help_line).to_be_hidden()
    page.keyboard.press("?")
    expect(help_line).to_have_text(re.compile(r"^Keys: space or R throws, 1 to 5 holds a die"))
    expect(page.get_by_test_id("keys-toggle")).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("?")
    expect(help_line).to_be_hidden()


def test_the_replay_steps_with_arrows_home_and_end(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Remo")
    play_to_end(page)
    steps = len(http_json(f"{web.url}/api/tables/{table_id}/record")["actions"])
    page.goto(f"{web.url}/replay/{table_id}")
    step = page.get_by_test_id("replay-step")
    expect(step).to_have_text(f"Step {steps} of {steps}")
    page.keyboard.press("Home")
    expect(step).to_have_text(f"Step 0 of {steps}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 1 of {steps}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 2 of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step 1 of {steps}")
    page.keyboard.press("End")
    expect(step).to_have_text(f"Step {steps} of {steps}")


def test_the_check_sees_a_violation(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    expect(page.locator("main h1").first).to_be_visible()
    page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")  # no name
    assert "button-name" in {v["id"] for v in axe_violations(page)}
