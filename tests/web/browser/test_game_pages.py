"""In a real browser: create a table on the home page, play a whole game against a bot, verify the dice,
then find the game in the history, the leaderboard, the player's page and the replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    SHORT_PROFILE,
    create_table,
    http_json,
    open_table,
    play_to_end,
    sit,
    table_state,
)
from tests.web.servers import LiveServer

from cubilete.engine.actions import Score
from cubilete.engine.dice import SeededDice
from cubilete.engine.fairness import commitment
from cubilete.engine.record import steps
from cubilete.engine.rules import find_rules


def test_home_creates_a_table_and_a_whole_game_is_played_to_the_verified_end(
    web: LiveServer, new_page: NewPage
) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    expect(page.get_by_test_id("create")).to_be_enabled()
    # the default: you and one casual bot
    expect(page.get_by_test_id("seat-kind-0")).to_have_value("human")
    expect(page.get_by_test_id("seat-kind-1")).to_have_value("bot")
    expect(page.get_by_test_id("seat-level-1")).to_have_value("casual")
    # a third seat comes and goes; the rules' title is shown in the UI language
    page.get_by_test_id("seat-add").click()
    expect(page.get_by_test_id("seat-kind-2")).to_be_visible()
    page.get_by_test_id("seat-remove-2").click()
    expect(page.get_by_test_id("seat-kind-2")).to_have_count(0)
    expect(page.get_by_test_id("rules").locator("option:checked")).to_have_text("Generala (Argentina)")
    page.get_by_test_id("name").fill("Ana")
    page.get_by_test_id("seat-level-1").select_option("greedy")
    page.get_by_test_id("create").click()

    page.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    # the creator is seated by the name given on the home page
    expect(page.get_by_test_id("col-0")).to_contain_text("Ana")
    expect(page.get_by_test_id("share-link")).to_have_value(f"{web.url}/t/{table_id}")
    info = table_state(web.url, table_id)
    assert [(s["kind"], s["level"]) for s in info["table"]["seats"]] == [("human", None), ("bot", "greedy")]
    assert info["table"]["rules"]["name"] == "generala"
    assert info["state"]["seats"][0]["name"] == "Ana"

    written = play_to_end(page)
    final = table_state(web.url, table_id)["state"]
    assert final["status"] == "finished"
    record = http_json(f"{web.url}/api/tables/{table_id}/record")
    # every box the page wrote is one box Ana wrote in the server's record
    written_by_ana = [a for _, a, before in steps(record) if isinstance(a, Score) and before.current == 0]
    assert len(written_by_ana) == written >= 1
    rules = find_rules("generala")
    if final["result"]["reason"] != "instant-win":
        assert all(v is not None for seat in final["seats"] for v in seat["card"])
    # the page's scorecard and totals are the server's
    for i, seat in enumerate(final["seats"]):
        expect(page.get_by_test_id(f"total-{i}")).to_have_text(str(seat["total"]))
        for slot, value in zip(rules.slots, seat["card"], strict=True):
            expect(page.get_by_test_id(f"cell-{i}-{slot}")).to_have_text("" if value is None else str(value))
    names = [final["seats"][w]["name"] for w in final["result"]["winners"]]
    for name in names:
        expect(page.get_by_test_id("result")).to_contain_text(name)

    # the record can be saved as a file, for `cubilete verify FILE --commitment HEX`
    with page.expect_download() as saving:
        page.get_by_test_id("download-record").click()
    saved = Path(saving.value.path())
    assert saving.value.suggested_filename == f"cubilete-{table_id}.json"
    assert json.loads(saved.read_text(encoding="utf-8")) == record

    page.get_by_test_id("verify").click()
    expect(page.get_by_test_id("verify-result")).to_have_text(
        f"All {len(record['throws'])} throws match the commitment."
    )
    expect(page.get_by_test_id("verify-result")).to_have_class(re.compile(r"\bok\b"))
    # the verdict rests on the real derivation: the revealed seed gives the recorded throws
    assert commitment(record["seed"]) == info["table"]["commitment"]
    assert all(list(SeededDice(record["seed"]).throw(i, len(t))) == t for i, t in enumerate(record["throws"]))


def test_history_leaderboard_player_and_replay_show_a_finished_game(web: LiveServer, new_page: NewPage) -> None:
    page = new_page(expected=[r"status of 404 .*/api/leaderboard\?preset=generala-corta"])  # asked for below
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE)
    open_table(page, web.url, table_id)
    sit(page, 0, "Replaya")
    play_to_end(page)
    final = table_state(web.url, table_id)["state"]
    pid = final["seats"][0]["pid"]
    total = final["seats"][0]["total"]

    page.get_by_role("navigation").get_by_role("link", name="Games").click()  # in-app navigation
    card = page.get_by_test_id(f"game-{table_id}")
    expect(card).to_contain_text("Replaya")
    expect(card.get_by_test_id(f"game-{table_id}-player-0")).to_contain_text(str(total))

    # house rules (and games against bots) are not ranked: the board says only official presets are
    page.goto(f"{web.url}/leaderboard?preset=generala-corta")
    expect(page.get_by_role("alert")).to_contain_text("Only the official presets are ranked")

    page.goto(f"{web.url}/p/{pid}")
    expect(page.get_by_test_id("player-name")).to_contain_text("Replaya")
    expect(page.get_by_test_id(f"game-{table_id}")).to_be_visible()

    record = http_json(f"{web.url}/api/tables/{table_id}/record")
    page.goto(f"{web.url}/replay/{table_id}")
    expect(page.get_by_test_id("verify-result")).to_have_text(
        f"All {len(record['throws'])} throws match the commitment."
    )
    # one step per recorded action, starting at the end: the final scorecard is the server's
    n_steps = len(record["actions"])
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step {n_steps} of {n_steps}")
    for i, seat in enumerate(final["seats"]):
        expect(page.get_by_test_id(f"total-{i}")).to_have_text(str(seat["total"]))
    # stepping back to the start empties the scorecard, forward one step shows the first throw's dice
    page.get_by_test_id("replay-first").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step 0 of {n_steps}")
    expect(page.locator("[data-testid^=cell-].written")).to_have_count(0)
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-action")).to_contain_text("threw")
    first_roll_index = len(record["throws"]) - sum("roll" in a for a in record["actions"])
    faces = page.eval_on_selector_all("[data-testid^=replay-die-]", "els => els.map(e => Number(e.dataset.face))")
    assert faces == record["throws"][first_roll_index]
    # the list of turns holds every action
    expect(page.locator("[data-testid^=step-]")).to_have_count(n_steps)
    expect(page.get_by_test_id("review")).to_be_visible()
