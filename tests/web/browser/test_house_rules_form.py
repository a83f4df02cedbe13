"""House rules without TOML (static/houserules.js): the create form's fields start from a preset, write the
profile the server checks as they change (its budget included, in the page's language, before Create), make
the table, and the table page lists what the house rules change from the preset."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import table_state
from tests.web.servers import LiveServer


def test_fields_make_house_rules_and_the_table_says_what_changed(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="es-AR")
    page.goto(f"{web.url}/")
    page.get_by_test_id("name").fill("Ana")
    page.get_by_test_id("rules").select_option("__profile__")
    status, create = page.get_by_test_id("profile-status"), page.get_by_test_id("create")
    expect(page.get_by_test_id("house-base")).to_have_value("generala")  # the preset picked before
    expect(status).to_have_text("Bien: Generala (Argentina) (reglas de la casa) — 11 casilleros, 5 dados.")

    page.get_by_test_id("house-dice").fill("8")  # over this server's budget (6): said now, in Spanish
    expect(status).to_have_text(re.compile(r"presupuesto de este servidor: 8 dados; como mucho 6"))
    expect(create).to_be_disabled()
    page.get_by_test_id("house-dice").fill("5")

    page.get_by_test_id("house-title").fill("Mesa del club")
    page.get_by_test_id("house-throws").fill("2")
    page.get_by_test_id("house-on-doble").uncheck()
    page.get_by_test_id("house-value-generala").fill("60")
    page.get_by_test_id("house-instant-generala").uncheck()
    expect(status).to_have_text("Bien: Mesa del club — 10 casilleros, 5 dados.")
    toml = page.get_by_test_id("profile").input_value()
    assert 'throws = 2' in toml and 'remove = ["doble"]' in toml and "value = 60" in toml
    assert "instant_win = false" in toml and "dice" not in toml  # back to the preset's 5: not written
    create.click()
    expect(page).to_have_url(re.compile(r"/t/[a-z0-9]+$"))

    rules = table_state(web.url, page.url.rsplit("/", 1)[1])["table"]["rules"]
    assert rules["throws"] == 2 and rules["preset"] is None
    assert "doble" not in [s["slot"] for s in rules["slots"]]
    changes = page.get_by_test_id("house-changes")
    expect(changes).to_contain_text("Reglas de la casa: lo que cambia respecto de Generala (Argentina)")
    expect(changes.locator("li")).to_contain_text(["2 tiros por turno"])  # throws, first of the list
    expect(changes).to_contain_text("60")
    expect(changes).to_contain_text("sin Doble Generala")
    expect(changes).to_contain_text("Generala: servida ya no gana la partida")


def test_hand_edited_toml_sets_the_fields_aside_until_asked_back(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    page.get_by_test_id("rules").select_option("__profile__")
    expect(page.get_by_test_id("profile-status")).to_have_text(re.compile(r"^Good: "))
    page.get_by_test_id("house-advanced").locator("summary").click()
    box = page.get_by_test_id("profile")
    box.fill('base = "yatzy"\nthrows = 4\n')
    expect(page.get_by_test_id("house-fields-note")).to_be_visible()
    expect(page.get_by_test_id("house-throws")).to_be_disabled()
    page.get_by_test_id("house-throws").evaluate("(e) => e.value")  # still there, only disabled
    expect(box).to_have_value('base = "yatzy"\nthrows = 4\n')  # a field never overwrites hand edits
    page.get_by_test_id("house-fields-back").click()
    expect(page.get_by_test_id("house-throws")).to_be_enabled()
    expect(box).to_have_value(re.compile(r'^base = "generala"\n'))  # the fields' rules again
