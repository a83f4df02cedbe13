"""The compiled win bot plays the Python win bot's games: deals replayed through :class:`Game` with the same
dice (:class:`CounterDice`) and ``bots/win.py`` give the same moves, scores and winners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.simulate.test_fastsim import check_replay, picks

from cubilete.engine.rules import find_rules, load_rules
from cubilete.play.bots import make_bot
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim import kernels as K
from cubilete.simulate.fastsim.win import rotated
from cubilete.simulate.pool import simulate

MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"


@pytest.fixture(autouse=True)
def _cache(bots_solver_cache: Path) -> None:
    """Each preset is solved once per session (its win tables too)."""


def test_mini_generala_heads_up_replays_through_the_engine() -> None:
    """Every way a game ends, both seats, the win bot against the optimal bot and against itself."""
    mini = load_rules(str(MINI))
    batch = fastsim.play(mini, ["win", "optimal"], "win-replay", 1_500, "paired", trace=200)
    assert set(np.unique(batch.reason)) >= {K.POINTS, K.INSTANT, K.TIEBREAK}
    for d, r in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), *picks(batch, 3)]:
        check_replay(batch, d, r)
    both = fastsim.play(mini, ["win", "win"], "win-both", 20, "table", trace=200)
    for d in range(4):
        check_replay(both, d, 0)


def test_mini_generala_three_and_four_players_replay() -> None:
    """Several opponents (u from their distributions in seat order), the instant wins to come in turn order,
    seats rotated on the same dice."""
    mini = load_rules(str(MINI))
    for players in (3, 4):
        levels = ["win"] + ["optimal"] * (players - 1)
        batch = fastsim.play(mini, levels, f"win-{players}", 300, "paired", trace=200)
        assert (batch.seating == rotated(players)).all()
        for d, r in [(0, 0), (0, 1), (1, players - 1), *picks(batch, 1)]:
            check_replay(batch, d, r)


def test_the_win_bot_departs_from_the_points_choice() -> None:
    """The compiled win bot does not simply replay the optimal bot: on the same dice some games differ."""
    mini = load_rules(str(MINI))
    win = fastsim.play(mini, ["win", "optimal"], "departs", 400, "table")
    opt = fastsim.play(mini, ["optimal", "optimal"], "departs", 400, "table")
    assert (win.scores != opt.scores).any()


def test_departures_from_the_points_choice_are_the_python_bots() -> None:
    """The counts by turn and box of the decisions where the win bot does not play the optimal bot's move,
    compiled, equal those found by replaying the deals through the engine with both Python bots."""
    from cubilete.engine.game import Game
    from cubilete.play.bots.base import in_play
    from cubilete.play.bots.optimal import optimal_options
    from cubilete.simulate.fastsim.dice import CounterDice
    from cubilete.simulate.fastsim.win import play_win

    mini = load_rules(str(MINI))
    deals = 40
    dep = np.zeros((mini.turns, len(mini.slots) + 3), dtype=np.int64)
    batch = play_win(mini, ["win", "optimal"], "departures", deals, "paired", departures=dep)
    want = np.zeros_like(dep)
    win, opt = make_bot("bot:win", 0), make_bot("bot:optimal", 0)
    for d in range(deals):
        for r in range(2):
            game = Game(mini, ["a", "b"], dice=CounterDice(batch.key, d))
            me = int(np.flatnonzero(batch.seating[r] == 0)[0])
            while not game.is_over:
                st = game.state
                if st.current == me and st.turn.throws > 0 and in_play(game):
                    best, points = win.analyse(game)[0], optimal_options(game)[0]
                    turn = st.seats[me].turns_taken
                    want[turn, 0] += 1
                    if (best.kind, best.slot, best.keep) != (points.kind, points.slot, points.keep):
                        want[turn, 1] += 1
                        box = mini.slot_index(best.slot) if best.kind == "score" else len(mini.slots)
                        want[turn, 2 + box] += 1
                game.apply((win if st.current == me else opt).choose(game))
    assert want[:, 1].sum() > 0
    assert dep.tolist() == want.tolist()


def test_what_the_compiled_win_bot_does_not_play_is_said() -> None:
    generala = find_rules("generala")
    assert fastsim.unsupported(generala, ["win", "optimal"]) is None
    assert "win tables" in (fastsim.unsupported(find_rules("yahtzee"), ["win", "optimal"]) or "")
    assert "not table-driven" in (fastsim.unsupported(generala, ["win", "greedy"]) or "")
    assert fastsim.unsupported(load_rules(str(MINI)), ["win", "exact"], "paired") is None
    assert "heads-up only" in (fastsim.unsupported(load_rules(str(MINI)), ["win", "exact", "optimal"]) or "")
    assert "locked holds" in (fastsim.unsupported(find_rules("generala-apartada"), ["win", "optimal"]) or "")
    with pytest.raises(ValueError, match="win tables"):
        fastsim.play(find_rules("yahtzee"), ["win", "optimal"], 1, 1)


def test_simulate_plays_the_win_bot_compiled() -> None:
    mini = load_rules(str(MINI))
    result = simulate(mini, ["win", "optimal"], games=300, seed="cli-win", workers=2, mode="paired")
    assert result.compiled and result.paired is not None and result.bots[0].games == 600
    again = simulate(mini, ["win", "optimal"], games=300, seed="cli-win", workers=1, mode="paired")
    assert again.paired is not None and again.paired.win_diff == result.paired.win_diff


@pytest.mark.slow
@pytest.mark.parametrize("name", ["generala", "bozo"])
def test_presets_replay_through_the_engine(name: str) -> None:
    """Full Generala (servida, Doble, tie-breaks) and Bozó (its instant win after a scratch), heads-up and at
    three players. (General replays the same way; its tables take minutes to build, so it is left out here.)"""
    rules = find_rules(name)
    batch = fastsim.play(rules, ["win", "optimal"], f"win-{name}", 400, "paired", trace=400)
    for d, r in [(0, 0), (0, 1), (1, 0), (1, 1), *picks(batch, 2)]:
        check_replay(batch, d, r)
    three = fastsim.play(rules, ["win", "optimal", "optimal"], f"win3-{name}", 30, "paired", trace=400)
    for d, r in [(0, 0), (0, 1), (0, 2), (1, 1)]:
        check_replay(three, d, r)
