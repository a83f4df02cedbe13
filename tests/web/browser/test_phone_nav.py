"""The site's links on a phone: one row that scrolls sideways, so the edge hiding more links fades (the
nav is marked more-right / more-left), and the page one is on is scrolled into view (the leaderboard,
last in the row, was beyond the edge of a 360 px phone with nothing saying so)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.servers import LiveServer

NAV = ".main-nav"


def re_class(name: str) -> re.Pattern[str]:
    """A class attribute holding ``name`` among others."""
    return re.compile(rf"(^|\s){name}(\s|$)")


def nav_box(page: Page) -> dict[str, float]:
    return page.evaluate("""() => {
        const n = document.querySelector('.main-nav');
        const on = n.querySelector('.nav-link.on');
        const box = n.getBoundingClientRect();
        const link = on ? on.getBoundingClientRect() : null;
        return { hidden: n.scrollWidth - n.clientWidth, left: box.left, right: box.right,
                 onLeft: link ? link.left : null, onRight: link ? link.right : null };
    }""")


@pytest.mark.parametrize("locale", ["pt-BR", "es-AR"])
def test_the_hidden_links_are_signalled_and_the_current_page_is_in_view(
    web: LiveServer, new_page: NewPage, locale: str
) -> None:
    page = new_page(locale=locale, viewport=(360, 740))
    page.goto(f"{web.url}/")
    nav = page.locator(NAV)
    expect(nav).to_be_visible()
    assert nav_box(page)["hidden"] > 0, "at 360 px the links no longer fit one row: the test means nothing"
    expect(nav).to_have_class(re_class("more-right"))
    expect(nav).not_to_have_class(re_class("more-left"))
    # scrolled to its end, the right edge has nothing more and the left one has
    page.evaluate("() => { const n = document.querySelector('.main-nav'); n.scrollLeft = n.scrollWidth; }")
    expect(nav).to_have_class(re_class("more-left"))
    expect(nav).not_to_have_class(re_class("more-right"))
    # the last link's page: its link is inside the row, clear of the faded edge
    page.goto(f"{web.url}/leaderboard")
    expect(page.locator(".nav-link.on")).to_have_attribute("href", "/leaderboard")
    box = nav_box(page)
    assert box["onLeft"] >= box["left"] - 1 and box["onRight"] <= box["right"] + 1, box  # sub-pixel layout
    expect(nav).to_have_class(re_class("more-left"))


def test_a_wide_screen_has_no_faded_edge(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="en-US", viewport=(1280, 800))
    page.goto(f"{web.url}/")
    nav = page.locator(NAV)
    expect(nav).to_be_visible()
    assert nav_box(page)["hidden"] <= 1
    expect(nav).not_to_have_class(re_class("more-right"))
    expect(nav).not_to_have_class(re_class("more-left"))
