"""A quick estimate of what the rest of a game is worth, for rules too large to solve exactly.

Each open slot is worth what a turn spent on that box alone scores on average (a one-box game
solved by the turn search; a first-throw-only column counts the first throw only); when fewer
turns than open slots remain, only the best of them count. The upper bonus counts with an
estimated chance: the upper boxes still open are expected to make their par (the threshold
shared out by face), give or take one die each, and a normal curve turns the margin into a
probability. The approximate bots and the win chances of such rules both use it.

>>> from cubilete.engine.rules import find_rules
>>> values = slot_estimates(find_rules("generala"))
>>> round(values[5], 2)  # sixes: 5 dice x 6 x (1 - (5/6)^3)
12.64
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Order, Rules
from cubilete.solver.approx.turn_search import best_sub_keep, hand_values, keep_values
from cubilete.solver.combinatorics import FloatArray, dice_tables


@lru_cache(maxsize=32)
def slot_estimates(rules: Rules) -> tuple[float, ...]:
    """Per slot: the average points of one turn spent on that box alone (servida included)."""
    tables = dice_tables(rules.dice)
    hands = tables.keeps[: tables.n_hands]
    by_box: dict[tuple[str, bool], float] = {}
    out: list[float] = []
    for slot in range(len(rules.slots)):
        box = rules.slot_box(slot)
        first_only = rules.columns[rules.slot_column(slot)] is Order.FIRST_THROW
        key = (box.id, first_only)
        if key not in by_box:
            first = np.array([float(scoring.servida_points(box, h)) for h in hands])
            if first_only or rules.throws == 1:
                by_box[key] = float(tables.first_roll @ first)
            else:
                later = np.array([float(scoring.base_points(box, h)) for h in hands])
                after_first = hand_values(tables, later, rules.throws - 2)
                by_box[key] = float(tables.first_roll @ np.maximum(first, sub_keep_best(rules, after_first)))
        out.append(by_box[key])
    return tuple(out)


def sub_keep_best(rules: Rules, values: FloatArray) -> FloatArray:
    """Per hand: the best keep to throw again from it, given the values of the final hands."""
    tables = dice_tables(rules.dice)
    return best_sub_keep(tables, keep_values(tables, values))


def upper_bonus_share(rules: Rules, card: Sequence[int | None], turns_left: int) -> float:
    """The upper bonus still to come, estimated (bonuses already earned are not counted)."""
    if rules.upper_bonus <= 0 or rules.upper_bonus_threshold <= 0 or turns_left <= 0:
        return 0.0
    threshold = rules.upper_bonus_threshold
    share = 0.0
    for column in range(len(rules.columns)):
        slots = [i for i in scoring.column_slots(rules, column) if rules.slot_box(i).is_upper]
        have = sum(card[i] or 0 for i in slots)
        faces = [rules.slot_box(i).face for i in slots if card[i] is None]
        if have >= threshold or not faces:
            continue
        need = threshold - have
        if need > rules.dice * sum(faces):
            continue
        par = sum(threshold * f / 21 for f in faces)
        spread = math.sqrt(sum(f * f for f in faces))
        share += rules.upper_bonus * 0.5 * math.erfc(-(par - need) / (spread * math.sqrt(2)))
    return share


def approx_future(rules: Rules, card: Sequence[int | None], turns_left: int) -> float:
    """Estimated points still to come for a sheet with ``turns_left`` turns to play."""
    if turns_left <= 0:
        return 0.0
    values = slot_estimates(rules)
    open_values = sorted((values[i] for i, v in enumerate(card) if v is None), reverse=True)
    return sum(open_values[:turns_left]) + upper_bonus_share(rules, card, turns_left)
