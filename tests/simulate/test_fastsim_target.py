"""The compiled target bot (``target:T``) plays the Python target bot's games: deals replayed through
:class:`Game` with the same dice (:class:`CounterDice`) and ``bots/target.py`` give the same moves, scores and
winners; and it reaches T as often as the target table says (its exact best), where the optimal bot
reaches T as often as the follow table says (points play)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
from tests.simulate.test_fastsim import check_replay, picks

from cubilete.engine.rules import find_rules, load_rules
from cubilete.engine.rules.model import Rules
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim import kernels as K
from cubilete.simulate.pool import simulate
from cubilete.win.distribution import survival_from
from cubilete.win.play import reach_probability
from cubilete.win.tables import vector_table

MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"


@pytest.fixture(autouse=True)
def _cache(bots_solver_cache: Path) -> None:
    """Each preset is solved once per session (its win tables too)."""


def without_instant_wins(rules: Rules) -> Rules:
    """The rules with no instant win: the target tables value a sheet as if the game went on after a servida
    Generala (a solitaire goal), so a game that ends there is not what they count."""
    boxes = tuple(dataclasses.replace(b, instant_win=False) for b in rules.boxes)
    return rules.replace(name=f"{rules.name}-no-instant-win", boxes=boxes)


def exact_reach(rules: Rules, target: int) -> tuple[float, float]:
    """P(final >= target) from the empty sheet: the target table's best, and points play (the follow table)."""
    empty = [None] * len(rules.slots)
    row = survival_from(vector_table(rules, "follow"), empty)
    return reach_probability(rules, empty, target), float(row[target]) if target < row.size else 0.0


def check_frequencies(rules: Rules, target: int, deals: int, seed: str) -> None:
    """Solo on the same dice, no instant win: the target bot's share of games reaching the target is its exact
    best within 4 standard errors, the optimal bot's is points play's, and the target bot reaches it more often."""
    rules = without_instant_wins(rules)
    best, points = exact_reach(rules, target)
    assert best > points
    batch = fastsim.play(rules, [f"target:{target}", "optimal"], seed, deals, "solo")
    for bot, want in ((0, best), (1, points)):
        reached = (batch.scores[:, bot, 0] >= target).astype(np.float64)
        se = math.sqrt(want * (1 - want) / deals)
        assert abs(float(reached.mean()) - want) < 4 * se, (target, bot, float(reached.mean()), want)
    gain = (batch.scores[:, 0, 0] >= target).astype(np.float64) - (batch.scores[:, 1, 0] >= target)
    assert gain.mean() - 4 * gain.std(ddof=1) / math.sqrt(deals) > 0


def test_mini_generala_target_bot_replays_solo_and_at_a_table() -> None:
    mini = load_rules(str(MINI))
    solo = fastsim.play(mini, ["target:5", "target:55", "optimal"], "target-solo", 300, "solo", trace=100)
    for d in range(4):
        for r in range(3):
            check_replay(solo, d, r)
    assert (solo.scores[:, 0] != solo.scores[:, 2]).any() and (solo.scores[:, 1] != solo.scores[:, 2]).any()
    table = fastsim.play(mini, ["target:55", "optimal"], "target-table", 1_500, "paired", trace=200)
    assert set(np.unique(table.reason)) >= {K.POINTS, K.INSTANT, K.TIEBREAK}
    for d, r in [(0, 0), (0, 1), (1, 0), (1, 1), *picks(table, 3)]:
        check_replay(table, d, r)
    both = fastsim.play(mini, ["target:5", "win"], "target-win", 20, "table", trace=200)
    for d in range(3):
        check_replay(both, d, 0)


def test_generala_target_bot_replays() -> None:
    generala = find_rules("generala")
    solo = fastsim.play(generala, ["target:200", "target:250"], "target-generala", 4, "solo", trace=120)
    for d in range(2):
        for r in range(2):
            check_replay(solo, d, r)
    table = fastsim.play(generala, ["target:200", "optimal"], "target-generala-2", 3, "paired", trace=300)
    check_replay(table, 0, 0)
    check_replay(table, 0, 1)


def test_mini_generala_target_bot_reaches_its_target_as_the_table_says() -> None:
    mini = load_rules(str(MINI))
    for target in (5, 55):
        check_frequencies(mini, target, 20_000, f"reach-{target}")


@pytest.mark.slow
@pytest.mark.parametrize("target", [200, 250])
def test_generala_target_bot_reaches_its_target_as_the_table_says(target: int) -> None:
    """Generala from the empty sheet: best 0.1771 (200) and 0.0778 (250), points play 0.1374 and 0.0502
    (docs/WINNING.md), over 20,000 solo deals."""
    check_frequencies(find_rules("generala"), target, 20_000, f"generala-reach-{target}")


def test_what_the_compiled_target_bot_plays_is_said() -> None:
    generala = find_rules("generala")
    assert fastsim.kind_of("target:200") == (K.TARGET, 200) and fastsim.kind_of("target:x") is None
    assert [fastsim.kind_of(lv) for lv in ("optimal", "exact", "win")] == [(K.OPTIMAL, 0), (K.EXACT, 0), (K.WIN, 0)]
    assert fastsim.unsupported(generala, ["target:200"], "solo") is None
    assert "target bot needs the win tables" in (fastsim.unsupported(find_rules("yahtzee"), ["target:200"]) or "")
    mini = load_rules(str(MINI))
    result = simulate(mini, ["target:55", "optimal"], games=200, seed="cli-target", workers=1, mode="solo")
    assert result.compiled and [b.games for b in result.bots] == [200, 200]
