"""The many-column sheet valued as the sum of its columns, each solved on its own."""

from __future__ import annotations

import numpy as np
import pytest

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Order
from cubilete.play.bots import make_bot
from cubilete.play.bots.approx import APPROX_NOTE, COLUMNS_NOTE
from cubilete.solver.approx.columns import column_rules, column_values, decomposes
from cubilete.solver.cache import load_or_solve, tables_only

FOUR = find_rules("general-4-columns")


def test_each_column_is_the_sheet_with_that_order_alone() -> None:
    parts = column_rules(FOUR)
    assert [r.columns for r in parts] == [(Order.DOWN,), (Order.UP,), (Order.FREE,), (Order.FIRST_THROW,)]
    assert all(r.boxes == FOUR.boxes and r.dice == FOUR.dice and r.turns == len(FOUR.boxes) for r in parts)


def test_which_rules_decompose() -> None:
    assert decomposes(FOUR)
    assert not decomposes(find_rules("general"))  # one column: solved exactly instead
    assert not decomposes(FOUR.replace(rounds=40))  # fewer turns than slots: columns compete for turns
    assert not decomposes(find_rules("maxi-yatzy"))  # one column, throws carried over


def test_the_free_column_is_general_itself() -> None:
    values = column_values(FOUR)
    assert values is not None
    general = load_or_solve(find_rules("general"))
    assert np.array_equal(values.solutions[2].values, general.values)


def test_the_future_is_the_sum_of_the_columns() -> None:
    values = column_values(FOUR)
    assert values is not None
    empty = [None] * len(FOUR.slots)
    starts = [float(s.values[0, 0, 0]) for s in values.solutions]
    assert values.future(empty) == pytest.approx(sum(starts), abs=1e-9)
    # the down column's first box written: only that column's value changes
    card = list(empty)
    card[0] = 3  # three 1s in the first box of the down column
    down = values.solutions[0]
    assert values.future(card) - values.future(empty) == pytest.approx(
        values.column_value(0, tuple(card[:13])) - float(down.values[0, 0, 0]), abs=1e-12
    )
    assert values.column_value(0, tuple(card[:13])) < float(down.values[0, 0, 0])  # a box used up


def test_a_full_column_has_nothing_to_come() -> None:
    values = column_values(FOUR)
    assert values is not None
    full = tuple([0] * 13)
    assert all(values.column_value(c, full) == 0.0 for c in range(4))


def test_the_bot_says_how_it_values_the_future() -> None:
    game = Game(FOUR, ["a"], seed="columns-note")
    bot = make_bot("bot:optimal", "n")
    game.apply(bot.choose(game))  # the first throw
    analysis = bot.analyse(game)
    assert analysis.note == COLUMNS_NOTE.format(rules=FOUR.name)
    assert not analysis.exact


def test_a_server_that_never_solves_falls_back_to_the_box_estimate(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))  # nothing solved here
    rules = FOUR.replace(name="general-4-columns-fresh", title="fresh")
    with tables_only():
        assert column_values(rules) is None
        game = Game(rules, ["a"], seed="fallback")
        bot = make_bot("bot:optimal", "f")
        game.apply(bot.choose(game))
        assert bot.analyse(game).note == APPROX_NOTE.format(rules=rules.name)


def _play_alone(seed: str) -> int:
    game = Game(FOUR, ["bot"], seed=seed)
    bot = make_bot("bot:optimal", seed + ":bot")
    while not game.is_over:
        game.apply(bot.choose(game))
    return game.totals()[0]


@pytest.mark.slow
def test_valuing_by_columns_scores_more_than_the_box_estimate(monkeypatch) -> None:
    """Same seeded games, both ways: the 95% interval of the mean difference lies above 0
    (measured over 200 games in docs/BOTS.md: about +70 points a game)."""
    import statistics

    import cubilete.play.bots.approx as approx

    seeds = [f"columns-test:{i}" for i in range(12)]
    by_columns = [_play_alone(s) for s in seeds]
    monkeypatch.setattr(approx, "column_values", lambda rules: None)
    approx._planner.cache_clear()
    by_boxes = [_play_alone(s) for s in seeds]
    approx._planner.cache_clear()
    diff = [a - b for a, b in zip(by_columns, by_boxes, strict=True)]
    half = 1.96 * statistics.stdev(diff) / len(diff) ** 0.5
    assert statistics.mean(diff) - half > 0, (by_columns, by_boxes)
