"""A brute-force expectimax for target play: the correctness oracle for the ``target`` tables.

Written from the rules like tests/solver/oracle.py, not from the kernels: ORDERED dice (a
throw of m dice has 6**m equally likely outcomes), holds are sets of dice POSITIONS, the
state carries the real scorecard, and the engine's scoring functions are the only rule
knowledge. The value of a turn-start state is a vector over the points still needed
t = 0 .. width - 1: the best probability of gaining at least t more points, each t with its
own policy (max element by element). Vectors are numpy float64 (not fractions: a vector of
fractions over every target is too slow); the tests compare to 1e-12.
"""

from __future__ import annotations

import itertools

import numpy as np

from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules

Card = tuple[int | None, ...]
Dice = tuple[int, ...]
Positions = tuple[int, ...]
Vector = np.ndarray


class TargetOracle:
    """Best P(points to come >= t) for every turn-start state reachable from the empty sheet."""

    def __init__(self, rules: Rules, width: int) -> None:
        if rules.carry_over_throws or rules.face_down_call:
            raise ValueError("the oracle models neither carried-over throws nor face-down calls")
        self.rules = rules
        self.n = rules.dice
        self.width = width
        self.values: dict[tuple[Card, int], Vector] = {}
        self.outcomes = {m: list(itertools.product(range(1, 7), repeat=m)) for m in range(rules.dice + 1)}
        self._keeps: dict[Positions, list[Positions]] = {}

    @property
    def empty(self) -> Card:
        """The empty sheet."""
        return (None,) * len(self.rules.slots)

    def finished(self, card: Card, turns: int) -> bool:
        """True once the player has no turn left."""
        return turns >= self.rules.turns or all(v is not None for v in card)

    def turn_start(self, card: Card, turns: int) -> Vector:
        """The vector before the first throw of a turn."""
        key = (card, turns)
        if key not in self.values:
            if self.finished(card, turns):
                v = np.zeros(self.width)
                v[0] = 1.0
            else:
                v = _Turn(self, card, turns).value()
            self.values[key] = v
        return self.values[key]

    def keeps(self, held: Positions) -> list[Positions]:
        """Positions that may be kept for the next throw (never all of them)."""
        if held not in self._keeps:
            every = [k for size in range(self.n) for k in itertools.combinations(range(self.n), size)]
            if self.rules.locked_holds:
                every = [k for k in every if set(held) <= set(k)]
            self._keeps[held] = every
        return self._keeps[held]

    def shifted(self, vector: Vector, gained: int) -> Vector:
        """P(gained + later >= t) from P(later >= t)."""
        out = np.ones(self.width)
        if gained < self.width:
            out[gained:] = vector[: self.width - gained]
        return out


class _Turn:
    def __init__(self, oracle: TargetOracle, card: Card, turns: int) -> None:
        self.o = oracle
        self.rules = oracle.rules
        self.card = card
        self.turns = turns
        self.total_now = scoring.total(self.rules, card)
        self._after: dict[tuple[int, Dice, Positions], Vector] = {}
        self._keep: dict[tuple[int, Positions, Dice], Vector] = {}
        self._score: dict[tuple[Dice, bool], Vector] = {}

    def value(self) -> Vector:
        outs = [self.after_throw(1, dice, ()) for dice in self.o.outcomes[self.o.n]]
        return np.mean(outs, axis=0)

    def after_throw(self, throw: int, dice: Dice, held: Positions) -> Vector:
        key = (throw, dice, held)
        if key not in self._after:
            best = self.score_now(dice, throw == 1).copy()
            if throw < self.rules.throws:
                for keep in self.o.keeps(held):
                    np.maximum(best, self.keep_value(throw, dice, keep), out=best)
            self._after[key] = best
        return self._after[key]

    def keep_value(self, throw: int, dice: Dice, keep: Positions) -> Vector:
        kept = tuple(dice[p] for p in keep)
        key = (throw, keep, kept)
        if key not in self._keep:
            held = keep if self.rules.locked_holds else ()
            outs = []
            for faces in self.o.outcomes[self.o.n - len(keep)]:
                new = list(faces)
                for p, d in zip(keep, kept, strict=True):
                    new.insert(p, d)
                outs.append(self.after_throw(throw + 1, tuple(new), held))
            self._keep[key] = np.mean(outs, axis=0)
        return self._keep[key]

    def score_now(self, dice: Dice, first_throw: bool) -> Vector:
        hand = tuple(sorted(dice))
        key = (hand, first_throw)
        if key not in self._score:
            rules, card = self.rules, self.card
            best = np.zeros(self.o.width)
            for slot in scoring.usable_slots(rules, card, dice, first_throw):
                points = scoring.slot_points(rules, card, slot, dice, first_throw)
                bonus = int(scoring.extra_bonus_due(rules, card, slot, dice))
                new = scoring.write(rules, card, slot, points)
                gained = scoring.total(rules, new, bonus) - self.total_now
                np.maximum(best, self.o.shifted(self.o.turn_start(new, self.turns + 1), gained), out=best)
            self._score[key] = best
        return self._score[key]
