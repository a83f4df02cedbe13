"""The pieces under the bots, each worked out by hand: the turn search, the patterns the simple
bots see, keeping faces by position, the softmax of the levels; then the greedy and heuristic
bots' rules on hands chosen for them."""

from __future__ import annotations

import numpy as np
import pytest

from cubilete.engine.actions import Roll, Score
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.errors import IllegalActionError, UnknownBotError
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules, find_rules
from cubilete.engine.rules.model import Start
from cubilete.play.bots import GreedyBot, HeuristicBot, keep_positions, make_bot
from cubilete.play.bots.approx import sub_keeps
from cubilete.play.bots.levels import softmax_pick
from cubilete.play.bots.patterns import target, usable_maxima
from cubilete.solver.advisor import Option
from cubilete.solver.approx.estimate import slot_estimates, upper_bonus_share
from cubilete.solver.approx.turn_search import hand_values, keep_values
from cubilete.solver.combinatorics import dice_tables


def scripted(rules: Rules, throws: list[list[int]]) -> Game:
    return Game(rules.replace(start=Start.SEAT_ORDER), ["a"], dice=ScriptedDice(throws), seed=1)


class TestSearch:
    def test_one_die_worth_its_face(self) -> None:
        t = dice_tables(1)
        face = np.array([float(k[0]) for k in t.keeps[: t.n_hands]])
        # one throw left: throw again below 3.5; two left: the re-throw is worth (3 x 3.5 + 4 + 5 + 6) / 6 = 4.25
        one = hand_values(t, face, 1)
        two = hand_values(t, face, 2)
        assert [one[t.index((f,))] for f in range(1, 7)] == pytest.approx([3.5, 3.5, 3.5, 4, 5, 6])
        assert [two[t.index((f,))] for f in range(1, 7)] == pytest.approx([4.25, 4.25, 4.25, 4.25, 5, 6])

    def test_keep_values_of_two_dice(self) -> None:
        t = dice_tables(2)
        total = np.array([float(sum(k)) for k in t.keeps[: t.n_hands]])
        k = keep_values(t, total)
        assert k[t.index(())] == pytest.approx(7.0)
        assert k[t.index((6,))] == pytest.approx(9.5)

    def test_sub_keeps(self) -> None:
        assert sub_keeps((6, 6, 1), must=(6,)) == [(1, 6), (6, 6), (6,)]


class TestEstimates:
    def test_one_box_values_by_hand(self) -> None:
        rules = find_rules("generala")
        values = dict(zip(rules.slots, slot_estimates(rules), strict=True))
        for face in range(1, 7):  # keep every die of the face: 5 x face x (1 - (5/6)^3)
            assert values[str(face)] == pytest.approx(5 * face * (1 - (5 / 6) ** 3))

    def test_first_throw_column_counts_the_first_throw_only(self) -> None:
        rules = find_rules("general-4-columns")
        values = dict(zip(rules.slots, slot_estimates(rules), strict=True))
        assert values["6@4"] == pytest.approx(5 * 6 / 6)  # five dice, each a six with chance 1/6
        assert values["6@3"] == pytest.approx(5 * 6 * (1 - (5 / 6) ** 3))

    def test_upper_bonus_share(self) -> None:
        rules = find_rules("yahtzee")
        empty: list[int | None] = [None] * 13
        assert upper_bonus_share(rules, empty, 13) == pytest.approx(35 / 2)  # on par: even chances
        done = [3, 6, 9, 12, 15, 18] + [None] * 7  # 63 reached: the bonus is earned, nothing still to come
        assert upper_bonus_share(rules, done, 7) == 0.0
        short = [0, 0, 0, 0, 0] + [None] + [None] * 7  # 30 sixes are impossible
        assert upper_bonus_share(rules, short, 8) == 0.0


class TestPatterns:
    def test_targets(self) -> None:
        g = find_rules("generala")
        assert target(g.box("6"), (6, 1, 6, 2, 6)) == ((0, 2, 4), 3 / 5)
        assert target(g.box("poker"), (2, 5, 5, 1, 5)) == ((1, 2, 4), 3 / 4)
        assert target(g.box("full"), (2, 6, 2, 6, 3)) == ((0, 1, 2, 3), 4 / 5)
        assert target(g.box("escalera"), (6, 5, 4, 3, 3)) == ((0, 1, 2, 3), 4 / 5)
        assert target(find_rules("yahtzee").box("chance"), (6, 1, 4, 2, 5)) == ((0, 2, 4), 3 / 5)

    def test_doble_pays_nothing_before_generala(self) -> None:
        g = find_rules("generala")
        card: list[int | None] = [None] * 11
        assert usable_maxima(g, card)[g.slot_index("doble")] == 0
        card[g.slot_index("generala")] = 50
        assert usable_maxima(g, card)[g.slot_index("doble")] == 100


class TestKeepPositions:
    def test_faces_to_positions(self) -> None:
        assert keep_positions((3, 1, 3, 3, 2), (3, 3)) == (0, 2)
        assert keep_positions((3, 1, 3, 3, 2), (3, 3), held=(3,)) == (0, 3)
        assert keep_positions((3, 1, 3, 3, 2), ()) == ()

    def test_impossible_keeps_are_refused(self) -> None:
        with pytest.raises(IllegalActionError, match="cannot keep"):
            keep_positions((1, 2, 3, 4, 5), (6,))
        with pytest.raises(IllegalActionError, match="held die"):
            keep_positions((1, 2, 3, 4, 5), (2,), held=(0,))


class TestSoftmax:
    def test_cumulative_draw(self) -> None:
        a, b = Option("score", 10.0, 0.0, slot="a"), Option("score", 8.0, 2.0, slot="b")
        # temperature 1: weights 1 and e^-2, so a covers u < 1 / (1 + e^-2) = 0.881
        assert softmax_pick([a, b], 1.0, 0.87).slot == "a"
        assert softmax_pick([a, b], 1.0, 0.89).slot == "b"
        # temperature 2: weights 1 and e^-1, so a covers u < 1 / (1 + e^-1) = 0.731
        assert softmax_pick([a, b], 2.0, 0.72).slot == "a"
        assert softmax_pick([a, b], 2.0, 0.74).slot == "b"


class TestGreedy:
    def test_scores_what_pays_half_its_maximum(self) -> None:
        game = scripted(find_rules("generala"), [[6, 6, 6, 2, 3]])
        game.apply(Roll())
        assert GreedyBot(seed=1).choose(game) == Score("6")  # 18 of at most 30

    def test_keeps_for_the_best_paying_pattern(self) -> None:
        # 1 2 4 6 6: sixes pay 12 of 30 (too little). Promises: Póker 45 x 2/4 = 22.5 beats
        # Full 35 x 3/5 = 21, Generala 50 x 2/5 = 20, Escalera 25 x 3/5 and Doble (no Generala yet: 0)
        game = scripted(find_rules("generala"), [[1, 2, 4, 6, 6]])
        game.apply(Roll())
        assert GreedyBot(seed=1).choose(game) == Roll((3, 4))

    def test_last_throw_scores_the_most_points(self) -> None:
        game = scripted(find_rules("generala"), [[1, 1, 2, 3, 5], [2, 3, 5], [2, 3, 5]])
        game.apply(Roll())
        game.apply(Roll((0, 1)))
        game.apply(Roll((0, 1)))
        assert GreedyBot(seed=1).choose(game) == Score("5")

    def test_scratches_the_box_that_could_pay_least(self) -> None:
        g = find_rules("generala")
        rules = g.replace(name="three", boxes=(g.box("escalera"), g.box("full"), g.box("generala")))
        game = scripted(rules, [[1, 1, 2, 2, 4], [2, 2, 4], [2, 2, 4]])
        game.apply(Roll())
        game.apply(Roll((0, 1)))
        game.apply(Roll((0, 1)))
        assert GreedyBot(seed=1).choose(game) == Score("escalera")  # at most 25, against 35 and 50


class TestHeuristic:
    def test_scores_a_made_full(self) -> None:
        game = scripted(find_rules("generala"), [[2, 2, 6, 6, 6]])
        game.apply(Roll())
        assert HeuristicBot(seed=1).choose(game) == Score("full")

    def test_chases_a_straight_one_die_short(self) -> None:
        game = scripted(find_rules("generala"), [[2, 3, 4, 5, 5]])
        game.apply(Roll())
        assert HeuristicBot(seed=1).choose(game) == Roll((0, 1, 2, 3))

    def test_two_pairs_go_for_the_full(self) -> None:
        game = scripted(find_rules("generala"), [[3, 3, 5, 5, 1]])
        game.apply(Roll())
        assert HeuristicBot(seed=1).choose(game) == Roll((0, 1, 2, 3))

    def test_three_of_a_kind_go_for_more(self) -> None:
        game = scripted(find_rules("generala"), [[4, 4, 4, 2, 1]])
        game.apply(Roll())
        assert HeuristicBot(seed=1).choose(game) == Roll((0, 1, 2))

    def test_a_small_straight_tries_for_the_large_one(self) -> None:
        game = scripted(find_rules("yahtzee"), [[1, 2, 3, 4, 6]])
        game.apply(Roll())
        assert HeuristicBot(seed=1).choose(game) == Roll((0, 1, 2, 3))

    def test_nothing_paying_scratches_the_least_valuable_box(self) -> None:
        g = find_rules("generala")
        rules = g.replace(name="three", boxes=(g.box("escalera"), g.box("full"), g.box("generala")))
        game = scripted(rules, [[1, 1, 2, 2, 4], [2, 2, 4], [2, 2, 4]])
        game.apply(Roll())
        game.apply(Roll((0, 1)))
        game.apply(Roll((0, 1)))
        values = dict(zip(rules.slots, slot_estimates(rules), strict=True))
        least = min(values, key=lambda k: values[k])
        assert least == "generala"  # 50 x P(five of a kind in three throws) is the smallest
        assert HeuristicBot(seed=1).choose(game) == Score("generala")


class TestFactory:
    def test_every_level_by_name(self) -> None:
        for level in ("random", "greedy", "heuristic", "beginner", "casual", "strong", "optimal", "lookahead", "win",
                      "exact"):
            assert make_bot(f"bot:{level}", 1).name == level

    def test_unknown_level_lists_every_level(self) -> None:
        with pytest.raises(UnknownBotError) as err:
            make_bot("bot:genius")
        assert str(err.value) == (
            "unknown bot level 'genius' in 'bot:genius'; "
            "levels: random, greedy, heuristic, beginner, casual, strong, optimal, lookahead, win, exact, target:T, "
            "guide:N"
        )
