"""The coach's review of a game typed on the real-dice score sheet (:mod:`cubilete.play.scorekeeper`).

A sheet records only what the table saw: each turn's final dice, the throw on which the player stopped, and the
box written. The scorekeeper invents the earlier throws so the engine can replay the game; those keeps never
happened, so they are never judged here (a review of ``Scorekeeper.game`` would judge them). Each typed entry is
judged against every option open at that point, by the exact advisor (:func:`cubilete.play.coach.advise_hand`,
as :meth:`Scorekeeper.suggest` asks it): every box the dice may go in and, on a throw below the limit, keeping
some dice and throwing again (the player chose to stop). Entries that won the game at once and tie-break hands
decide nothing the score depends on and are left out. Rules the solver cannot solve exactly get no review.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cubilete.play.coach import EPSILON, advise_hand, is_solvable
from cubilete.play.scorekeeper import Scorekeeper

EVERY_OPTION = 10_000  # advise_hand's ``top``: every option (a hand has a few dozen at most)


@dataclass(frozen=True)
class TypedDecision:
    """One typed entry, judged: the dice, the throw the player stopped on, the box written and the best option."""

    seat: int
    player: str
    turn: int  # the player's turn number, 1-based
    dice: tuple[int, ...]  # the typed dice, sorted (the order they were typed in means nothing)
    throw: int  # the throw the player stopped on (1: servida where the rules have it)
    slot: str  # the box written
    points: int  # the points written in it (bonuses not included)
    written: str  # the box written, in words ("score Unos (1)", "scratch Generala")
    best: str  # the best option, in words
    best_kind: str  # "score" or "keep"
    best_slot: str | None  # the best option's box (score)
    best_keep: tuple[int, ...]  # the faces the best option keeps (keep), sorted
    loss: float  # expected final points lost against the best option (>= 0)


@dataclass(frozen=True)
class SheetReview:
    """Every judged entry, the points each player lost, and each player's three worst entries."""

    decisions: list[TypedDecision]
    total_loss: dict[str, float]
    worst: dict[str, list[TypedDecision]]  # up to 3 per player, worst first; only entries that lost points


def reviewable(keeper: Scorekeeper) -> bool:
    """True if the solver solves the sheet's rules exactly (else there is no review)."""
    return is_solvable(keeper.rules)


def judge_entry(keeper: Scorekeeper, dice: Sequence[int], throw: int, slot: str) -> TypedDecision | None:
    """The entry the current player is about to write (call it before :meth:`Scorekeeper.enter`), judged; None
    when there is nothing to judge: a tie-break hand, a hand that wins at once, or throws beyond the solver's."""
    rules = keeper.rules
    if keeper.starting or keeper.tiebreak or keeper.is_over or throw > rules.throws:
        return None
    if keeper.wins_at_once(dice, throw):  # the game ends before any box is written: no choice was made
        return None
    seat = keeper.current
    faces = tuple(dice)
    # held dice do not bind a box choice, and a sheet never knows which dice were held: none are passed
    options = advise_hand(rules, keeper.cards[seat], faces, throw, keeper.extra_bonuses[seat], (), EVERY_OPTION)
    chosen = next((o for o in options if o.kind == "score" and o.slot == slot), None)
    if not options or chosen is None:
        return None
    best = options[0]
    return TypedDecision(
        seat=seat,
        player=keeper.players[seat],
        turn=keeper.round,
        dice=tuple(sorted(faces)),
        throw=throw,
        slot=slot,
        points=chosen.points,
        written=chosen.describe(rules),
        best=best.describe(rules),
        best_kind=best.kind,
        best_slot=best.slot,
        best_keep=best.keep_faces,
        loss=max(0.0, best.expected - chosen.expected),
    )


def summarise(decisions: list[TypedDecision], players: Sequence[str]) -> SheetReview:
    """The points each player lost over their judged entries, and their three worst."""
    total = {p: 0.0 for p in players}
    for d in decisions:
        total[d.player] += d.loss
    worst = {p: sorted((d for d in decisions if d.player == p and d.loss > EPSILON), key=lambda d: -d.loss)[:3]
             for p in players}
    return SheetReview(decisions, total, worst)
