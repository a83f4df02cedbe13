"""Pages that say what happened (issue 25, web item 5): an unknown address is a page in the person's language
with a way home (the API keeps answering JSON), an unknown table says so instead of showing an empty felt,
the replay shows the seed and the commitment it checked, a reload keeps the dice chosen to hold, and the
coach's numbers are written the way the page's language writes them."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.error
import urllib.request

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import NO_SUDDEN_END, create_table, http_json, open_table, roll, sit, wait_my_turn_or_end
from tests.web.servers import LiveServer
from tests.web.test_crash import Match

NOT_FOUND = [r"status of 404"]  # the 404s these tests ask for


def _get(url: str, accept: str) -> tuple[int, str, str]:
    """GET with an Accept header: status, content type and body (an error status is an answer too)."""
    req = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers.get("content-type", ""), resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("content-type", ""), exc.read().decode()


def test_an_unknown_address_is_a_page_for_a_browser_and_json_for_the_api(web: LiveServer) -> None:
    status, kind, body = _get(f"{web.url}/no/such/page", "text/html,application/xhtml+xml,*/*;q=0.8")
    assert (status, kind.split(";")[0]) == (404, "text/html") and "<main" in body
    status, kind, body = _get(f"{web.url}/api/no-such-thing", "text/html,*/*")
    assert (status, kind, json.loads(body)) == (404, "application/json", {"error": "Not Found"})
    status, kind, body = _get(f"{web.url}/no/such/page", "application/json")  # a program asking: JSON as before
    assert (status, json.loads(body)) == (404, {"error": "Not Found"})


def test_an_unknown_address_says_so_in_the_persons_language(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="pt-BR", expected=NOT_FOUND)
    answer = page.goto(f"{web.url}/nada/aqui")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Esta página não existe.")
    page.get_by_role("main").get_by_role("link", name="Nova mesa").click()
    expect(page.get_by_test_id("seat-kind-0")).to_be_visible()  # the home page, through the link


def test_an_unknown_table_says_there_is_none_and_leads_home(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(locale="es-AR", expected=NOT_FOUND)
    page.goto(f"{web.url}/t/nosuchid")
    expect(page.get_by_test_id("conn")).to_have_text("No existe esa mesa.")
    expect(page.get_by_test_id("sheet")).to_be_hidden()  # no empty felt and sheet
    expect(page.get_by_test_id("dice")).to_be_hidden()
    page.get_by_test_id("gone-home").click()
    expect(page.get_by_test_id("seat-kind-0")).to_be_visible()


def test_the_replay_shows_the_seed_and_its_commitment(web: LiveServer, new_page: NewPage) -> None:
    match = Match(web)
    match.sit()
    while match.state["status"] != "finished":
        match.step()
    match.drop()
    record = http_json(f"{web.url}/api/tables/{match.table}/record")
    page = new_page()
    page.goto(f"{web.url}/replay/{match.table}")
    expect(page.get_by_test_id("verify-result")).to_have_class(re.compile(r"\bok\b"))
    expect(page.get_by_test_id("replay-seed")).to_have_text(record["seed"])
    # the commitment shown is the hash of the seed shown: what a player can check by hand
    expect(page.get_by_test_id("replay-commitment")).to_have_text(hashlib.sha256(record["seed"].encode()).hexdigest())


def test_a_reload_keeps_the_dice_chosen_to_hold(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], rules=NO_SUDDEN_END)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Recarga")
    assert wait_my_turn_or_end(page)
    roll(page)
    for i in (1, 3):
        page.get_by_test_id(f"die-{i}").click()
        expect(page.get_by_test_id(f"die-{i}")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.get_by_test_id("roll")).to_be_enabled()
    pressed = [page.get_by_test_id(f"die-{i}").get_attribute("aria-pressed") for i in range(5)]
    assert pressed == ["false", "true", "false", "true", "false"]
    # after the next throw the choice is made again: letting go of a die the server still lists as kept
    roll(page)
    expect(page.get_by_test_id("die-1")).to_have_attribute("aria-pressed", "true")  # kept in the last throw
    page.get_by_test_id("die-1").click()
    expect(page.get_by_test_id("die-1")).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.get_by_test_id("roll")).to_be_enabled()
    # die 3 was kept in the last throw and not let go
    assert [page.get_by_test_id(f"die-{i}").get_attribute("aria-pressed") for i in range(5)] == ["false"] * 3 + [
        "true",
        "false",
    ]


def test_numbers_are_written_the_way_the_language_writes_them(web: LiveServer, new_page: NewPage) -> None:
    # one helper for every number shown, and the coach's sentences the server wrote with decimal points
    # ("expected 160.6, 45.3% to win") rewritten by it, so es and pt never mix "160,6" and "160.6"
    page = new_page()
    page.goto(f"{web.url}/games")
    got = page.evaluate(
        """async () => {
            const i18n = await import('/static/i18n.js');
            const out = {};
            for (const code of ['es', 'pt', 'en']) {
                i18n.setLang(code);
                out[code] = [i18n.num(1234.5, 1), i18n.numbersIn('expected 160.6, 45.3% to win; keep 5 5')];
            }
            return out;
        }"""
    )
    assert got == {
        "es": ["1.234,5", "expected 160,6, 45,3% to win; keep 5 5"],
        "pt": ["1.234,5", "expected 160,6, 45,3% to win; keep 5 5"],
        "en": ["1,234.5", "expected 160.6, 45.3% to win; keep 5 5"],
    }
