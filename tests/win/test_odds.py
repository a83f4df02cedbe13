"""Win chances: the tie rules by hand, against enumeration, the instant-win chance, and against
simulated games of optimal bots (which play exactly the model's policy)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import TieBreak
from cubilete.engine.state import Seat
from cubilete.play.bots import make_bot
from cubilete.win import chances
from cubilete.win.distribution import Distribution
from cubilete.win.odds import instant_chance, instant_split, points_win, win_utility


def dist(pairs: dict[int, float]) -> Distribution:
    lo, hi = min(pairs), max(pairs)
    pmf = np.zeros(hi - lo + 1)
    for s, p in pairs.items():
        pmf[s - lo] = p
    return Distribution("x", lo, pmf)


def test_ties_are_split_evenly_by_hand() -> None:
    a = dist({10: 0.5, 20: 0.5})
    b = dist({10: 1.0})
    assert points_win([a, b]) == pytest.approx([0.75, 0.25])
    c = dist({15: 1.0})
    assert points_win([a, c]) == pytest.approx([0.5, 0.5])
    assert points_win([b, b, b]) == pytest.approx([1 / 3] * 3)


def test_win_shares_against_enumeration_of_three_players() -> None:
    rng = np.random.default_rng(11)
    players = []
    for _ in range(3):
        scores, probs = rng.choice(8, 4, replace=False), rng.dirichlet([1] * 4)
        players.append(dist({int(s): float(p) for s, p in zip(scores, probs, strict=True)}))
    expected = [0.0, 0.0, 0.0]
    for outcome in itertools.product(*(d.pairs() for d in players)):
        prob = math.prod(p for _, p in outcome)
        top = max(s for s, _ in outcome)
        tied = [i for i, (s, _) in enumerate(outcome) if s == top]
        for i in tied:
            expected[i] += prob / len(tied)
    assert points_win(players) == pytest.approx(expected, abs=1e-12)
    u = win_utility(players[1:], 0, 9)
    for x in range(9):
        mine = dist({x: 1.0})
        assert u[x] == pytest.approx(points_win([mine, *players[1:]])[0], abs=1e-12)


def test_instant_chance_is_a_servida_generala() -> None:
    rules = find_rules("generala")
    empty = [None] * len(rules.slots)
    assert instant_chance(rules, empty) == pytest.approx(6 / 6**5, abs=1e-15)
    scratched = list(empty)
    scratched[rules.slot_index("generala")] = 0
    assert instant_chance(rules, scratched) == 0.0
    assert instant_chance(find_rules("yatzy"), [None] * 15) == 0.0


def test_instant_split_in_turn_order() -> None:
    rules = find_rules("generala")
    empty = [None] * len(rules.slots)
    q = 6 / 6**5
    won, alive = instant_split(rules, [empty, empty], [1, 1])
    assert won == pytest.approx([q, (1 - q) * q])
    assert alive == pytest.approx((1 - q) ** 2)


def test_chances_sum_to_one_and_the_end_is_the_winners() -> None:
    rules = find_rules("generala")
    for players in (2, 3, 4):
        game = Game(rules, [f"p{i}" for i in range(players)], seed=f"sum{players}")
        bot = make_bot("bot:optimal", seed=1)
        steps = 0
        while not game.is_over:
            if steps % 9 == 0:
                c = chances(game)
                assert c.exact
                assert sum(c.probabilities) == pytest.approx(1.0, abs=1e-12)
                assert all(0.0 <= p <= 1.0 for p in c.probabilities)
            game.apply(bot.choose(game))
            steps += 1
        c = chances(game)
        assert [i for i, p in enumerate(c.probabilities) if p > 0] == sorted(game.state.winners)


def test_rules_without_tables_give_an_estimate_that_says_so() -> None:
    c = chances(Game(find_rules("general-4-columns"), ["a", "b"], seed=1))
    assert not c.exact
    assert "estimated" in c.note
    assert sum(c.probabilities) == pytest.approx(1.0)


LATE = (
    {"1": 3, "2": 8, "3": 9, "4": 12, "5": 15, "escalera": 20, "full": 30, "generala": 0, "doble": 0},
    {"1": 2, "2": 6, "3": 12, "4": 16, "6": 18, "escalera": 25, "poker": 0, "generala": 0, "doble": 0},
)


def late_game(seed: str) -> Game:
    """Heads-up Generala, generala boxes scratched (no instant wins), two boxes left each
    (a: 6 and poker, 97 points; b: 5 and full, 79 points), a shared win on a tie."""
    rules = find_rules("generala").replace(tie_break=TieBreak.SHARED)
    game = Game(rules, ["a", "b"], seed=seed)
    st = game.state
    cards = [tuple(written.get(slot) for slot in rules.slots) for written in LATE]
    seats = tuple(Seat(s.name, cards[i], 0, 0, len(rules.slots) - 2) for i, s in enumerate(st.seats))
    game._states[-1] = type(st)(seats, st.order, st.order[0], st.turn, st.throws_made)
    return game


@pytest.mark.slow
def test_chances_agree_with_simulated_late_games() -> None:
    """Optimal bots play the model's policy exactly: the simulated win rate must fall in the interval."""
    first = late_game("late-0")
    p = chances(first).probabilities[0]
    wins = 0.0
    n = 800
    for k in range(n):
        game = late_game(f"late-{k}")
        bot = make_bot("bot:optimal", seed=k)
        while not game.is_over:
            game.apply(bot.choose(game))
        wins += 1.0 / len(game.state.winners) if 0 in game.state.winners else 0.0
    half = 4 * math.sqrt(p * (1 - p) / n) + 1e-9
    assert abs(wins / n - p) < half, (wins / n, p)
