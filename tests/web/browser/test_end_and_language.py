"""The end of a game (no stray ``null``, the record to download, a rematch with the same seats), an
unknown table (no invite box), and a Spanish page that shows no English: bot names, errors, the skip link,
"tachó" for a scratch and the faces kept (never dice positions that read like faces)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import boxes, create_table, http_json, table_state
from tests.web.servers import LiveServer

from cubilete.engine.actions import Score
from cubilete.engine.record import steps as steps_of

GREEDY = {"kind": "bot", "level": "greedy"}
STRONG = {"kind": "bot", "level": "strong"}


def finished_bot_table(web: LiveServer, rules: str = "generala-sin-gana") -> str:
    """A table of two bots (it plays itself at once); its id once the game is over."""
    table_id = create_table(web.url, [GREEDY, STRONG], rules=rules)
    for _ in range(600):
        if table_state(web.url, table_id)["state"]["status"] == "finished":
            return table_id
        import time

        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


def open_finished(page: Page, web: LiveServer, table_id: str) -> None:
    page.goto(f"{web.url}/t/{table_id}")
    expect(page.get_by_test_id("result")).to_be_visible()


def test_the_end_panel_has_no_null_and_offers_the_record(web: LiveServer, new_page: NewPage) -> None:
    table_id = finished_bot_table(web)
    page = new_page()
    open_finished(page, web, table_id)
    box = page.get_by_test_id("result-box")
    expect(box).not_to_contain_text("null")
    page.get_by_test_id("verify").click()  # the verdict comes and goes in the same panel
    expect(page.get_by_test_id("verify-result")).to_be_visible()
    expect(box).not_to_contain_text("null")
    link = page.get_by_test_id("download-record")
    assert link.get_attribute("download") == f"cubilete-{table_id}.json"
    href = link.get_attribute("href")
    assert href is not None
    record = http_json(f"{web.url}{href}")
    assert record["seed"] == table_state(web.url, table_id)["state"]["seed"]
    expect(page.get_by_test_id("invite")).to_be_hidden()  # nobody is invited to a finished game


def test_a_spectator_is_offered_no_rematch(web: LiveServer, new_page: NewPage) -> None:
    # only the table's own players may ask for its rematch: a watcher of two bots has no button for it
    table_id = finished_bot_table(web)
    page = new_page()
    open_finished(page, web, table_id)
    expect(page.get_by_test_id("replay-link")).to_be_visible()
    expect(page.get_by_test_id("rematch")).to_have_count(0)


def test_an_unknown_table_shows_no_invite(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="es-AR")
    page.goto(f"{web.url}/t/nope1234")
    expect(page.get_by_test_id("conn")).to_have_text("No existe esa mesa.")
    expect(page.get_by_test_id("invite")).to_be_hidden()


ENGLISH = re.compile(r"\b(Strong|Greedy|Skip|Something went wrong|there is no|scored|kept|threw)\b")


def test_a_spanish_page_has_no_english(web: LiveServer, new_page: NewPage) -> None:
    table_id = finished_bot_table(web)
    page = new_page(locale="es-AR", expected=[r"status of 404 .*/nope1234"])  # the unknown game asked for below
    open_finished(page, web, table_id)
    expect(page.locator(".skip-link")).to_have_text("Saltar al contenido")
    sheet = page.get_by_test_id("sheet")
    expect(sheet).to_contain_text("Bot goloso")
    expect(sheet).to_contain_text("Bot fuerte")
    text = page.locator("main").inner_text()
    assert not ENGLISH.search(text), text

    page.goto(f"{web.url}/replay/nope1234")
    expect(page.locator(".form-error")).to_have_text("No existe esa mesa.")

    page.goto(f"{web.url}/replay/{table_id}")
    expect(page.get_by_test_id("replay-step")).to_be_visible()
    # each step of the list says what happened in its title (the button shows the dice or the box)
    steps = page.eval_on_selector_all("[data-testid^=step-]", "els => els.map(e => e.title)")
    record = http_json(f"{web.url}/api/tables/{table_id}/record")
    # step by step: a move that wrote 0 says "tachó"; a move that wrote points does not
    written = [
        game.state.seats[before.current].card[game.rules.slot_index(action.slot)] if isinstance(action, Score) else None
        for game, action, before in steps_of(record)
    ]
    assert 0 in written
    wrong = [(i, title, points) for i, (title, points) in enumerate(zip(steps, written, strict=True))
             if ("tachó" in title) != (points == 0)]
    assert not wrong, (wrong, steps[-3:], len(steps))
    assert not any("= 0" in s for s in steps)
    kept_faces = [s.split("apartó ")[1].split(",")[0].split() for s in steps if "apartó" in s]
    assert kept_faces and all(all(f in "123456" for f in faces) for faces in kept_faces)
    assert len(steps) == len(record["actions"])
    text = page.locator("main").inner_text()
    assert not ENGLISH.search(text), text


def test_a_servida_is_named_on_the_table(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, GREEDY], rules="generala-sin-gana")
    page = new_page(locale="es-AR")
    page.goto(f"{web.url}/t/{table_id}")
    page.get_by_test_id("seat-name-input-0").fill("Ana")
    page.get_by_test_id("sit-0").click()
    page.wait_for_function("() => { const r = document.querySelector('[data-testid=roll]'); return r && !r.disabled; }")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("last")).to_have_text(re.compile(r"^Ana tiró \(servida\)$"))


def test_a_phone_shows_dice_buttons_and_the_own_column_in_one_screen(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, GREEDY, GREEDY], rules="generala-sin-gana")
    page = new_page(locale="es-AR", viewport=(390, 844))
    page.goto(f"{web.url}/t/{table_id}")
    page.get_by_test_id("seat-name-input-0").fill("Pía")
    page.get_by_test_id("sit-0").click()
    page.wait_for_function("() => { const r = document.querySelector('[data-testid=roll]'); return r && !r.disabled; }")
    page.get_by_test_id("roll").click()
    page.locator("button[data-testid^=slot-]").first.wait_for()
    assert page.evaluate("window.scrollY") == 0
    last_slot = table_state(web.url, table_id)["table"]["rules"]["slots"][-1]["slot"]
    wanted = ["dice", "die-0", "die-4", "roll", "col-0", f"cell-0-{last_slot}", "total-0"]
    for testid, box in boxes(page, wanted).items():
        assert box is not None, testid
        inside = box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
        assert inside, (testid, box)


def test_house_rules_are_checked_as_they_are_typed_and_make_the_table(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="es-AR")
    page.goto(f"{web.url}/")
    page.get_by_test_id("name").fill("Ana")
    page.get_by_test_id("rules").select_option("__profile__")
    create = page.get_by_test_id("create")
    box = page.get_by_test_id("profile")
    expect(box).to_have_value(re.compile(r'^base = "generala"\n'))  # the fields wrote the preset it starts from
    page.get_by_test_id("house-advanced").locator("summary").click()  # the TOML, by hand
    box.fill('base = "generala"\nname = "mesa"\n\n[box.generala]\nvalue = "sesenta"\n')
    expect(page.get_by_test_id("profile-status")).to_have_text(re.compile(r"^Línea 5: "))
    expect(create).to_be_disabled()
    box.press("Control+a")
    box.type('base = "generala"\nname = "mesa"\ntitle = "Mesa del club"\n[box.generala]\nvalue = 60\n')
    expect(page.get_by_test_id("profile-status")).to_have_text("Bien: Mesa del club — 11 casilleros, 5 dados.")
    expect(box).to_be_focused()  # checking as one types never takes the caret away
    create.click()
    expect(page).to_have_url(re.compile(r"/t/[a-z0-9]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    assert table_state(web.url, table_id)["table"]["rules"]["name"] == "mesa"
