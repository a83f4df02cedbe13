"""The exact solver against a brute-force expectimax (tests/solver/oracle.py) on reduced games.

Each reduced game has 1-3 dice and 1-4 boxes; the oracle plays ordered dice and
positional holds in exact fractions and tracks the real scorecard, and every turn-start
state it reaches must have the solver's value, to 1e-9.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.solver.oracle import Card, Oracle

from cubilete.engine.rules.model import Box, Joker, Kind, Order, Points, Rules
from cubilete.engine.rules.presets import pat
from cubilete.solver import solve
from cubilete.solver.space import StateSpace

TOLERANCE = 1e-9


def upper_box(face: int) -> Box:
    """The box that adds the dice showing ``face``."""
    return Box(str(face), f"{face}s", Kind.UPPER, Points.PATTERN, face=face)


def game(name: str, boxes: tuple[Box, ...], dice: int = 3, **changes: object) -> Rules:
    """A reduced rule set."""
    return Rules(name=name, title=name, boxes=boxes, dice=dice).replace(**changes)


# (a) generala-like: a servida trio, and a doble that needs the trio to hold points.
TRIO = Box("trio", "Trio", Kind.GROUPS, value=30, groups=(3,), first_throw_value=50)
DOBLE = Box("doble", "Doble", Kind.GROUPS, value=60, groups=(3,), requires="trio")
GENERALA_LIKE = game("mini-generala", (upper_box(1), upper_box(2), TRIO, DOBLE))
GENERALA_SMALL = game("mini-generala-3", (upper_box(1), TRIO, DOBLE))

# (b) yahtzee-like: upper bonus 6 at 4, extra bonus for another all-equal hand, a joker box.
YAHTZEE_3 = Box("yahtzee", "Yahtzee", Kind.GROUPS, value=50, groups=(3,))
RUN_3 = Box("run", "Run", Kind.STRAIGHT, value=20, patterns=pat("123", "234", "345", "456"), joker=True)
YAHTZEE_2 = Box("yahtzee", "Yahtzee", Kind.GROUPS, value=25, groups=(2,))
RUN_2 = Box("run", "Run", Kind.STRAIGHT, value=15, patterns=pat("12", "23", "34", "45", "56"), joker=True)


def yahtzee_like(name: str, boxes: tuple[Box, ...], dice: int = 3) -> Rules:
    """Upper bonus 6 at 4; +100 for another all-equal hand while the yahtzee box holds points."""
    bonuses = {"upper_bonus": 6, "upper_bonus_threshold": 4, "extra_bonus_box": "yahtzee", "extra_bonus": 100}
    return game(name, boxes, dice=dice, **bonuses)


YAHTZEE_LIKE = yahtzee_like("mini-yahtzee", (upper_box(1), upper_box(2), YAHTZEE_3, RUN_3))
YAHTZEE_SMALL = yahtzee_like("mini-yahtzee-3", (upper_box(2), YAHTZEE_3, RUN_3))
YAHTZEE_TWO_DICE = yahtzee_like("mini-yahtzee-2d", (upper_box(1), upper_box(2), YAHTZEE_2, RUN_2), dice=2)

# (e) straights over 3 dice (one of them wraps round: 1-3-6), a first-throw bonus (g), a highest-pair box.
ESCALERA = Box(
    "esc", "Escalera", Kind.STRAIGHT, value=20, patterns=pat("123", "234", "345", "456", "136"), first_throw_bonus=5
)
PAIR_SUM = Box("pair", "Pair", Kind.GROUPS, Points.PATTERN, groups=(2,))
STRAIGHT_GAME = game("mini-escalera", (upper_box(1), ESCALERA, PAIR_SUM))

# Two dice: a doble that does NOT close when its prerequisite is scratched.
PAIR = Box("pair", "Pair", Kind.GROUPS, value=10, groups=(2,), first_throw_value=15)
DOBLE_PAIR = Box("doble", "Doble", Kind.GROUPS, value=20, groups=(2,), requires="pair", closed_by_scratch=False)
OPEN_DOBLE = game("mini-doble-open", (upper_box(1), PAIR, DOBLE_PAIR), dice=2)

REDUCED_GAMES = [
    pytest.param(GENERALA_LIKE, id="a-generala-3d-4boxes"),
    pytest.param(GENERALA_SMALL.replace(locked_holds=True), id="c-generala-3d-locked-holds"),
    pytest.param(GENERALA_SMALL.replace(locked_holds=True, throws=4), id="c-generala-3d-locked-holds-4-throws"),
    pytest.param(GENERALA_LIKE.replace(throws=2), id="d-generala-3d-2-throws"),
    pytest.param(GENERALA_LIKE.replace(throws=1), id="d-generala-3d-1-throw"),
    pytest.param(YAHTZEE_SMALL.replace(joker=Joker.FORCED), id="b-yahtzee-3d-joker-forced"),
    pytest.param(YAHTZEE_SMALL.replace(joker=Joker.FREE), id="b-yahtzee-3d-joker-free"),
    pytest.param(YAHTZEE_SMALL.replace(joker=Joker.ORIGINAL), id="b-yahtzee-3d-joker-original"),
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FORCED), id="b-yahtzee-2d-joker-forced"),
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FREE), id="b-yahtzee-2d-joker-free"),
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.ORIGINAL), id="b-yahtzee-2d-joker-original"),
    pytest.param(STRAIGHT_GAME, id="e-g-straights-3d-first-throw-bonus"),
    pytest.param(GENERALA_LIKE.replace(columns=(Order.DOWN,)), id="f-generala-3d-order-down"),
    pytest.param(YAHTZEE_LIKE.replace(columns=(Order.UP,), joker=Joker.FORCED), id="f-yahtzee-3d-order-up"),
    pytest.param(YAHTZEE_LIKE.replace(rounds=2, joker=Joker.FORCED), id="h-yahtzee-3d-2-rounds-of-4"),
    pytest.param(STRAIGHT_GAME.replace(rounds=2, throws=2), id="h-straights-3d-2-rounds-of-3"),
    pytest.param(OPEN_DOBLE, id="doble-2d-not-closed-by-scratch"),
    pytest.param(OPEN_DOBLE.replace(columns=(Order.FIRST_THROW,)), id="doble-2d-first-throw-column"),
]


def solver_state(space: StateSpace, card: Card) -> tuple[int, int, int]:
    """The solver's (mask, flags, capped upper total) for a real scorecard."""
    rules = space.rules
    mask = sum(1 << j for j, v in enumerate(card) if v is not None)
    flags = sum(1 << int(space.flag_bit[j]) for j, v in enumerate(card) if space.flag_bit[j] >= 0 and v)
    upper = 0
    if space.n_upper > 1:
        upper_total = sum(v or 0 for j, v in enumerate(card) if rules.slot_box(j).is_upper)
        upper = min(rules.upper_bonus_threshold, upper_total)
    return mask, flags, upper


@pytest.mark.parametrize("rules", REDUCED_GAMES)
def test_solver_matches_the_oracle_on_every_reachable_state(rules: Rules) -> None:
    oracle = Oracle(rules)
    expected = oracle.expected_score()
    solution = solve(rules)
    assert solution.expected_score == pytest.approx(float(expected), abs=TOLERANCE)
    assert len(oracle.values) > 10  # the game really branches
    wrong = []
    for (card, turns), value in oracle.values.items():
        mask, flags, upper = solver_state(solution.space, card)
        assert solution.space.reach[mask, upper] == 1, f"reachable card {card} marked unreachable"
        got = float(solution.values[mask, flags, upper])
        if abs(got - float(value)) > TOLERANCE:
            wrong.append(
                f"card {card} after {turns} turns -> state {(mask, flags, upper)}: "
                f"oracle {float(value)!r} ({value}), solver {got!r}"
            )
    assert not wrong, f"{len(wrong)} of {len(oracle.values)} states differ:\n" + "\n".join(wrong[:10])


# --- the oracle itself, against values worked out by hand ------------------------------

SIXES_ONE_DIE = game("sixes", (upper_box(6),), dice=1, throws=2)


@pytest.mark.parametrize(
    ("throws", "value"),
    [
        (1, Fraction(1)),  # one throw: 6 points with probability 1/6
        (2, Fraction(11, 6)),  # a six scores 6 (1/6); else throw again, worth 1 (5/6)
        (3, Fraction(91, 36)),  # a six (1/6), else throw again with two throws left: 1 + 5/6 * 11/6
    ],
)
def test_one_die_sixes_by_hand(throws: int, value: Fraction) -> None:
    rules = SIXES_ONE_DIE.replace(throws=throws)
    assert Oracle(rules).expected_score() == value
    assert solve(rules).expected_score == pytest.approx(float(value), abs=TOLERANCE)


@pytest.mark.parametrize(
    ("servida", "value"),
    [
        # 2 dice, 2 throws, one box "pair" worth 10: a pair on the first throw (1/6) scores the servida
        # value; otherwise keeping one die or none both make the pair with probability 1/6: 10/6.
        (10, Fraction(10, 6) + Fraction(5, 6) * Fraction(10, 6)),  # 55/18
        (20, Fraction(20, 6) + Fraction(5, 6) * Fraction(10, 6)),  # 85/18
        (40, Fraction(40, 6) + Fraction(5, 6) * Fraction(10, 6)),  # 145/18
    ],
)
def test_servida_value_by_hand(servida: int, value: Fraction) -> None:
    rules = game(
        "pair", (Box("pair", "Pair", Kind.GROUPS, value=10, groups=(2,), first_throw_value=servida),), dice=2, throws=2
    )
    assert Oracle(rules).expected_score() == value
    assert solve(rules).expected_score == pytest.approx(float(value), abs=TOLERANCE)


def test_two_boxes_and_an_upper_bonus_by_hand() -> None:
    # 1 die, 1 throw, boxes "1s" and "2s", bonus 7 when the upper total reaches 3.
    # Second turn, 1s open: E = 1/6, plus 7/6 if the 2s hold 2; 2s open: E = 2/6, plus 7/6 if the 1s hold 1.
    # First turn, per face: 1 -> in 1s (1 + 2/6 + 7/6 = 5/2) beats 2s (0 + 1/6);
    # 2 -> in 2s (2 + 1/6 + 7/6 = 10/3) beats 1s (0 + 2/6); 3-6 -> scratch 1s (2/6) beats scratch 2s (1/6).
    rules = game("ones-twos", (upper_box(1), upper_box(2)), dice=1, throws=1, upper_bonus=7, upper_bonus_threshold=3)
    value = (Fraction(5, 2) + Fraction(10, 3) + 4 * Fraction(2, 6)) / 6
    assert Oracle(rules).expected_score() == value
    assert solve(rules).expected_score == pytest.approx(float(value), abs=TOLERANCE)


def test_locked_holds_by_hand() -> None:
    # Locked holds with 2 dice and one box "1s": with 2 throws, holding never hurts, so the value is
    # 2 dice each ending on a 1 with probability 1 - (5/6)**2 = 11/36: 2 * 11/36 = 11/18.
    rules = game("ones", (upper_box(1),), dice=2, throws=2, locked_holds=True)
    assert Oracle(rules).expected_score() == Fraction(11, 18)
    assert Oracle(rules.replace(locked_holds=False)).expected_score() == Fraction(11, 18)


def test_locked_holds_change_both_values() -> None:
    # Locked holds only remove choices, so the value can only drop; in this game it drops for both.
    free, locked = GENERALA_SMALL, GENERALA_SMALL.replace(locked_holds=True)
    oracle_free, oracle_locked = Oracle(free).expected_score(), Oracle(locked).expected_score()
    solver_free, solver_locked = solve(free).expected_score, solve(locked).expected_score
    assert oracle_locked < oracle_free
    assert solver_locked < solver_free
    assert solver_locked == pytest.approx(float(oracle_locked), abs=TOLERANCE)
