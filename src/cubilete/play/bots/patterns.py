"""What the simple bots see in a hand: for each box, the dice that serve it and how far along it is.

>>> from cubilete.engine.rules import find_rules
>>> rules = find_rules("generala")
>>> target(rules.box("full"), (2, 6, 2, 6, 3))
((0, 1, 2, 3), 0.8)
>>> target(rules.box("escalera"), (1, 2, 3, 3, 6))
((0, 1, 2), 0.6)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Box, Kind, Rules
from cubilete.solver.combinatorics import dice_tables


def target(box: Box, dice: Sequence[int]) -> tuple[tuple[int, ...], float]:
    """(positions of the dice that serve the box, share of the box's pattern already there)."""
    n = len(dice)
    if box.kind is Kind.UPPER:
        keep = tuple(p for p in range(n) if dice[p] == box.face)
        return keep, len(keep) / n
    if box.kind is Kind.CHANCE:
        keep = tuple(p for p in range(n) if dice[p] >= 4)
        return keep, len(keep) / n
    if box.kind is Kind.STRAIGHT:
        best: tuple[tuple[int, ...], float] = ((), 0.0)
        for pattern in box.patterns:
            keep = _pattern_positions(dice, pattern)
            share = len(keep) / len(pattern)
            if share > best[1]:
                best = (keep, share)
        return best
    return _group_positions(box, dice)


def _pattern_positions(dice: Sequence[int], pattern: Sequence[int]) -> tuple[int, ...]:
    need = list(pattern)
    keep = []
    for p, face in enumerate(dice):
        if face in need:
            need.remove(face)
            keep.append(p)
    return tuple(keep)


def _group_positions(box: Box, dice: Sequence[int]) -> tuple[tuple[int, ...], float]:
    counts = scoring.face_counts(dice)
    left = list(counts)
    used: set[int] = set()
    faces: list[tuple[int, int]] = []  # (face, dice kept for it)
    for size in sorted(box.groups, reverse=True):
        options = [f for f in range(1, 7) if left[f] > 0 and not (box.distinct and f in used)]
        if not options:
            continue
        face = max(options, key=lambda f: (min(left[f], size), f))
        take = min(left[face], size)
        left[face] -= take
        used.add(face)
        faces.append((face, take))
    keep: list[int] = []
    for face, take in faces:
        keep.extend([p for p in range(len(dice)) if dice[p] == face and p not in keep][:take])
    return tuple(sorted(keep)), len(keep) / sum(box.groups)


@lru_cache(maxsize=32)
def slot_maxima(rules: Rules) -> tuple[int, ...]:
    """Per slot: the most the box can ever pay (servida included)."""
    tables = dice_tables(rules.dice)
    hands = tables.keeps[: tables.n_hands]
    return tuple(
        max(max(scoring.servida_points(rules.slot_box(j), h), scoring.base_points(rules.slot_box(j), h)) for h in hands)
        for j in range(len(rules.slots))
    )


def usable_maxima(rules: Rules, card: Sequence[int | None]) -> tuple[int, ...]:
    """:func:`slot_maxima` on this card: a box whose prerequisite holds no points can pay nothing yet."""
    out = list(slot_maxima(rules))
    for j in range(len(out)):
        box = rules.slot_box(j)
        if box.requires is not None and not card[scoring.slot_of(rules, box.requires, rules.slot_column(j))]:
            out[j] = 0
    return tuple(out)

