"""Advice read from a finished table of Maxi Yatzy WITH saved throws (:mod:`cubilete.solver.maxi.saved`).

A situation is the card, the dice after throw ``throw`` of the turn and ``saved``, the throws the turn
started with beyond the rules' own (the engine's ``turn.allowance - rules.throws``, its seat's bank).
The throws left are ``rules.throws + saved - throw``; writing a box saves them all for the next turn
(as :class:`cubilete.Game` does), keeping dice spends one. The values are the lower-bound table's
(:func:`cubilete.solver.maxi.saved_kernels.saved_turn` runs the solver's own passes), so at the exact cap
(:func:`cubilete.solver.maxi.saved.useful_cap`) they are the exact game's.
"""

from __future__ import annotations

import dataclasses
import itertools
import mmap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cubilete.engine.errors import IllegalActionError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.solver.maxi import saved_kernels
from cubilete.solver.maxi.layered import LayeredTables
from cubilete.solver.maxi.saved import SavedSolution, default_dir, load_saved, useful_cap
from cubilete.solver.maxi.saved_block import saved_tables

if TYPE_CHECKING:
    from cubilete.solver.advisor import Option


def exact_saved(rules: Rules, directory: Path | None = None) -> SavedSolution | None:
    """The FINISHED exact table of ``rules`` (lower bound at the useful cap) in the solver's cache
    folder (or ``directory``), memory-mapped; None if there is none (or the rules have no saved throws)."""
    if not rules.carry_over_throws:
        return None
    cap = useful_cap(rules)
    folder = directory or default_dir(rules, cap, "lower")
    if not (folder / "progress.json").is_file():  # cheap: callers ask on every move of unsolved games
        return None
    found = load_saved(rules, cap, "lower", folder)
    if found is None:
        return None
    return dataclasses.replace(found, values=random_map(folder / "values.npy"))


def random_map(path: Path) -> npt.NDArray[np.floating]:
    """A .npy table mapped read-only for random reads, without the kernel's read-ahead (MADV_RANDOM):
    a decision reads a few hundred bytes per next sheet, and read-ahead made each first touch of a page
    cost 6-10 ms instead of 0.01 ms (measured on this machine's disk)."""
    with path.open("rb") as f:
        major, _ = np.lib.format.read_magic(f)
        header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = header(f)
        offset = f.tell()
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if hasattr(mmap, "MADV_RANDOM"):  # Linux and macOS
        mapped.madvise(mmap.MADV_RANDOM)
    return np.ndarray(shape, dtype=dtype, buffer=mapped, offset=offset, order="F" if fortran else "C")


def _parts(solution: SavedSolution) -> tuple[LayeredTables, npt.NDArray[np.int64]]:
    found: tuple[LayeredTables, npt.NDArray[np.int64]] | None = solution.__dict__.get("_parts")
    if found is None:
        found = saved_tables(solution.rules)
        object.__setattr__(solution, "_parts", found)
    return found


def saved_sheet(solution: SavedSolution, card: Sequence[int | None], saved: int) -> tuple[int, int]:
    """(closed mask, capped upper total) of a card, after checking ``saved`` can occur with it."""
    rules = solution.rules
    t, _ = _parts(solution)
    if solution.bound != "lower":
        raise ValueError("advice is read from a lower-bound table (the exact one at the useful cap)")
    if len(card) != t.n_slots:
        raise IllegalActionError(f"a {rules.name} card has {t.n_slots} slots, not {len(card)}")
    mask = sum(1 << i for i, v in enumerate(card) if v is not None)
    filled = bin(mask).count("1")
    if filled >= rules.turns:
        raise IllegalActionError("the sheet is complete: nothing left to decide")
    most = min(solution.cap, (rules.throws - 1) * filled)
    if not 0 <= saved <= most:
        raise IllegalActionError(
            f"with {filled} boxes written a turn starts with 0 to {most} throws saved, not {saved}"
        )
    upper = sum(v or 0 for i, v in enumerate(card) if rules.slot_box(i).is_upper)
    return mask, min(upper, t.n_upper - 1)


def saved_turn_start(solution: SavedSolution, card: Sequence[int | None], saved: int) -> float:
    """Expected final score from the start of a turn with this card and ``saved`` throws saved."""
    mask, upper = saved_sheet(solution, card, saved)
    return scoring.total(solution.rules, list(card)) + float(solution.values[mask, saved, upper])


def saved_options(
    solution: SavedSolution, card: Sequence[int | None], dice: Sequence[int], throw: int, saved: int
) -> list[Option]:
    """Every distinct option after throw ``throw`` with ``dice`` on the table and ``saved`` throws saved at
    the turn's start, best first (as :func:`cubilete.solver.maxi.layered.layered_options`: slots first in sheet
    order, then keeps largest first, among equal values). Keeps are offered while a throw is left."""
    from cubilete.solver.advisor import Option

    rules = solution.rules
    t, maxpts = _parts(solution)
    d = t.dice
    hand = tuple(sorted(dice))
    if len(hand) != rules.dice or (hand and not (hand[0] >= 1 and hand[-1] <= 6)):
        raise IllegalActionError(f"{rules.name} uses {rules.dice} dice with faces 1 to 6")
    mask, upper = saved_sheet(solution, card, saved)
    if not 1 <= throw <= rules.throws + saved:
        raise IllegalActionError(f"throw must be 1 to {rules.throws + saved} ({saved} saved), not {throw}")
    left = rules.throws + saved - throw
    total = scoring.total(rules, list(card))
    h = d.index(hand)
    V = solution.values
    bank = min(left, solution.cap)  # the lower bound's rule; never needed at the useful cap
    rows: list[tuple[float, int, Option]] = []
    for j in range(t.n_slots):
        if mask >> j & 1:
            continue
        p = int(t.pts[j, h])
        nmask = mask | (1 << j) | (int(t.closes[j]) if p == 0 else 0)
        nu = min(t.n_upper - 1, upper + p) if t.is_upper[j] else upper
        gain = float(p) + (t.bonus if t.is_upper[j] and upper < t.threshold <= upper + p else 0)
        value = total + gain + float(V[nmask, bank, nu])
        rows.append((value, len(rows), Option("score", value, 0.0, slot=rules.slots[j], points=p)))
    if left > 0:
        Ks = np.zeros((left + 1, d.n_keeps))
        saved_kernels.saved_turn(mask, upper, left, solution.cap, np.asarray(V), t.pts, t.is_upper, t.slot_face,
                                 t.closes, maxpts, rules.turns, t.threshold, t.bonus, rules.throws, d.add, d.remove,
                                 Ks)  # fmt: skip
        seen = set()
        for size in range(len(hand) - 1, -1, -1):
            for keep in itertools.combinations(hand, size):
                if keep in seen:
                    continue
                seen.add(keep)
                value = total + float(Ks[left, d.index(keep)])
                rows.append((value, len(rows), Option("keep", value, 0.0, keep=keep)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    best = rows[0][0]
    return [o._replace(loss=best - v) for v, _, o in rows]
