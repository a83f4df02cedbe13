"""The table page shows every player's chance to win, the percentages summing to 100, in the page's language."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    SHORT_PROFILE,
    create_table,
    open_table,
    play_to_end,
    roll,
    sit,
    table_state,
    wait_my_turn_or_end,
    wait_solved,
    write_best,
)
from tests.web.servers import LiveServer

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "level": "greedy"}


def shown_percentages(page: Page, seats: int) -> list[int]:
    """The percentages on the page, once the numbers are the ones of the table's current version."""
    expect(page.get_by_test_id("chances")).to_be_visible()
    expect(page.locator("[data-testid=chances].stale")).to_have_count(0)
    texts = [page.get_by_test_id(f"win-pct-{i}").inner_text() for i in range(seats)]
    assert all(re.fullmatch(r"\d{1,3}%", t) for t in texts), texts
    return [int(t[:-1]) for t in texts]


def test_win_chances_sum_to_100_after_every_throw_and_score(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules="general-4-columns")
    ana = new_page()
    open_table(ana, web.url, table_id)
    sit(ana, 0, "Ana")
    assert wait_my_turn_or_end(ana)
    start = shown_percentages(ana, 2)
    assert sum(start) == 100
    expect(ana.get_by_test_id("chances")).to_contain_text("Chances to win (estimated)")
    expect(ana.get_by_test_id("win-chance-0")).to_contain_text("Ana")
    for _ in range(3):
        roll(ana)
        assert sum(shown_percentages(ana, 2)) == 100
        write_best(ana)
        assert wait_my_turn_or_end(ana)
        assert sum(shown_percentages(ana, 2)) == 100
    state = table_state(web.url, table_id)["state"]
    chances = [s["win_chance"] for s in state["seats"]]
    assert abs(sum(chances) - 1.0) < 1e-5


def bars(page: Page, seats: int) -> list[tuple[int, float]]:
    """Each seat's number and its bar as drawn (the fill's width over the bar's, in percent), read in one
    evaluation so that a new frame cannot change one between the two readings."""
    shown_percentages(page, seats)  # the numbers of the table's current version are up
    found = page.evaluate(
        """n => Array.from({length: n}, (_, i) => {
            const li = document.querySelector(`[data-testid=win-chance-${i}]`);
            const bar = li.querySelector('.chance-bar').getBoundingClientRect().width;
            const pct = parseInt(li.querySelector('[data-testid^=win-pct]').textContent, 10);
            return [pct, 100 * li.querySelector('.chance-fill').getBoundingClientRect().width / bar];
        })""",
        seats,
    )
    return [(int(n), float(w)) for n, w in found]


def test_the_bars_are_as_long_as_their_numbers(web: LiveServer, new_page: NewPage) -> None:
    # the site's CSP (style-src 'self') dropped the bars' inline style attribute: every bar was drawn full
    table_id = create_table(web.url, [HUMAN, GREEDY], rules="general-4-columns")
    ana = new_page()
    open_table(ana, web.url, table_id)
    sit(ana, 0, "Ana")
    assert wait_my_turn_or_end(ana)
    for _ in range(2):
        roll(ana)
        drawn = bars(ana, 2)
        assert all(abs(width - number) <= 1.5 for number, width in drawn), drawn
        assert min(width for _, width in drawn) < 99  # two seats summing to 100: one bar at least is not full
        write_best(ana)
        assert wait_my_turn_or_end(ana)


def test_win_chances_speak_the_page_language(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules="general-4-columns")
    for locale, title in (("es-AR", "Probabilidad de ganar (estimada)"), ("pt-BR", "Chance de vencer (estimada)")):
        page = new_page(locale=locale)
        open_table(page, web.url, table_id)
        if locale == "es-AR":
            sit(page, 0, "Ana")
        expect(page.get_by_test_id("chances")).to_contain_text(title)
        assert sum(shown_percentages(page, 2)) == 100


def test_the_replay_page_draws_everyones_chance_and_the_chance_given_up(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    table_id = create_table(web.url, [HUMAN, GREEDY], profile=SHORT_PROFILE)
    open_table(page, web.url, table_id)
    sit(page, 0, "Charta")
    play_to_end(page)
    page.goto(f"{web.url}/replay/{table_id}")
    chart = page.get_by_test_id("chance-chart")
    expect(chart).to_be_visible(timeout=60_000)
    expect(chart.locator("polyline")).to_have_count(2)
    expect(chart.locator("polyline[data-player=Charta]")).to_have_count(1)
    # 2 rounds of 2 players: the start and one point per finished turn
    points = chart.locator("polyline").first.get_attribute("points") or ""
    assert len(points.split()) == 5
    # a house-rule profile of 2 rounds has no exact win tables: the chart says so, and no decision is judged
    expect(page.get_by_test_id("review")).to_contain_text("Chance to win, turn by turn (estimated)")
    expect(page.get_by_test_id("win-lost")).to_have_count(0)


def test_the_page_rounds_percentages_like_the_terminal_game(web: LiveServer, new_page: NewPage) -> None:
    from cubilete.tui.widgets.chances import percentages

    page = new_page()
    page.goto(f"{web.url}/games")
    cases = [[1 / 3, 1 / 3, 1 / 3], [0.996, 0.004], [0.071, 0.213, 0.333, 0.383], [0.5, 0.5], [0.0, 1.0]]
    got = page.evaluate(
        "async (cases) => { const m = await import('/static/chances.js'); return cases.map(m.percentages); }", cases
    )
    assert got == [percentages(c) for c in cases]
    assert all(sum(g) == 100 for g in got)


def test_the_hint_shows_the_advice_for_points_and_to_win(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules="generala", coach=True)
    page = new_page(locale="es-AR")
    open_table(page, web.url, table_id)
    sit(page, 0, "Coco")
    # the session's server may still be solving Generala (this test first in a shuffled run): a hint asked
    # meanwhile is the labelled approximation, with no chances to win; the page drops its notice when solved
    wait_solved(web.url, table_id)
    assert wait_my_turn_or_end(page)
    roll(page)
    page.get_by_test_id("hint").click()
    to_win = page.get_by_test_id("to-win")
    expect(to_win).to_be_visible(timeout=60_000)
    expect(to_win.locator("li").first).to_contain_text("Para sumar puntos:")
    expect(to_win.locator("li").nth(1)).to_contain_text("Para ganar:")
    expect(page.get_by_test_id("hints")).not_to_contain_text("null")
