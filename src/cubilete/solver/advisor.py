"""The advisor: every distinct option in a situation, with its expected final score under
optimal play from there on, and its loss against the best.

>>> from cubilete.rules import find_rules
>>> from cubilete.solver import solve
>>> sol = solve(find_rules("generala").replace(name="tiny", boxes=find_rules("generala").boxes[:2]))
>>> best, other = advise(sol, [None, None], (1, 1, 2, 2, 3), throw=3)

Scoring the two aces now leaves the twos, worth 2 * 5 * (1 - (5/6)**3) = 4.213 on average with three
throws: 2 + 4.213 = 6.213. The four in the twos leaves the aces: 4 + 2.106 = 6.106. Take the aces.

>>> best.kind, best.slot, round(best.expected, 3)
('score', '1', 6.213)
>>> other.slot, round(other.expected, 3)
('2', 6.106)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cubilete.errors import IllegalActionError
from cubilete.rules import scoring
from cubilete.solver.kernels import turn_values
from cubilete.solver.solve import Solution


@dataclass(frozen=True)
class Option:
    """One choice: score a slot now, or keep some dice and throw the rest."""

    kind: str  # "score" or "keep"
    expected: float  # expected final score after this choice, playing optimally afterwards
    loss: float  # expected points lost against the best option
    slot: str | None = None  # score: the slot id
    points: int = 0  # score: points written now (bonuses not included)
    keep: tuple[int, ...] = ()  # keep: the faces kept

    def __str__(self) -> str:
        what = f"score {self.slot} ({self.points})" if self.kind == "score" else _keep_words(self.keep)
        return f"{what}: {self.expected:.2f} (-{self.loss:.2f})"


def _keep_words(keep: tuple[int, ...]) -> str:
    return "keep " + (" ".join(map(str, keep)) if keep else "nothing") + ", throw the rest"


def sheet_state(solution: Solution, card: Sequence[int | None]) -> tuple[int, int, int]:
    """(closed mask, flags, capped upper total) of a card, as the solver indexes it."""
    space = solution.space
    rules = space.rules
    if len(card) != space.n_slots:
        raise IllegalActionError(f"a {rules.name} card has {space.n_slots} slots, not {len(card)}")
    mask = sum(1 << i for i, v in enumerate(card) if v is not None)
    flags = sum(1 << int(space.flag_bit[i]) for i, v in enumerate(card) if space.flag_bit[i] >= 0 and v)
    upper = sum(v or 0 for i, v in enumerate(card) if rules.slot_box(i).is_upper)
    return mask, flags, min(upper, space.n_upper - 1)


def _keep_values(solution: Solution, mask: int, flags: int, upper: int) -> np.ndarray:
    """Keep values per throw, ``Ks[t, keep]``, for one sheet and upper total (the last few are memoised:
    the decisions of one turn share them)."""
    key = (mask, flags, upper)
    memo = solution.turn_memo
    if key not in memo:
        space = solution.space
        d = space.dice
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Ks = np.zeros((space.rules.throws + 1, d.n_keeps, 1))
        M, out = np.empty((d.n_keeps, 1)), np.empty(1)
        turn_values(solution.tables, mask, flags, upper, solution.values, S1, S23, E, Ks, M, out)
        if len(memo) >= 64:
            memo.pop(next(iter(memo)))
        memo[key] = Ks[:, :, 0]
    return memo[key]


def advise(
    solution: Solution,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> list[Option]:
    """Every distinct option after throw number ``throw`` with ``dice`` on the table, best first.

    ``held`` lists the faces that must stay kept (locked holds only).
    """
    space = solution.space
    rules = space.rules
    hand = tuple(sorted(dice))
    if len(hand) != rules.dice or any(not 1 <= f <= 6 for f in hand):
        raise IllegalActionError(f"{rules.name} uses {rules.dice} dice with faces 1 to 6")
    if not 1 <= throw <= rules.throws:
        raise IllegalActionError(f"throw must be 1 to {rules.throws}, not {throw}")
    mask, flags, upper = sheet_state(solution, card)
    if bin(mask).count("1") >= space.rounds:
        raise IllegalActionError("the sheet is complete: nothing left to decide")
    so_far = scoring.total(rules, card, extra_bonuses)
    options: list[tuple[float, Option]] = []
    first = throw == 1
    for j in scoring.usable_slots(rules, card, hand, first):
        points = scoring.slot_points(rules, card, j, hand, first)
        after = scoring.write(rules, card, j, points)
        bonus = int(scoring.extra_bonus_due(rules, card, j, hand)) * rules.extra_bonus
        bonus += scoring.upper_bonus(rules, after) - scoring.upper_bonus(rules, card)
        n_mask, n_flags, n_upper = sheet_state(solution, after)
        future = float(solution.values[n_mask, n_flags, n_upper]) if bin(n_mask).count("1") < space.rounds else 0.0
        value = so_far + points + bonus + future
        options.append((value, Option("score", value, 0.0, slot=rules.slots[j], points=points)))
    if throw < rules.throws:
        Ks = _keep_values(solution, mask, flags, upper)
        must = tuple(sorted(held)) if rules.locked_holds else ()
        if must and throw == 1:
            raise IllegalActionError("nothing is held before the second throw of a turn")
        for keep in _sub_keeps(hand, must):
            value = so_far + float(Ks[throw + 1, space.dice.index(keep)])
            options.append((value, Option("keep", value, 0.0, keep=keep)))
    options.sort(key=lambda o: -o[0])
    best = options[0][0]
    return [Option(o.kind, o.expected, best - o.expected, o.slot, o.points, o.keep) for _, o in options]


def _sub_keeps(hand: tuple[int, ...], must: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Distinct proper sub-multisets of the hand that contain ``must``."""
    rest = list(hand)
    for f in must:
        if f not in rest:
            raise IllegalActionError(f"held dice {list(must)} are not all on the table {list(hand)}")
        rest.remove(f)
    seen: set[tuple[int, ...]] = set()
    for size in range(len(rest)):
        for extra in itertools.combinations(rest, size):
            seen.add(tuple(sorted(must + extra)))
    return sorted(seen, key=lambda k: (-len(k), k))
