"""Whole games played through the terminal app with the keyboard only, against a bot, to the
end screen; the final table is checked against the rules and an independent replay."""

from __future__ import annotations

from pathlib import Path

from tests.tui.pilot import SIZE, pilot_test, play_to_the_end, table_rows, wait_until
from textual.widgets import DataTable

from cubilete.engine import record
from cubilete.engine.rules import Rules
from cubilete.engine.state import Phase
from cubilete.store.stats import StatsDB
from cubilete.tui import make_app
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.widgets.scorecard import ScoreCard


def check_final_table(end: EndScreen) -> None:
    """Every total shown is the sum of the cells shown plus the bonuses the rules pay, and
    equals the total of an independent replay of the game's record; the ranking agrees."""
    game = end.session.game
    rules: Rules = game.rules
    replay = record.loads(record.dumps(game))
    assert replay.is_over
    sheet = table_rows(end.query_one(ScoreCard))
    shown_totals = []
    for seat, name in enumerate(game.players):
        column = 1 + seat
        cells = {slot: sheet[slot][column] for slot in rules.slots}
        assert all(c.isdigit() or c == "·" for c in cells.values()), cells
        boxes = sum(int(c) for c in cells.values() if c != "·")
        upper = sum(int(c) for slot, c in cells.items() if c != "·" and rules.box(slot).is_upper)
        bonus = rules.upper_bonus if rules.upper_bonus and upper >= rules.upper_bonus_threshold else 0
        extra = int(sheet["_extra"][column]) if rules.extra_bonus else 0
        if rules.extra_bonus:
            assert extra % rules.extra_bonus == 0
        total = int(sheet["_total"][column])
        assert total == boxes + bonus + extra, (name, cells)
        assert total == replay.totals()[seat]
        if game.state.reason is not None and game.state.reason.value != "instant-win":
            assert "·" not in cells.values(), f"{name} has open boxes at the end"
        shown_totals.append(total)
    ranking = table_rows(end.query_one("#ranking", DataTable))
    order = [(row[3] != "winner", -int(row[2])) for row in ranking.values()]
    assert order == sorted(order), "winners first, then by total"
    assert sorted(ranking) == sorted(game.players)
    for name, row in ranking.items():
        assert int(row[2]) == shown_totals[game.players.index(name)]
        assert (row[3] == "winner") == (game.players.index(name) in game.state.winners)


class TestWholeGames:
    @pilot_test
    async def test_generala_against_the_bot(self, tmp_path: Path) -> None:
        app = make_app(rules="generala", players=["Ana", "bot"], seed=7, lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            end = await play_to_the_end(pilot)
            game = end.session.game
            assert game.is_over and game.rules.name == "generala"
            check_final_table(end)
            await wait_until(pilot, lambda: end.review is not None)
            review = end.query_one("#review").render()
            assert "Ana:" in str(review) and "points lost against optimal play" in str(review)
        with StatsDB(tmp_path / "stats.sqlite3") as db:
            games = db.games()
        assert len(games) == 1
        assert games[0].players == ("Ana", "bot") and games[0].totals == tuple(game.totals())

    @pilot_test
    async def test_yahtzee_against_the_bot(self, tmp_path: Path) -> None:
        app = make_app(rules="yahtzee", players=["Ana", "bot"], seed=11, lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            end = await play_to_the_end(pilot)
            game = end.session.game
            assert game.rules.name == "yahtzee" and game.state.phase is Phase.OVER
            assert len(game.history) >= 2 * 13 * 2  # 13 turns each, a throw and a box at least
            check_final_table(end)

    @pilot_test
    async def test_a_corrupt_stats_file_is_a_notice_not_a_crash(self, tmp_path: Path) -> None:
        (tmp_path / "stats.sqlite3").write_bytes(b"this is not a database")
        app = make_app(rules="generala", players=["bot"], seed=3, lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            end = await play_to_the_end(pilot)
            assert end.session.game.is_over
            shown = [n.message for n in app._notifications]
            assert any("statistics could not be saved" in m for m in shown), shown
        assert (tmp_path / "stats.sqlite3").read_bytes() == b"this is not a database"
