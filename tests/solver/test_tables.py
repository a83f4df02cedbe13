"""The advice query's packed tables: two arrays that read back, in compiled code, as the very tables."""

from __future__ import annotations

import numpy as np
import pytest
from numba import typeof

from cubilete.engine.rules import find_rules
from cubilete.solver.space import build_space
from cubilete.solver.tables import HEAD, INT_TABLES, KernelTables, kernel_tables, pack, unpack


@pytest.mark.parametrize("name", ["generala", "generala-apartada", "yahtzee", "yatzy"])
def test_unpacked_tables_are_the_tables(name: str) -> None:
    T = kernel_tables(build_space(find_rules(name)))
    ints, floats = pack(T)
    got = unpack(ints, floats)  # compiled (its result boxed back here): what the advisor's query reads
    assert isinstance(got, KernelTables)
    for field in KernelTables._fields:
        want, have = getattr(T, field), getattr(got, field)
        if field == "reach":  # the solve's table only: not packed
            assert have.shape == (0, 0)
            continue
        assert typeof(have) == typeof(want), field  # the kernels compiled for T take it as it is
        assert np.shape(have) == np.shape(want) and np.array_equal(have, want), field
    assert typeof(got._replace(reach=T.reach)) == typeof(T)
    assert T.locked == (name == "generala-apartada") and got.locked == T.locked  # the edges are read there


def test_each_table_starts_on_a_64_byte_boundary() -> None:
    ints, floats = pack(kernel_tables(build_space(find_rules("yahtzee"))))
    starts = ints[HEAD : HEAD + 5 * (len(INT_TABLES) + 2) : 5]
    assert (starts % 8 == 0).all() and (np.diff(starts[: len(INT_TABLES)]) > 0).all()
    assert ints.dtype == np.int64 and floats.dtype == np.float64 and ints.flags.c_contiguous
