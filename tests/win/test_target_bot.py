"""The target bot (``bot:target:T``): its policy reaches T exactly as often as the best policy of a
brute force (tests/win/target_oracle.py), more often than the optimal bot, in exact evaluation and
over seeded games; the table rooted at the empty sheet (Yahtzee's and Yatzy's way) gives the same
choices as the full table."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from tests.solver.test_oracle import GENERALA_SMALL
from tests.win.target_oracle import TargetOracle

from cubilete.engine.errors import UnknownBotError
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules, scoring
from cubilete.engine.rules.model import Rules
from cubilete.play.bots import bot_level, make_bot
from cubilete.play.bots.target import TargetBot, reach_now, target_choices
from cubilete.simulate.pool import wilson
from cubilete.solver.advisor import Option, advise
from cubilete.solver.cache import shared_solution
from cubilete.win.tables import max_points

TOLERANCE = 1e-12
Card = tuple[int | None, ...]
Hand = tuple[int, ...]
Choose = Callable[[Card, Hand, int], Option]
Small = tuple[Rules, list[float], dict[int, float]]
TARGETS = (2, 31)  # the two targets where target play gains most over the optimal bot in this game


def reach_of_policy(rules: Rules, choose: Choose, target: int) -> float:
    """Exact P(final score >= target) when every decision is ``choose(card, sorted dice, throw)``: every
    ordered throw enumerated, the real scorecard carried (no extra bonuses in the games used here)."""
    n = rules.dice
    outcomes = {m: list(itertools.product(range(1, 7), repeat=m)) for m in range(n + 1)}
    at_turn: dict[tuple[Card, int], float] = {}
    after: dict[tuple[Card, int, Hand, int], float] = {}

    def turn(card: Card, turns: int) -> float:
        key = (card, turns)
        if key not in at_turn:
            if turns >= rules.turns or all(v is not None for v in card):
                at_turn[key] = float(scoring.total(rules, card) >= target)
            else:
                at_turn[key] = sum(thrown(card, turns, tuple(sorted(d)), 1) for d in outcomes[n]) / 6**n
        return at_turn[key]

    def thrown(card: Card, turns: int, hand: Hand, throw: int) -> float:
        key = (card, turns, hand, throw)
        if key not in after:
            o = choose(card, hand, throw)
            if o.kind == "score":
                j = rules.slot_index(o.slot or "")
                assert o.points == scoring.slot_points(rules, card, j, hand, throw == 1)
                after[key] = turn(tuple(scoring.write(rules, card, j, o.points)), turns + 1)
            else:
                m = n - len(o.keep)
                after[key] = sum(thrown(card, turns, tuple(sorted(o.keep + f)), throw + 1) for f in outcomes[m]) / 6**m
        return after[key]

    return turn((None,) * len(rules.slots), 0)


@pytest.fixture(scope="module")
def small() -> Small:
    """The 3-box Generala (Unos, a servida trio, a Doble needing it): best P(reach t) from the oracle for
    every t, and the optimal bot's exact P(reach t) for the targets tested."""
    rules = GENERALA_SMALL
    solution = shared_solution(rules)
    width = max_points(solution.space) + 1
    best = TargetOracle(rules, width).turn_start((None,) * len(rules.slots), 0)

    def optimal(card: Card, hand: Hand, throw: int) -> Option:
        return advise(solution, card, hand, throw)[0]

    opt = {t: reach_of_policy(rules, optimal, t) for t in TARGETS}
    return rules, [float(x) for x in best], opt


def test_levels_name_the_target() -> None:
    assert bot_level("bot:Target:150") == "target:150"
    bot = make_bot("bot:target:200", seed=1)
    assert isinstance(bot, TargetBot) and bot.target == 200 and bot.name == "target:200"
    for bad in ("bot:target", "bot:target:", "bot:target:abc", "bot:target:0", "bot:target:-5", "bot:target:1e3"):
        with pytest.raises(UnknownBotError, match=r"bot:target:T"):
            make_bot(bad)
    with pytest.raises(UnknownBotError, match="target:T"):
        bot_level("bot:targets")


@pytest.mark.parametrize("target", TARGETS)
def test_its_policy_reaches_the_brute_force_best(small: Small, target: int) -> None:
    rules, best, opt = small

    def bot(card: Card, hand: Hand, throw: int) -> Option:
        return target_choices(rules, card, hand, throw, target)[0].option

    got = reach_of_policy(rules, bot, target)
    assert abs(got - best[target]) <= TOLERANCE
    assert got > opt[target] + 0.01  # the optimal bot (expected points) reaches it less often
    assert abs(reach_now(rules, (None,) * len(rules.slots), target) - best[target]) <= TOLERANCE


def test_the_rooted_table_plays_as_the_full_table(small: Small) -> None:
    rules, best, _ = small
    target = 31

    def rooted(card: Card, hand: Hand, throw: int) -> Option:
        full = target_choices(rules, card, hand, throw, target, rooted=False)
        mine = target_choices(rules, card, hand, throw, target, rooted=True)
        assert [w.option for w in mine] == [w.option for w in full]
        assert max(abs(a.win - b.win) for a, b in zip(mine, full, strict=True)) <= TOLERANCE
        return mine[0].option

    assert abs(reach_of_policy(rules, rooted, target) - best[target]) <= TOLERANCE


def test_seeded_games_reach_the_target_more_often_than_the_optimal_bot(
    small: Small,
) -> None:
    """1,000 seeded solo games of each bot on the same dice seeds: each bot's share of games that reach 31 has
    the exact value in its 95% interval, and the target bot's interval lies above the optimal bot's value."""
    rules, best, opt = small
    target, games = 31, 1_000
    reached = {}
    for level in (f"target:{target}", "optimal"):
        hits = 0
        for i in range(games):
            game = Game(rules, ["a"], seed=f"target-bot:{i}")
            bot = make_bot(f"bot:{level}", seed=i)
            while not game.is_over:
                game.apply(bot.choose(game))
            hits += game.totals()[0] >= target
        reached[level] = hits
    lo, hi = wilson(reached[f"target:{target}"], games)
    assert lo <= best[target] <= hi
    assert lo > opt[target]
    lo, hi = wilson(reached["optimal"], games)
    assert lo <= opt[target] <= hi


def test_analysis_and_fallbacks() -> None:
    rules = GENERALA_SMALL
    game = Game(rules, ["a", "b"], seed="analysis")
    bot = make_bot("bot:target:31")
    first = bot.analyse(game)
    assert len(first) == 1 and "P(final score >= 31)" in first.note
    game.apply(bot.choose(game))
    options = bot.analyse(game)
    values = [o.expected for o in options]
    # best first (probabilities equal to 1e-12 are ranked by points)
    assert all(a >= b - TOLERANCE for a, b in itertools.pairwise(values)) and all(0.0 <= v <= 1.0 for v in values)
    four = find_rules("general-4-columns")
    game = Game(four, ["a"], seed=1)
    analysis = make_bot("bot:target:300").analyse(game)
    assert "no exact tables" in analysis.note
