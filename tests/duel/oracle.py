"""A brute-force expectimax over the joint two-player game in exact fractions: the oracle for
:mod:`cubilete.duel`.

Written from the rules and the engine, not from the duel solver: ORDERED dice (a throw of m
dice has 6**m equally likely outcomes), holds are sets of dice POSITIONS, and the state holds
both real scorecards, turns taken and extra bonuses. Rule knowledge used: the scoring
functions (:mod:`cubilete.engine.rules.scoring`) and the engine's flow (:mod:`cubilete.engine.game`): the
player to move after a score is the other one unless done (then the same, unless done too:
the end), a player is done after ``rules.turns`` turns or with every slot closed, an instant
win is checked on the first throw of a turn (``scoring.instant_win``), and at the end the
higher total wins; a tie is shared (1/2) or goes to tie-break rounds: the tied players, the
first player first, play one hand each worth :func:`cubilete.engine.game.tiebreak_value`, the
higher wins, equal hands play again; as in ``Game._roll``, the first throw of a tie-break hand that
``scoring.instant_win`` says wins for that player's final card ends the game at once (seed 000: "en
cualquier tiro se gana la partida"; a scratched Generala does not).

Values are P(first player wins). The tie-break's value W solves W = f(W); it is found
exactly by carrying affine forms ``a + b W`` through a round whose choices are made at a
guess of W, solving ``W = a + b W`` and repeating until the guess is the solution (then the
choices are optimal at W itself, so f(W) = W).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from tests.solver.oracle import best, mean

from cubilete.engine.game import tiebreak_value
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules, TieBreak

Card = tuple[int | None, ...]
Dice = tuple[int, ...]
Positions = tuple[int, ...]
Affine = tuple[Fraction, Fraction]
# (cards, turns taken, extra bonuses, player to move): index 0 is the first player
Position = tuple[tuple[Card, Card], tuple[int, int], tuple[int, int], int]


class _Dice:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.dice
        self.outcomes = {m: list(itertools.product(range(1, 7), repeat=m)) for m in range(self.n + 1)}
        self._keeps: dict[Positions, list[Positions]] = {}

    def keeps(self, held: Positions) -> list[Positions]:
        if held not in self._keeps:
            every = [k for size in range(self.n) for k in itertools.combinations(range(self.n), size)]
            if self.rules.locked_holds:
                every = [k for k in every if set(held) <= set(k)]
            self._keeps[held] = every
        return self._keeps[held]

    def throw(self, dice: Dice, keep: Positions, face_down: bool = False) -> list[Dice]:
        """Every equally likely outcome; ``face_down``: Bozó's "em baixo", each thrown die read as 7 - f."""
        kept = [dice[p] for p in keep]
        out = []
        for faces in self.outcomes[self.n - len(keep)]:
            new = [7 - f for f in faces] if face_down else list(faces)
            for p, d in zip(keep, kept, strict=True):
                new.insert(p, d)
            out.append(tuple(new))
        return out


def _turn(
    dice: _Dice,
    worth: dict[tuple[Dice, bool], object],
    pick: object,
    average: object,
    ends: frozenset[Dice] = frozenset(),
) -> object:
    """Expectimax over one turn: ``worth[(dice, first_throw)]`` is the value of stopping with those dice;
    a first throw in ``ends`` ends the game at once (no choice: its worth)."""
    rules = dice.rules
    after_memo: dict[tuple[int, Dice, Positions], object] = {}
    calls = (False, True) if rules.face_down_call else (False,)  # every throw may be called "em baixo"

    def after(throw: int, hand: Dice, held: Positions) -> object:
        key = (throw, hand, held if rules.locked_holds else ())
        if throw == 1 and hand in ends:
            return worth[(hand, True)]
        if key not in after_memo:
            options = [worth[(hand, throw == 1)]]
            if throw < rules.throws:
                for keep in dice.keeps(held):
                    nxt = keep if rules.locked_holds else ()
                    for down in calls:
                        thrown = dice.throw(hand, keep, down)
                        options.append(average([after(throw + 1, h, nxt) for h in thrown]))  # type: ignore[operator]
            after_memo[key] = pick(options)  # type: ignore[operator]
        return after_memo[key]

    return pick([average([after(1, h, ()) for h in dice.throw((0,) * dice.n, (), down)]) for down in calls])  # type: ignore[operator]


def tiebreak_first_wins(rules: Rules, first_card: Card | None = None, second_card: Card | None = None) -> Fraction:
    """Exact P(first player wins the tie-break rounds) under optimal play by both, the players' final
    cards given (None: an empty card, every instant-win box live)."""
    dice = _Dice(rules)
    empty: Card = (None,) * len(rules.slots)
    first_ends = frozenset(h for h in dice.outcomes[dice.n] if scoring.instant_win(rules, first_card or empty, h))
    second_ends = frozenset(h for h in dice.outcomes[dice.n] if scoring.instant_win(rules, second_card or empty, h))
    hands = [(h, f) for h in dice.outcomes[dice.n] for f in (True, False)]
    value = {(h, f): tiebreak_value(rules, h, f) for h, f in hands}
    guess = Fraction(1, 2)

    def at(a: Affine, w: Fraction) -> Fraction:
        return a[0] + a[1] * w

    def avg(xs: list[Affine]) -> Affine:
        return (mean([x[0] for x in xs]), mean([x[1] for x in xs]))

    for _ in range(50):
        w = guess

        def high(xs: list[Affine], w: Fraction = w) -> Affine:
            return max(xs, key=lambda x: at(x, w))

        def low(xs: list[Affine], w: Fraction = w) -> Affine:
            return min(xs, key=lambda x: at(x, w))

        second: dict[int, Affine] = {}
        for a in sorted(set(value.values())):
            # P(first wins) once the second player's hand is worth v against the first's a
            win, tie, lose = (Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (Fraction(0), Fraction(0))
            worth_b = {k: win if v < a else (tie if v == a else lose) for k, v in value.items()}
            worth_b.update({(h, True): lose for h in second_ends})  # the second player wins at once
            second[a] = _turn(dice, worth_b, low, avg, second_ends)  # type: ignore[assignment]
        worth_a = {k: second[v] for k, v in value.items()}
        worth_a.update({(h, True): (Fraction(1), Fraction(0)) for h in first_ends})  # the first wins at once
        alpha, beta = _turn(dice, worth_a, high, avg, first_ends)  # type: ignore[misc]
        solution = alpha / (1 - beta)
        if solution == guess:
            return solution
        guess = solution
    raise AssertionError("tie-break policy iteration did not settle")


class JointOracle:
    """Exact P(first player wins) of every turn-start position reachable from the start."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.dice = _Dice(rules)
        self.tie = Fraction(1, 2) if rules.tie_break is TieBreak.SHARED else tiebreak_first_wins(rules)
        self.ties: dict[tuple[frozenset[Dice], frozenset[Dice]], Fraction] = {}  # by the players' instant wins
        self.values: dict[Position, Fraction] = {}

    def start(self) -> Fraction:
        """P(first player wins) from the empty sheets."""
        empty: Card = (None,) * len(self.rules.slots)
        return self.position(((empty, empty), (0, 0), (0, 0), 0))

    def done(self, card: Card, turns: int) -> bool:
        """As :meth:`cubilete.engine.game.Game._done`."""
        return turns >= self.rules.turns or all(v is not None for v in card)

    def position(self, pos: Position) -> Fraction:
        """P(first player wins) at the start of the mover's turn."""
        if pos not in self.values:
            self.values[pos] = self._turn_value(pos)
        return self.values[pos]

    def _end(self, cards: tuple[Card, Card], extras: tuple[int, int]) -> Fraction:
        t0 = scoring.total(self.rules, cards[0], extras[0])
        t1 = scoring.total(self.rules, cards[1], extras[1])
        if t0 != t1:
            return Fraction(1) if t0 > t1 else Fraction(0)
        if self.rules.tie_break is TieBreak.SHARED:
            return Fraction(1, 2)
        # the tie-break depends on the cards only through which first throws win at once for each
        key = tuple(frozenset(h for h in self.dice.outcomes[self.dice.n] if scoring.instant_win(self.rules, c, h))
                    for c in cards)  # fmt: skip
        if key not in self.ties:
            self.ties[key] = tiebreak_first_wins(self.rules, cards[0], cards[1])  # type: ignore[index]
        return self.ties[key]  # type: ignore[index]

    def _after_score(self, pos: Position, hand: Dice, first: bool) -> Fraction:
        rules = self.rules
        cards, turns, extras, me = pos
        card = cards[me]
        options = []
        for slot in scoring.usable_slots(rules, card, hand, first):
            points = scoring.slot_points(rules, card, slot, hand, first)
            bonus = int(scoring.extra_bonus_due(rules, card, slot, hand))
            new_cards = list(cards)
            new_cards[me] = scoring.write(rules, card, slot, points)
            new_turns = list(turns)
            new_turns[me] += 1
            new_extras = list(extras)
            new_extras[me] += bonus
            nc, nt, ne = (new_cards[0], new_cards[1]), (new_turns[0], new_turns[1]), (new_extras[0], new_extras[1])
            other = 1 - me
            if not self.done(nc[other], nt[other]):
                options.append(self.position((nc, nt, ne, other)))
            elif not self.done(nc[me], nt[me]):
                options.append(self.position((nc, nt, ne, me)))
            else:
                options.append(self._end(nc, ne))
        return best(options) if me == 0 else min(options)

    def _turn_value(self, pos: Position) -> Fraction:
        cards, _, _, me = pos
        worth: dict[tuple[Dice, bool], object] = {}
        score_memo: dict[tuple[Dice, bool], Fraction] = {}
        for hand in self.dice.outcomes[self.dice.n]:
            for first in (True, False):
                if first and scoring.instant_win(self.rules, cards[me], hand):
                    worth[(hand, first)] = Fraction(1 - me)
                    continue
                key = (tuple(sorted(hand)), first)
                if key not in score_memo:
                    score_memo[key] = self._after_score(pos, hand, first)
                worth[(hand, first)] = score_memo[key]
        # an instant win happens on the first throw, before any choice: worth[...first] above is that value

        def pick(xs: list[Fraction]) -> Fraction:
            return best(xs) if me == 0 else min(xs)

        return _turn(self.dice, worth, pick, mean)  # type: ignore[return-value]
