"""One block of sheets of the saved-throws solve (:mod:`cubilete.solver.maxi.saved`), the part a Dask worker
runs too (:mod:`cubilete.solver.maxi.cluster`): the tables it reads, and the kernels' calls for a block."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from cubilete.engine.rules.model import Rules
from cubilete.solver.maxi import saved_kernels
from cubilete.solver.maxi.layered import LayeredTables, layered_tables

Bound = Literal["lower", "upper"]


def plain_rules(rules: Rules) -> Rules:
    """The same rules without saved throws: what the layered solver's tables are built from."""
    return rules.replace(carry_over_throws=False)


def saved_tables(rules: Rules) -> tuple[LayeredTables, npt.NDArray[np.int64]]:
    t = layered_tables(plain_rules(rules))
    return t, t.pts.max(axis=1).astype(np.int64)


def solve_saved_masks(
    t: LayeredTables, maxpts: npt.NDArray[np.int64], masks: npt.NDArray[np.int64], values: npt.NDArray[Any],
    cap: int, bound: Bound, priced: npt.NDArray[Any], prices: npt.NDArray[np.float64], iterations: int,
) -> None:  # fmt: skip
    """One block: the priced games' values first (upper bound), then the capped game's."""
    rounding = 0 if values.dtype == np.float64 else (-1 if bound == "lower" else 1)
    if bound == "upper" and prices.size:
        saved_kernels.solve_block_priced(
            masks, priced, prices, rounding, t.rules.turns, t.pts, t.is_upper, t.slot_face, t.closes, maxpts,
            t.upper_slot, t.upper_face, t.rules.dice, t.threshold, t.bonus, t.dice.add, t.dice.remove,
            t.dice.first_roll, iterations, 4,
        )  # fmt: skip
    saved_kernels.solve_block_saved(
        masks, values, cap, int(bound == "upper"), rounding, t.rules.turns, t.pts, t.is_upper, t.slot_face,
        t.closes, maxpts, t.upper_slot, t.upper_face, t.rules.dice, t.threshold, t.bonus, t.rules.throws,
        t.dice.add, t.dice.remove, t.dice.first_roll, priced[:, :, 0, :], prices, 4,
    )  # fmt: skip
