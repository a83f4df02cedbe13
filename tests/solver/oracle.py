"""A brute-force expectimax in exact fractions: the correctness oracle for the solver.

Written from the rules, not from the solver: ORDERED dice (a throw of m dice has
6**m equally likely outcomes), holds are sets of dice POSITIONS, and the state
carries the real scorecard (points per slot), so nothing about flags or capped
upper totals is assumed. The only rule knowledge used is the engine's scoring
functions (:mod:`cubilete.engine.rules.scoring`), which define the rules, plus the game's
turn structure (:mod:`cubilete.engine.game`): the first throw throws every die, a later
throw keeps a proper subset of positions (with locked holds, a superset of the
positions kept at the previous throw), the hand may be scored after any throw,
servida means "scored after the first throw", and a player is done after
``rules.turns`` turns or when every slot is closed. Instant wins are not modelled.

Value of a turn-start state = expected points still to come (increase of
:func:`scoring.total`), under optimal play for the expected final score.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules

Card = tuple[int | None, ...]
Dice = tuple[int, ...]
Positions = tuple[int, ...]
TurnStart = tuple[Card, int]  # (card, turns taken)


class Oracle:
    """Exact optimal values of every turn-start state reachable from the empty sheet."""

    def __init__(self, rules: Rules) -> None:
        if rules.carry_over_throws or rules.face_down_call:
            raise ValueError("the oracle models neither carried-over throws nor face-down calls")
        self.rules = rules
        self.n = rules.dice
        self.values: dict[TurnStart, Fraction] = {}  # every turn-start state visited, with its value
        self.outcomes: dict[int, list[Dice]] = {
            m: list(itertools.product(range(1, 7), repeat=m)) for m in range(rules.dice + 1)
        }
        self._keeps: dict[Positions, list[Positions]] = {}

    @property
    def empty(self) -> Card:
        """The empty sheet."""
        return (None,) * len(self.rules.slots)

    def expected_score(self) -> Fraction:
        """The optimal expected final total of a whole game."""
        return scoring.total(self.rules, self.empty) + self.turn_start(self.empty, 0)

    def finished(self, card: Card, turns: int) -> bool:
        """True once the player has no turn left (as in :meth:`cubilete.Game._done`)."""
        return turns >= self.rules.turns or all(v is not None for v in card)

    def turn_start(self, card: Card, turns: int) -> Fraction:
        """Expected points still to come before the first throw of a turn."""
        key = (card, turns)
        if key not in self.values:
            self.values[key] = Fraction(0) if self.finished(card, turns) else _Turn(self, card, turns).value()
        return self.values[key]

    def keeps(self, held: Positions) -> list[Positions]:
        """The positions that may be kept for the next throw (never all of them)."""
        if held not in self._keeps:
            every = [k for size in range(self.n) for k in itertools.combinations(range(self.n), size)]
            if self.rules.locked_holds:
                every = [k for k in every if set(held) <= set(k)]
            self._keeps[held] = every
        return self._keeps[held]


class _Turn:
    """One turn from a given card: expectimax over throws, keeps and boxes."""

    def __init__(self, oracle: Oracle, card: Card, turns: int) -> None:
        self.o = oracle
        self.rules = oracle.rules
        self.card = card
        self.turns = turns
        self.total_now = scoring.total(self.rules, card)
        self._after: dict[tuple[int, Dice, Positions], Fraction] = {}
        self._keep: dict[tuple[int, Positions, Dice], Fraction] = {}
        self._score: dict[tuple[Dice, bool], Fraction] = {}

    def value(self) -> Fraction:
        """Expected points to come: the first throw throws every die."""
        return mean([self.after_throw(1, dice, ()) for dice in self.o.outcomes[self.o.n]])

    def after_throw(self, throw: int, dice: Dice, held: Positions) -> Fraction:
        """Best of scoring now and (if throws remain) every legal keep, with ``throw`` throws made."""
        key = (throw, dice, held)
        if key not in self._after:
            options = [self.score_now(dice, throw == 1)]
            if throw < self.rules.throws:
                options += [self.keep_value(throw, dice, keep) for keep in self.o.keeps(held)]
            self._after[key] = best(options)
        return self._after[key]

    def keep_value(self, throw: int, dice: Dice, keep: Positions) -> Fraction:
        """Expected value of keeping the dice at ``keep`` and throwing the others in place."""
        kept = tuple(dice[p] for p in keep)  # only the kept dice matter
        key = (throw, keep, kept)
        if key not in self._keep:
            held = keep if self.rules.locked_holds else ()
            values = []
            for faces in self.o.outcomes[self.o.n - len(keep)]:
                new = list(faces)
                for p, d in zip(keep, kept, strict=True):  # increasing positions: each lands at its place
                    new.insert(p, d)
                values.append(self.after_throw(throw + 1, tuple(new), held))
            self._keep[key] = mean(values)
        return self._keep[key]

    def score_now(self, dice: Dice, first_throw: bool) -> Fraction:
        """Best over the usable slots of (points gained now + value of the next turn)."""
        # Safe to key on the sorted hand: the scoring functions read a hand only through its
        # face counts, or (jokers, extra bonuses) through all_equal and hand[0] of an all-equal hand.
        hand = tuple(sorted(dice))
        key = (hand, first_throw)
        if key not in self._score:
            rules, card = self.rules, self.card
            usable = scoring.usable_slots(rules, card, dice, first_throw)
            assert usable, f"no usable slot for {dice} on {card}"
            options = []
            for slot in usable:
                points = scoring.slot_points(rules, card, slot, dice, first_throw)
                bonus = int(scoring.extra_bonus_due(rules, card, slot, dice))
                new = scoring.write(rules, card, slot, points)
                gained = scoring.total(rules, new, bonus) - self.total_now
                options.append(gained + self.o.turn_start(new, self.turns + 1))
            self._score[key] = best(options)
        return self._score[key]


def mean(values: list[Fraction]) -> Fraction:
    """The exact mean of equally likely values (summed over a common denominator)."""
    common = math.lcm(*(v.denominator for v in values))
    return Fraction(sum(v.numerator * (common // v.denominator) for v in values), common * len(values))


def best(values: list[Fraction]) -> Fraction:
    """The exact maximum (cross-multiplied integers; denominators are positive)."""
    top = values[0]
    for v in values[1:]:
        if v.numerator * top.denominator > top.numerator * v.denominator:
            top = v
    return top
