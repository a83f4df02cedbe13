"""The score sheet for real dice on a phone (web/static/realdice.js): a family makes a sheet from the home
page's link, types the start throws and a whole Generala by tapping the dice faces, the throw and the box,
sees everyone's chance to win, ties and settles it with a tie-break hand; a second phone on the same link
follows the sheet and may not undo what it did not type."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.servers import LiveServer

PHONE = (390, 844)
# one box per turn, made on the second throw (RULES.md: full 30, poker 40, escalera 20, generala 50, doble 100)
TURNS = [
    ("1", [1, 1, 1, 2, 3], 3), ("2", [2, 2, 4, 5, 6], 4), ("3", [3, 3, 3, 1, 2], 9), ("4", [4, 4, 4, 4, 2], 16),
    ("5", [5, 1, 2, 3, 3], 5), ("6", [6, 6, 6, 1, 1], 18), ("escalera", [1, 2, 3, 4, 5], 20),
    ("full", [2, 2, 3, 3, 3], 30), ("poker", [4, 4, 4, 4, 1], 40), ("generala", [6, 6, 6, 6, 6], 50),
    ("doble", [5, 5, 5, 5, 5], 100),
]


def _tap(page: Page, dice: list[int]) -> None:
    for face in dice:
        page.get_by_test_id(f"pad-{face}").click()


def _enter(page: Page, dice: list[int], throw: int, slot: str, points: int) -> None:
    version = page.get_by_test_id("sheet-status").text_content()
    _tap(page, dice)
    page.get_by_test_id(f"throw-{throw}").click()
    box = page.get_by_test_id(f"box-{slot}")
    expect(box).to_contain_text(f"→ {points}")  # the rules' points for these dice, before writing
    box.click()
    expect(page.get_by_test_id("sheet-status")).not_to_have_text(version or "")


def test_a_whole_generala_on_real_dice_with_a_tie_break_on_a_phone(web: LiveServer, new_page: NewPage) -> None:
    ana = new_page(locale="es-AR", viewport=PHONE)
    ana.goto(f"{web.url}/")
    ana.get_by_test_id("real-dice").click()
    expect(ana).to_have_url(re.compile(r"/sheet$"))
    ana.get_by_test_id("sheet-player-0").fill("Ana")
    ana.get_by_test_id("sheet-player-1").fill("Beto")
    ana.get_by_test_id("sheet-create").click()
    expect(ana).to_have_url(re.compile(r"/sheet/[a-z0-9]{8}$"))
    expect(ana.get_by_test_id("sheet-status")).to_have_text("Ana tira 1 dado(s) para ver quién empieza")
    assert ana.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    tap = ana.get_by_test_id("pad-1").bounding_box()
    assert tap is not None and tap["width"] >= 44 and tap["height"] >= 44  # a finger, not a cursor

    beto = new_page(locale="pt-BR", viewport=PHONE)  # a second phone on the same link
    beto.goto(ana.url)
    expect(beto.get_by_test_id("sheet-status")).to_contain_text("Ana joga 1 dado(s)")

    _tap(ana, [2])
    ana.get_by_test_id("start-submit").click()
    expect(ana.get_by_test_id("sheet-status")).to_contain_text("Beto tira")
    _tap(ana, [5])
    ana.get_by_test_id("start-submit").click()
    expect(ana.get_by_test_id("sheet-status")).to_have_text("Turno de Beto (ronda 1)")  # the higher die starts
    expect(beto.get_by_test_id("sheet-status")).to_have_text("Vez de Beto (rodada 1)")  # the other phone follows

    # a servida Generala would win at once: the sheet says so before anything is written
    _tap(ana, [3, 3, 3, 3, 3])
    expect(ana.get_by_test_id("wins-at-once")).to_be_visible()
    for i in range(4, -1, -1):
        ana.get_by_test_id(f"typed-{i}").click()  # cleared die by die

    for slot, dice, points in TURNS:
        _enter(ana, dice, 2, slot, points)  # Beto
        _enter(ana, dice, 2, slot, points)  # Ana: the same, so they tie
        if slot == "1":
            expect(ana.get_by_test_id("sheet-chance-0")).to_contain_text("%")  # everyone's chance to win
            expect(beto.get_by_test_id("sheet-undo")).to_have_count(0)  # Beto's phone typed nothing
    total = 3 + 4 + 9 + 16 + 5 + 18 + 20 + 30 + 40 + 50 + 100
    expect(ana.get_by_test_id("sheet-total-0")).to_have_text(str(total))
    expect(ana.get_by_test_id("sheet-total-1")).to_have_text(str(total))
    expect(ana.get_by_test_id("sheet-status")).to_contain_text("Desempate, ronda 1: Beto")
    _tap(ana, [4, 4, 4, 1, 2])
    ana.get_by_test_id("throw-2").click()
    ana.get_by_test_id("hand-submit").click()
    expect(ana.get_by_test_id("sheet-status")).to_contain_text("Desempate, ronda 1: Ana")
    # a wrong entry taken back: only from the phone that typed it
    expect(ana.get_by_test_id("sheet-undo")).to_be_visible()
    ana.get_by_test_id("sheet-undo").click()
    expect(ana.get_by_test_id("sheet-status")).to_contain_text("Desempate, ronda 1: Beto")
    _tap(ana, [4, 4, 4, 1, 2])
    ana.get_by_test_id("throw-2").click()
    ana.get_by_test_id("hand-submit").click()
    _tap(ana, [4, 4, 4, 4, 2])  # Ana's poker beats Beto's three fours
    ana.get_by_test_id("throw-2").click()
    ana.get_by_test_id("hand-submit").click()
    expect(ana.get_by_test_id("sheet-status")).to_have_text("Ganó Ana")
    expect(ana.get_by_test_id("sheet-player-line-0")).to_contain_text("🏆")
    expect(beto.get_by_test_id("sheet-status")).to_have_text("Venceu Ana")
    expect(ana.get_by_test_id("sheet-record")).to_be_visible()
    assert ana.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    # the finished sheet is one of the site's games, marked as played with real dice, and opens from there
    sheet = ana.url.rstrip("/").rsplit("/", 1)[1]
    beto.goto(f"{web.url}/games")
    card = beto.get_by_test_id(f"game-{sheet}")
    expect(card.get_by_test_id("real-dice")).to_have_text("dados reais")
    expect(card).to_contain_text("Ana")
    assert beto.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    card.get_by_role("link", name="Ver a planilha").click()
    expect(beto).to_have_url(re.compile(f"/sheet/{sheet}$"))
    expect(beto.get_by_test_id("sheet-status")).to_have_text("Venceu Ana")
