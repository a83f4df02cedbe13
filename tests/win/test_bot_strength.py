"""The win bot against the expected-score optimum, heads-up Generala, paired deals: each deal is
played twice on the same seeded dice with the seats swapped, and the win bot's share of the wins
must be above one half with 95% confidence (tools/win_study.py runs the long version)."""

from __future__ import annotations

import math

import pytest

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.bots import make_bot

DEALS = 150


def share(deal: int, win_seat: int) -> float:
    game = Game(find_rules("generala"), ["p0", "p1"], seed=f"win-study:{deal}")
    bots = {i: make_bot("bot:win" if i == win_seat else "bot:optimal", seed=deal) for i in (0, 1)}
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    winners = game.state.winners
    return 1.0 / len(winners) if win_seat in winners else 0.0


@pytest.mark.slow
def test_win_bot_beats_the_optimal_bot_heads_up() -> None:
    per_deal = [(share(deal, 0) + share(deal, 1)) / 2 for deal in range(DEALS)]
    mean = sum(per_deal) / DEALS
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (DEALS - 1))
    low = mean - 1.96 * sd / math.sqrt(DEALS)
    assert low > 0.5, f"win bot share {mean:.4f}, 95% interval from {low:.4f}"
