"""The pages speak the .po catalogs' words: a Spanish and a Brazilian browser get the home page in their
language, every text looked up in strings.js (generated from the catalogs), with no console error."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.servers import LiveServer

LOCALE = Path(__file__).resolve().parents[3] / "src" / "cubilete" / "locale"


def translation(lang: str, key: str) -> str:
    """The catalog's translation of a web key (its context) in a language."""
    with (LOCALE / lang / "LC_MESSAGES" / "cubilete.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    found = [m for m in catalog if m.context == key]
    assert len(found) == 1 and found[0].string, (lang, key)
    return str(found[0].string)


@pytest.mark.parametrize(
    ("browser_locale", "catalog", "html_lang"), [("es-AR", "es", "es"), ("pt-BR", "pt_BR", "pt-BR")]
)
def test_the_home_page_is_in_the_browsers_language(
    web: LiveServer, new_page: NewPage, browser_locale: str, catalog: str, html_lang: str
) -> None:
    page = new_page(locale=browser_locale)
    page.goto(f"{web.url}/")
    nav = page.get_by_role("navigation")
    expect(nav.get_by_role("link", name=translation(catalog, "nav.games"))).to_be_visible()
    expect(nav.get_by_role("link", name=translation(catalog, "nav.lobby"))).to_be_visible()
    expect(page.locator(".skip-link")).to_have_text(translation(catalog, "app.skip"))
    expect(page.locator("html")).to_have_attribute("lang", html_lang)
    expect(page.get_by_test_id("lang")).to_have_value(html_lang[:2])
