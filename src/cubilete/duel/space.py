"""The joint state space of a two-player game: both sheets, who moves, and the score difference.

A *sheet* is one player's turn-start state of the solitaire solver, ``(mask, flags, upper)``
(:mod:`cubilete.solver.space`). A *row* is a pair of sheets with the player to move: the
mover's sheet, the other player's sheet, and whether the mover is the first player. Each
row holds P(mover wins) for every mover's lead ``e`` (mover's total minus the other's) in a
window ``-(R_m + 1) .. R_o + 1``, where ``R`` bounds the points a sheet can still make: beyond
the window the result no longer depends on the points (only instant wins can still change
it), so a lead outside it reads the window's edge.

Only pairs whose turn counts fit the turn order are kept (the first player moves when
both have taken as many turns, the second when the first has taken one more, or either
plays alone once the other is done). Rows are grouped in levels by the closed slots of
both sheets: every move closes at least one, so a level only reads higher levels.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from cubilete.errors import CubileteError
from cubilete.rules import scoring
from cubilete.rules.model import Rules, TieBreak
from cubilete.solver.combinatorics import IntArray
from cubilete.solver.space import SolverUnsupportedError, StateSpace, build_space

MAX_CELLS = 200_000_000  # f64 values: 1.6 GB; above it the joint solve is refused (see docs/WINNING.md)
MAX_SHEETS = 20_000


class DuelUnsupportedError(SolverUnsupportedError, CubileteError):
    """The two-player game of these rules cannot be solved exactly here."""


@dataclass(frozen=True, eq=False)
class JointSpace:
    """Sheets, rows and levels of the two-player game of a rule set."""

    space: StateSpace
    sheet_mask: IntArray  # (N,)
    sheet_fl: IntArray  # (N,)
    sheet_u: IntArray  # (N,)
    sheet_R: IntArray  # (N,): bound on the points still to come
    sheet_done: IntArray  # (N,): 1 if the player has no turn left
    sheet_id: IntArray  # (2**S, 2**F, U): sheet number, -1 if impossible
    pair_row: IntArray  # (2, N, N): row of (first player moves?, mover's sheet, other's sheet), -1 if absent
    row_m: IntArray  # (rows,): 0 if the first player moves, 1 if the second
    row_s: IntArray  # (rows,): mover's sheet
    row_o: IntArray  # (rows,): other's sheet
    row_off: IntArray  # (rows + 1,): the row's values are values[row_off[r]:row_off[r + 1]]
    level_ptr: IntArray  # rows of level i (most closed first) are level_ptr[i]:level_ptr[i + 1]
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

    def row_of(self, mover_first: bool, mover_sheet: int, other_sheet: int) -> int:
        """The row of a position (-1 if it is not in the table)."""
        return int(self.pair_row[0 if mover_first else 1, mover_sheet, other_sheet])

    def value(self, values: np.ndarray, row: int, lead: int) -> float:
        """P(mover wins) in a row for the mover's lead (clamped into the window)."""
        s = int(self.row_s[row])
        lo, n = int(self.row_off[row]), int(self.row_off[row + 1] - self.row_off[row])
        i = min(max(lead + int(self.sheet_R[s]) + 1, 0), n - 1)
        return float(values[lo + i])


def check_duel(rules: Rules) -> StateSpace:
    """The solitaire state space of ``rules`` if its two-player game can be solved, else raise."""
    if rules.face_down_call:
        raise DuelUnsupportedError(f"{rules.name}: the 'em baixo' call is not modelled by the two-player solver")
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
    cells = estimate_cells(rules)
    if cells > max_cells:
        raise DuelUnsupportedError(
            f"{rules.name}: the two-player table would hold {cells:,} values ({cells * 8 / 1e9:.1f} GB); "
            f"more than the {max_cells:,} this solver handles (docs/WINNING.md)"
        )


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


def build_joint(rules: Rules, count_only: bool = False, max_cells: int = MAX_CELLS) -> JointSpace:
    """The joint space of ``rules`` (raises :class:`DuelUnsupportedError` with the reason if refused).

    ``count_only`` skips the position index (for sizes); ``max_cells`` is the most values allowed.
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
    widths = R[row_s] + R[row_o] + 3
    row_off = np.zeros(len(row_m) + 1, dtype=np.int64)
    np.cumsum(widths, out=row_off[1:])
    if row_off[-1] > max_cells and not count_only:
        cells = int(row_off[-1])
        raise DuelUnsupportedError(
            f"{rules.name}: the two-player table holds {cells:,} values ({len(row_m):,} joint positions, "
            f"{cells * 8 / 1e9:.1f} GB); more than the {max_cells:,} this solver handles (docs/WINNING.md)"
        )
    bounds = np.flatnonzero(np.diff(level)) + 1
    level_ptr = np.concatenate([[0], bounds, [len(level)]]).astype(np.int64)
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
        sheet_done=done,
        sheet_id=sheet_id,
        pair_row=pair_row,
        row_m=row_m,
        row_s=row_s,
        row_o=row_o,
        row_off=row_off,
        level_ptr=level_ptr,
        iw_slot=np.array(iw, dtype=np.int64),
        iw_hand=iw_hand.reshape(len(iw), len(hands)),
    )


def tie_shared(rules: Rules) -> bool:
    """True if a tie at the end is a shared win (no tie-break rounds)."""
    return rules.tie_break is TieBreak.SHARED
