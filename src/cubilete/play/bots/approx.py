"""Approximate play for rules too large to solve exactly (Maxi Yatzy, the 4-column sheet):
an exact search over the turn, with an estimate of what the rest of the game is worth.

The estimate of the future is ``cubilete.solver.approx.estimate`` (simple on purpose: each open box
worth a turn spent on it alone, plus a share of the upper bonus).

Throws carried over from earlier turns (Maxi Yatzy) are searched as part of this turn's
allowance; keeping throws for later turns is not valued. Locked holds restrict the keeps
of the current throw only. Tie-break rounds are searched exactly for the best hand.

"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from cubilete.engine.actions import Action, Roll
from cubilete.engine.game import Game, tiebreak_value
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.base import Analysis, action_for, check_playable, held_faces, in_play
from cubilete.solver.advisor import Option
from cubilete.solver.approx.columns import column_values
from cubilete.solver.approx.estimate import approx_future, sub_keep_best
from cubilete.solver.approx.turn_search import hand_values, next_keep_values
from cubilete.solver.combinatorics import FloatArray, dice_tables

APPROX_NOTE = (
    "approximate: {rules} is too large to solve exactly; one-turn search with an estimated value of the "
    "future (each open box worth a turn spent on it alone, plus a share of the upper bonus)"
)
COLUMNS_NOTE = (
    "approximate: {rules} is too large to solve exactly; one-turn search with the rest of the sheet valued as "
    "the sum of its columns, each solved exactly on its own"
)
TIEBREAK_NOTE = "tie-break hand: expected value of the best hand, searched exactly over the throws left"

Card = tuple[int | None, ...]


class _Planner:
    """The values of one turn of one sheet: scoring each hand now, and keeping dice."""

    def __init__(self, rules: Rules, card: Card, extras: int, turns_after: int) -> None:
        self.rules, self.card, self.extras, self.turns_after = rules, card, extras, turns_after
        self.tables = dice_tables(rules.dice)
        self._memo: dict[tuple[int, int, int], float] = {}
        self._keeps: dict[int, FloatArray] = {}
        self.columns = column_values(rules)
        hands = self.tables.keeps[: self.tables.n_hands]
        self.stop = np.array([max(self.score_value(j, h, False) for j in self.usable(h, False)) for h in hands])

    def usable(self, hand: Sequence[int], first: bool) -> list[int]:
        """The slots this hand may be written in."""
        return scoring.usable_slots(self.rules, self.card, hand, first)

    def score_value(self, slot: int, hand: Sequence[int], first: bool) -> float:
        """Total after writing the hand in ``slot``, plus the estimated future."""
        rules, card = self.rules, self.card
        points = scoring.slot_points(rules, card, slot, hand, first)
        extra = int(scoring.extra_bonus_due(rules, card, slot, hand))
        key = (slot, points, extra)
        if key not in self._memo:
            after = scoring.write(rules, card, slot, points)
            total = scoring.total(rules, after, self.extras + extra)
            future = self.columns.future(after) if self.columns else approx_future(rules, after, self.turns_after)
            self._memo[key] = total + future
        return self._memo[key]

    def keep_values(self, throws_left: int) -> FloatArray:
        """Value of every keep when ``throws_left`` throws remain."""
        if throws_left not in self._keeps:
            self._keeps[throws_left] = next_keep_values(self.tables, self.stop, throws_left)
        return self._keeps[throws_left]


@lru_cache(maxsize=64)
def _planner(rules: Rules, card: Card, extras: int, turns_after: int) -> _Planner:
    return _Planner(rules, card, extras, turns_after)


def sub_keeps(hand: Sequence[int], must: Sequence[int] = ()) -> list[tuple[int, ...]]:
    """Distinct proper sub-multisets of the hand that contain ``must``, largest first.

    >>> sub_keeps((2, 2, 5))
    [(2, 2), (2, 5), (2,), (5,), ()]
    """
    rest = sorted(hand)
    for f in must:
        rest.remove(f)
    seen: set[tuple[int, ...]] = set()
    for size in range(len(rest)):
        for extra in itertools.combinations(rest, size):
            seen.add(tuple(sorted((*must, *extra))))
    return sorted(seen, key=lambda k: (-len(k), k))


def _ranked(options: list[Option], exact: bool, note: str) -> Analysis:
    options.sort(key=lambda o: -o.expected)
    best = options[0].expected
    return Analysis(
        [Option(o.kind, o.expected, best - o.expected, o.slot, o.points, o.keep) for o in options], exact, note
    )


def approx_options(game: Game) -> Analysis:
    """Every option of the current decision (a throw has been made), valued approximately."""
    seat, turn = game.seat(), game.state.turn
    return approx_situation(
        game.rules, seat.card, turn.dice, turn.throws, turn.allowance, seat.extra_bonuses, held_faces(game),
        turns_taken=seat.turns_taken,
    )  # fmt: skip


def approx_situation(
    rules: Rules,
    card: Sequence[int | None],
    dice: Sequence[int],
    throws: int,
    allowance: int,
    extras: int = 0,
    must: Sequence[int] = (),
    turns_taken: int | None = None,
) -> Analysis:
    """The options after throw ``throws`` of ``allowance`` with ``dice`` on ``card``, valued approximately
    (``must``: faces a locked hold keeps; ``turns_taken`` defaults to the boxes written, one a turn)."""
    taken = sum(v is not None for v in card) if turns_taken is None else turns_taken
    plan = _planner(rules, tuple(card), extras, rules.turns - taken - 1)
    first = throws == 1
    options = [
        Option(
            "score",
            plan.score_value(j, dice, first),
            0.0,
            slot=rules.slots[j],
            points=scoring.slot_points(rules, card, j, dice, first),
        )
        for j in plan.usable(dice, first)
    ]
    if throws < allowance:
        values = plan.keep_values(allowance - throws)
        for keep in sub_keeps(dice, must):
            options.append(Option("keep", float(values[plan.tables.index(keep)]), 0.0, keep=keep))
    return _ranked(options, False, approx_note(rules))


def approx_note(rules: Rules) -> str:
    """What the approximate search assumes for these rules."""
    return (COLUMNS_NOTE if column_values(rules) else APPROX_NOTE).format(rules=rules.name)


def turn_start_value(game: Game) -> float:
    """Approximate expected final score at the start of a turn, before the first throw."""
    rules, seat, turn = game.rules, game.seat(), game.state.turn
    plan = _planner(rules, seat.card, seat.extra_bonuses, rules.turns - seat.turns_taken - 1)
    hands = plan.tables.keeps[: plan.tables.n_hands]
    first = np.array([max(plan.score_value(j, h, True) for j in plan.usable(h, True)) for h in hands])
    if turn.allowance > 1:
        first = np.maximum(first, sub_keep_best(rules, hand_values(plan.tables, plan.stop, turn.allowance - 2)))
    return float(plan.tables.first_roll @ first)


@lru_cache(maxsize=16)
def _tiebreak_stop(rules: Rules) -> FloatArray:
    tables = dice_tables(rules.dice)
    return np.array([float(tiebreak_value(rules, h, False)) for h in tables.keeps[: tables.n_hands]])


def tiebreak_options(game: Game) -> Analysis:
    """A tie-break decision (a throw has been made): stand, or keep dice, valued by the expected hand."""
    turn = game.state.turn
    return tiebreak_hand_options(game.rules, turn.dice, turn.throws, turn.allowance, held_faces(game))


def tiebreak_hand_options(
    rules: Rules, dice: Sequence[int], throws: int, allowance: int, held: Sequence[int] = ()
) -> Analysis:
    """:func:`tiebreak_options` for a hand after throw ``throws`` of ``allowance`` (no game needed)."""
    tables = dice_tables(rules.dice)
    options = [Option("stand", float(tiebreak_value(rules, dice, throws == 1)), 0.0)]
    if throws < allowance:
        values = next_keep_values(tables, _tiebreak_stop(rules), allowance - throws)
        for keep in sub_keeps(dice, held):
            options.append(Option("keep", float(values[tables.index(keep)]), 0.0, keep=keep))
    return _ranked(options, True, TIEBREAK_NOTE)


def forced_move(game: Game) -> Action | None:
    """The move a bot makes without its own judgement: the first throw of a turn, and the best
    hand of a tie-break round; None when the bot has a real decision to make."""
    check_playable(game)
    if game.state.turn.throws == 0:
        return Roll()
    if not in_play(game):
        return action_for(game, tiebreak_options(game)[0])
    return None
