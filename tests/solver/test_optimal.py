"""Golden optimal values: published optima reproduced to the last digit they give."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cubilete.solver.solve import Solution

Solved = Callable[..., Solution]


class TestPublishedOptima:
    def test_solitaire_yahtzee_verhoeff_glenn(self, solved: Solved) -> None:
        # Verhoeff (1999) and Glenn (2006): 254.5896, standard deviation 59.61, under the rules they
        # assume: bonus 35 at 63, +100 per extra Yahtzee, joker in the lower section once the matching
        # upper box is used, without being forced into that upper box (our free-choice joker).
        sol = solved("yahtzee-free-joker", moments=True)
        assert round(sol.expected_score, 4) == 254.5896
        assert sol.std_dev is not None and round(sol.std_dev, 2) == 59.61

    def test_scandinavian_yatzy(self, solved: Solved) -> None:
        # 248.4400: the value independent solvers agree on with two pairs of different faces.
        # (KTH 2012's often-quoted 248.63 let two pairs be four equal dice.)
        sol = solved("yatzy")
        assert round(sol.expected_score, 4) == 248.4400

    def test_official_forced_joker_costs_a_little(self, solved: Solved) -> None:
        # Being forced into the matching upper box can only lose value; by an independent solver 254.5877.
        forced, free = solved("yahtzee"), solved("yahtzee-free-joker")
        assert round(forced.expected_score, 4) == 254.5877
        assert forced.expected_score < free.expected_score


class TestGenerala:
    def test_generala_is_solved_and_consistent(self, solved: Solved) -> None:
        sol = solved("generala", moments=True)
        # 11 boxes; the servida values and the Doble make it worth more than the same sheet without them.
        assert 100 < sol.expected_score < 300
        assert sol.std_dev is not None and sol.std_dev > 0

    @pytest.mark.parametrize(
        ("better", "worse"),
        [
            ("generala-60", "generala"),  # a Generala worth more
            ("generala-doble-120", "generala"),
            ("generala", "generala-sin-doble"),  # one box fewer
            ("generala", "generala-apartada"),  # locked holds only restrict the player
            ("generala", "generala-obligada"),  # a fixed order only restricts the player
            ("generala-bonus-10", "generala-bonus-5"),
            ("generala-escalera-hueco", "generala"),  # more hands make an Escalera
            ("generala", "generala-poker-exacto"),  # fewer hands make a Póker
        ],
    )
    def test_switches_move_the_optimum_the_right_way(self, solved: Solved, better: str, worse: str) -> None:
        assert solved(better).expected_score > solved(worse).expected_score
