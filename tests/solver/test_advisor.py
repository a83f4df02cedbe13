"""The advisor: options ranked by expected final score, consistent with the solved values and the dice."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable

import pytest

from cubilete.engine.errors import IllegalActionError
from cubilete.engine.rules import find_rules
from cubilete.solver.advisor import advise
from cubilete.solver.solve import Solution

Solved = Callable[..., Solution]

# Generala near the end: every box but the open ones written (3+6+9+12+15+18+20+30+40+50+0).
ALL_WRITTEN = {"1": 3, "2": 6, "3": 9, "4": 12, "5": 15, "6": 18, "escalera": 20, "full": 30, "poker": 40,
               "generala": 50, "doble": 0}  # fmt: skip


def generala_card(*open_boxes: str) -> list[int | None]:
    """The Generala card of ALL_WRITTEN with some boxes left open."""
    rules = find_rules("generala")
    return [None if slot in open_boxes else ALL_WRITTEN[slot] for slot in rules.slots]


def hand_probability(hand: tuple[int, ...]) -> float:
    """P(a throw of len(hand) dice shows this multiset)."""
    ways = math.factorial(len(hand))
    for count in Counter(hand).values():
        ways //= math.factorial(count)
    return ways / 6 ** len(hand)


class TestOrdering:
    @pytest.mark.parametrize("seed", range(5))
    def test_sorted_best_first_losses_non_negative(self, solved: Solved, seed: int) -> None:
        sol = solved("generala")
        rng = random.Random(seed)
        card: list[int | None] = [None] * len(sol.rules.slots)
        for _ in range(3):  # a few random boxes already scratched
            card[rng.randrange(len(card))] = 0
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        options = advise(sol, card, dice, throw=rng.randint(1, 3))
        assert options[0].loss == 0
        assert all(o.loss >= 0 for o in options)
        assert [o.expected for o in options] == sorted((o.expected for o in options), reverse=True)
        for o in options:
            assert o.loss == pytest.approx(options[0].expected - o.expected, abs=1e-12)

    def test_every_distinct_keep_once_and_none_on_the_last_throw(self, solved: Solved) -> None:
        sol = solved("generala")
        card = [None] * len(sol.rules.slots)
        # 6 6 2 3 6: sub-multisets = 4 (sixes) x 2 (the 2) x 2 (the 3) = 16, less keeping all five = 15.
        keeps = [o.keep for o in advise(sol, card, (6, 6, 2, 3, 6), throw=2) if o.kind == "keep"]
        assert len(keeps) == len(set(keeps)) == 15
        assert () in keeps and (6, 6, 6) in keeps and (2, 3, 6, 6, 6) not in keeps
        assert all(o.kind == "score" for o in advise(sol, card, (6, 6, 2, 3, 6), throw=3))


class TestAgainstTheValues:
    def test_first_throw_average_is_the_expected_score(self, solved: Solved) -> None:
        # Before the first throw of the game the value is the average, over the 252 possible
        # first throws, of the best option after that throw.
        sol = solved("generala")
        card = [None] * len(sol.rules.slots)
        hands = list(itertools.combinations_with_replacement(range(1, 7), 5))
        assert len(hands) == 252
        assert sum(hand_probability(h) for h in hands) == pytest.approx(1.0)
        total = sum(hand_probability(h) * advise(sol, card, h, throw=1)[0].expected for h in hands)
        assert total == pytest.approx(sol.expected_score, abs=1e-9)

    @pytest.mark.parametrize(("keep", "throw"), [((4, 4, 4), 2), ((1, 2), 1), ((5,), 2)])
    def test_keep_value_is_the_mean_over_the_rethrows(self, solved: Solved, keep: tuple[int, ...], throw: int) -> None:
        # Keeping some dice is worth the average, over every ordered outcome of the dice thrown,
        # of the best option after the next throw (asked to the advisor itself).
        sol = solved("generala")
        card = generala_card("4", "full", "poker", "generala", "doble")
        dice = tuple(sorted((*keep, *[6] * (5 - len(keep)))))
        options = {o.keep: o for o in advise(sol, card, dice, throw) if o.kind == "keep"}
        outcomes = list(itertools.product(range(1, 7), repeat=5 - len(keep)))
        mean = sum(advise(sol, card, keep + rest, throw + 1)[0].expected for rest in outcomes) / len(outcomes)
        assert options[keep].expected == pytest.approx(mean, abs=1e-9)

    def test_score_option_adds_the_points_to_the_sheet(self, solved: Solved) -> None:
        # Only Full open, last throw: the single option is to write the Full (30 armada), and the
        # final score is the 173 already written plus 30.
        sol = solved("generala")
        options = advise(sol, generala_card("full"), (2, 2, 3, 3, 3), throw=3)
        assert [(o.kind, o.slot, o.points, o.expected) for o in options] == [("score", "full", 30, 203.0)]
        # Same sheet, a hand that is no Full: the only option is the scratch.
        options = advise(sol, generala_card("full"), (1, 2, 3, 3, 3), throw=3)
        assert [(o.slot, o.points, o.expected) for o in options] == [("full", 0, 173.0)]

    def test_full_servido_at_the_end_is_scored(self, solved: Solved) -> None:
        # A Full on the first throw with only Full open: 35 now beats any keep (at most 30 armada).
        sol = solved("generala")
        options = advise(sol, generala_card("full"), (2, 2, 3, 3, 3), throw=1)
        assert (options[0].kind, options[0].slot, options[0].points, options[0].expected) == ("score", "full", 35, 208)
        assert all(o.expected <= 173 + 30 for o in options[1:])


class TestLockedHolds:
    def test_keeps_are_supersets_of_the_held_dice(self, solved: Solved) -> None:
        sol = solved("generala-apartada")
        card = [None] * len(sol.rules.slots)
        keeps = [o.keep for o in advise(sol, card, (6, 6, 2, 3, 6), throw=2, held=(6, 6)) if o.kind == "keep"]
        assert all(not Counter((6, 6)) - Counter(k) for k in keeps)
        # Beyond the two held sixes, any proper part of {2, 3, 6}: 2^3 - 1 = 7 keeps.
        assert sorted(keeps) == sorted([(6, 6), (2, 6, 6), (3, 6, 6), (6, 6, 6), (2, 3, 6, 6), (2, 6, 6, 6),
                                        (3, 6, 6, 6)])  # fmt: skip
        free = [o for o in advise(sol, card, (6, 6, 2, 3, 6), throw=2) if o.kind == "keep"]
        assert len(free) == 15

    def test_held_is_ignored_where_holds_are_not_locked(self, solved: Solved) -> None:
        sol = solved("generala")
        card = [None] * len(sol.rules.slots)
        assert advise(sol, card, (6, 6, 2, 3, 6), 2, held=(6, 6)) == advise(sol, card, (6, 6, 2, 3, 6), 2)


class TestErrors:
    def test_complete_sheet(self, solved: Solved) -> None:
        with pytest.raises(IllegalActionError, match="complete"):
            advise(solved("generala"), generala_card(), (1, 2, 3, 4, 5), throw=1)

    @pytest.mark.parametrize(("dice", "throw"), [((1, 2, 3, 4), 1), ((1, 2, 3, 4, 7), 1), ((1, 2, 3, 4, 5), 4)])
    def test_bad_dice_or_throw(self, solved: Solved, dice: tuple[int, ...], throw: int) -> None:
        with pytest.raises(IllegalActionError):
            advise(solved("generala"), [None] * 11, dice, throw)


class TestAdviceBuiltAsRead:
    """advise's result builds an Option only when it is read; whatever is read agrees with the whole list."""

    @pytest.mark.parametrize("seed", range(4))
    def test_each_option_read_alone_is_the_listed_one(self, solved: Solved, seed: int) -> None:
        sol = solved("generala")
        rng = random.Random(seed)
        card: list[int | None] = [None] * len(sol.rules.slots)
        for _ in range(rng.randint(0, 6)):
            card[rng.randrange(len(card))] = 0
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        throw = rng.randint(1, 3)
        listed = list(advise(sol, card, dice, throw))
        n = len(listed)
        assert len(advise(sol, card, dice, throw)) == n
        assert [advise(sol, card, dice, throw)[i] for i in range(n)] == listed  # a fresh result per read
        assert advise(sol, card, dice, throw)[-1] == listed[-1]
        assert advise(sol, card, dice, throw)[1:3] == listed[1:3]
        assert advise(sol, card, dice, throw).best == listed[0]
        got = advise(sol, card, dice, throw)
        assert got == listed and got == tuple(listed) and got == advise(sol, card, dice, throw)
        assert got[:] == listed  # read after the whole list was built, too
        with pytest.raises(IndexError):
            advise(sol, card, dice, throw)[n]
        with pytest.raises(TypeError):
            hash(got)

    def test_table_rows_are_the_options(self, solved: Solved) -> None:
        sol = solved("generala")
        card = generala_card("1", "full", "poker")
        got = advise(sol, card, (1, 1, 4, 4, 4), throw=2)
        keeps = sol.space.dice.keeps
        for (kind, number, points, expected), option in zip(got.table.tolist(), got, strict=True):
            assert expected == option.expected
            if kind == 0:
                assert (option.kind, option.slot, option.points) == ("score", sol.rules.slots[int(number)], points)
            else:
                assert (option.kind, option.keep) == ("keep", keeps[int(number)])
        # every open box takes 1 1 4 4 4: the aces (2), the full (30), the poker (0, a scratch)
        assert {o.slot for o in got if o.kind == "score"} == {"1", "full", "poker"}
