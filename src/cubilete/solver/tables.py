"""The kernels' view of a state space: one named tuple of scalars and arrays (numba takes it whole)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

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
