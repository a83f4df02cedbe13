"""Scoring: the one place that turns dice into points, shared by the engine and the solver.

Two levels:

* :func:`base_points` / :func:`makes` look at a box and a hand only;
* :func:`slot_points`, :func:`usable_slots`, :func:`write` and :func:`total` add the
  context of a scorecard: servida, prerequisites, column order, jokers and bonuses.

A scorecard here is a sequence with one entry per slot (``Rules.slots``): the
points written there, or ``None`` while the slot is open.

>>> from cubilete.engine.rules import find_rules
>>> r = find_rules("generala")
>>> base_points(r.box("escalera"), (3, 4, 5, 6, 1))
20
>>> slot_points(r, [None] * 11, r.slot_index("full"), (2, 2, 5, 5, 5), first_throw=True)
35
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from cubilete.engine.rules.model import Box, Joker, Kind, Order, Points, Rules

Hand = tuple[int, ...]
Card = Sequence[int | None]


def face_counts(hand: Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face; index 0 is unused.

    >>> face_counts((1, 1, 3, 6, 6))
    (0, 2, 0, 1, 0, 0, 2)
    """
    counts = [0] * 7
    for d in hand:
        counts[d] += 1
    return tuple(counts)


def _group_choices(
    counts: tuple[int, ...], sizes: tuple[int, ...], distinct: bool, exact: bool
) -> list[tuple[int, ...]]:
    """Every way to give each group a face: a tuple of faces, one per group."""
    found: list[tuple[int, ...]] = []

    def place(i: int, left: list[int], chosen: tuple[int, ...]) -> None:
        if i == len(sizes):
            found.append(chosen)
            return
        for face in range(6, 0, -1):
            if distinct and face in chosen:
                continue
            if exact and counts[face] != sizes[i]:
                continue
            if left[face] >= sizes[i]:
                left[face] -= sizes[i]
                place(i + 1, left, (*chosen, face))
                left[face] += sizes[i]

    place(0, list(counts), ())
    return found


@lru_cache(maxsize=65536)
def _evaluate(box: Box, hand: Hand) -> int | None:
    """Points the box gives the (sorted) hand on its own, or None if the hand does not make it."""
    counts = face_counts(hand)
    if box.kind is Kind.UPPER:
        return box.face * counts[box.face]
    if box.kind is Kind.CHANCE:
        return _points(box, hand, sum(hand), 0)
    if box.kind is Kind.STRAIGHT:
        sums = [sum(p) for p in box.patterns if _contains(counts, p)]
        return _points(box, hand, max(sums), 0) if sums else None
    choices = _group_choices(counts, box.groups, box.distinct, box.exact)
    if not choices:
        return None
    return max(
        _points(box, hand, sum(f * s for f, s in zip(faces, box.groups, strict=True)), faces[0]) for faces in choices
    )


def _contains(counts: tuple[int, ...], pattern: tuple[int, ...]) -> bool:
    need = face_counts(pattern)
    return all(counts[f] >= need[f] for f in range(1, 7))


def _points(box: Box, hand: Hand, pattern_sum: int, first_face: int) -> int:
    if box.points is Points.SUM:
        return sum(hand)
    if box.points is Points.PATTERN:
        return pattern_sum
    for face, value in box.face_values:
        if face == first_face:
            return value
    return box.value


def makes(box: Box, hand: Sequence[int]) -> bool:
    """True if the hand qualifies for the box (an upper box takes any hand).

    >>> from cubilete.engine.rules import find_rules
    >>> makes(find_rules("generala").box("full"), (5, 5, 5, 5, 5))
    False
    """
    return _evaluate(box, tuple(sorted(hand))) is not None


def base_points(box: Box, hand: Sequence[int]) -> int:
    """Points for the hand in the box, ignoring servida and the rest of the sheet."""
    pts = _evaluate(box, tuple(sorted(hand)))
    return 0 if pts is None else pts


def servida_points(box: Box, hand: Sequence[int]) -> int:
    """Points for a hand made with the first throw, ignoring the rest of the sheet."""
    pts = _evaluate(box, tuple(sorted(hand)))
    if not pts:  # not made (an upper box with none of its face is not "made" either)
        return 0
    if box.first_throw_value is not None:
        pts = box.first_throw_value
    return pts + box.first_throw_bonus


def all_equal(hand: Sequence[int]) -> bool:
    """True for a five-of-a-kind (every die shows the same face)."""
    return len(hand) > 0 and all(d == hand[0] for d in hand)


# --- the sheet: columns and slots -------------------------------------------


def column_slots(rules: Rules, column: int) -> range:
    """The slot indices of one column."""
    n = len(rules.boxes)
    return range(column * n, (column + 1) * n)


def slot_of(rules: Rules, box_id: str, column: int) -> int:
    """The slot index of a box in a column."""
    return column * len(rules.boxes) + rules.box_position(box_id)


def joker_active(rules: Rules, card: Card, column: int, hand: Sequence[int]) -> bool:
    """True if the hand is an extra five-of-a-kind whose own box in this column is used."""
    if rules.joker is Joker.NONE or rules.extra_bonus_box is None or not all_equal(hand):
        return False
    return card[slot_of(rules, rules.extra_bonus_box, column)] is not None


def _upper_slot(rules: Rules, column: int, face: int) -> int | None:
    for i in column_slots(rules, column):
        b = rules.slot_box(i)
        if b.is_upper and b.face == face:
            return i
    return None


def slot_points(rules: Rules, card: Card, slot: int, hand: Sequence[int], first_throw: bool) -> int:
    """Points written in ``slot`` if the hand is scored there now (0 means a scratch)."""
    box = rules.slot_box(slot)
    column = rules.slot_column(slot)
    if rules.columns[column] is Order.FIRST_THROW and not first_throw:
        return 0
    if box.requires is not None:
        needed = card[slot_of(rules, box.requires, column)]
        if not needed:  # open, or scratched with 0
            return 0
    pts = servida_points(box, hand) if first_throw else base_points(box, hand)
    if joker_active(rules, card, column, hand):
        upper = _upper_slot(rules, column, hand[0])
        if box.is_upper and rules.joker is Joker.ORIGINAL:
            return 0
        if not box.is_upper and box.joker and pts == 0:
            upper_used = upper is None or card[upper] is not None
            if rules.joker is not Joker.FREE or upper_used:
                pts = box.value
    return pts


def usable_slots(rules: Rules, card: Card, hand: Sequence[int], first_throw: bool) -> list[int]:
    """The slots the hand may be written in now: open, in column order, and as the joker allows."""
    usable: list[int] = []
    for column, order in enumerate(rules.columns):
        free = [i for i in column_slots(rules, column) if card[i] is None]
        if not free:
            continue
        if order is Order.DOWN:
            free = free[:1]
        elif order is Order.UP:
            free = free[-1:]
        if rules.joker is Joker.FORCED and joker_active(rules, card, column, hand):
            free = _forced_joker_slots(rules, card, column, hand[0], free)
        usable.extend(free)
    return usable


def _forced_joker_slots(rules: Rules, card: Card, column: int, face: int, free: list[int]) -> list[int]:
    upper = _upper_slot(rules, column, face)
    if upper is not None and upper in free:
        return [upper]
    lower = [i for i in free if not rules.slot_box(i).is_upper]
    return lower or free


def write(rules: Rules, card: Card, slot: int, points: int) -> tuple[int | None, ...]:
    """The card after writing ``points`` in ``slot``; boxes that depend on a scratched box close too."""
    new = list(card)
    new[slot] = points
    if points == 0:
        column = rules.slot_column(slot)
        scratched = rules.slot_box(slot).id
        for i in column_slots(rules, column):
            b = rules.slot_box(i)
            if new[i] is None and b.requires == scratched and b.closed_by_scratch:
                new[i] = 0
    return tuple(new)


def extra_bonus_due(rules: Rules, card: Card, slot: int, hand: Sequence[int]) -> bool:
    """True if scoring this hand in this slot pays the extra five-of-a-kind bonus (P12)."""
    if rules.extra_bonus_box is None or rules.extra_bonus <= 0 or not all_equal(hand):
        return False
    own = slot_of(rules, rules.extra_bonus_box, rules.slot_column(slot))
    return own != slot and bool(card[own])


def upper_bonus(rules: Rules, card: Card) -> int:
    """The upper bonuses earned on this card, one per column (P11)."""
    if rules.upper_bonus <= 0:
        return 0
    earned = 0
    for column in range(len(rules.columns)):
        upper = sum(card[i] or 0 for i in column_slots(rules, column) if rules.slot_box(i).is_upper)
        if upper >= rules.upper_bonus_threshold:
            earned += rules.upper_bonus
    return earned


def total(rules: Rules, card: Card, extra_bonuses: int = 0) -> int:
    """The card's total: boxes, upper bonuses and extra five-of-a-kind bonuses."""
    return sum(v or 0 for v in card) + upper_bonus(rules, card) + extra_bonuses * rules.extra_bonus


def instant_win(rules: Rules, card: Card, hand: Sequence[int]) -> bool:
    """True if this first-throw hand wins at once (P10): a box with instant win is made
    and that box is not scratched on the player's sheet (unless the box wins after a scratch too)."""
    for box in rules.boxes:
        if box.instant_win and makes(box, hand):
            slots = [slot_of(rules, box.id, c) for c in range(len(rules.columns))]
            if box.win_after_scratch or any(card[s] != 0 for s in slots):
                return True
    return False
