"""What every environment shares: rules from a name or a profile, the action encoding, and the
observation layout of one sheet.

Action encoding (one ``Discrete`` space for every variant of ``n`` dice and ``S`` slots):

* ``0 .. 2**n - 1``: throw again, keeping the dice at the positions whose bit is set
  (bit ``i`` = die ``i``); ``2**n - 1`` (keep every die) is never legal;
* ``2**n .. 2 * 2**n - 1``: the same keep masks with Bozó's "em baixo" call (only in rules
  that have it, ``face_down_call``);
* then one action per slot, in the order of ``rules.slots``: write the dice there.

The first throw of a turn is not a decision, so the environments throw it themselves.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.errors import EnvError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.engine.rules.presets import find_rules
from cubilete.engine.rules.profile import load_rules


def resolve_rules(rules: str | Path | Rules) -> Rules:
    """A :class:`Rules` from a preset name (or alias), a TOML profile path, or a Rules value."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Path):
        return load_rules(str(rules))
    if not isinstance(rules, str):
        raise EnvError(f"rules must be a preset name, a profile path or a Rules value, not {type(rules).__name__}")
    return load_rules(rules) if rules.endswith(".toml") or "/" in rules else find_rules(rules)


def solitaire_rules(rules: Rules) -> Rules:
    """The rules played alone: a box that wins at once (P10) just scores, as the solver counts it."""
    for box in rules.boxes:
        if box.instant_win:
            rules = rules.with_box(box.id, instant_win=False, win_after_scratch=False)
    return rules


@dataclass(frozen=True)
class ActionCodec:
    """The mapping between action numbers and engine actions for one rule set."""

    rules: Rules

    @property
    def n_keeps(self) -> int:
        """Keep masks: one bit per die position."""
        return 1 << self.rules.dice

    @property
    def slot_base(self) -> int:
        """The first score action."""
        return self.n_keeps * (2 if self.rules.face_down_call else 1)

    @property
    def n(self) -> int:
        """How many actions there are."""
        return self.slot_base + len(self.rules.slots)

    def decode(self, a: int) -> Action:
        """The engine action of number ``a``."""
        if not 0 <= a < self.n:
            raise EnvError(f"action {a} is outside 0..{self.n - 1}")
        if a >= self.slot_base:
            return Score(self.rules.slots[a - self.slot_base])
        face_down = a >= self.n_keeps
        mask = a % self.n_keeps
        return Roll(tuple(i for i in range(self.rules.dice) if mask >> i & 1), face_down=face_down)

    def encode(self, action: Action) -> int:
        """The number of an engine action (Roll or Score)."""
        if isinstance(action, Score):
            return self.slot_base + self.rules.slot_index(action.slot)
        if isinstance(action, Roll):
            mask = sum(1 << p for p in action.keep)
            return mask + (self.n_keeps if action.face_down else 0)
        raise EnvError(f"{action!r} has no action number (stand is played by the table environment itself)")

    def mask(self, legal: list[Action]) -> np.ndarray:
        """The int8 mask of the legal actions."""
        out = np.zeros(self.n, dtype=np.int8)
        for action in legal:
            if isinstance(action, Roll | Score):
                out[self.encode(action)] = 1
        return out


def max_slot_points(rules: Rules) -> int:
    """An upper bound of the points any slot can hold (observation bounds)."""
    card: list[int | None] = [None] * len(rules.slots)
    for box in rules.boxes:
        if box.requires:
            card[rules.slot_index(box.requires)] = 1
    best = 0
    for hand in itertools.combinations_with_replacement(range(1, 7), rules.dice):
        for slot in range(len(rules.boxes)):
            for first in (False, True):
                best = max(best, scoring.slot_points(rules, card, slot, hand, first))
    return best


class SheetLayout:
    """The observation of one player's sheet and dice: a flat float32 vector.

    ========================  =====  =====================================================
    part                      size   meaning
    ========================  =====  =====================================================
    closed                    S      1 if the slot is written (points or scratch)
    points                    S      points written in the slot (0 while open)
    dice                      n      face of the die at each position, 0 before a throw
    counts                    6      how many dice show 1..6
    held                      n      1 if the die must stay kept (locked holds)
    throws                    1      throws made this turn
    throws_left               1      throws still allowed this turn
    upper                     1      the upper total (boxes 1..6) so far
    total                     1      the score so far, bonuses included
    turns_left                1      turns still to play
    ========================  =====  =====================================================
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        s, n = len(rules.slots), rules.dice
        self.size = 2 * s + 2 * n + 6 + 5
        top = float(max_slot_points(rules))
        n_slots = len(rules.slots)
        upper = float(sum(rules.slot_box(i).face * n for i in range(n_slots) if rules.slot_box(i).is_upper))
        total = top * n_slots + rules.upper_bonus * len(rules.columns) + rules.extra_bonus * rules.turns
        throws = float(rules.throws * (rules.turns if rules.carry_over_throws else 1))
        self.high = np.concatenate(
            [
                np.ones(s),
                np.full(s, top),
                np.full(n, 6.0),
                np.full(6, float(n)),
                np.ones(n),
                [throws, throws, upper, total, float(rules.turns)],
            ]
        ).astype(np.float32)
        self.low = np.zeros(self.size, dtype=np.float32)

    def fill(
        self,
        out: np.ndarray,
        card: tuple[int | None, ...],
        dice: tuple[int, ...],
        held: tuple[int, ...],
        throws: int,
        allowance: int,
        extra_bonuses: int,
        turns_taken: int,
    ) -> np.ndarray:
        """Write the observation into ``out`` (float32, ``size`` long) and return it."""
        rules = self.rules
        s, n = len(rules.slots), rules.dice
        out[:] = 0.0
        for i, v in enumerate(card):
            if v is not None:
                out[i] = 1.0
                out[s + i] = v
        base = 2 * s
        for p, f in enumerate(dice):
            out[base + p] = f
            if f:
                out[base + n + f - 1] += 1
        for p in held:
            out[base + n + 6 + p] = 1.0
        tail = base + 2 * n + 6
        out[tail] = throws
        out[tail + 1] = allowance - throws
        out[tail + 2] = sum(v or 0 for i, v in enumerate(card) if rules.slot_box(i).is_upper)
        out[tail + 3] = scoring.total(rules, card, extra_bonuses)
        out[tail + 4] = rules.turns - turns_taken
        return out
