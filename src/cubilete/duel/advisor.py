"""Every option of a heads-up situation with its probability of winning under optimal play by
both players from there on (the two-player table of :mod:`cubilete.duel.solve`).

An :class:`~cubilete.solver.advisor.Option`'s ``expected`` is here P(the player to move wins),
and ``loss`` the probability given away against the best option.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cubilete.duel.kernels import row_widget
from cubilete.duel.solve import DuelSolution
from cubilete.duel.tiebreak import BoolArray, instant_hands
from cubilete.engine.errors import IllegalActionError
from cubilete.engine.rules import scoring
from cubilete.solver.advisor import Option, keeps_holding

Card = Sequence[int | None]


def sheet_number(solution: DuelSolution, card: Card) -> int:
    """The joint space's number of a real card's sheet."""
    joint = solution.joint
    sp = joint.space
    if len(card) != sp.n_slots:
        raise IllegalActionError(f"a {sp.rules.name} card has {sp.n_slots} slots, not {len(card)}")
    mask = sum(1 << j for j, v in enumerate(card) if v is not None)
    fl = sum(1 << int(sp.flag_bit[j]) for j, v in enumerate(card) if v and sp.flag_bit[j] >= 0)
    upper = sum(v or 0 for j, v in enumerate(card) if sp.is_upper[j])
    u = min(upper, sp.n_upper - 1) if sp.n_upper > 1 else 0
    return int(joint.sheet_id[mask, fl, u])


def tiebreak_inputs(solution: DuelSolution, first: Card, second: Card) -> tuple[float, BoolArray, BoolArray]:
    """(P(the first player wins the rounds), each player's instant-win hands) for these final sheets."""
    w = solution.tiebreak_between(sheet_number(solution, first), sheet_number(solution, second))
    return w, instant_hands(solution.rules, first), instant_hands(solution.rules, second)


def after_move(
    solution: DuelSolution, mover_first: bool, card: Card, other: Card, lead: int, turns_done: tuple[bool, bool]
) -> float:
    """P(mover wins) once the mover's turn has ended with ``card`` and lead ``lead`` (mover minus other).

    ``turns_done`` says whether (mover, other) have no turn left.
    """
    s, o = sheet_number(solution, card), sheet_number(solution, other)
    me_done, other_done = turns_done
    if not other_done:
        return 1.0 - solution.win_probability(not mover_first, o, s, -lead)
    if not me_done:
        return solution.win_probability(mover_first, s, o, lead)
    if lead != 0:
        return 1.0 if lead > 0 else 0.0
    if mover_first:  # the tie-break by both final sheets (a scratched instant-win box cannot win at once)
        return solution.tiebreak_between(s, o)
    return 1.0 - solution.tiebreak_between(o, s)


def _keep_values(solution: DuelSolution, row: int) -> np.ndarray:
    """Ks[t, keep, lead index] of one row (the mover's turn over the row's window)."""
    T, D = solution.tables, solution.duel_tables
    joint = solution.joint
    width = int(joint.row_off[row + 1] - joint.row_off[row])
    d = joint.space.dice
    S1, S23, E = (np.empty((d.n_hands, width)) for _ in range(3))
    Ks = np.zeros((joint.rules.throws + 1, d.n_keeps, width))
    M = np.empty((d.n_keeps, width))
    row_widget(T, D, np.asarray(solution.values), 0, row, S1, S23, E, Ks, M)
    return Ks


def duel_advise(
    solution: DuelSolution,
    mover_first: bool,
    card: Card,
    other: Card,
    extras: tuple[int, int],
    dice: Sequence[int],
    throw: int,
    other_turns_left: bool = True,
    held: Sequence[int] = (),
) -> list[Option]:
    """Every distinct option after throw ``throw`` with ``dice`` on the table, best first.

    ``extras`` are the extra bonuses of (mover, other); ``other_turns_left`` is False once the
    other player has finished; ``held`` are faces that must stay kept (locked holds).
    """
    rules = solution.rules
    hand = tuple(sorted(dice))
    if len(hand) != rules.dice or any(not 1 <= f <= 6 for f in hand):
        raise IllegalActionError(f"{rules.name} uses {rules.dice} dice with faces 1 to 6")
    if not 1 <= throw <= rules.throws:
        raise IllegalActionError(f"throw must be 1 to {rules.throws}, not {throw}")
    lead = scoring.total(rules, card, extras[0]) - scoring.total(rules, other, extras[1])
    s, o = sheet_number(solution, card), sheet_number(solution, other)
    first = throw == 1
    scored: list[tuple[float, Option]] = []
    for j in scoring.usable_slots(rules, card, hand, first):
        points = scoring.slot_points(rules, card, j, hand, first)
        after = scoring.write(rules, card, j, points)
        bonus = int(scoring.extra_bonus_due(rules, card, j, hand))
        gain = scoring.total(rules, after, extras[0] + bonus) - scoring.total(rules, card, extras[0])
        closed = sum(v is not None for v in after)
        me_done = closed >= solution.joint.space.rounds
        value = after_move(solution, mover_first, after, other, lead + gain, (me_done, not other_turns_left))
        scored.append((value, Option("score", value, 0.0, slot=rules.slots[j], points=points)))
    if throw < rules.throws:
        row = solution.joint.row_of(mover_first, s, o)
        if row < 0:
            raise IllegalActionError("that heads-up position cannot occur (the sheets do not fit the turn order)")
        Ks = _keep_values(solution, row)
        i = solution.joint.lead_index(row, lead)
        must = tuple(sorted(held)) if rules.locked_holds else ()
        for keep in keeps_holding(hand, must):
            value = float(Ks[throw + 1, solution.joint.space.dice.index(keep), i])
            scored.append((value, Option("keep", value, 0.0, keep=keep)))
    scored.sort(key=lambda o: -o[0])
    best = scored[0][0]
    return [Option(o.kind, o.expected, best - o.expected, o.slot, o.points, o.keep) for _, o in scored]
