"""The compiled simulation plays the engine's games: deals replayed through :class:`Game` with the
same dice (:class:`CounterDice`) and the Python optimal bot give the same moves, scores and winners."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from cubilete.engine.actions import Score, Stand
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules, load_rules
from cubilete.engine.rules.model import Direction, Rules, Start, TieBreak
from cubilete.engine.state import EndReason
from cubilete.play.bots import make_bot
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim import kernels as K
from cubilete.simulate.fastsim.dice import CounterDice, die, seed_key
from cubilete.solver.combinatorics import dice_tables

REASONS = {EndReason.POINTS: K.POINTS, EndReason.INSTANT_WIN: K.INSTANT, EndReason.TIE_BREAK: K.TIEBREAK,
           EndReason.SHARED: K.SHARED}  # fmt: skip


@pytest.fixture(autouse=True)
def _cache(bots_solver_cache: Path) -> None:
    """Each preset is solved once per session."""


def engine_game(batch: fastsim.Batch, d: int, r: int) -> tuple[list[int], Game]:
    """Deal d, run r of a batch played by the engine with the Python optimal bot: (move codes, game)."""
    rules = batch.rules
    seats = [s for s in batch.seating[r] if s >= 0]
    game = Game(rules, [f"p{k}" for k in range(len(seats))], dice=CounterDice(batch.key, batch.first + d))
    bots = [make_bot(f"bot:{batch.levels[s]}", 0) for s in seats]
    tables = dice_tables(rules.dice)
    codes = []
    while not game.is_over:
        action = bots[game.state.current].choose(game)
        turn = game.state.turn
        if isinstance(action, Score):
            codes.append(K.SCORE_BASE + rules.slot_index(action.slot))
        elif isinstance(action, Stand):
            codes.append(K.STAND)
        elif turn.throws == 0:
            codes.append(K.FIRST_ROLL)
        else:
            codes.append(tables.index(tuple(sorted(turn.dice[p] for p in action.keep))))
        game.apply(action)
    return codes, game


def check_replay(batch: fastsim.Batch, d: int, r: int) -> None:
    codes, game = engine_game(batch, d, r)
    n = len(game.players)
    assert batch.trace[d, r, : len(codes)].tolist() == codes, (d, r)
    assert batch.scores[d, r, :n].tolist() == game.totals()
    assert sorted(np.flatnonzero(batch.won[d, r, :n]).tolist()) == sorted(game.state.winners)
    assert batch.starter[d, r] == game.state.order[0]
    assert batch.reason[d, r] == REASONS[game.state.reason]


def picks(batch: fastsim.Batch, per_reason: int) -> list[tuple[int, int]]:
    """A few games of every way a game ends (points, instant win, tie-break, shared)."""
    out: list[tuple[int, int]] = []
    for reason in (K.POINTS, K.INSTANT, K.TIEBREAK, K.SHARED):
        found = np.argwhere(batch.reason == reason)[:per_reason]
        out += [(int(d), int(r)) for d, r in found]
    return out


def test_counter_dice_are_the_kernels() -> None:
    key = seed_key("dice")
    for deal, index, count in [(0, 0, 5), (7, 3, 2), (123456, 99, 5), (2**40, 1, 1)]:
        compiled = K.throw_faces(np.uint64(key), deal, index, count).tolist()
        assert compiled == list(CounterDice(key, deal).throw(index, count))
    faces = [die(key, 1, i, j) for i in range(2000) for j in range(5)]
    counts = np.bincount(faces, minlength=7)[1:]
    # 10,000 fair dice: each face 1,667 +- 37 (SD); 5 SD either way
    assert all(abs(c - 10_000 / 6) < 5 * math.sqrt(10_000 * 5 / 36) for c in counts)


def test_generala_heads_up_replays_through_the_engine() -> None:
    rules = find_rules("generala")
    batch = fastsim.play(rules, ["optimal", "optimal"], "replay", 2_000, "paired", trace=300)
    assert set(np.unique(batch.reason)) >= {K.POINTS, K.INSTANT, K.TIEBREAK}
    for d, r in [(0, 0), (0, 1), (1, 0), (2, 1), *picks(batch, 4)]:
        check_replay(batch, d, r)


def test_three_players_other_start_direction_and_shared_ties_replay() -> None:
    base = find_rules("generala")
    for changes in ({"start": Start.LOWEST_SUM, "direction": Direction.COUNTER_CLOCKWISE},
                    {"start": Start.SEAT_ORDER, "tie_break": TieBreak.SHARED}):  # fmt: skip
        rules: Rules = base.replace(**changes)
        batch = fastsim.play(rules, ["optimal"] * 3, "three", 1_500, "table", trace=400)
        for d, r in [(0, 0), (1, 0), *picks(batch, 2)]:
            check_replay(batch, d, r)


def test_exact_bot_heads_up_replays_through_the_engine() -> None:
    """The exact bot (two-player table, tie-break rounds played to win) against the optimal bot."""
    mini = load_rules(str(Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"))
    batch = fastsim.play(mini, ["exact", "optimal"], "exact", 1_500, "paired", trace=200)
    assert set(np.unique(batch.reason)) >= {K.POINTS, K.INSTANT, K.TIEBREAK}
    for d, r in [(0, 0), (0, 1), (1, 0), (1, 1), *picks(batch, 4)]:
        check_replay(batch, d, r)
    assert fastsim.unsupported(mini, ["exact", "optimal", "optimal"]) is not None
    assert fastsim.unsupported(mini, ["exact", "optimal"], "solo") is not None
    assert "no two-player table" in (fastsim.unsupported(find_rules("generala"), ["exact", "optimal"]) or "")


def test_solo_runs_share_the_deal_and_modes_agree() -> None:
    rules = find_rules("generala")
    solo = fastsim.play(rules, ["optimal", "optimal"], 5, 50, "solo")
    assert (solo.scores[:, 0] == solo.scores[:, 1]).all()  # same dice, same bot, same games
    table = fastsim.play(rules, ["optimal", "optimal"], 5, 50, "table")
    paired = fastsim.play(rules, ["optimal", "optimal"], 5, 50, "paired")
    assert (paired.scores[:, 0] == table.scores[:, 0]).all()
    # optimal against optimal: the swapped run is the same game (same dice, same moves), the bots exchanged
    assert (paired.scores[:, 1] == paired.scores[:, 0]).all()
    scores, won = fastsim.bot_columns(paired, 0)
    assert scores.tolist()[:2] == [paired.scores[0, 0, 0], paired.scores[0, 1, 1]]
    assert len(won) == 100


def test_same_seed_same_games_with_any_threads_and_any_first_deal() -> None:
    rules = find_rules("generala")
    a = fastsim.play(rules, ["optimal", "optimal"], "s", 300, "paired", threads=1)
    b = fastsim.play(rules, ["optimal", "optimal"], "s", 300, "paired", threads=2)
    c = fastsim.play(rules, ["optimal", "optimal"], "s", 100, "paired", first=200)
    other = fastsim.play(rules, ["optimal", "optimal"], "t", 300, "paired")
    assert (a.scores == b.scores).all() and (a.won == b.won).all()
    assert (a.scores[200:] == c.scores).all()
    assert not (a.scores == other.scores).all()


def test_what_is_not_compiled_is_said() -> None:
    generala = find_rules("generala")
    assert fastsim.unsupported(generala, ["optimal", "optimal"]) is None
    assert "greedy" in (fastsim.unsupported(generala, ["optimal", "greedy"]) or "")
    assert "locked holds" in (fastsim.unsupported(find_rules("generala-apartada"), ["optimal"]) or "")
    assert "columns" in (fastsim.unsupported(find_rules("general-4-columns"), ["optimal"]) or "")
    with pytest.raises(ValueError, match="table-driven"):
        fastsim.play(generala, ["random"], 1, 1)


@pytest.mark.slow
def test_other_presets_replay() -> None:
    """Upper bonus, jokers and extra bonuses (Yahtzee, without the cache of keep values), Bozó's
    instant win after a scratch, General."""
    for name, bots, mode in [("yahtzee", 1, "solo"), ("bozo", 2, "paired"), ("general", 2, "table")]:
        batch = fastsim.play(find_rules(name), ["optimal"] * bots, "presets", 300, mode, trace=400)  # type: ignore[arg-type]
        for d, r in [(0, 0), (1, 0), *picks(batch, 2)]:
            check_replay(batch, d, r)


@pytest.mark.slow
def test_yahtzee_solo_mean_is_the_published_optimum() -> None:
    """254.5896 (Verhoeff's optimal expected Yahtzee score) within the 95% interval of 60,000 games."""
    batch = fastsim.play(find_rules("yahtzee"), ["optimal"], "yahtzee-mean", 60_000, "solo")
    scores = batch.scores[:, 0, 0].astype(float)
    half = 1.959963984540054 * scores.std(ddof=1) / math.sqrt(len(scores))
    assert abs(scores.mean() - 254.5896) < half


@pytest.mark.slow
def test_first_player_share_agrees_with_the_engine() -> None:
    """Heads-up Generala, optimal against optimal: the share of wins of the seat that starts, compiled
    (100,000 games) against the engine's own simulation with its SHA-256 dice (600 games)."""
    rules = find_rules("generala")
    batch = fastsim.play(rules, ["optimal", "optimal"], "first-player", 100_000, "table")
    starter = batch.starter[:, 0]
    compiled = float(batch.won[np.arange(len(starter)), 0, starter].mean())
    wins = 0
    games = 600
    for i in range(games):
        game = Game(rules, ["a", "b"], seed=f"first-player:{i}")
        bot = make_bot("bot:optimal", 0)
        while not game.is_over:
            game.apply(bot.choose(game))
        wins += game.state.order[0] in game.state.winners
    se = math.sqrt(compiled * (1 - compiled) * (1 / games + 1 / len(starter)))
    assert abs(wins / games - compiled) < 3.5 * se


def test_simulate_uses_the_compiled_path_for_optimal_bots(capsys: pytest.CaptureFixture[str]) -> None:
    from cubilete.cli import main
    from cubilete.simulate.pool import simulate

    rules = find_rules("generala")
    result = simulate(rules, ["optimal", "optimal"], games=400, seed="cli", workers=2, mode="paired")
    assert result.compiled and result.paired is not None and result.bots[0].games == 800
    # optimal against optimal on the same dice: each deal's two games are the same game
    assert result.paired.win_diff == 0.0 and result.paired.points_diff == 0.0
    assert result.bots[0].mean_loss == 0.0 and result.bots[0].wins is not None
    assert not simulate(rules, ["optimal", "random"], games=2, seed=1, workers=1).compiled
    shapes = []
    for extra in ([], ["--engine"]):
        code = main(["simulate", "--bots", "optimal,optimal", "--paired", "--games", "3", "--seed", "1", "--json",
                     "--workers", "1", *extra])  # fmt: skip
        out, _ = capsys.readouterr()
        data = json.loads(out)
        assert code == 0 and data["compiled"] is (not extra)
        shapes.append((set(data), set(data["bots"][0]), set(data["paired"])))
    assert shapes[0] == shapes[1]
