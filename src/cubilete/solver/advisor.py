"""The advisor: every distinct option in a situation, with its expected final score under
optimal play from there on, and its loss against the best.

>>> from cubilete.engine.rules import find_rules
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
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, overload

import numpy as np

from cubilete.engine.errors import IllegalActionError
from cubilete.solver import firstrun, numpy_twin, query
from cubilete.solver.combinatorics import FloatArray
from cubilete.solver.kernels import turn_values
from cubilete.solver.solve import Solution
from cubilete.solver.tables import pack


class Option(NamedTuple):
    """One choice: score a slot now, or keep some dice and throw the rest.

    A named tuple (immutable, hashable, compared field by field): the advisor builds one per
    option of every query, and a tuple is the cheapest Python object to build.
    """

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


_new_tuple = tuple.__new__  # an Option from its six fields at once, skipping the keyword handling


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
        self.hand_index = {k: i for i, k in enumerate(d.keeps[: d.n_hands])}
        self.hand_of: dict[tuple[int, ...], int] = {}  # dice as shown -> hand number (no sort per query)
        self.sheets: dict[tuple[int | None, ...], tuple[int, int, int, int]] = {}
        sub_keeps = firstrun.sub_keeps_of(solution.tables, space.n_states)  # numpy until compiled
        self.sub_keeps = [sub_keeps(d.remove, h, d.n_keeps) for h in range(d.n_hands)]
        # the same sub-keeps end to end, hand h's from keep_at[h] (for the review's batched query)
        self.keep_list = np.concatenate(self.sub_keeps).astype(np.int64)
        self.keep_at = np.cumsum([0] + [len(k) for k in self.sub_keeps]).astype(np.int64)
        self.no_keeps = np.zeros((rules.throws + 1, d.n_keeps))
        self.no_keep_list = np.zeros(0, dtype=np.int64)
        self.memo: dict[tuple[int, int, int], tuple[np.ndarray, int]] = {}
        T, V = solution.tables, solution.values
        self.ints, self.floats = pack(T)  # what the compiled query reads: two arrays, not KernelTables' 19
        Ks = np.zeros((rules.throws + 1, d.n_keeps))
        out = np.empty((space.n_slots, 4))
        last = rules.throws
        args = (self.ints, self.floats, V, 0, 0, 0, 0, last, 0, Ks, last, self.no_keep_list, out)
        # numpy until the kernels are compiled (a fresh install), then the compiled query
        self.options = firstrun.query_entry(
            T, space.n_states, lambda: _entry(query.options_packed, *args),
            lambda _ints, _floats, *rest: numpy_twin.options(T, *rest),
        )  # fmt: skip
        self.slot_number = {slot: i for i, slot in enumerate(rules.slots)}
        self._judge: Callable[..., None] | None = None
        self._tables = (T, V, space.n_states)
        self.values = V  # what the query reads with the packed tables (the solution's own)
        self._rows = threading.local()  # top_rows' buffer, one per thread (its rows are copied out at once)

    def top_rows(
        self, card: Sequence[int | None], dice: Sequence[int], throw: int, extra_bonuses: int, held: Sequence[int],
        top: int,
    ) -> list[list[float]]:  # fmt: skip
        """:func:`top_rows` on this query (a caller that keeps the query skips the look-up in the solution)."""
        buffer = getattr(self._rows, "out", None)
        if buffer is None:
            buffer = self._rows.out = np.empty((self.n_slots + self.n_keeps, 4))
        out, n = _table(self, card, dice, throw, extra_bonuses, held, buffer)
        return out[: n if n < top else max(top, 0)].tolist()  # type: ignore[no-any-return]

    def judge(self) -> Callable[..., None]:
        """The batched query of :func:`judge` (built at its first use: most processes never review a game)."""
        if self._judge is None:
            T, V, n_states = self._tables
            none = (np.zeros((0, 8), dtype=np.int64), np.empty((0, 7)))
            self._judge = firstrun.query_entry(
                T, n_states, lambda: _entry(query.judge, T, V, self.keep_list, self.keep_at, *none), numpy_twin.judge
            )
        return self._judge


def _query(solution: Solution) -> _Query:
    """The solution's query tables (kept in the solution object itself: one dict look-up per query)."""
    q: _Query | None = solution.__dict__.get("_advice_query")
    if q is None:
        q = solution.__dict__["_advice_query"] = _Query(solution)
    return q


class Advice(Sequence[Option]):
    """The options of one situation, best first: the compiled query's rows, read as :class:`Option`.

    A sequence of :class:`Option` (index it, iterate it, compare it with a list), but an ``Option``
    is built only when it is read: a bot that plays the best option builds one (:attr:`best`), a
    coach or the CLI's top N build what they show. :attr:`table` holds every option as a row of
    one array, ``(0 = score or 1 = keep, slot or keep number, points written, expected final
    score)``, for callers that want the numbers without objects.
    """

    __slots__ = ("_n", "_options", "_out", "_q")

    def __init__(self, out: FloatArray, n: int, q: _Query) -> None:
        self._out = out  # rows 0 .. n - 1 are the options (the query's buffer, not sliced: one object less)
        self._n = n
        self._q = q
        self._options: list[Option] | None = None

    @property
    def table(self) -> FloatArray:
        """Every option as a row ``(0 = score or 1 = keep, slot or keep number, points, expected)``, best first."""
        return self._out[: self._n]

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Option: ...
    @overload
    def __getitem__(self, i: slice) -> list[Option]: ...
    def __getitem__(self, i: int | slice) -> Option | list[Option]:
        if self._options is not None:
            return self._options[i]
        if isinstance(i, slice):  # the first N: N objects
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("option index out of range")
        k, number, points, value = self._out[i].tolist()  # one row: one Option, whatever the index
        best = float(self._out[0, 3])
        if k == 0.0:
            return _new_tuple(Option, ("score", value, best - value, self._q.slot_by_number[number], int(points), ()))
        return _new_tuple(Option, ("keep", value, best - value, None, 0, self._q.keep_by_number[number]))

    @property
    def best(self) -> Option:
        """The best option (the first)."""
        if self._options is not None or not self._n:
            return self[0]
        k, number, points, value = self._out[0].tolist()  # what a bot reads: one row, one Option, no loss to compute
        if k == 0.0:
            return _new_tuple(Option, ("score", value, 0.0, self._q.slot_by_number[number], int(points), ()))
        return _new_tuple(Option, ("keep", value, 0.0, None, 0, self._q.keep_by_number[number]))

    @property
    def options(self) -> list[Option]:
        """Every option, best first, as a list (built once)."""
        if self._options is None:
            rows = self._out[: self._n].tolist()
            best = rows[0][3]
            slots, keep_faces, new = self._q.slot_by_number, self._q.keep_by_number, _new_tuple
            self._options = [
                new(Option, ("score", v, best - v, slots[i], int(p), ()))
                if k == 0.0
                else new(Option, ("keep", v, best - v, None, 0, keep_faces[i]))
                for k, i, p, v in rows
            ]
        return self._options

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Advice):
            return self.options == other.options
        if isinstance(other, list | tuple):
            return self.options == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so unhashable like them

    def __repr__(self) -> str:
        return f"Advice({self.options!r})"


def advise(
    solution: Solution,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> Advice:
    """Every distinct option after throw number ``throw`` with ``dice`` on the table, best first.

    ``held`` lists the faces that must stay kept (locked holds only). The whole query runs in
    one compiled call (:func:`option_table`); ties keep the slots first, in sheet order, then
    the keeps, largest first. The result is a sequence of :class:`Option` built as they are read
    (:class:`Advice`).
    """
    q = _query(solution)
    out, n = _table(q, card, dice, throw, extra_bonuses, held)
    return Advice(out, n, q)


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
    out, n = _table(_query(solution), card, dice, throw, extra_bonuses, held)
    return out[:n]


def top_rows(
    solution: Solution,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
    top: int = 5,
) -> list[list[float]]:
    """The first ``top`` rows of :func:`option_table` (all of them if fewer) as Python lists: what a caller
    that shows a few options reads (:func:`cubilete.play.coach.advise_hand`), one slice and one conversion."""
    return _query(solution).top_rows(card, dice, throw, extra_bonuses, held, top)


def query_for(solution: Solution) -> _Query:
    """The solution's compiled query, built once and kept in the solution (a caller that keeps it, as
    :func:`cubilete.play.coach.advise_hand` does, calls its ``top_rows`` without the look-up)."""
    return _query(solution)


# one decision to judge: (card, dice, throw, extra bonuses, "score" or "keep", slot id or kept faces sorted)
Chosen = tuple[Sequence[int | None], Sequence[int], int, int, str, str | tuple[int, ...]]


def judge(solution: Solution, decisions: Sequence[Chosen]) -> FloatArray:
    """Judge many decisions in one compiled call (a game review): per decision, the option chosen
    against the best one, valued as :func:`advise` values them (bit for bit).

    One row per decision: (1.0 if the choice is one of :func:`advise`'s options else 0.0, its points,
    its expected final score, the best option's kind (0 = score, 1 = keep), slot or keep number
    (:func:`option_names`), points and expected final score). The loss of a choice is the best
    value minus its value. Decisions of one turn in a row share the turn's keep values. Rules with
    locked holds are refused (ValueError): their options depend on the dice held, ask :func:`advise`.
    """
    q = _query(solution)
    if q.locked:
        raise ValueError(f"{q.name} has locked holds: judge its decisions one by one with advise()")
    rows: list[int] = []  # eight numbers per decision, in one flat list (one array conversion)
    hand_index, slot_number, keep_number, sheets = q.hand_index, q.slot_number, q.index, q.sheets
    for card, dice, throw, extras, kind, what in decisions:
        h = hand_index.get(tuple(sorted(dice)))
        if h is None:
            raise IllegalActionError(f"{q.name} uses {q.n_dice} dice with faces 1 to 6")
        if not 1 <= throw <= q.throws:
            raise IllegalActionError(f"throw must be 1 to {q.throws}, not {throw}")
        known = sheets.get(card) if type(card) is tuple else None  # the memo of _sheet, read without the call
        mask, flags, capped, total = known or _sheet(q, card)
        if isinstance(what, str):
            code, number = (0, slot_number.get(what, -1)) if kind == "score" else (1, -1)
        else:
            code, number = (1, keep_number.get(what, -1)) if kind == "keep" else (0, -1)
        rows += (mask, flags, capped, h, throw, total + extras * q.extra_bonus, code, number)
    sit = np.array(rows, dtype=np.int64).reshape(len(rows) // 8, 8)
    out = np.empty((len(sit), 7))
    if rows:
        q.judge()(solution.tables, solution.values, q.keep_list, q.keep_at, sit, out)
    return out


def option_names(solution: Solution) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """(slot ids, keeps as faces) by number: what the numbers of :func:`option_table` and :func:`judge` name."""
    return tuple(solution.rules.slots), tuple(solution.space.dice.keeps)


def _sheet(q: _Query, card: Sequence[int | None]) -> tuple[int, int, int, int]:
    """(mask, flags, capped upper total, points so far with the upper bonus) of a card, checked; memoised
    (the decisions of a game ask about the same few cards)."""
    key = card if type(card) is tuple else tuple(card)
    got = q.sheets.get(key)
    if got is not None:
        return got
    if len(key) != q.n_slots:
        raise IllegalActionError(f"a {q.name} card has {q.n_slots} slots, not {len(key)}")
    mask = flags = upper = total = filled = 0
    for i, v in enumerate(key):
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
    got = (mask, flags, min(upper, q.n_upper - 1), total)
    if len(q.sheets) >= 4096:
        q.sheets.clear()
    q.sheets[key] = got
    return got


def _table(
    q: _Query,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int,
    held: Sequence[int],
    buffer: FloatArray | None = None,
) -> tuple[FloatArray, int]:
    """The compiled query: (rows, number of rows used), best first; in ``buffer`` if given (room for every
    slot and keep), else in a new array."""
    shown = dice if type(dice) is tuple else tuple(dice)
    h = q.hand_of.get(shown)
    if h is None:
        h = q.hand_index.get(tuple(sorted(shown)))
        if h is None:
            raise IllegalActionError(f"{q.name} uses {q.n_dice} dice with faces 1 to 6")
        if len(q.hand_of) >= 16384:  # every order of six dice is 46,656: start over rather than grow
            q.hand_of.clear()
        q.hand_of[shown] = h
    if not 1 <= throw <= q.throws:
        raise IllegalActionError(f"throw must be 1 to {q.throws}, not {throw}")
    known = q.sheets.get(card) if type(card) is tuple else None  # the memo of _sheet, read without the call
    mask, flags, capped, total = known or _sheet(q, card)
    if extra_bonuses:
        total += extra_bonuses * q.extra_bonus
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
        holding = keeps_holding(tuple(sorted(shown)), must) if must else []
        keeps = q.sub_keeps[h] if not must else np.array([q.index[k] for k in holding], dtype=np.int64)
        out = np.empty((q.n_slots + len(keeps), 4)) if buffer is None else buffer
    else:
        Ks, keeps, fill = q.no_keeps, q.no_keep_list, 0
        out = np.empty((q.n_slots, 4)) if buffer is None else buffer
    n = q.options(q.ints, q.floats, q.values, mask, flags, capped, h, throw, total, Ks, fill, keeps, out)
    if fill:
        memo[key] = (Ks, fill)
    return out, n


def keeps_holding(hand: tuple[int, ...], must: tuple[int, ...]) -> list[tuple[int, ...]]:
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
