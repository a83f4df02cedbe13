"""The replay page checks the site's signature (issue 26): with WebCrypto Ed25519 in the browser, or by
POST /api/verify where the browser cannot (and says so); a record altered on its way is shown as altered.
fair.js's canonical JSON is byte for byte Python's (cubilete.engine.signature.canonical_bytes)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import SHORT_PROFILE, create_table, http_json, table_state
from tests.web.servers import LiveServer

from cubilete.engine import signature
from cubilete.web.signing import FILE_NAME, read_site_keys

BOTS = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "heuristic"}]
FINISH_DEADLINE = 60.0  # seconds two bots may take over a two-round game (they take well under one)


def _finished_table(web: LiveServer) -> tuple[str, dict[str, Any]]:
    table_id = create_table(web.url, BOTS, profile=SHORT_PROFILE)
    deadline = time.monotonic() + FINISH_DEADLINE
    while table_state(web.url, table_id)["state"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.05)
    return table_id, http_json(f"{web.url}/api/tables/{table_id}/record")


def _signature_result(page: Page, state: str, where: str) -> None:
    result = page.get_by_test_id("signature-result")
    expect(result).to_have_attribute("data-state", state)
    expect(result).to_have_attribute("data-where", where)


def test_the_replay_page_checks_the_signature_itself(web: LiveServer, new_page: NewPage) -> None:
    table_id, record = _finished_table(web)
    page = new_page()
    page.goto(f"{web.url}/replay/{table_id}")
    _signature_result(page, "ok", "browser")
    expect(page.get_by_test_id("signature-result")).to_have_text(
        f"The site's signature (key {record['signature']['key']}) covers the whole record: nothing was changed.")


@pytest.mark.parametrize("field", ["players", "actions", "table"])
def test_the_replay_page_shows_an_altered_record_as_altered(web: LiveServer, new_page: NewPage, field: str) -> None:
    table_id, record = _finished_table(web)
    forged = json.loads(json.dumps(record))
    if field == "players":
        forged["players"][0] += "x"
    elif field == "actions":
        forged["actions"].append({"stand": True})  # one more action than was played
    else:
        forged["table"] = "zz" + forged["table"][2:]
    page = new_page()

    def altered(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(forged))

    page.route(f"**/api/tables/{table_id}/record", altered)
    page.goto(f"{web.url}/replay/{table_id}")
    _signature_result(page, "bad", "browser")
    expect(page.get_by_test_id("signature-result")).to_have_class("verify-result bad")


def test_without_webcrypto_the_page_asks_the_server_and_says_so(web: LiveServer, new_page: NewPage) -> None:
    table_id, record = _finished_table(web)
    page = new_page()
    # as on a plain-http LAN address: no crypto.subtle at all
    page.add_init_script("Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined });")
    page.goto(f"{web.url}/replay/{table_id}")
    _signature_result(page, "ok", "server")
    expect(page.get_by_test_id("signature-result")).to_contain_text("The server checked")

    forged = json.loads(json.dumps(record))
    forged["totals"][0] += 1
    page2 = new_page()
    page2.add_init_script("Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined });")
    page2.route(f"**/api/tables/{table_id}/record",
                lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(forged)))
    page2.goto(f"{web.url}/replay/{table_id}")
    _signature_result(page2, "bad", "server")


CANONICAL_CASES: list[dict[str, Any]] = [
    {"b": 1, "a": [True, False, None], "z": {"y": -3, "x": ""}},
    {"players": ["ñandú 🎲", 'q"uo\\te', "tab\tnew\nline\x01\x1f\x7f", "\u2028"], "n": 10**15},
    {"signature": {"value": "dropped"}, "keep": "this"},
]


def test_canonical_json_is_pythons_byte_for_byte(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{web.url}/games")
    got = page.evaluate(
        """async (cases) => {
            const f = await import('/static/fair.js');
            const unsigned = (c) => Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'signature'));
            return cases.map((c) => f.canonicalJSON(unsigned(c)));
        }""",
        CANONICAL_CASES,
    )
    assert [g.encode("utf-8") for g in got] == [signature.canonical_bytes(c) for c in CANONICAL_CASES]


def test_fair_js_verifies_a_record_signed_in_python(web: LiveServer, new_page: NewPage) -> None:
    keys = read_site_keys(Path(web.db_url.removeprefix("sqlite:///")).parent / FILE_NAME)
    signed = keys.sign({"format": "cubilete-game", "players": ["Ana ñ", "bot"], "note": "tab\there"})
    page = new_page()
    page.goto(f"{web.url}/games")
    results = page.evaluate(
        """async ([rec, listing]) => {
            const f = await import('/static/fair.js');
            const forged = { ...rec, note: 'x' };
            return [await f.verifySignature(rec, listing), await f.verifySignature(forged, listing),
                    await f.verifySignature({ ...rec, signature: undefined }, listing),
                    await f.verifySignature({ ...rec, signature: { ...rec.signature, key: 'ffff' } }, listing)];
        }""",
        [signed, keys.listing()],
    )
    assert [r["state"] for r in results] == ["ok", "bad", "unsigned", "unknownkey"]
