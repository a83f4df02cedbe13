"""The joint state space of a two-player game: both sheets, who moves, and the score difference.

A *sheet* is one player's turn-start state of the solitaire solver, ``(mask, flags, upper)``
(:mod:`cubilete.solver.space`). A *row* is a pair of sheets with the player to move: the
mover's sheet, the other player's sheet, and whether the mover is the first player. Each
row holds P(mover wins) for every mover's lead ``e`` (mover's total minus the other's) in a
window ``-(R_m + 1) .. R_o + 1``, where ``R`` bounds the points a sheet can still make: beyond
the window the result no longer depends on the points (only instant wins can still change
it), so a lead outside it reads the window's edge. The window is cut further to the leads the
two sheets can show: a sheet's total so far lies in ``Q .. P`` (``P``: the most its closed boxes
can hold, ``Q``: the least its boxes known to hold points do), so the lead lies in
``Q_m - P_o .. P_m - Q_o``; every move maps that interval into the next row's (the points
written are between what ``Q`` and ``P`` gain), so no row ever reads a lead it does not hold.
A row stores the leads ``row_lo .. row_lo + width - 1``; a lead outside reads the nearest.

Only pairs whose turn counts fit the turn order are kept (the first player moves when
both have taken as many turns, the second when the first has taken one more, or either
plays alone once the other is done). Rows are grouped in levels by the closed slots of
both sheets: every move closes at least one, so a level only reads higher levels.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from cubilete.engine.errors import DuelUnsupportedError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules, TieBreak
from cubilete.solver.combinatorics import IntArray
from cubilete.solver.space import StateSpace, build_space

MAX_CELLS = 7_000_000_000  # values in the table (f32 on disk above F64_CELLS: 28 GB); larger is refused
MAX_WORK_BYTES = 6_000_000_000  # f64 values of a level and those it reads (held in memory while solving)
# above MAX_WORK_BYTES a level is solved streamed (cubilete.duel.streamed): only the levels it reads are
# held (f64), the level itself goes to disk slice by slice; their values may take at most this much
MAX_STREAM_BYTES = 9_000_000_000
F64_CELLS = 200_000_000  # tables up to this many values are kept in f64 (1.6 GB), larger ones in f32
MAX_SHEETS = 20_000


@dataclass(frozen=True, eq=False)
class JointSpace:
    """Sheets, rows and levels of the two-player game of a rule set."""

    space: StateSpace
    sheet_mask: IntArray  # (N,)
    sheet_fl: IntArray  # (N,)
    sheet_u: IntArray  # (N,)
    sheet_R: IntArray  # (N,): bound on the points still to come
    sheet_P: IntArray  # (N,): the most points the sheet can hold so far
    sheet_Q: IntArray  # (N,): the fewest points the sheet can hold so far
    sheet_done: IntArray  # (N,): 1 if the player has no turn left
    sheet_id: IntArray  # (2**S, 2**F, U): sheet number, -1 if impossible
    pair_row: IntArray  # (2, N, N): row of (first player moves?, mover's sheet, other's sheet), -1 if absent
    row_m: IntArray  # (rows,): 0 if the first player moves, 1 if the second
    row_s: IntArray  # (rows,): mover's sheet
    row_o: IntArray  # (rows,): other's sheet
    row_lo: IntArray  # (rows,): the lead of the row's first value
    row_off: IntArray  # (rows + 1,): the row's values are values[row_off[r]:row_off[r + 1]]
    level_ptr: IntArray  # rows of level i (most closed first) are level_ptr[i]:level_ptr[i + 1]
    span: int  # a level reads the next ``span`` levels (a move closes at most ``span`` slots)
    iw_slot: IntArray  # (W,): slots of the instant-win boxes
    iw_hand: IntArray  # (W, H): 1 if the first-throw hand makes that box

    @property
    def rules(self) -> Rules:
        """The rules."""
        return self.space.rules

    @property
    def n_rows(self) -> int:
        """Joint positions (pairs of sheets with the player to move)."""
        return int(self.row_m.shape[0])

    @property
    def n_cells(self) -> int:
        """Values stored: one per joint position and lead in its window."""
        return int(self.row_off[-1])

    @property
    def work_cells(self) -> int:
        """Most values held at once while solving: a level and the ``span`` levels it reads."""
        cells = self.row_off[self.level_ptr]
        n = len(self.level_ptr) - 1
        return max(int(cells[min(i + self.span + 1, n)] - cells[i]) for i in range(n)) if n else 0

    @property
    def read_cells(self) -> int:
        """Most values a level reads (the ``span`` levels before it): what a streamed solve holds."""
        return _read_cells(self.row_off[self.level_ptr], self.span)

    @property
    def streamed(self) -> bool:
        """True if the solve is streamed: a level and the levels it reads do not fit in memory together."""
        return self.work_cells * 8 > MAX_WORK_BYTES

    def row_of(self, mover_first: bool, mover_sheet: int, other_sheet: int) -> int:
        """The row of a position (-1 if it is not in the table)."""
        return int(self.pair_row[0 if mover_first else 1, mover_sheet, other_sheet])

    def value(self, values: np.ndarray, row: int, lead: int) -> float:
        """P(mover wins) in a row for the mover's lead (clamped into the window)."""
        return float(values[self.row_off[row] + self.lead_index(row, lead)])

    def lead_index(self, row: int, lead: int) -> int:
        """The index in a row's values of a lead (clamped into the row)."""
        n = int(self.row_off[row + 1] - self.row_off[row])
        return min(max(lead - int(self.row_lo[row]), 0), n - 1)


def check_duel(rules: Rules) -> StateSpace:
    """The solitaire state space of ``rules`` if its two-player game can be solved, else raise."""
    # Bozó's "em baixo" call reads every thrown die upside down (7 - f): each outcome of a throw is as
    # likely either way, so the call never changes a value and the solve has nothing to choose there.
    if rules.min_players > 2 or rules.max_players < 2:
        raise DuelUnsupportedError(f"{rules.name} is not played by two players")
    space = build_space(rules)
    # An instant win needs its box open or holding points: such a box gets a "holds points" flag.
    flag_bit = space.flag_bit.copy()
    n_flags = space.n_flags
    for j, box in enumerate(rules.boxes):
        if box.instant_win and flag_bit[j] < 0:
            flag_bit[j] = n_flags
            n_flags += 1
    if n_flags != space.n_flags:
        space = dataclasses.replace(space, flag_bit=flag_bit, n_flags=n_flags)
    sheets = _sheets(space)
    if len(sheets) > MAX_SHEETS:
        raise DuelUnsupportedError(
            f"{rules.name}: {len(sheets):,} sheet states per player; the joint game is too large to solve exactly"
        )
    return space


def estimate_cells(rules: Rules) -> int:
    """Values the joint table of ``rules`` would hold (raises if the rules are refused otherwise)."""
    return build_joint(rules, count_only=True).n_cells


def check_duel_solvable(rules: Rules, max_cells: int = MAX_CELLS) -> None:
    """Raise :class:`DuelUnsupportedError` with a one-line reason if the joint game is not solved here."""
    build_joint(rules, count_only=True, max_cells=max_cells, check=True)


def table_bytes(cells: int) -> int:
    """Bytes of a table of ``cells`` values (f64 up to :data:`F64_CELLS`, else f32)."""
    return cells * (8 if cells <= F64_CELLS else 4)


def _read_cells(level_cells: IntArray, span: int) -> int:
    n = len(level_cells) - 1
    return max((int(level_cells[i] - level_cells[max(0, i - span)]) for i in range(n)), default=0)


def too_large(cells: int, work: int, read: int, max_cells: int = MAX_CELLS) -> bool:
    """True if a table of ``cells`` values is refused: more values than ``max_cells``, or neither a level
    with the levels it reads (``work`` values) nor the levels read alone (``read``) fit in memory (f64)."""
    return cells > max_cells or (work * 8 > MAX_WORK_BYTES and read * 8 > MAX_STREAM_BYTES)


def _sheets(space: StateSpace) -> list[tuple[int, int, int]]:
    flag_closed = []
    for mask in range(1 << space.n_slots):
        ok = 0
        for j in range(space.n_slots):
            if mask >> j & 1 and space.flag_bit[j] >= 0:
                ok |= 1 << int(space.flag_bit[j])
        flag_closed.append(ok)
    out = []
    for mask in range(1 << space.n_slots):
        for fl in range(1 << space.n_flags):
            if fl & ~flag_closed[mask]:
                continue
            for u in range(space.n_upper):
                if space.reach[mask, u]:
                    out.append((mask, fl, u))
    return out


def _slot_max(space: StateSpace) -> IntArray:
    """Most points (with every bonus it can pay) that writing one slot can add."""
    best = space.pts.max(axis=(0, 2))
    if space.joker:
        best = np.maximum(best, space.jpts.max(axis=(0, 2, 3)))
    out: IntArray = best + (space.extra_bonus if space.extra_slot >= 0 else 0)
    return out


def _auto_closable(rules: Rules) -> IntArray:
    """Per slot: the slot it requires if a scratch there closes this one by itself, else -1."""
    ids = rules.box_ids
    return np.array(
        [ids.index(b.requires) if b.requires and b.closed_by_scratch else -1 for b in rules.boxes], dtype=np.int64
    )


def _held_bounds(space: StateSpace, mask: IntArray, fl: IntArray, u: IntArray) -> tuple[IntArray, IntArray]:
    """(P, Q) per sheet: the most and the fewest points its closed boxes can hold (bonuses included)."""
    smax = _slot_max(space)
    pos = np.where(space.pts > 0, space.pts, 1 << 30).min(axis=(0, 2))
    if space.joker:
        pos = np.minimum(pos, np.where(space.jpts > 0, space.jpts, 1 << 30).min(axis=(0, 2, 3)))
    P = np.zeros(len(mask), dtype=np.int64)
    Q = np.zeros(len(mask), dtype=np.int64)
    for j in range(space.n_slots):
        closed = (mask >> j) & 1 == 1
        can = closed.copy()
        fb, r = int(space.flag_bit[j]), int(space.req[j])
        if fb >= 0:  # a flagged box holds points exactly when its flag is set
            holds = (fl >> fb) & 1 == 1
            can &= holds
            Q += np.where(closed & holds & (pos[j] < 1 << 30), pos[j], 0)
        if r >= 0 and space.flag_bit[r] >= 0:  # a box needing another scored 0 while that one held none
            can &= (fl >> int(space.flag_bit[r])) & 1 == 1
        P += np.where(can, smax[j], 0)
    if space.upper_bonus:
        paid = u >= space.threshold
        P += np.where(paid, space.upper_bonus, 0)
        Q = np.maximum(Q, u + np.where(paid, space.upper_bonus, 0))
    elif space.n_upper > 1:
        Q = np.maximum(Q, u)
    return P, Q


def build_joint(rules: Rules, count_only: bool = False, max_cells: int = MAX_CELLS, check: bool = False) -> JointSpace:
    """The joint space of ``rules`` (raises :class:`DuelUnsupportedError` with the reason if refused).

    ``count_only`` skips the position index (for sizes); ``max_cells`` is the most values allowed
    (and :data:`MAX_WORK_BYTES` the most memory while solving), checked unless ``count_only``
    (or if ``check``).
    """
    space = check_duel(rules)
    sheets = _sheets(space)
    n = len(sheets)
    mask = np.array([s[0] for s in sheets], dtype=np.int64)
    fl = np.array([s[1] for s in sheets], dtype=np.int64)
    u = np.array([s[2] for s in sheets], dtype=np.int64)
    sheet_id = np.full((1 << space.n_slots, 1 << space.n_flags, space.n_upper), -1, dtype=np.int64)
    sheet_id[mask, fl, u] = np.arange(n)
    closed = np.array([bin(int(m)).count("1") for m in mask], dtype=np.int64)
    done = (closed >= space.rounds).astype(np.int64)
    smax = _slot_max(space)
    R = np.array([sum(int(smax[j]) for j in range(space.n_slots) if not m >> j & 1) for m in mask], dtype=np.int64)
    if space.upper_bonus:
        R += np.where(u < space.threshold, space.upper_bonus, 0)
    # turns taken: closed slots minus those that closed by themselves (uncertain: a range)
    auto = _auto_closable(rules)
    tmax = closed.copy()
    tmin = closed.copy()
    for j, r in enumerate(auto):
        if r >= 0:
            fb = space.flag_bit[r]
            maybe = ((mask >> j) & 1 == 1) & ((mask >> r) & 1 == 1) & ((fl >> fb) & 1 == 0)
            tmin -= maybe.astype(np.int64)
    # rows: first player to move (m=0): t_first == t_second, or the second is done; m=1: t_first == t_second + 1
    rows_m, rows_s, rows_o = [], [], []
    others = np.arange(n, dtype=np.int64)
    for m in (0, 1):
        # m=0: the first player moves, both have taken t turns; m=1: the second moves with t, the first has t + 1
        for si in np.flatnonzero(done == 0):
            overlap = np.maximum(tmin[si] + m, tmin) <= np.minimum(tmax[si] + m, tmax)
            keep = overlap | (done == 1)
            rows_o.append(others[keep])
            rows_s.append(np.full(len(rows_o[-1]), si, dtype=np.int64))
            rows_m.append(np.full(len(rows_o[-1]), m, dtype=np.int64))
    row_m = np.concatenate(rows_m)
    row_s = np.concatenate(rows_s)
    row_o = np.concatenate(rows_o)
    level = closed[row_s] + closed[row_o]
    order = np.argsort(-level, kind="stable")
    row_m, row_s, row_o, level = row_m[order], row_s[order], row_o[order], level[order]
    P, Q = _held_bounds(space, mask, fl, u)
    w_lo, w_hi = -(R[row_s] + 1), R[row_o] + 1  # outside: settled by points
    a_lo, a_hi = Q[row_s] - P[row_o], P[row_s] - Q[row_o]  # the leads the sheets can show
    row_lo = np.maximum(w_lo, a_lo)
    row_hi = np.minimum(w_hi, a_hi)
    empty = row_lo > row_hi  # every lead shown is beyond one edge: one value (any lead shown) will do
    row_lo = np.where(empty, np.where(a_lo > w_hi, a_lo, a_hi), row_lo)
    widths = np.where(empty, 1, row_hi - row_lo + 1)
    row_off = np.zeros(len(row_m) + 1, dtype=np.int64)
    np.cumsum(widths, out=row_off[1:])
    bounds = np.flatnonzero(np.diff(level)) + 1
    level_ptr = np.concatenate([[0], bounds, [len(level)]]).astype(np.int64)
    span = max([1] + [1 + bin(int(c)).count("1") for c in space.closes])
    cells = int(row_off[-1])
    n_levels = len(level_ptr) - 1
    level_cells = row_off[level_ptr]
    work = max((int(level_cells[min(i + span + 1, n_levels)] - level_cells[i]) for i in range(n_levels)), default=0)
    read = _read_cells(level_cells, span)
    if (check or not count_only) and too_large(cells, work, read, max_cells):
        memory = work if work * 8 <= MAX_WORK_BYTES else read
        raise DuelUnsupportedError(
            f"{rules.name}: the two-player table holds {cells:,} values ({len(row_m):,} joint positions, "
            f"{table_bytes(cells) / 1e9:.1f} GB, {memory * 8 / 1e9:.1f} GB in memory while solving); more than "
            f"the {max_cells:,} values and {MAX_STREAM_BYTES / 1e9:.0f} GB this solver handles (docs/WINNING.md)"
        )
    pair_row = np.full((2, n, n) if not count_only else (2, 1, 1), -1, dtype=np.int64)
    if not count_only:
        pair_row[row_m, row_s, row_o] = np.arange(len(row_m))
    hands = space.dice.keeps[: space.dice.n_hands]
    iw = [j for j, b in enumerate(rules.boxes) if b.instant_win]
    iw_hand = np.array([[int(scoring.makes(rules.boxes[j], h)) for h in hands] for j in iw], dtype=np.int64)
    return JointSpace(
        space=space,
        sheet_mask=mask,
        sheet_fl=fl,
        sheet_u=u,
        sheet_R=R,
        sheet_P=P,
        sheet_Q=Q,
        sheet_done=done,
        sheet_id=sheet_id,
        pair_row=pair_row,
        row_m=row_m,
        row_s=row_s,
        row_o=row_o,
        row_lo=row_lo.astype(np.int64),
        row_off=row_off,
        level_ptr=level_ptr,
        span=span,
        iw_slot=np.array(iw, dtype=np.int64),
        iw_hand=iw_hand.reshape(len(iw), len(hands)),
    )


def tie_shared(rules: Rules) -> bool:
    """True if a tie at the end is a shared win (no tie-break rounds)."""
    return rules.tie_break is TieBreak.SHARED
