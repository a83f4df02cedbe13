"""The browser's own checks against the Python originals: fair.js (SHA-256, the dice derivation, verify)
and i18n.js (every string in every language). Golden values come from hashlib and SeededDice."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from playwright.sync_api import Page
from tests.web.browser.conftest import NewPage
from tests.web.servers import LiveServer

from cubilete.engine.dice import SeededDice
from cubilete.engine.fairness import commitment, new_seed

TEXTS = ["", "abc", "a" * 55, "a" * 56, "a" * 64, "x" * 1000, "ñandú 🎲", "player:" + "0" * 32]


@pytest.fixture
def page(web: LiveServer, new_page: NewPage) -> Page:
    """A page of the app (plain http, so no crypto.subtle is used)."""
    p = new_page()
    p.goto(f"{web.url}/games")
    return p


def _fair(page: Page, body: str, arg: object) -> Any:
    return page.evaluate(f"async (arg) => {{ const f = await import('/static/fair.js'); {body} }}", arg)


def test_sha256_matches_hashlib_across_block_boundaries(page: Page) -> None:
    got = _fair(page, "return arg.map((s) => f.sha256Hex(s));", TEXTS)
    assert got == [hashlib.sha256(s.encode()).hexdigest() for s in TEXTS]


def test_derivation_matches_seeded_dice(page: Page) -> None:
    cases = [["7", 0, 5], ["s3cret", 12, 3], ["x", 3, 40], [new_seed(), 99, 6], ["ñ", 1, 1]]
    got = _fair(page, "return arg.map(([s, i, n]) => f.deriveThrow(s, i, n));", cases)
    assert got == [list(SeededDice(s).throw(i, n)) for s, i, n in cases]


def test_verify_accepts_the_truth_and_names_the_first_bad_throw(page: Page) -> None:
    seed = new_seed()
    throws = [list(SeededDice(seed).throw(i, n)) for i, n in enumerate([1, 1, 5, 3, 5, 2])]
    args = {"seed": seed, "commitment": commitment(seed), "throws": throws}
    ok = _fair(page, "return f.verify(arg.seed, arg.commitment, arg.throws);", args)
    assert ok == {"ok": True, "throws": 6, "problem": None}
    text = _fair(
        page, "return f.describe(f.verify(arg.seed, arg.commitment, arg.throws), (k, p) => k + ':' + p.n);", args
    )
    assert text == "fair.ok:6"

    tampered = [list(t) for t in throws]
    tampered[3][1] = tampered[3][1] % 6 + 1  # one die of the fourth throw changed
    tampered[4][0] = tampered[4][0] % 6 + 1  # and a later one: the first bad throw is reported
    bad = _fair(page, "return f.verify(arg.seed, arg.commitment, arg.throws);", {**args, "throws": tampered})
    assert bad["ok"] is False
    assert bad["problem"] == {"kind": "throw", "index": 4, "got": tampered[3], "want": throws[3]}

    wrong_commit = _fair(
        page, "return f.verify(arg.seed, arg.commitment, arg.throws);", {**args, "commitment": commitment(seed + "x")}
    )
    assert wrong_commit["problem"] == {"kind": "commitment"}
    no_seed = _fair(page, "return f.verify(null, arg.commitment, arg.throws);", args)
    assert no_seed["problem"] == {"kind": "noseed"}


def test_every_string_is_in_every_language(page: Page) -> None:
    tables = page.evaluate("async () => (await import('/static/i18n.js')).STRINGS")
    assert set(tables) == {"es", "pt", "en"}
    keys = {lang: set(strings) for lang, strings in tables.items()}
    assert keys["es"] == keys["pt"] == keys["en"]
    for lang, strings in tables.items():
        assert all(isinstance(v, str) and v.strip() for v in strings.values()), lang

    # placeholders agree across languages, so no translation drops a value
    def holes(text: str) -> set[str]:
        return set(re.findall(r"\{(\w+)\}", text))

    for key in keys["en"]:
        assert holes(tables["es"][key]) == holes(tables["pt"][key]) == holes(tables["en"][key]), key
    # every error code of docs/WEB.md has a translation
    codes = [
        "bad-json",
        "too-big",
        "bad-message",
        "rate-limited",
        "not-seated",
        "not-your-turn",
        "stale",
        "illegal",
        "seat-taken",
        "name-taken",
        "already-seated",
        "game-over",
        "undo-refused",
        "coach-off",
        "not-started",
        "server-error",
        "bad-name",
        "expired",  # web/expiry.py
    ]
    assert {f"err.{c}" for c in codes} <= keys["en"]


def test_the_servers_refusals_of_a_new_table_are_shown_in_the_pages_language(page: Page) -> None:
    # the messages as the server words them (web/api.py, web/solving.py, web/hub.py)
    refusals = [
        (429, "too many tables created from this address: try again in 12 s"),
        (503, "the server is solving 5 other rule sets (solve_workers + solve_queue = 5); try again in a minute"),
        (503, "the site has 400 tables in play, as many as it takes: try again later"),
        (429, "this address already has 5 tables waiting for players, as many as it may: fill or finish one first"
              " (a table nobody joins expires after 15 min)"),  # web/expiry.py
        (429, "too many profile checks from this address: try again in 3 s"),  # web/profiles.py
    ]
    shown = page.evaluate(
        """async (cases) => {
            const m = await import('/static/i18n.js');
            m.setLang('es');
            return cases.map(([status, message]) => m.apiErrorText({ status, message }));
        }""",
        refusals,
    )
    assert shown == [
        "Se crearon demasiadas mesas desde esta dirección: probá de nuevo en un rato.",
        "El servidor está resolviendo otras reglas: probá de nuevo en un minuto.",
        "El sitio tiene todas las mesas que admite: probá de nuevo más tarde.",
        "Desde esta dirección ya hay mesas esperando jugadores: completá o terminá una antes (una mesa a la que nadie"
        " se sienta vence sola al rato).",
        "Demasiadas comprobaciones de reglas desde esta dirección: esperá un momento.",
    ]


def _duplicate_record(rules_name: str, players: list[str], seed: str) -> dict[str, Any]:
    """A whole game on duplicate dice played by greedy bots, as the site records it."""
    from cubilete import Game
    from cubilete.engine.dice import DuplicateDice
    from cubilete.engine.record import to_record
    from cubilete.engine.rules import find_rules
    from cubilete.play.bots import make_bot

    game = Game(find_rules(rules_name), players, seed, DuplicateDice(seed))
    levels = ["greedy", "greedy"] if len(players) == 2 else ["greedy", "heuristic", "random"][: len(players)]
    bots = [make_bot(f"bot:{level}", seed=f"{seed}{i}") for i, level in enumerate(levels)]
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    record = to_record(game)
    record["cards"] = [list(seat.card) for seat in game.state.seats]  # the final cards, as the table's state has them
    return record


def test_duplicate_dice_are_derived_and_checked_as_in_python(page: Page) -> None:
    from cubilete.engine.dice import DuplicateDice

    cases = [["7", "play:0:0", [0, 1, 2, 3, 4]], ["s3cret", "play:4:2", [1, 3]], ["ñ", "start:0", [0]]]
    got = _fair(page, "return arg.map(([s, place, pos]) => f.deriveAt(s, place, pos));", cases)
    assert got == [list(DuplicateDice(s).throw_at(place, pos)) for s, place, pos in cases]

    games = [("generala", ["Ana", "Bea"], f"tie-{k}") for k in range(4)]  # the same dice and bot: a tie-break
    # three different bots: a tie among three, whose next round the page cannot place, is left to the CLI
    games += [("yatzy", ["Ana"], new_seed()), ("bozo", ["Ana", "Bea", "Caro"], "three-7")]
    for rules_name, players, seed in games:
        record = _duplicate_record(rules_name, players, seed)
        record["commitment"] = commitment(record["seed"])  # as the site publishes it
        check = ("const r = await import('/static/replay.js'); "
                 "return f.verify(arg.seed, arg.commitment, arg.throws, r.throwPlaces(arg, arg.cards));")
        assert _fair(page, check, record) == {"ok": True, "throws": len(record["throws"]), "problem": None}, rules_name
        tampered = {**record, "throws": [list(t) for t in record["throws"]]}
        tampered["throws"][-1][0] = tampered["throws"][-1][0] % 6 + 1
        bad = _fair(page, check, tampered)
        assert bad["problem"]["kind"] == "throw" and bad["problem"]["index"] == len(record["throws"])
