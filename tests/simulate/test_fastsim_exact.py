"""The compiled exact bot values one lead per turn (the lead on the table, clamped into its row's window)
and still plays the Python exact bot's moves (:mod:`cubilete.play.bots.exact`, which values the whole window):
compiled deals replayed through :class:`Game` with the same dice give the same moves, scores and winners,
turns whose lead lies outside the row's window included."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.caches import cache_dir
from tests.simulate.test_fastsim import REASONS, picks

from cubilete.duel.advisor import sheet_number
from cubilete.engine.actions import Score, Stand
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules, scoring
from cubilete.engine.rules.model import Rules
from cubilete.play.bots import make_bot
from cubilete.play.bots.exact import duel_for
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim import kernels as K
from cubilete.simulate.fastsim.dice import CounterDice
from cubilete.solver.combinatorics import dice_tables


@pytest.fixture(scope="module", autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with cache_dir(tmp_path_factory.mktemp("fastsim-exact-cache")) as path:
        yield path


def five_boxes() -> Rules:
    """Generala's lower boxes only (Escalera, Full, Póker, Generala, Doble): 5 dice, 3 throws, servida
    values, the instant win and tie-break rounds; its two-player table is solved in seconds."""
    g = find_rules("generala")
    return g.replace(name="generala-5-boxes", boxes=g.boxes[6:])


def replay(batch: fastsim.Batch, d: int, r: int) -> int:
    """Replay deal d, run r through the engine with the Python bots, check it is the compiled game, and
    return how many of the exact bot's turns began with a lead outside its row's window."""
    rules = batch.rules
    seats = [s for s in batch.seating[r] if s >= 0]
    game = Game(rules, ["p0", "p1"], dice=CounterDice(batch.key, batch.first + d))
    bots = [make_bot(f"bot:{batch.levels[s]}", 0) for s in seats]
    tables = dice_tables(rules.dice)
    solution = duel_for(rules)
    assert solution is not None
    codes: list[int] = []
    outside = 0
    while not game.is_over:
        st = game.state
        me = st.current
        action = bots[me].choose(game)
        turn = st.turn
        if isinstance(action, Score):
            codes.append(K.SCORE_BASE + rules.slot_index(action.slot))
        elif isinstance(action, Stand):
            codes.append(K.STAND)
        elif turn.throws == 0:
            codes.append(K.FIRST_ROLL)
            if batch.levels[seats[me]] == "exact" and st.phase.value == "play":
                mine, theirs = st.seats[me], st.seats[1 - me]
                lead = scoring.total(rules, mine.card, mine.extra_bonuses) - scoring.total(
                    rules, theirs.card, theirs.extra_bonuses
                )
                row = solution.joint.row_of(
                    st.order[0] == me, sheet_number(solution, mine.card), sheet_number(solution, theirs.card)
                )
                width = int(solution.joint.row_off[row + 1] - solution.joint.row_off[row])
                lo = int(solution.joint.row_lo[row])
                outside += not lo <= lead < lo + width
        else:
            codes.append(tables.index(tuple(sorted(turn.dice[p] for p in action.keep))))
        game.apply(action)
    assert batch.trace[d, r, : len(codes)].tolist() == codes, (d, r)
    assert batch.scores[d, r, :2].tolist() == game.totals()
    assert sorted(np.flatnonzero(batch.won[d, r, :2]).tolist()) == sorted(game.state.winners)
    assert batch.starter[d, r] == game.state.order[0]
    assert batch.reason[d, r] == REASONS[game.state.reason]
    return outside


def lopsided(batch: fastsim.Batch, count: int) -> list[tuple[int, int]]:
    """The games with the largest final margins (where leads leave the rows' windows)."""
    margin = np.abs(batch.scores[:, :, 0] - batch.scores[:, :, 1])
    order = np.argsort(-margin, axis=None, kind="stable")[:count]
    return [(int(i) // margin.shape[1], int(i) % margin.shape[1]) for i in order]


def test_five_box_generala_replays_including_leads_outside_the_window() -> None:
    rules = five_boxes()
    batch = fastsim.play(rules, ["exact", "optimal"], "exact-lead", 1_000, "paired", trace=150)
    assert set(np.unique(batch.reason)) >= {K.POINTS, K.INSTANT, K.TIEBREAK}
    outside = 0
    for d, r in dict.fromkeys([(0, 0), (0, 1), (1, 0), (1, 1), *picks(batch, 2), *lopsided(batch, 8)]):
        outside += replay(batch, d, r)
    assert outside > 0  # the clamping was exercised


def test_exact_against_itself_wins_as_the_table_says() -> None:
    """The first player's share of 20,000 compiled games of the exact bot against itself is the table's
    first_player_wins (which no simulation wrote) within 4 standard errors."""
    rules = five_boxes()
    solution = duel_for(rules)
    assert solution is not None
    n = 20_000
    batch = fastsim.play(rules, ["exact", "exact"], "exact-self", n, "table")
    first = batch.won[np.arange(n), 0, batch.starter[:, 0]].astype(np.float64)
    shared = batch.won[:, 0, :2].sum(axis=1) == 2
    x = np.where(shared, 0.5, first)
    se = float(x.std(ddof=1)) / math.sqrt(n)
    assert abs(float(x.mean()) - solution.first_player_wins) < 4 * se


@pytest.mark.slow
def test_full_generala_replays(tmp_path: Path, generala_duel_cache: Path) -> None:
    """Full Generala's table (the session's, read and never written): compiled games of the
    exact bot against the optimal bot replay through the engine move for move."""
    rules = find_rules("generala")
    for f in generala_duel_cache.iterdir():  # a private folder of links: nothing is ever written beside the table
        (tmp_path / f.name).symlink_to(f)
    from cubilete.duel import cache
    from cubilete.play.bots import exact

    exact._REFUSED.discard(rules)  # an earlier test in this process may have found no table
    try:
        with cache_dir(tmp_path):
            batch = fastsim.play(rules, ["exact", "optimal"], "exact-generala", 200, "paired", trace=120)
            for d, r in dict.fromkeys([(0, 0), (0, 1), (1, 0), (1, 1), *picks(batch, 1), *lopsided(batch, 3)]):
                replay(batch, d, r)
    finally:  # later tests of this process see no Generala table again
        cache._SHARED.pop(rules, None)
        fastsim._PREPARED.pop(rules, None)


def test_tiebreak_moves_follow_both_contenders_instant_wins() -> None:
    """The compiled exact bot's tie-break move for each pair of tie classes (a Generala still able to win at
    once, or scratched) is the Python exact bot's best option (:func:`cubilete.duel.tiebreak.tiebreak_choices`):
    on every entry where the classes change the move, and on a sample of the rest. (On this Generala the one
    table for "both live" used before chose moves worth the same to 6e-17: the pairs' inputs are now the
    Python bot's own, so the replays follow it to the last bit.)"""
    from cubilete.duel.solve import class_hands, n_tie_classes
    from cubilete.duel.tiebreak import tiebreak_choices

    rules = five_boxes()
    solution = duel_for(rules)
    assert solution is not None
    prepared = fastsim._prepare(rules, duel=True)
    assert prepared.X is not None
    tb = prepared.X[1].tb_choice
    d = dice_tables(rules.dice)
    n = n_tie_classes(solution.joint)
    assert n == 2 and tb.shape[:2] == (n, n)
    ties = np.asarray(solution.ties)
    live = n - 1
    values = sorted({int(v) for v in prepared.P.tb_value.ravel()})  # the hands' worths: the rows filled
    rows = (0, 1 + values[len(values) // 2], 1 + values[-2])  # the first contender, then two hands to beat

    def value_of(choices: list[tuple[str, float, tuple[int, ...]]], picked: int) -> float:
        return next(v for kind, v, keep in choices if (kind == "stand") == (picked < 0)
                    and (picked < 0 or tuple(sorted(keep)) == d.keeps[picked]))  # fmt: skip

    for cf in range(n):
        for cs in range(n):
            wins = (class_hands(solution.joint, cf), class_hands(solution.joint, cs))
            changed = {tuple(e) for e in np.argwhere(tb[cf, cs] != tb[live, live]).tolist()}
            assert cf == cs == live or changed  # each pair has its own moves (on near-ties at least)
            sample = {(a, t, h) for a in rows for t in range(1, rules.throws) for h in range(0, d.n_hands, 9)}
            for a, t, h in sorted(changed | sample):
                against = None if a == 0 else a - 1
                choices = tiebreak_choices(rules, solution.tables, float(ties[cf, cs]), against, d.keeps[h], t,
                                           (), *wins)  # fmt: skip
                best = max(v for _, v, _ in choices)
                assert value_of(choices, int(tb[cf, cs, a, t, h])) >= best - 1e-12, (cf, cs, against, t, h, choices)
