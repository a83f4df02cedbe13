"""``simulate --paired``: every deal twice with the seats swapped on the same dice, differences with CIs."""

from __future__ import annotations

import json

import pytest
from tests.duel.conftest import MINI

from cubilete.cli import main
from cubilete.engine.errors import SimulationError
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.simulate.pool import play_game, simulate


class TestPaired:
    def test_same_seed_same_result_any_workers(self, mini: Rules) -> None:
        one = simulate(mini, ["exact", "greedy"], games=6, seed="p", workers=1, mode="paired", loss=False)
        two = simulate(mini, ["exact", "greedy"], games=6, seed="p", workers=2, mode="paired", loss=False)
        assert one.paired == two.paired and [b.mean for b in one.bots] == [b.mean for b in two.bots]
        assert one.paired is not None and one.paired.deals == 6 and one.bots[0].games == 12

    def test_each_deal_swaps_the_seats_on_the_same_dice(self, mini: Rules) -> None:
        # the second game of a deal is game 1's seed with the bots' seats swapped: its first throw is the same
        a = Game(mini, ["exact", "greedy"], seed="p:3")
        b = Game(mini, ["greedy", "exact"], seed="p:3")
        assert a.dice.throw(0, mini.dice) == b.dice.throw(0, mini.dice)
        outcomes = play_game(mini, ["exact", "greedy"], "p", 3, "paired", False)
        assert len(outcomes) == 4  # bot 0 and bot 1 in game 1, then in game 2

    def test_a_bot_against_itself_has_no_edge(self, mini: Rules) -> None:
        result = simulate(mini, ["exact", "exact"], games=30, seed="self", workers=1, mode="paired", loss=False)
        assert result.paired is not None
        lo, hi = result.paired.win_diff_ci
        assert lo <= 0.0 <= hi

    def test_the_win_difference_is_the_difference_of_win_rates(self, mini: Rules) -> None:
        result = simulate(mini, ["exact", "greedy"], games=15, seed="d", workers=1, mode="paired", loss=False)
        assert result.paired is not None
        a, b = result.bots
        assert result.paired.win_diff == pytest.approx(((a.wins or 0) - (b.wins or 0)) / 30)

    def test_two_bots_only(self, mini: Rules) -> None:
        with pytest.raises(SimulationError, match="two bots"):
            simulate(mini, ["exact", "greedy", "random"], games=2, seed=1, workers=1, mode="paired")

    def test_cli(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["simulate", "--rules", str(MINI), "--bots", "exact,greedy", "--paired", "--games", "6", "--seed", "c"]
        code = main([*argv, "--workers", "1", "--no-loss", "--json"])
        data = json.loads(capsys.readouterr().out)
        assert code == 0 and data["mode"] == "paired" and data["paired"]["deals"] == 6
        code = main([*argv, "--workers", "1", "--no-loss"])
        assert code == 0 and "paired (6 deals): exact - greedy" in capsys.readouterr().out
        assert main([*argv, "--solo"]) != 0
        assert "do not go together" in capsys.readouterr().err
