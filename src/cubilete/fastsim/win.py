"""The compiled win bot (:mod:`cubilete.fastsim.win_kernels`): whole games where some seats play ``win``
and the others ``optimal``, many deals on every core, the same moves as :class:`cubilete.bots.win.WinBot`.

It plays on the rules that have the win tables (``follow`` and ``target``: Generala, General, Bozó and
the smaller presets and profiles; not Yahtzee or Yatzy, where the Python bot plays the optimal moves).
``paired`` with more than two bots rotates the seats: run r puts bot b in seat (b + r) mod n, so every
bot plays every seat on the same dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cubilete.fastsim.dice import seed_key
from cubilete.rules.model import Rules

if TYPE_CHECKING:
    from cubilete.fastsim import Batch, Mode, Progress

WIN_BOTS = frozenset({"optimal", "win"})


def win_unsupported(rules: Rules, levels: Sequence[str]) -> str | None:
    """Why the compiled win bot cannot play these bots on these rules (None if it can)."""
    from cubilete.solver.space import SolverUnsupportedError
    from cubilete.win.tables import check_tables

    other = sorted({lv for lv in levels if lv not in WIN_BOTS})
    if other:
        return f"bots {', '.join(other)} do not play beside the compiled win bot (it plays with optimal bots)"
    try:
        check_tables(rules)
    except SolverUnsupportedError as exc:
        return f"the compiled win bot needs the win tables: {exc}"
    return None


def rotated(bots: int) -> np.ndarray:
    """Runs x seats for paired deals of any number of bots: run r seats bot b in seat (b + r) mod n.

    >>> rotated(3).tolist()
    [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    """
    seating = np.empty((bots, bots), dtype=np.int64)
    for r in range(bots):
        for b in range(bots):
            seating[r, (b + r) % bots] = b
    return seating


def play_win(
    rules: Rules,
    levels: Sequence[str],
    seed: str | int,
    deals: int,
    mode: Mode = "table",
    first: int = 0,
    progress: Progress | None = None,
    threads: int | None = None,
    trace: int = 0,
    departures: np.ndarray | None = None,
) -> Batch:
    """:func:`cubilete.fastsim.play` with win seats: a :class:`cubilete.fastsim.Batch`.

    ``departures`` (turns x (slots + 3), int64): adds the win seats' decisions and departures from the
    points choice by turn (see :func:`cubilete.fastsim.win_kernels._play_win`)."""
    import numba

    from cubilete.fastsim import CHUNK, Batch, _prepare, seating_for
    from cubilete.fastsim import win_kernels as K
    from cubilete.win.play import max_turn_points
    from cubilete.win.tables import vector_table

    why = win_unsupported(rules, levels)
    if why is not None:
        raise ValueError(why)
    prep = _prepare(rules)
    follow = vector_table(rules, "follow")
    target = vector_table(rules, "target")
    most = max_turn_points(target)
    kinds = np.array([K.WIN if level == "win" else K.OPTIMAL for level in levels], dtype=np.int64)
    seating = rotated(len(levels)) if mode == "paired" else seating_for(mode, len(levels))
    R, S = seating.shape
    key = seed_key(seed)
    scores = np.zeros((deals, R, S), dtype=np.int64)
    won = np.zeros((deals, R, S), dtype=np.int8)
    info = np.zeros((deals, R, 2), dtype=np.int64)
    moves = np.zeros((deals, R, trace), dtype=np.int64)
    count = departures is not None
    dep = np.zeros((min(deals, CHUNK), rules.turns if count else 0, len(rules.slots) + 3), dtype=np.int64)
    before = numba.get_num_threads()
    if threads is not None:
        most_threads: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
        numba.set_num_threads(max(1, min(threads, most_threads)))
    try:
        for lo in range(0, deals, CHUNK):
            hi = min(deals, lo + CHUNK)
            K.play_win_deals(
                prep.T, prep.V, prep.Kc, prep.cached, prep.P, follow.table, target.table, most, kinds,
                np.uint64(key), first + lo, seating, scores[lo:hi], won[lo:hi], info[lo:hi], moves[lo:hi],
                dep[: hi - lo],
            )  # fmt: skip
            if departures is not None:
                departures += dep[: hi - lo].sum(axis=0)
                dep[:] = 0
            if progress is not None:
                progress(hi, deals)
    finally:
        numba.set_num_threads(before)
    return Batch(rules, mode, tuple(levels), key, first, seating, scores, won, info[:, :, 0], info[:, :, 1], moves)
