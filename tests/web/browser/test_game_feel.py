"""Game feel on the table page: "your turn" in the tab's title, thrown dice that tumble (never under
prefers-reduced-motion), and an end screen with standings (winner first and marked) and a celebration of
an instant win."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    SHORT_PROFILE,
    create_table,
    open_table,
    play_to_end,
    sit,
    table_state,
    wait_my_turn_or_end,
)
from tests.web.servers import LiveServer

# one die and one box, "Generala" of one die, won at once when made with the first throw: the first
# throw of the game ends it, whoever throws it
ONE_THROW_WINS = """base = "generala"
name = "one-die"
dice = 1
remove = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "doble"]
[box.generala]
groups = [1]
"""

# records, in the page, every die that was ever drawn tumbling and its animation as drawn (a tumble lasts a
# moment and the next frame redraws the dice: watch and measure there, never look it up afterwards)
WATCH_TUMBLES = """() => {
  window.__tumbles = 0;
  window.__animations = [];
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes)
      if (n.classList && n.classList.contains("rolling")) {
        window.__tumbles += 1;
        if (n.isConnected) window.__animations.push(getComputedStyle(n.querySelector(".die-svg")).animationName);
      }
  }).observe(document.querySelector("[data-testid=dice]"), { childList: true });
}"""


def test_the_tab_says_your_turn_and_thrown_dice_tumble(web: LiveServer, new_page: NewPage) -> None:
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE)
    page = new_page()
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    expect(page).to_have_title(re.compile(r"^\(Your turn\) "))
    page.evaluate(WATCH_TUMBLES)
    page.get_by_test_id("roll").click()
    page.wait_for_function("() => window.__tumbles >= 5 && window.__animations.length >= 1")  # every die thrown
    assert set(page.evaluate("() => window.__animations")) == {"die-roll"}
    play_to_end(page)
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page).not_to_have_title(re.compile(r"Your turn"))  # the game is over: nobody's turn


def test_reduced_motion_keeps_the_dice_still(web: LiveServer, new_page: NewPage) -> None:
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE)
    page = new_page()
    page.emulate_media(reduced_motion="reduce")
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    page.evaluate(WATCH_TUMBLES)
    page.get_by_test_id("roll").click()
    page.wait_for_function("() => window.__tumbles >= 5 && window.__animations.length >= 1")
    assert set(page.evaluate("() => window.__animations")) == {"none"}


def test_the_end_shows_standings_and_celebrates_an_instant_win(web: LiveServer, new_page: NewPage) -> None:
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=ONE_THROW_WINS)
    page = new_page(locale="es-AR")
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    play_to_end(page)  # the bot's first throw, or ours, ends the game
    expect(page.get_by_test_id("celebrate")).to_have_text(re.compile(r"^¡Ganó al instante, servida!$"))
    result = table_state(web.url, table)["state"]["result"]
    assert result["reason"] == "instant-win" and len(result["winners"]) == 1
    winner = result["winners"][0]
    rows = page.get_by_test_id("standings").locator("li")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-testid", f"standing-{winner}")  # the winner first, marked
    expect(rows.first).to_contain_text("★")
    expect(rows.nth(1)).not_to_contain_text("★")
    expect(rows.first).to_contain_text("Ana" if winner == 0 else "Bot goloso")


def test_sounds_are_off_until_asked_for_and_then_follow_the_throws(web: LiveServer, new_page: NewPage) -> None:
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE)
    page = new_page()
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")  # off by default
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("die-0")).not_to_have_attribute("data-face", "0")
    assert page.evaluate("() => document.body.dataset.sounds") is None  # nothing played while off
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('cubilete-sound')") == "on"  # kept for the next game
    page.get_by_test_id("roll").click()
    page.wait_for_function("() => Number(document.body.dataset.sounds || 0) >= 1")
