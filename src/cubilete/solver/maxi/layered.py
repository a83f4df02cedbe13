"""The layered solver: backward induction for sheets too large for :mod:`cubilete.solver.solve`
(Maxi Yatzy without saved throws: 2^20 sheets x 85 upper totals), resumable and memory-mapped.

* Values ``V[mask, upper]`` live in one file on disk (``values.npy``, float32, memory-mapped;
  float64 on request for the tests); every turn is computed in float64 (:mod:`maxi_kernels`).
* Layers go from the fullest sheets to the empty one; a layer is cut into blocks of sheets and
  ``progress.json`` records the last finished block (the values are flushed first), so an
  interrupted run resumes where it stopped (``cubilete solve --rules maxi-yatzy-no-saved --resume``).
* Memory: the table (356 MB in float32 for Maxi) plus about 4 MB of buffers per thread.

The rule sets handled: one free-order column, no prerequisites or jokers or extra bonuses (no
flags), no servida values, no locked holds, no saved throws. :func:`check_layered` says what else.
Every block of a layer is independent of the others, so a bigger machine (or a cluster of
them sharing the file) can split a layer's blocks; here numba's threads split each block.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cubilete.engine.errors import IllegalActionError, SolverUnsupportedError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Joker, Order, Rules
from cubilete.solver.combinatorics import DiceTables, FloatArray, IntArray, dice_tables
from cubilete.solver.maxi import kernels as maxi_kernels

FORMAT = 1  # bump when the layout or meaning of the files changes
BLOCK = 8192  # sheets per checkpoint
MEMORY_LIMIT = 16 << 30  # bytes: the table must fit in this (with the buffers)
if TYPE_CHECKING:
    from cubilete.solver.advisor import Option

Progress = Callable[[int, int], None]  # (sheets done, sheets in all)


def check_layered(rules: Rules) -> None:
    """Raise :class:`SolverUnsupportedError` with the reason if the layered solver can't take ``rules``."""
    why = []
    if len(rules.columns) != 1 or rules.columns[0] is not Order.FREE:
        why.append("one free-order column only")
    if rules.carry_over_throws:
        why.append("no saved throws")
    if rules.locked_holds:
        why.append("no locked holds")
    if rules.face_down_call:
        why.append("no face-down calls")
    if any(b.requires for b in rules.boxes) or rules.extra_bonus_box or rules.joker is not Joker.NONE:
        why.append("no prerequisites, jokers or extra bonuses")
    if any(b.first_throw_value is not None or b.first_throw_bonus for b in rules.boxes):
        why.append("no servida values")
    if len(rules.slots) > 26 or rules.dice > 6:
        why.append("at most 26 boxes and 6 dice")
    if why:
        raise SolverUnsupportedError(f"{rules.name}: the layered solver needs " + "; ".join(why))
    if table_bytes(rules, np.float32) > MEMORY_LIMIT:
        raise SolverUnsupportedError(f"{rules.name}: a table of {table_bytes(rules, np.float32):,} bytes is too large")


@dataclass(frozen=True, eq=False)
class LayeredTables:
    """What the kernels read: points per slot and hand, the upper boxes, the dice links."""

    rules: Rules
    dice: DiceTables
    pts: IntArray  # (S, H)
    is_upper: IntArray  # (S,)
    slot_face: IntArray  # (S,): the face of an upper box (its points are face x dice showing it), else 0
    closes: IntArray  # (S,)
    upper_slot: IntArray  # (A,): the slot of each upper box
    upper_face: IntArray  # (A,)
    n_upper: int
    threshold: int
    bonus: int

    @property
    def n_slots(self) -> int:
        """Slots on the sheet."""
        return int(self.pts.shape[0])

    @property
    def shape(self) -> tuple[int, int]:
        """Shape of the value table: (sheets, upper totals)."""
        return (1 << self.n_slots, self.n_upper)


def _has_bonus(rules: Rules) -> bool:
    return rules.upper_bonus > 0 and rules.upper_bonus_threshold > 0


def table_bytes(rules: Rules, dtype: npt.DTypeLike) -> int:
    """Bytes of the value table on disk."""
    n_upper = rules.upper_bonus_threshold + 1 if _has_bonus(rules) else 1
    return (1 << len(rules.slots)) * n_upper * np.dtype(dtype).itemsize


def layered_tables(rules: Rules) -> LayeredTables:
    """Build the kernels' tables with the engine's scoring functions."""
    check_layered(rules)
    dice = dice_tables(rules.dice)
    n = len(rules.slots)
    hands = dice.keeps[: dice.n_hands]
    empty: list[int | None] = [None] * n
    pts = np.array([[scoring.slot_points(rules, empty, j, h, False) for h in hands] for j in range(n)], dtype=np.int64)
    closes = np.zeros(n, dtype=np.int64)
    for j in range(n):
        after = scoring.write(rules, [None] * n, j, 0)
        closes[j] = sum(1 << i for i, v in enumerate(after) if v is not None and i != j)
    upper = [(j, b.face) for j, b in enumerate(rules.boxes) if b.is_upper]
    slot_face = np.zeros(n, dtype=np.int64)
    for j, face in upper:
        if any(pts[j, i] != face * h.count(face) for i, h in enumerate(hands)):
            raise SolverUnsupportedError(f"{rules.name}: the layered solver needs upper boxes that add their face")
        slot_face[j] = face
    has_bonus = _has_bonus(rules)
    return LayeredTables(
        rules=rules,
        dice=dice,
        pts=pts,
        is_upper=np.array([int(b.is_upper) for b in rules.boxes], dtype=np.int64),
        slot_face=slot_face,
        closes=closes,
        upper_slot=np.array([j for j, _ in upper], dtype=np.int64),
        upper_face=np.array([f for _, f in upper], dtype=np.int64),
        n_upper=rules.upper_bonus_threshold + 1 if has_bonus else 1,
        threshold=rules.upper_bonus_threshold if has_bonus else 0,
        bonus=rules.upper_bonus if has_bonus else 0,
    )


def layers(n_slots: int) -> list[IntArray]:
    """Masks grouped by the number of closed slots, most closed first."""
    masks = np.arange(1 << n_slots, dtype=np.int64)
    counts = np.zeros(1 << n_slots, dtype=np.int64)
    for j in range(n_slots):
        counts += (masks >> j) & 1
    return [masks[counts == c] for c in range(n_slots, -1, -1)]


def _solve_masks(t: LayeredTables, masks: IntArray, values: npt.NDArray[np.floating]) -> None:
    maxi_kernels.solve_block(
        masks, values, t.rules.turns, t.pts, t.is_upper, t.slot_face, t.closes, t.upper_slot, t.upper_face,
        t.rules.dice, t.threshold, t.bonus, t.rules.throws, t.dice.add, t.dice.remove, t.dice.first_roll, 16,
    )  # fmt: skip


def reachable_states(rules: Rules) -> int:
    """The (sheet, upper total) pairs the closed upper boxes can reach: the states really solved."""
    t = layered_tables(rules)
    return int(maxi_kernels.reachable_count(1 << t.n_slots, t.upper_slot, t.upper_face, rules.dice, t.n_upper))


@dataclass(frozen=True)
class Estimate:
    """What a solve will cost, measured on a sample of sheets before starting."""

    sheets: int
    states: int  # reachable (sheet, upper total) pairs
    disk_bytes: int
    memory_bytes: int
    seconds: float
    threads: int

    def describe(self) -> str:
        """One line for people."""
        return (
            f"{self.sheets:,} sheets, {self.states:,} reachable states; "
            f"table {self.disk_bytes / 2**20:,.0f} MB on disk, "
            f"about {self.memory_bytes / 2**20:,.0f} MB of memory; about {self.seconds / 60:,.1f} min "
            f"on {self.threads} thread(s) at today's load"
        )


def estimate(rules: Rules, sample: int = 96, seed: int = 0) -> Estimate:
    """Time the kernel on ``sample`` random sheets (values are scratch) and extrapolate to every sheet."""
    import numba

    t = layered_tables(rules)
    n_masks = 1 << t.n_slots
    scratch = np.zeros(t.shape, dtype=np.float32)
    rng = np.random.default_rng(seed)
    masks = np.sort(rng.choice(n_masks, size=min(sample, n_masks), replace=False)).astype(np.int64)
    _solve_masks(t, masks, scratch)  # compile (or load) the kernel and touch the pages outside the timing
    start = time.perf_counter()
    _solve_masks(t, masks, scratch)
    per_mask = (time.perf_counter() - start) / masks.size
    threads = numba.get_num_threads()
    buffers = threads * 8 * (2 * t.dice.n_keeps + 2 * t.dice.n_hands) * t.n_upper
    return Estimate(
        sheets=n_masks,
        states=reachable_states(rules),
        disk_bytes=table_bytes(rules, np.float32),
        memory_bytes=table_bytes(rules, np.float32) + buffers,
        seconds=per_mask * n_masks,
        threads=threads,
    )


def default_dir(rules: Rules) -> Path:
    """Where the layered tables of ``rules`` live: next to the solver's cache, named by the rules' hash."""
    from cubilete.solver.cache import cache_dir, table_key

    return cache_dir() / f"layered-{table_key(rules)}"


@dataclass(frozen=True)
class LayeredSolution:
    """A finished (or loaded) layered solve."""

    rules: Rules
    values: npt.NDArray[np.floating]  # V[mask, upper]: expected points to come (memory-mapped)
    seconds: float  # wall-clock computing time over every run that built the table
    cpu_seconds: float  # CPU time of those runs (every thread; 0.0 if a run did not record it)
    sha256: str  # of the table's bytes (C order, its own dtype)
    states: int
    peak_rss: int  # bytes, the largest over the runs
    directory: Path | None

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        return float(self.values[0, 0])


def _key(rules: Rules, dtype: npt.DTypeLike) -> str:
    from cubilete.solver.cache import table_key

    return f"{FORMAT}:{table_key(rules)}:{np.dtype(dtype).name}"


def read_progress(directory: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((directory / "progress.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_progress(directory: Path, data: dict[str, Any]) -> None:
    tmp = directory / f"progress.json.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(directory / "progress.json")


def peak_rss_now() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def digest(values: npt.NDArray[np.floating]) -> str:
    """SHA-256 of a value table's bytes (C order), computed in slices (no copy of the whole table)."""
    h = hashlib.sha256()
    flat = values.reshape(-1)
    step = 1 << 24
    for a in range(0, flat.size, step):
        h.update(np.ascontiguousarray(flat[a : a + step]).tobytes())
    return h.hexdigest()


def solve_layered(
    rules: Rules,
    directory: Path | None = None,
    dtype: npt.DTypeLike = np.float32,
    resume: bool = True,
    progress: Progress | None = None,
    block: int = BLOCK,
    stop_after: int | None = None,
) -> LayeredSolution | None:
    """Solve ``rules`` layer by layer into ``directory`` (default :func:`default_dir`).

    With ``resume``, a matching unfinished run in the folder goes on from its last checkpoint (and a
    finished one is just loaded); without it, the folder's table is started again. ``stop_after``
    blocks (for tests and for sharing a machine) ends the call early with None, the work so far saved.
    """
    t = layered_tables(rules)
    folder = directory or default_dir(rules)
    folder.mkdir(parents=True, exist_ok=True)
    key = _key(rules, dtype)
    path = folder / "values.npy"
    state = read_progress(folder) if resume else None
    if state is not None and (state.get("key") != key or not path.is_file()):
        state = None
    if state is None:
        path.unlink(missing_ok=True)
        values = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=t.shape)
        del values
        state = {"key": key, "rules": rules.name, "shape": list(t.shape), "dtype": np.dtype(dtype).name,
                 "layer": 0, "block": 0, "block_size": block, "done": False, "seconds": 0.0, "peak_rss": 0}  # fmt: skip
        write_progress(folder, state)
    values = np.lib.format.open_memmap(path, mode="r+")
    block = int(state.get("block_size", BLOCK))  # a resumed run keeps its blocks
    all_layers = layers(t.n_slots)
    total = 1 << t.n_slots
    done_sheets = sum(m.size for m in all_layers[: int(state["layer"])]) + int(state["block"]) * block
    seconds = float(state["seconds"])
    cpu = float(state.get("cpu_seconds", 0.0))
    blocks_run = 0
    for li in range(int(state["layer"]), len(all_layers)):
        masks = all_layers[li]
        first = int(state["block"]) if li == int(state["layer"]) else 0
        n_blocks = (masks.size + block - 1) // block
        for bi in range(first, n_blocks):
            if stop_after is not None and blocks_run >= stop_after:
                return None
            start, cpu_start = time.perf_counter(), time.process_time()
            part = masks[bi * block : (bi + 1) * block]
            _solve_masks(t, part, np.asarray(values))
            values.flush()
            seconds += time.perf_counter() - start
            cpu += time.process_time() - cpu_start
            blocks_run += 1
            done_sheets += part.size
            peak = max(int(state["peak_rss"]), peak_rss_now())
            state.update(layer=li, block=bi + 1, seconds=seconds, cpu_seconds=cpu, peak_rss=peak)
            write_progress(folder, state)
            if progress is not None:
                progress(min(done_sheets, total), total)
        state.update(layer=li + 1, block=0)
        write_progress(folder, state)
    if not state.get("done"):
        state.update(done=True, sha256=digest(values), states=reachable_states(rules),
                     peak_rss=max(int(state["peak_rss"]), peak_rss_now()))  # fmt: skip
        write_progress(folder, state)
    return _solution(rules, values, state, folder)


def _solution(rules: Rules, values: npt.NDArray[np.floating], state: dict[str, Any], folder: Path) -> LayeredSolution:
    return LayeredSolution(
        rules=rules,
        values=values,
        seconds=float(state["seconds"]),
        cpu_seconds=float(state.get("cpu_seconds", 0.0)),
        sha256=str(state["sha256"]),
        states=int(state["states"]),
        peak_rss=int(state["peak_rss"]),
        directory=folder,
    )


def partial_run(rules: Rules, directory: Path | None = None, dtype: npt.DTypeLike = np.float32) -> float | None:
    """The share of sheets done by an unfinished run of ``rules`` in the folder, or None if there is none."""
    folder = directory or default_dir(rules)
    state = read_progress(folder)
    if state is None or state.get("key") != _key(rules, dtype) or state.get("done"):
        return None
    t_layers = layers(len(rules.slots))
    layer, blk = int(state.get("layer", 0)), int(state.get("block", 0))
    size = int(state.get("block_size", BLOCK))
    done = sum(m.size for m in t_layers[:layer]) + min(blk * size, t_layers[layer].size if layer < len(t_layers) else 0)
    return float(done) / (1 << len(rules.slots))


def load_layered(
    rules: Rules, directory: Path | None = None, dtype: npt.DTypeLike = np.float32
) -> LayeredSolution | None:
    """A finished layered table of ``rules`` (memory-mapped read-only), or None."""
    try:
        check_layered(rules)
    except SolverUnsupportedError:
        return None
    folder = directory or default_dir(rules)
    state = read_progress(folder)
    if state is None or state.get("key") != _key(rules, dtype) or not state.get("done"):
        return None
    try:
        values = np.load(folder / "values.npy", mmap_mode="r")
    except (OSError, ValueError):
        return None
    if list(values.shape) != state.get("shape"):
        return None
    return _solution(rules, values, state, folder)


def needs_layered(rules: Rules) -> bool:
    """True for rules the general solver refuses but the layered solver takes (Maxi Yatzy without saved throws)."""
    from cubilete.solver.space import check_solvable

    try:
        check_solvable(rules)
    except SolverUnsupportedError:
        try:
            check_layered(rules)
        except SolverUnsupportedError:
            return False
        return True
    return False


# --- advice on a layered table ------------------------------------------------------


def _tables(solution: LayeredSolution) -> LayeredTables:
    t: LayeredTables | None = solution.__dict__.get("_tables")
    if t is None:
        t = layered_tables(solution.rules)
        object.__setattr__(solution, "_tables", t)
    return t


def turn_tables(solution: LayeredSolution, mask: int, upper: int) -> tuple[FloatArray, FloatArray]:
    """(S[h], Ks[t, k]) of one turn for sheet ``mask`` and capped upper total ``upper``: the best box
    per hand, and the value of throwing from keep k at throw t (t = 2..throws), points to come."""
    t = _tables(solution)
    d = t.dice
    throws = solution.rules.throws
    ulist = np.array([upper], dtype=np.int64)
    S, E = np.empty((d.n_hands, 1)), np.empty((d.n_hands, 1))
    Ks = np.zeros((throws + 1, d.n_keeps, 1))
    M, out = np.empty((d.n_keeps, 1)), np.empty(1)
    maxi_kernels.widget(mask, ulist, 1, solution.values, t.pts, t.is_upper, t.slot_face, t.closes, t.threshold, t.bonus,
                        throws, d.add, d.remove, d.first_roll, S, E, Ks, M, out)  # fmt: skip
    return S[:, 0], Ks[:, :, 0]


def sheet_of(solution: LayeredSolution, card: Sequence[int | None]) -> tuple[int, int]:
    """(closed mask, capped upper total) of a card."""
    t = _tables(solution)
    rules = solution.rules
    if len(card) != t.n_slots:
        raise IllegalActionError(f"a {rules.name} card has {t.n_slots} slots, not {len(card)}")
    mask = sum(1 << i for i, v in enumerate(card) if v is not None)
    upper = sum(v or 0 for i, v in enumerate(card) if rules.slot_box(i).is_upper)
    return mask, min(upper, t.n_upper - 1)


def turn_start_value(solution: LayeredSolution, card: Sequence[int | None]) -> float:
    """Expected final score from the start of a turn with this card (points so far included)."""
    mask, upper = sheet_of(solution, card)
    return scoring.total(solution.rules, list(card)) + float(solution.values[mask, upper])


def layered_options(
    solution: LayeredSolution, card: Sequence[int | None], dice: Sequence[int], throw: int
) -> list[Option]:
    """Every distinct option after throw ``throw`` with ``dice`` on the table, best first, as
    :func:`cubilete.solver.advisor.advise` gives them (slots first in sheet order, then keeps largest
    first, among equal values)."""
    from cubilete.solver.advisor import Option

    rules = solution.rules
    t = _tables(solution)
    d = t.dice
    hand = tuple(sorted(dice))
    if len(hand) != rules.dice or (hand and not (hand[0] >= 1 and hand[-1] <= 6)):
        raise IllegalActionError(f"{rules.name} uses {rules.dice} dice with faces 1 to 6")
    if not 1 <= throw <= rules.throws:
        raise IllegalActionError(f"throw must be 1 to {rules.throws}, not {throw}")
    mask, upper = sheet_of(solution, card)
    if bin(mask).count("1") >= rules.turns:
        raise IllegalActionError("the sheet is complete: nothing left to decide")
    total = scoring.total(rules, list(card))
    h = d.index(hand)
    rows: list[tuple[float, int, Option]] = []
    V = solution.values
    for j in range(t.n_slots):
        if mask >> j & 1:
            continue
        p = int(t.pts[j, h])
        nmask = mask | (1 << j) | (int(t.closes[j]) if p == 0 else 0)
        nu = min(t.n_upper - 1, upper + p) if t.is_upper[j] else upper
        gain = float(p) + (t.bonus if t.is_upper[j] and upper < t.threshold <= upper + p else 0)
        value = total + gain + float(V[nmask, nu])
        rows.append((value, len(rows), Option("score", value, 0.0, slot=rules.slots[j], points=p)))
    if throw < rules.throws:
        _, Ks = turn_tables(solution, mask, upper)
        seen = set()
        for size in range(len(hand) - 1, -1, -1):
            for keep in itertools.combinations(hand, size):
                if keep in seen:
                    continue
                seen.add(keep)
                value = total + float(Ks[throw + 1, d.index(keep)])
                rows.append((value, len(rows), Option("keep", value, 0.0, keep=keep)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    best = rows[0][0]
    return [o._replace(loss=best - v) for v, _, o in rows]
