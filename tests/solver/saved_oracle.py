"""A brute-force expectimax in float64 for games WITH saved throws and no cap on them: the
correctness oracle of :mod:`cubilete.solver.maxi.saved`.

Written from the rules and the game engine's turn structure, not from the solver: the state is the
real scorecard (points per slot, no upper-total abstraction), the number of turns taken and the
throws saved (any number). As in :class:`cubilete.Game`, a turn has ``rules.throws + saved`` throws;
the first throws every die; after a throw the player scores (the throws not made are saved for the
next turn) or keeps a sub-multiset of the dice and throws the others. Throw outcomes come from a
dense keep -> hand matrix built by enumerating ORDERED outcomes (6**m of them), not from the
solver's one-die recursion. The rule knowledge used is :mod:`cubilete.engine.rules.scoring`.
"""

from __future__ import annotations

import itertools

import numpy as np

from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules

Card = tuple[int | None, ...]
State = tuple[Card, int, int]  # (card, turns taken, throws saved)


class SavedOracle:
    """Optimal values of every turn-start state reachable from the empty sheet, saved throws uncapped."""

    def __init__(self, rules: Rules) -> None:
        if not rules.carry_over_throws:
            raise ValueError("this oracle is for rules with saved throws")
        self.rules = rules
        n = rules.dice
        self.hands = sorted(set(itertools.combinations_with_replacement(range(1, 7), n)))
        self.keeps = [
            k for size in range(n) for k in sorted(set(itertools.combinations_with_replacement(range(1, 7), size)))
        ]
        hand_index = {h: i for i, h in enumerate(self.hands)}
        keep_index = {k: i for i, k in enumerate(self.keeps)}
        self.P = np.zeros((len(self.keeps), len(self.hands)))
        for ki, keep in enumerate(self.keeps):
            m = n - len(keep)
            for roll in itertools.product(range(1, 7), repeat=m):
                self.P[ki, hand_index[tuple(sorted(keep + roll))]] += 6.0**-m
        subs = []
        for hand in self.hands:
            found = {tuple(hand[p] for p in pos) for size in range(n) for pos in itertools.combinations(range(n), size)}
            subs.append(sorted(keep_index[k] for k in found))
        width = max(len(s) for s in subs)
        self.sub = np.array([s + [s[0]] * (width - len(s)) for s in subs], dtype=np.int64)  # padded with a repeat
        self.first = self.P[keep_index[()]]
        self.values: dict[State, float] = {}
        self._writes: dict[tuple[Card, int], list[tuple[float, Card]]] = {}

    @property
    def empty(self) -> Card:
        """The empty sheet."""
        return (None,) * len(self.rules.slots)

    def expected_score(self) -> float:
        """The optimal expected final total of a whole game (no throw saved at the start)."""
        return scoring.total(self.rules, self.empty) + self.turn_start(self.empty, 0, 0)

    def finished(self, card: Card, turns: int) -> bool:
        """True once the player has no turn left (as in :meth:`cubilete.Game._done`)."""
        return turns >= self.rules.turns or all(v is not None for v in card)

    def writes(self, card: Card, h: int) -> list[tuple[float, Card]]:
        """(points gained, card after) of every box hand ``h`` may be written in."""
        key = (card, h)
        if key not in self._writes:
            rules, dice = self.rules, self.hands[h]
            now = scoring.total(rules, list(card))
            out = []
            for slot in scoring.usable_slots(rules, card, dice, False):
                new = tuple(scoring.write(rules, card, slot, scoring.slot_points(rules, card, slot, dice, False)))
                out.append((float(scoring.total(rules, list(new)) - now), new))
            self._writes[key] = out
        return self._writes[key]

    def turn_start(self, card: Card, turns: int, saved: int) -> float:
        """Expected points still to come before the first throw of a turn with ``saved`` throws saved."""
        key = (card, turns, saved)
        if key in self.values:
            return self.values[key]
        if self.finished(card, turns):
            self.values[key] = 0.0
            return 0.0
        left_after_first = self.rules.throws + saved - 1
        E = np.empty(0)
        for r in range(left_after_first + 1):  # r: throws left after the current one
            S = np.array([
                max(g + self.turn_start(new, turns + 1, r) for g, new in self.writes(card, h))
                for h in range(len(self.hands))
            ])  # fmt: skip
            if r == 0:
                E = S
            else:
                keep_values = self.P @ E  # keep and throw the others: r - 1 throws left after it
                E = np.maximum(S, keep_values[self.sub].max(axis=1))
        value = float(self.first @ E)
        self.values[key] = value
        return value
