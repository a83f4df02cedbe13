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

import contextlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cubilete.errors import IllegalActionError
from cubilete.solver import query
from cubilete.solver.combinatorics import FloatArray
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


_new = object.__new__
_set = object.__setattr__  # an Option is frozen: its fields are set once, all at once, as in copy.copy


def _entry(kernel: Any, *args: object) -> Callable[..., Any]:
    """The compiled entry point of a numba kernel for these argument types (run once on ``args``).

    Calling the entry point skips numba's type dispatch, which costs more than the query itself
    when an argument is a named tuple of thirty tables; any other argument types fall back to
    the dispatcher.
    """
    kernel(*args)
    found = kernel.overloads.get(tuple(kernel.typeof_pyval(a) for a in args))
    return found.entry_point if found is not None else kernel  # type: ignore[no-any-return]


class _Query:
    """What the advisor reads for one solution, built once: Python views of the rules, the compiled
    kernels' entry points, the sub-keeps of every hand, and the last turns' keep values."""

    def __init__(self, solution: Solution) -> None:
        space = solution.space
        rules = space.rules
        d = space.dice
        self.name = rules.name
        self.n_dice, self.throws, self.rounds, self.n_slots = rules.dice, rules.throws, space.rounds, space.n_slots
        self.n_upper, self.n_keeps, self.locked = space.n_upper, d.n_keeps, rules.locked_holds
        self.bonus = max(0, rules.upper_bonus)
        self.threshold = rules.upper_bonus_threshold
        self.extra_bonus = rules.extra_bonus
        self.is_upper = [rules.slot_box(i).is_upper for i in range(space.n_slots)]
        self.flag_of = [1 << int(b) if b >= 0 else 0 for b in space.flag_bit]
        self.slot_by_number: dict[float, str] = dict(enumerate(rules.slots))  # the rows hold numbers as floats
        self.keep_by_number: dict[float, tuple[int, ...]] = dict(enumerate(d.keeps))
        self.index = {k: i for i, k in enumerate(d.keeps)}
        self.sub_keeps = [query.sub_keeps(d.remove, h, d.n_keeps) for h in range(d.n_hands)]
        self.no_keeps = np.zeros((rules.throws + 1, d.n_keeps))
        self.no_keep_list = np.zeros(0, dtype=np.int64)
        self.memo: dict[tuple[int, int, int], tuple[np.ndarray, int]] = {}
        T, V = solution.tables, solution.values
        Ks = np.zeros((rules.throws + 1, d.n_keeps))
        out = np.empty((space.n_slots, 4))
        last = rules.throws
        self.options = _entry(query.options, T, V, 0, 0, 0, 0, last, 0, Ks, last, self.no_keep_list, out)


def _query(solution: Solution) -> _Query:
    """The solution's query tables (kept in the solution object itself: one dict look-up per query)."""
    q: _Query | None = solution.__dict__.get("_advice_query")
    if q is None:
        q = solution.__dict__["_advice_query"] = _Query(solution)
    return q


def advise(
    solution: Solution,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> list[Option]:
    """Every distinct option after throw number ``throw`` with ``dice`` on the table, best first.

    ``held`` lists the faces that must stay kept (locked holds only). The whole query runs in
    one compiled call (:func:`option_table`); ties keep the slots first, in sheet order, then
    the keeps, largest first.
    """
    rows = option_table(solution, card, dice, throw, extra_bonuses, held).tolist()
    q = _query(solution)
    best = rows[0][3]
    slots, keep_faces, new, put = q.slot_by_number, q.keep_by_number, _new, _set
    result = []
    for kind, i, points, value in rows:
        o = new(Option)
        if kind == 0.0:
            put(o, "__dict__", {"kind": "score", "expected": value, "loss": best - value, "slot": slots[i],
                                "points": int(points), "keep": ()})  # fmt: skip
        else:
            put(o, "__dict__", {"kind": "keep", "expected": value, "loss": best - value, "slot": None,
                                "points": 0, "keep": keep_faces[i]})  # fmt: skip
        result.append(o)
    return result


def option_table(
    solution: Solution,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> FloatArray:
    """:func:`advise`'s options as one array, best first, without a Python object per option.

    One row per option: (0 = score or 1 = keep, slot number or keep number in
    ``solution.space.dice.keeps``, points written, expected final score). Same checks and
    same values as :func:`advise` (which wraps these rows).
    """
    q = _query(solution)
    hand = tuple(sorted(dice))
    if len(hand) != q.n_dice or (hand and not (hand[0] >= 1 and hand[-1] <= 6)):
        raise IllegalActionError(f"{q.name} uses {q.n_dice} dice with faces 1 to 6")
    if not 1 <= throw <= q.throws:
        raise IllegalActionError(f"throw must be 1 to {q.throws}, not {throw}")
    if len(card) != q.n_slots:
        raise IllegalActionError(f"a {q.name} card has {q.n_slots} slots, not {len(card)}")
    mask = flags = upper = total = filled = 0
    for i, v in enumerate(card):
        if v is not None:
            mask |= 1 << i
            filled += 1
            total += v
            if q.is_upper[i]:
                upper += v
            if v and q.flag_of[i]:
                flags |= q.flag_of[i]
    if filled >= q.rounds:
        raise IllegalActionError("the sheet is complete: nothing left to decide")
    if q.bonus and upper >= q.threshold:
        total += q.bonus
    total += extra_bonuses * q.extra_bonus
    capped = min(upper, q.n_upper - 1)
    h = q.index[hand]
    if throw < q.throws:
        must = tuple(sorted(held)) if q.locked else ()
        if must and throw == 1:
            raise IllegalActionError("nothing is held before the second throw of a turn")
        key = (mask, flags, capped)
        memo = q.memo
        got = memo.get(key)
        fill = 0
        if got is None or got[1] > throw + 1:  # the turn's keep values are filled by the query itself
            fill = throw + 1
            if len(memo) >= 64:
                with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # another thread got there first
                    memo.pop(next(iter(memo)))
            Ks = np.empty((q.throws + 1, q.n_keeps))
        else:
            Ks = got[0]
        keeps = q.sub_keeps[h] if not must else np.array([q.index[k] for k in _sub_keeps(hand, must)], dtype=np.int64)
    else:
        Ks, keeps, fill = q.no_keeps, q.no_keep_list, 0
    out = np.empty((q.n_slots + len(keeps), 4))
    n = q.options(solution.tables, solution.values, mask, flags, capped, h, throw, total, Ks, fill, keeps, out)
    if fill:
        memo[key] = (Ks, fill)
    return out[:n]


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
