"""The kernels' view of a state space: one named tuple of scalars and arrays (numba takes it whole), and the
advice query's copy of it in two arrays (:func:`pack`, read back in compiled code by :func:`unpack`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numba.extending import intrinsic

from cubilete.solver.combinatorics import FloatArray, IntArray, locked_tables


class KernelTables(NamedTuple):
    """Scalars and tables read by :mod:`cubilete.solver.kernels`."""

    throws: int
    rounds: int
    n_flags: int
    servida: bool
    locked: bool
    joker: bool
    threshold: int
    upper_bonus: int
    extra_slot: int
    extra_bonus: int
    flag_bit: IntArray
    req: IntArray
    closes: IntArray
    is_upper: IntArray
    ebonus_ok: IntArray
    upper_slot_of_face: IntArray
    pts: IntArray
    jpts: IntArray
    usable: IntArray
    reach: IntArray
    equal_face: IntArray
    add: IntArray
    remove: IntArray
    first_roll: FloatArray
    edge_ptr: IntArray
    edge_hand: IntArray
    edge_prob: FloatArray
    between_ptr: IntArray
    between: IntArray
    max_points: int  # the most points one write can give (pts), sizes the query's per-points tables


def kernel_tables(space: object) -> KernelTables:
    """Pack a :class:`~cubilete.solver.space.StateSpace` for the kernels."""
    from cubilete.solver.space import StateSpace

    assert isinstance(space, StateSpace)
    d = space.dice
    if space.rules.locked_holds:
        lt = locked_tables(space.rules.dice)
        edges = (lt.edge_ptr, lt.edge_hand, lt.edge_prob, lt.between_ptr, lt.between)
    else:
        none_i = np.zeros(1, dtype=np.int64)
        edges = (none_i, none_i, np.zeros(1), none_i, none_i)
    return KernelTables(
        space.rules.throws, space.rounds, space.n_flags, space.servida, space.rules.locked_holds, space.joker,
        space.threshold, space.upper_bonus, space.extra_slot, space.extra_bonus,
        space.flag_bit, space.req, space.closes, space.is_upper, space.ebonus_ok, space.upper_slot_of_face,
        space.pts, space.jpts, space.usable, space.reach, d.all_equal_face, d.add, d.remove, d.first_roll,
        *edges, int(space.pts.max()),
    )  # fmt: skip


# The advice query's tables in two arrays (numba unboxes each array crossing from Python at every call, about
# 0.1 us apiece: KernelTables has 19, more than the query's arithmetic). ``ints``: a header (the scalars at
# their index below, then each table's offset and shape at HEAD + 5 * its number), then the int tables, each
# from a 64-byte boundary; ``floats``: the float tables, likewise. Every table but ``reach`` (the solve's only:
# upper totals reachable per mask, as large as the values for Yatzy; a 0 x 0 array in the query's view).
THROWS, ROUNDS, N_FLAGS, SERVIDA, LOCKED, JOKER, THRESHOLD, UPPER_BONUS, EXTRA_SLOT, EXTRA_BONUS, MAX_POINTS = range(11)
HEAD = 16
INT_TABLES = ("flag_bit", "req", "closes", "is_upper", "ebonus_ok", "upper_slot_of_face", "pts", "jpts", "usable",
              "equal_face", "add", "remove", "edge_ptr", "edge_hand", "between_ptr", "between")  # fmt: skip
FLOAT_TABLES = ("first_roll", "edge_prob")
(FLAG_BIT, REQ, CLOSES, IS_UPPER, EBONUS_OK, UPPER_SLOT_OF_FACE, PTS, JPTS, USABLE, EQUAL_FACE, ADD, REMOVE,
 EDGE_PTR, EDGE_HAND, BETWEEN_PTR, BETWEEN, FIRST_ROLL, EDGE_PROB) = range(18)  # fmt: skip


class PackedTables(NamedTuple):
    """The advice query's :class:`KernelTables` in two arrays (:func:`pack`; read back by :func:`unpack`)."""

    ints: IntArray
    floats: FloatArray


def pack(T: KernelTables) -> PackedTables:
    """Copy the tables the advice query reads (all but ``reach``) into one int and one float array (0.56 MB for
    Yahtzee, 1.95 MB for Yatzy: mostly ``usable``)."""
    tables = [np.ascontiguousarray(getattr(T, name)) for name in INT_TABLES + FLOAT_TABLES]
    head = [int(T.throws), int(T.rounds), int(T.n_flags), int(T.servida), int(T.locked), int(T.joker),
            int(T.threshold), int(T.upper_bonus), int(T.extra_slot), int(T.extra_bonus), int(T.max_points)]  # fmt: skip
    head += [0] * (HEAD - len(head))
    ends = [HEAD + 5 * len(tables), 0]  # the next free place in ints, in floats
    places = []
    for number, table in enumerate(tables):
        which = int(number >= len(INT_TABLES))
        at = -(-ends[which] // 8) * 8  # 64 bytes
        places.append(at)
        head += [at, *table.shape, *[1] * (4 - table.ndim)]
        ends[which] = at + table.size
    ints = np.zeros(ends[0], dtype=np.int64)
    floats = np.zeros(ends[1])
    ints[: len(head)] = head
    for number, (at, table) in enumerate(zip(places, tables, strict=True)):
        (ints if number < len(INT_TABLES) else floats)[at : at + table.size] = table.ravel()
    return PackedTables(ints, floats)


@njit(cache=True, inline="always")
def _size(ints: IntArray, number: int) -> tuple[int, int]:
    """(start, number of entries) of table ``number``."""
    at = HEAD + 5 * number
    return ints[at], ints[at + 1] * ints[at + 2] * ints[at + 3] * ints[at + 4]


@njit(cache=True, inline="always")
def _ints(ints: IntArray, number: int) -> IntArray:
    """Int table ``number``, flat."""
    start, size = _size(ints, number)
    return ints[start : start + size]


@njit(cache=True, inline="always")
def _floats(floats: FloatArray, ints: IntArray, number: int) -> FloatArray:
    """Float table ``number``, flat."""
    start, size = _size(ints, number)
    return floats[start : start + size]


@njit(cache=True, inline="always")
def _dims(ints: IntArray, number: int) -> tuple[int, int, int, int]:
    """Table ``number``'s shape, padded with 1s to four axes."""
    at = HEAD + 5 * number
    return ints[at + 1], ints[at + 2], ints[at + 3], ints[at + 4]


def _shaped_typing(typingctx: Any, flat: Any, shape: Any) -> Any:
    """``flat.reshape(shape)`` for a C-contiguous ``flat`` of exactly that many entries, without the checks and
    the C helper of numba's ``reshape`` (about 70 ns each, a quarter of a query's unpacking): the strides are
    the C order's, the data and owner ``flat``'s."""
    result = flat.copy(ndim=len(shape), layout="C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        source = context.make_array(signature.args[0])(context, builder, value=args[0])
        view = context.make_array(signature.return_type)(context, builder)
        dims = [builder.extract_value(args[1], i) for i in range(len(shape))]
        strides: list[Any] = []
        step = source.itemsize
        for d in reversed(dims):
            strides.insert(0, step)
            step = builder.mul(step, d)
        context.populate_array(view, data=source.data, shape=dims, strides=strides, itemsize=source.itemsize,
                               meminfo=source.meminfo, parent=source.parent)  # fmt: skip
        value = view._getvalue()
        context.nrt.incref(builder, signature.return_type, value)  # a new reference to flat's owner
        return value

    return result(flat, shape), codegen


_shaped: Any = intrinsic(_shaped_typing)


@njit(cache=True, inline="always")
def unpack(ints: IntArray, floats: FloatArray) -> KernelTables:
    """The :class:`KernelTables` of :func:`pack`'s arrays, in compiled code: views, nothing copied (``reach``
    is 0 x 0: the advice query never reads it)."""
    pts, jpts, usable = _dims(ints, PTS), _dims(ints, JPTS), _dims(ints, USABLE)
    add, remove = _dims(ints, ADD), _dims(ints, REMOVE)
    return KernelTables(
        ints[THROWS], ints[ROUNDS], ints[N_FLAGS], ints[SERVIDA] != 0, ints[LOCKED] != 0, ints[JOKER] != 0,
        ints[THRESHOLD], ints[UPPER_BONUS], ints[EXTRA_SLOT], ints[EXTRA_BONUS],
        _ints(ints, FLAG_BIT), _ints(ints, REQ), _ints(ints, CLOSES), _ints(ints, IS_UPPER),
        _ints(ints, EBONUS_OK), _ints(ints, UPPER_SLOT_OF_FACE),
        _shaped(_ints(ints, PTS), (pts[0], pts[1], pts[2])),
        _shaped(_ints(ints, JPTS), jpts),
        _shaped(_ints(ints, USABLE), (usable[0], usable[1])),
        _shaped(ints[:0], (0, 0)),  # reach
        _ints(ints, EQUAL_FACE),
        _shaped(_ints(ints, ADD), (add[0], add[1])),
        _shaped(_ints(ints, REMOVE), (remove[0], remove[1])),
        _floats(floats, ints, FIRST_ROLL),
        _ints(ints, EDGE_PTR), _ints(ints, EDGE_HAND), _floats(floats, ints, EDGE_PROB),
        _ints(ints, BETWEEN_PTR), _ints(ints, BETWEEN),
        ints[MAX_POINTS],
    )  # fmt: skip
