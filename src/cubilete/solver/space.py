"""The solver's state space for a :class:`Rules`, with every scoring table built by calling
the engine's own scoring functions (:mod:`cubilete.engine.rules.scoring`).

A state at the start of a turn is ``(mask, flags, upper)``:

* ``mask``: the closed slots, one bit each;
* ``flags``: for each box whose points matter later (a prerequisite such as Generala
  for Doble, or the five-of-a-kind box that pays extra bonuses), one bit "holds points";
* ``upper``: the upper total so far, capped at the bonus threshold (0 without a bonus).

The kernels then only need, per slot and hand, the points, what closes, which flag
is set and which bonuses are paid: all of it read from these tables.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Joker, Order, Rules
from cubilete.solver.combinatorics import DiceTables, IntArray, dice_tables

MAX_STATES = 40_000_000


@dataclass(frozen=True, eq=False)
class StateSpace:
    """Everything the kernels need to know about a rule set."""

    rules: Rules
    dice: DiceTables
    n_slots: int
    n_flags: int
    n_upper: int
    rounds: int
    threshold: int
    upper_bonus: int
    const_bonus: int  # an upper bonus with threshold 0 is always paid
    extra_slot: int
    extra_bonus: int
    joker: bool
    flag_bit: IntArray  # (S,)
    req: IntArray  # (S,): slot that must hold points, or -1
    closes: IntArray  # (S,): slots closed by a scratch here
    is_upper: IntArray  # (S,)
    ebonus_ok: IntArray  # (S,): 1 if an extra five-of-a-kind written here pays the bonus
    upper_slot_of_face: IntArray  # (6,)
    pts: IntArray  # (2, S, H): [first_throw, slot, hand]
    jpts: IntArray  # (2, S, 6, 2): joker points [first_throw, slot, face - 1, matching upper used]
    usable: IntArray  # (2**S, 7): usable slots bitmask by mask and hand class (0, or all-equal face)
    reach: IntArray  # (2**S, U): 1 if the upper total is reachable with the closed upper boxes

    @property
    def servida(self) -> bool:
        """True if some hand scores differently on the first throw."""
        return bool((self.pts[0] != self.pts[1]).any() or (self.jpts[0] != self.jpts[1]).any())

    @property
    def n_states(self) -> int:
        """Size of the value table."""
        return (1 << self.n_slots) * (1 << self.n_flags) * self.n_upper


def check_solvable(rules: Rules) -> None:
    """Raise :class:`SolverUnsupportedError` with the reason if the rules can't be solved exactly."""
    slots = len(rules.slots)
    if len(rules.columns) > 1:
        raise SolverUnsupportedError(
            f"{rules.name}: a sheet of {len(rules.columns)} columns has 2^{slots} sheet states; "
            "too large to solve exactly (bots use a one-turn search instead)"
        )
    if rules.carry_over_throws:
        raise SolverUnsupportedError(
            f"{rules.name}: throws that carry over between turns make the state space too large to solve exactly "
            "(bots use a one-turn search instead)"
        )
    flags = len(_flag_boxes(rules))
    upper = rules.upper_bonus_threshold + 1 if rules.upper_bonus > 0 and rules.upper_bonus_threshold > 0 else 1
    states = solve_states(rules)
    if states > MAX_STATES or slots > 24:
        raise SolverUnsupportedError(
            f"{rules.name}: {states:,} states (2^{slots} sheets x {upper} upper totals x {1 << flags} flags) "
            f"is more than the {MAX_STATES:,} this solver handles"
        )
    if rules.turns < slots and any(b.requires and b.closed_by_scratch for b in rules.boxes):
        raise SolverUnsupportedError(
            f"{rules.name}: fewer rounds than boxes together with boxes that close by themselves"
        )


def solve_states(rules: Rules) -> int:
    """How many states the value table of a one-column sheet holds (what solving costs, in time and memory)."""
    flags = len(_flag_boxes(rules))
    upper = rules.upper_bonus_threshold + 1 if rules.upper_bonus > 0 and rules.upper_bonus_threshold > 0 else 1
    return (1 << len(rules.slots)) * (1 << flags) * upper


def _flag_boxes(rules: Rules) -> list[str]:
    boxes = sorted({b.requires for b in rules.boxes if b.requires})
    if rules.extra_bonus_box and rules.extra_bonus > 0 and rules.extra_bonus_box not in boxes:
        boxes.append(rules.extra_bonus_box)
    return boxes


def build_space(rules: Rules) -> StateSpace:
    """Build the tables for ``rules`` (raises :class:`SolverUnsupportedError` if too large)."""
    check_solvable(rules)
    dice = dice_tables(rules.dice)
    n_slots = len(rules.slots)
    hands = dice.keeps[: dice.n_hands]
    flag_boxes = _flag_boxes(rules)
    flag_bit = np.array([flag_boxes.index(b.id) if b.id in flag_boxes else -1 for b in rules.boxes], dtype=np.int64)
    req = np.array([rules.box_ids.index(b.requires) if b.requires else -1 for b in rules.boxes], dtype=np.int64)
    extra = rules.box_ids.index(rules.extra_bonus_box) if rules.extra_bonus_box else -1
    has_bonus = rules.upper_bonus > 0 and rules.upper_bonus_threshold > 0

    # Context card: every required box holds points, the extra box is open (no joker).
    base_card: list[int | None] = [None] * n_slots
    for r in req:
        if r >= 0:
            base_card[r] = 1
    pts = np.zeros((2, n_slots, len(hands)), dtype=np.int64)
    for first in (0, 1):
        for j in range(n_slots):
            pts[first, j] = [scoring.slot_points(rules, base_card, j, h, bool(first)) for h in hands]

    upper_slot = np.full(6, -1, dtype=np.int64)
    for j, b in enumerate(rules.boxes):
        if b.is_upper:
            upper_slot[b.face - 1] = j
    jpts = np.zeros((2, n_slots, 6, 2), dtype=np.int64)
    joker = rules.joker is not Joker.NONE and extra >= 0
    ebonus_ok = np.zeros(n_slots, dtype=np.int64)
    if extra >= 0:
        jcard = list(base_card)
        jcard[extra] = 1
        ebonus_ok[:] = [scoring.extra_bonus_due(rules, jcard, j, (1,) * rules.dice) for j in range(n_slots)]
        for face in range(1, 7):
            for used in (0, 1):
                card = list(jcard)
                if used and upper_slot[face - 1] >= 0:
                    card[upper_slot[face - 1]] = 1
                for first in (0, 1):
                    for j in range(n_slots):
                        jpts[first, j, face - 1, used] = scoring.slot_points(
                            rules, card, j, (face,) * rules.dice, bool(first)
                        )

    closes = np.zeros(n_slots, dtype=np.int64)
    for j in range(n_slots):
        after = scoring.write(rules, [None] * n_slots, j, 0)
        closes[j] = sum(1 << i for i, v in enumerate(after) if v is not None and i != j)

    return StateSpace(
        rules=rules,
        dice=dice,
        n_slots=n_slots,
        n_flags=len(flag_boxes),
        n_upper=rules.upper_bonus_threshold + 1 if has_bonus else 1,
        rounds=rules.turns,
        threshold=rules.upper_bonus_threshold if has_bonus else 0,
        upper_bonus=rules.upper_bonus if has_bonus else 0,
        const_bonus=rules.upper_bonus if rules.upper_bonus > 0 and not has_bonus else 0,
        extra_slot=extra,
        extra_bonus=rules.extra_bonus if extra >= 0 else 0,
        joker=joker,
        flag_bit=flag_bit,
        req=req,
        closes=closes,
        is_upper=np.array([int(b.is_upper) for b in rules.boxes], dtype=np.int64),
        ebonus_ok=ebonus_ok,
        upper_slot_of_face=upper_slot,
        pts=pts,
        jpts=jpts,
        usable=_usable_table(rules, n_slots, extra),
        reach=_reach_table(rules, n_slots, rules.upper_bonus_threshold + 1 if has_bonus else 1),
    )


def _card_of(mask: int, n_slots: int) -> list[int | None]:
    return [1 if mask >> i & 1 else None for i in range(n_slots)]


def _usable_table(rules: Rules, n_slots: int, extra: int) -> IntArray:
    """Usable slots per closed-slot mask and hand class, from :func:`scoring.usable_slots`.

    With free order and no forced joker, every open slot is usable: that fast path is
    checked against the scoring function on a sample of masks.
    """
    full = (1 << n_slots) - 1
    masks = np.arange(1 << n_slots, dtype=np.int64)
    table = np.repeat((full & ~masks)[:, None], 7, axis=1)
    generic = (1,) * (rules.dice - 1) + (2,) if rules.dice > 1 else (1,)
    forced = rules.joker is Joker.FORCED and extra >= 0
    if rules.columns[0] is Order.FREE:
        sample = random.Random(0).sample(range(1 << n_slots), min(64, 1 << n_slots))
    else:
        sample = list(range(1 << n_slots))
    for mask in sample:
        usable = scoring.usable_slots(rules, _card_of(mask, n_slots), generic, False)
        bits = sum(1 << i for i in usable)
        if rules.columns[0] is Order.FREE and bits != table[mask, 0]:  # pragma: no cover - a scoring change
            raise AssertionError("usable_slots no longer matches the free-order fast path")
        table[mask, :] = bits
    if forced:
        for mask in range(1 << n_slots):
            if mask >> extra & 1:
                card = _card_of(mask, n_slots)
                for face in range(1, 7):
                    usable = scoring.usable_slots(rules, card, (face,) * rules.dice, False)
                    table[mask, face] = sum(1 << i for i in usable)
    return table


def _reach_table(rules: Rules, n_slots: int, n_upper: int) -> IntArray:
    """Which capped upper totals can be reached with a given set of closed upper boxes."""
    masks = 1 << n_slots
    reach = np.zeros((masks, n_upper), dtype=np.int64)
    if n_upper == 1:
        reach[:, 0] = 1
        return reach
    upper = [(j, b.face) for j, b in enumerate(rules.boxes) if b.is_upper]
    upper_bits = sum(1 << j for j, _ in upper)
    cache: dict[int, IntArray] = {}
    for mask in range(masks):
        key = mask & upper_bits
        if key not in cache:
            sums = {0}
            for j, face in upper:
                if key >> j & 1:
                    sums = {min(n_upper - 1, s + face * c) for s in sums for c in range(rules.dice + 1)}
            row = np.zeros(n_upper, dtype=np.int64)
            row[sorted(sums)] = 1
            cache[key] = row
        reach[mask] = cache[key]
    return reach
