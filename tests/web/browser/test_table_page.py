"""The table page in a real browser: two players and a spectator, reloads, languages, escaping,
the coach, scratch confirmation, a phone screen, and reconnecting after the server restarts."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    NO_SUDDEN_END,
    SHORT_PROFILE,
    boxes,
    create_table,
    dice,
    open_table,
    options,
    play_to_end,
    play_turn,
    roll,
    sit,
    table_state,
    wait_my_turn_or_end,
    wait_solved,
    write_best,
)
from tests.web.servers import LiveServer, ServerFactory

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "level": "greedy"}


def _cell(page: Page, seat: int, slot: str) -> str:
    return page.get_by_test_id(f"cell-{seat}-{slot}").inner_text().strip()


def test_two_players_take_turns_and_a_spectator_watches(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, HUMAN], profile=SHORT_PROFILE)
    ana, bea, eve = new_page(), new_page(), new_page()
    open_table(ana, web.url, table_id)
    sit(ana, 0, "Ana")
    open_table(bea, web.url, table_id)
    expect(bea.get_by_test_id("sit-0")).to_have_count(0)  # Ana's seat is not offered again
    # a name already at the table is refused, and the refusal is shown in the UI language
    bea.get_by_test_id("seat-name-input-1").fill("ana")
    bea.get_by_test_id("sit-1").click()
    expect(bea.get_by_test_id("toast")).to_have_text("That name is already at the table.")
    sit(bea, 1, "Bea")

    open_table(eve, web.url, table_id)
    expect(eve.get_by_test_id("spectating")).to_be_visible()
    expect(eve.locator("[data-testid^=sit-]")).to_have_count(0)
    expect(eve.get_by_test_id("roll")).to_have_count(0)  # a spectator has nothing to press
    pages = {0: ana, 1: bea}
    for _ in range(4):  # two turns each: the whole short game
        current = table_state(web.url, table_id)["state"]["current"]
        me, other = pages[current], pages[1 - current]
        assert wait_my_turn_or_end(me)
        expect(other.get_by_test_id("roll")).to_be_disabled()
        expect(other.get_by_test_id("status")).to_contain_text(("Ana", "Bea")[current])
        faces = roll(me)
        # the other player and the spectator see the same throw
        for watcher in (other, eve):
            # the first throw of a turn is a servida, and the page says so (Generala pays it differently)
            expect(watcher.get_by_test_id("last")).to_have_text(f"{('Ana', 'Bea')[current]} threw (servida)")
            assert dice(watcher) == faces
        slot, points = write_best(me)
        for watcher in (other, eve):
            expect(watcher.get_by_test_id(f"cell-{current}-{slot}")).to_have_text(str(points))
        # the cells may show the points before the server has the move: wait for the turn to pass
        deadline = time.monotonic() + 120
        while (s := table_state(web.url, table_id)["state"])["current"] == current and s["status"] != "finished":
            assert time.monotonic() < deadline, "the turn never passed after the score"
            time.sleep(0.05)
    while (state := table_state(web.url, table_id)["state"])["status"] != "finished":  # a tie: stand it out
        me = pages[state["current"]]
        assert wait_my_turn_or_end(me)
        play_turn(me)
        expect(me.get_by_test_id("status")).not_to_have_text(re.compile("Your turn"))
    final = table_state(web.url, table_id)["state"]
    assert final["status"] == "finished"
    for page in (ana, bea, eve):
        expect(page.get_by_test_id("result")).to_be_visible()
        for i in (0, 1):
            expect(page.get_by_test_id(f"total-{i}")).to_have_text(str(final["seats"][i]["total"]))


def test_reload_mid_turn_brings_back_held_dice_and_scorecard(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules=NO_SUDDEN_END)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Rita")
    assert wait_my_turn_or_end(page)
    first = roll(page)
    page.get_by_test_id("die-0").click()
    page.get_by_test_id("die-2").click()
    expect(page.get_by_test_id("die-0")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("die-0")).to_contain_text("held")
    second = roll(page)
    assert (second[0], second[2]) == (first[0], first[2])  # kept dice were not thrown
    expect(page.get_by_test_id("status")).to_have_text("Your turn — throw 2 of 3")

    page.reload()
    expect(page.get_by_test_id("status")).to_have_text("Your turn — throw 2 of 3")
    assert dice(page) == second
    for pos, held in enumerate([True, False, True, False, False]):
        expect(page.get_by_test_id(f"die-{pos}")).to_have_attribute("aria-pressed", "true" if held else "false")
    slot, points = write_best(page)
    assert wait_my_turn_or_end(page)

    page.reload()
    expect(page.get_by_test_id(f"cell-0-{slot}")).to_have_text(str(points))
    assert table_state(web.url, table_id)["state"]["seats"][0]["card"][_slot_index(web, table_id, slot)] == points
    # and the game goes on from there
    roll(page)
    slot2, points2 = write_best(page)
    expect(page.get_by_test_id(f"cell-0-{slot2}")).to_have_text(str(points2))


def _slot_index(web: LiveServer, table_id: str, slot: str) -> int:
    slots = [s["slot"] for s in table_state(web.url, table_id)["table"]["rules"]["slots"]]
    return slots.index(slot)


def test_language_follows_the_browser_then_the_switcher(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="es-AR")
    page.goto(f"{web.url}/")
    expect(page.get_by_test_id("create")).to_have_text("Crear la mesa")
    table_id = create_table(web.url, [HUMAN, GREEDY], rules=NO_SUDDEN_END)
    info = table_state(web.url, table_id)["table"]
    labels = {s["slot"]: s["labels"] for s in info["rules"]["slots"]}
    open_table(page, web.url, table_id)
    sit(page, 0, "Lía")
    assert wait_my_turn_or_end(page)
    expect(page.get_by_test_id("roll")).to_have_text("Tirar")
    expect(page.get_by_test_id("col-1")).to_contain_text("bot · goloso")  # the bot's level, translated
    page.get_by_test_id("lang").select_option("pt")
    expect(page.get_by_test_id("roll")).to_have_text("Jogar")
    expect(page.get_by_test_id("col-1")).to_contain_text("robô · ganancioso")
    expect(page.locator("tr[data-slot=escalera] th")).to_have_text(labels["escalera"]["pt"])
    page.get_by_test_id("lang").select_option("en")
    expect(page.get_by_test_id("roll")).to_have_text("Roll")
    expect(page.get_by_test_id("status")).to_have_text("Your turn: throw the dice")
    page.get_by_test_id("lang").select_option("pt")
    page.reload()  # the choice is remembered over the browser's language
    expect(page.get_by_test_id("roll")).to_have_text("Jogar")
    expect(page.get_by_test_id("lang")).to_have_value("pt")
    # still connected after the switch (it reconnects with the new language): the game goes on
    roll(page)
    expect(page.get_by_test_id("status")).to_have_text("Sua vez — lance 1 de 3")


def test_names_with_markup_are_shown_as_text(web: LiveServer, new_page: NewPage) -> None:
    evil = "<img src=x onerror=z()>"
    table_id = create_table(web.url, [HUMAN, GREEDY], profile=SHORT_PROFILE)
    page = new_page()
    page.add_init_script("window.z = () => { window.__injected = true; };")
    open_table(page, web.url, table_id)
    sit(page, 0, evil)
    play_to_end(page)
    expect(page.get_by_test_id("col-0")).to_contain_text(evil)
    expect(page.get_by_test_id("last")).to_be_visible()
    page.goto(f"{web.url}/games")
    expect(page.get_by_test_id(f"game-{table_id}")).to_contain_text(evil)
    page.goto(f"{web.url}/replay/{table_id}")
    expect(page.get_by_test_id("turns")).to_contain_text(evil)
    assert page.locator("img").count() == 0
    assert page.evaluate("window.__injected === undefined")


def test_coach_hint_and_scratch_confirmation(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules=NO_SUDDEN_END, coach=True)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Coco")
    wait_solved(web.url, table_id)  # the exact advice (not the approximation given while solving)
    assert wait_my_turn_or_end(page)
    roll(page)
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("advice-0")).to_be_visible()
    expect(page.get_by_test_id("advice-0")).to_contain_text("expected")  # exact: an expected final score
    # a zero is always on offer (five dice miss at least one face): it asks before scratching
    zero = next(slot for slot, points in options(page).items() if points == 0)
    page.get_by_test_id(f"slot-{zero}").click()
    expect(page.get_by_test_id("confirm")).to_be_visible()
    page.get_by_test_id("confirm-no").click()
    expect(page.get_by_test_id("confirm")).to_have_count(0)
    expect(page.get_by_test_id(f"slot-{zero}")).to_be_visible()  # nothing was written
    page.get_by_test_id(f"slot-{zero}").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id(f"cell-0-{zero}")).to_have_text("0")
    expect(page.get_by_test_id(f"cell-0-{zero}")).to_have_class(re.compile(r"\bscratched\b"))


def test_phone_screen_fits_and_plays(web: LiveServer, new_page: NewPage, tmp_path: Path) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY, GREEDY], rules=NO_SUDDEN_END, timer=600)
    page = new_page(viewport=(390, 844))
    open_table(page, web.url, table_id)
    sit(page, 0, "Pía")
    assert wait_my_turn_or_end(page)
    roll(page)
    # the turn timer counts down from the server's deadline
    expect(page.get_by_test_id("timer")).to_have_text(re.compile(r"^\d+ s left$"))
    left = int(page.get_by_test_id("timer").inner_text().split()[0])
    assert 0 < left <= 600
    page.get_by_test_id("die-1").click()
    # nothing sticks out sideways; the dice, Roll and the scorecard are reachable
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for testid, box in boxes(page, ["die-0", "die-4", "roll"]).items():
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (testid, box)
        assert box["height"] >= 44  # a finger-sized target
    page.screenshot(path=str(tmp_path / "table-phone.png"), full_page=True)
    write_best(page)
    assert wait_my_turn_or_end(page)


def test_an_approximate_hint_shows_values_not_expected_scores(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN], rules="maxi-yatzy", coach=True)  # no exact table on a server
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Lía")
    assert wait_my_turn_or_end(page)
    roll(page)
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("advice-0")).to_contain_text(re.compile(r"value \d"))
    expect(page.get_by_test_id("hints")).to_contain_text("(approximate values)")
    expect(page.get_by_test_id("hints")).not_to_contain_text("expected")


def test_page_reconnects_after_the_server_restarts(server_factory: ServerFactory, new_page: NewPage) -> None:
    server = server_factory()
    table_id = create_table(server.url, [HUMAN, GREEDY], rules=NO_SUDDEN_END)
    page = new_page(expected=[r"WebSocket connection to .* failed"])  # while the server is down, as intended
    open_table(page, server.url, table_id)
    sit(page, 0, "Fénix")
    assert wait_my_turn_or_end(page)
    faces = roll(page)
    server.kill()  # a crash: nothing is flushed on the way out
    expect(page.get_by_test_id("conn")).to_be_visible()
    expect(page.get_by_test_id("conn")).to_have_text("Connection lost. Retrying…")
    server.restart()
    expect(page.get_by_test_id("conn")).to_be_hidden()
    assert dice(page) == faces  # the table came back at its last acknowledged action
    slot, points = write_best(page)
    expect(page.get_by_test_id(f"cell-0-{slot}")).to_have_text(str(points))
    card = table_state(server.url, table_id)["state"]["seats"][0]["card"]
    assert points in card and sum(v is not None for v in card) >= 1


def test_bozo_offers_em_baixo(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules="bozo")
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Bia")
    assert wait_my_turn_or_end(page)
    page.get_by_test_id("facedown").click()
    expect(page.get_by_test_id("last")).to_have_text("Bia called em baixo and threw (servida)")  # a first throw
    state = table_state(web.url, table_id)["state"]
    assert state["last"]["action"] == {"roll": [], "face_down": True}
    assert dice(page) == state["turn"]["dice"]  # the faces resting on the table, as the server counts them


def test_generala_has_no_em_baixo_and_no_stand_outside_a_tie_break(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY])
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Gus")
    assert wait_my_turn_or_end(page)
    expect(page.get_by_test_id("facedown")).to_have_count(0)
    expect(page.get_by_test_id("stand")).to_have_count(0)
    expect(page.get_by_test_id("hint")).to_have_count(0)  # the coach is off at this table


# one box worth nothing: every game ends level, so a tie-break round always follows
TIED_PROFILE = """base = "generala"
name = "empate"
remove = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "doble"]
[box.generala]
value = 0
instant_win = false
"""


def test_tie_break_rounds_are_played_by_standing(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, HUMAN], profile=TIED_PROFILE)
    pages = {0: new_page(), 1: new_page()}
    for seat, name in ((0, "Ana"), (1, "Bea")):
        open_table(pages[seat], web.url, table_id)
        sit(pages[seat], seat, name)
    for _ in range(2):  # the one turn each: a scratch, confirmed
        seat = table_state(web.url, table_id)["state"]["current"]
        me = pages[seat]
        assert wait_my_turn_or_end(me)
        roll(me)
        me.get_by_test_id("slot-generala").click()
        me.get_by_test_id("confirm-yes").click()
        expect(me.get_by_test_id(f"cell-{seat}-generala")).to_have_text("0")  # the server took it
    for _ in range(2):  # a tie-break round: each throws, then stands
        state = table_state(web.url, table_id)["state"]
        assert state["phase"] == "tiebreak"
        me, other = pages[state["current"]], pages[1 - state["current"]]
        assert wait_my_turn_or_end(me)
        expect(me.get_by_test_id("status")).to_have_text(re.compile(r"^Tie-break: Your turn"))
        expect(me.get_by_test_id("stand")).to_be_disabled()  # throw first
        expect(me.locator("button[data-testid^=slot-]")).to_have_count(0)  # no box is written in a tie-break
        roll(me)
        me.get_by_test_id("stand").click()
        name = ("Ana", "Bea")[state["current"]]
        expect(other.get_by_test_id("last")).to_have_text(f"{name} stood")
    assert table_state(web.url, table_id)["state"]["phase"] == "tiebreak"  # level again: another round


def test_the_token_never_goes_in_a_url_and_a_player_leaving_shows_offline(web: LiveServer,
                                                                          new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, HUMAN], profile=SHORT_PROFILE)
    ana, bea = new_page(), new_page()
    urls: list[str] = []
    ana.on("websocket", lambda ws: urls.append(ws.url))
    open_table(ana, web.url, table_id)
    sit(ana, 0, "Ana")
    open_table(bea, web.url, table_id)
    sit(bea, 1, "Bea")
    token = ana.evaluate("localStorage.getItem('cubilete-token')")
    assert token and urls and all(token not in url and "token" not in url for url in urls)
    expect(ana.locator(".seat-tag", has_text="offline")).to_have_count(0)
    bea.close()  # Bea's tab goes: Ana sees her offline (a presence frame), then back when she returns
    expect(ana.locator(".seat-tag", has_text="offline")).to_have_count(1)
    assert table_state(web.url, table_id)["state"]["seats"][1]["connected"] is False
