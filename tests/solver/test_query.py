"""The compiled advise query against the advisor as it was written in Python, option by option.

``reference_advise`` below is the previous advisor: every option built with the engine's own
scoring functions (usable slots, points, write, bonuses, total) and the keep values of the
solver's wide turn kernel. The compiled query must give the same options, in the same order,
with the same values to the last bit, on situations met in games that mix best and random play.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from cubilete.engine.errors import IllegalActionError
from cubilete.engine.rules import Rules, find_rules, scoring
from cubilete.solver import solve
from cubilete.solver.advisor import Option, advise, option_table, sheet_state
from cubilete.solver.kernels import turn_values
from cubilete.solver.solve import Solution

Solved = Callable[..., Solution]
Row = tuple[str, float, float, str | None, int, tuple[int, ...]]


def reference_advise(
    sol: Solution, card: Sequence[int | None], dice: Sequence[int], throw: int, bonuses: int, held: Sequence[int]
) -> list[Row]:
    """The options as the Python advisor computed them (before the query was compiled)."""
    space, rules = sol.space, sol.rules
    hand = tuple(sorted(dice))
    mask, flags, upper = sheet_state(sol, card)
    so_far = scoring.total(rules, card, bonuses)
    options: list[tuple[float, Row]] = []
    first = throw == 1
    for j in scoring.usable_slots(rules, card, hand, first):
        points = scoring.slot_points(rules, card, j, hand, first)
        after = scoring.write(rules, card, j, points)
        bonus = int(scoring.extra_bonus_due(rules, card, j, hand)) * rules.extra_bonus
        bonus += scoring.upper_bonus(rules, after) - scoring.upper_bonus(rules, card)
        n_mask, n_flags, n_upper = sheet_state(sol, after)
        future = float(sol.values[n_mask, n_flags, n_upper]) if bin(n_mask).count("1") < space.rounds else 0.0
        value = so_far + points + bonus + future
        options.append((value, ("score", value, 0.0, rules.slots[j], points, ())))
    if throw < rules.throws:
        d = space.dice
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Ks = np.zeros((rules.throws + 1, d.n_keeps, 1))
        turn_values(sol.tables, mask, flags, upper, sol.values, S1, S23, E, Ks, np.empty((d.n_keeps, 1)), np.empty(1))
        must = list(sorted(held)) if rules.locked_holds else []
        rest = list(hand)
        for f in must:
            rest.remove(f)
        keeps = {tuple(sorted(must + list(c))) for size in range(len(rest)) for c in itertools.combinations(rest, size)}
        for keep in sorted(keeps, key=lambda k: (-len(k), k)):
            value = so_far + float(Ks[throw + 1, d.index(keep), 0])
            options.append((value, ("keep", value, 0.0, None, 0, keep)))
    options.sort(key=lambda o: -o[0])
    best = options[0][0]
    return [(k, v, best - v, s, p, kp) for v, (k, _, _, s, p, kp) in options]


def rows(options: list[Option]) -> list[Row]:
    return [(o.kind, o.expected, o.loss, o.slot, o.points, o.keep) for o in options]


def play_and_compare(sol: Solution, situations: int, seed: int) -> int:
    """Play games (best option half the time, else a random one) and compare every decision."""
    rules, rng = sol.rules, random.Random(seed)
    seen = 0
    while seen < situations:
        card: tuple[int | None, ...] = (None,) * len(rules.slots)
        bonuses = 0
        while sum(v is not None for v in card) < rules.turns:
            dice = tuple(rng.randint(1, 6) for _ in range(rules.dice))
            held: tuple[int, ...] = ()
            for throw in range(1, rules.throws + 1):
                want = reference_advise(sol, card, dice, throw, bonuses, held)
                got = rows(advise(sol, card, dice, throw, bonuses, held))
                assert got == want, (rules.name, card, dice, throw, bonuses, held)
                seen += 1
                pick = want[0] if rng.random() < 0.5 else rng.choice(want)
                if pick[0] == "score":
                    slot = rules.slots.index(str(pick[3]))
                    bonuses += int(scoring.extra_bonus_due(rules, card, slot, dice))
                    card = scoring.write(rules, card, slot, pick[4])
                    break
                held = pick[5] if rules.locked_holds else ()
                dice = pick[5] + tuple(rng.randint(1, 6) for _ in range(rules.dice - len(pick[5])))
    return seen


def small_yahtzee() -> Rules:
    """Yahtzee on the six upper boxes, the Yahtzee and the chance: forced joker, upper bonus, extra bonus."""
    rules = find_rules("yahtzee")
    keep = {"1", "2", "3", "4", "5", "6", "yahtzee", "chance"}
    return rules.replace(name="yahtzee-small", boxes=tuple(b for b in rules.boxes if b.id in keep))


@pytest.fixture(scope="module")
def small_yahtzee_solution() -> Solution:
    return solve(small_yahtzee())


class TestSameAsThePythonAdvisor:
    @pytest.mark.parametrize("name", ["generala", "generala-apartada", "generala-obligada"])
    def test_generala_family(self, solved: Solved, name: str) -> None:
        # Servida points, Doble's prerequisite, locked holds (with the held dice passed), column order.
        assert play_and_compare(solved(name), 150, seed=1) >= 150

    def test_forced_joker_and_upper_bonus(self, small_yahtzee_solution: Solution) -> None:
        assert play_and_compare(small_yahtzee_solution, 300, seed=2) >= 300

    @pytest.mark.slow
    @pytest.mark.parametrize("name", ["yahtzee", "yahtzee-free-joker", "yahtzee-original-joker", "yatzy", "general"])
    def test_full_tables(self, solved: Solved, name: str) -> None:
        assert play_and_compare(solved(name), 400, seed=3) >= 400


class TestTheOptionTable:
    def test_rows_are_the_options(self, solved: Solved) -> None:
        sol = solved("generala")
        card = [None, 3, None, None, None, None, None, 30, None, None, None]
        for throw in (1, 2, 3):
            table = option_table(sol, card, (6, 6, 2, 3, 6), throw)
            options = advise(sol, card, (6, 6, 2, 3, 6), throw)
            assert table.shape == (len(options), 4)
            for (kind, number, points, value), o in zip(table.tolist(), options, strict=True):
                assert value == o.expected and int(points) == o.points
                if kind == 0:
                    assert (o.kind, sol.rules.slots[int(number)]) == ("score", o.slot)
                else:
                    assert (o.kind, sol.space.dice.keeps[int(number)]) == ("keep", o.keep)


class TestTheOptionObjects:
    def test_options_are_ordinary_frozen_options(self, solved: Solved) -> None:
        sol = solved("generala")
        options = advise(sol, [None] * 11, (2, 2, 3, 3, 3), throw=1)
        first: Any = options[0]
        assert isinstance(first, Option)
        assert first == Option(first.kind, first.expected, first.loss, first.slot, first.points, first.keep)
        assert hash(first) == hash(Option(first.kind, first.expected, first.loss, first.slot, first.points, first.keep))
        with pytest.raises(AttributeError):
            first.expected = 0.0
        # Full servido (35) on an empty card is written or kept, never anything else first.
        assert str(first).endswith(f"{first.expected:.2f} (-0.00)")

    def test_memoised_turn_is_recomputed_for_an_earlier_throw(self, solved: Solved) -> None:
        # A turn's keep values are memoised from the throw asked first; asking an earlier throw
        # of the same sheet afterwards must still value the keeps of that throw.
        sol = solved("generala")
        card = [None] * 11
        later = rows(advise(sol, card, (1, 2, 3, 5, 6), throw=2))
        earlier = rows(advise(sol, card, (1, 2, 3, 5, 6), throw=1))
        assert earlier == reference_advise(sol, card, (1, 2, 3, 5, 6), 1, 0, ())
        assert later == reference_advise(sol, card, (1, 2, 3, 5, 6), 2, 0, ())

    @pytest.mark.parametrize(
        ("card", "dice", "throw", "message"),
        [
            ([None] * 10, (1, 2, 3, 4, 5), 1, "11 slots"),
            ([None] * 11, (1, 2, 3, 4, 0), 1, "faces 1 to 6"),
            ([None] * 11, (1, 2, 3, 4, 5, 6), 1, "5 dice"),
            ([None] * 11, (1, 2, 3, 4, 5), 0, "throw must be 1 to 3"),
        ],
    )
    def test_bad_input_is_a_clear_error(
        self, solved: Solved, card: list[int | None], dice: tuple[int, ...], throw: int, message: str
    ) -> None:
        with pytest.raises(IllegalActionError, match=message):
            advise(solved("generala"), card, dice, throw)

    def test_held_dice_must_be_on_the_table(self, solved: Solved) -> None:
        with pytest.raises(IllegalActionError, match="not all on the table"):
            advise(solved("generala-apartada"), [None] * 11, (1, 2, 3, 4, 5), throw=2, held=(6,))
