"""The heuristic bot: plausible play of a casual human.

* It scores at once an all-equal hand in its box, a made combination of fixed value (a
  straight, a full, a póker ...) and a made shape (straight, full, two pairs, villa ...)
  worth at least what its box is usually worth, unless a longer straight is still open
  and throws are left.
* Otherwise, with throws left, it chases: a straight or a shape one die short, made of
  pairs or more (two pairs toward a full; the most valuable such box), else its most
  common face (the higher on ties) when that face's box or some n-of-a-kind box is open;
  with nothing to chase it keeps its highest die.
* When it scores it weighs points against what each box is usually worth (a turn spent
  on that box alone) and, with an upper bonus, against the par of upper boxes (three of
  each face for 63); when nothing pays, or the best it can write is more than 10 points
  below that box's usual worth, it scratches the least valuable box.
"""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Kind, Points, Rules
from cubilete.play.bots.approx import forced_move
from cubilete.play.bots.base import Analysis, bot_seed, check_playable
from cubilete.play.bots.patterns import target
from cubilete.solver.approx.estimate import slot_estimates

SCRATCH_MARGIN = 10.0  # scratch rather than write points this far below the box's usual worth


def _value(rules: Rules, slot: int) -> float:
    """What a box is usually worth: the par of an upper box under a bonus, else a turn spent on it."""
    box = rules.slot_box(slot)
    if box.is_upper and rules.upper_bonus > 0 and rules.upper_bonus_threshold > 0:
        return rules.upper_bonus_threshold * box.face / 21
    return slot_estimates(rules)[slot]


def _is_combo(rules: Rules, slot: int) -> bool:
    box = rules.slot_box(slot)
    return box.kind in (Kind.STRAIGHT, Kind.GROUPS) and box.points is Points.FIXED


def _is_shape(rules: Rules, slot: int) -> bool:
    """A straight, or groups of several sizes (full, two pairs, villa, tower)."""
    box = rules.slot_box(slot)
    return box.kind is Kind.STRAIGHT or (box.kind is Kind.GROUPS and len(box.groups) >= 2)


def _shape_size(rules: Rules, slot: int) -> int:
    box = rules.slot_box(slot)
    return _straight_len(rules, slot) if box.kind is Kind.STRAIGHT else sum(box.groups)


def _straight_len(rules: Rules, slot: int) -> int:
    box = rules.slot_box(slot)
    return max(len(p) for p in box.patterns) if box.kind is Kind.STRAIGHT else 0


class HeuristicBot:
    """Human-like rules of thumb: chase pairs, trips, straights and fulls; scratch the least valuable box."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed!r})"

    def analyse(self, game: Game) -> Analysis:
        """The heuristic bot ranks nothing beyond its rules of thumb."""
        check_playable(game)
        return Analysis(note="the heuristic bot does not rank options")

    def choose(self, game: Game) -> Action:
        """Score a made combination, else chase one, else score where the points beat the box's usual worth."""
        forced = forced_move(game)
        if forced is not None:
            return forced
        turn = game.state.turn
        rules, card, dice = game.rules, game.seat().card, turn.dice
        usable = scoring.usable_slots(rules, card, dice, turn.first_throw)
        points = {j: scoring.slot_points(rules, card, j, dice, turn.first_throw) for j in usable}
        throws_left = turn.throws < turn.allowance
        made = self._made(rules, usable, points, throws_left)
        if made is not None:
            return Score(rules.slots[made])
        if throws_left:
            keep = self._chase(rules, usable, dice)
            if rules.locked_holds:
                keep = tuple(sorted(set(keep) | set(turn.held)))
            if len(keep) < rules.dice:
                return Roll(keep)
        return Score(rules.slots[self._where(rules, usable, points)])

    def _made(self, rules: Rules, usable: list[int], points: dict[int, int], throws_left: bool) -> int | None:
        longest_open = max((_straight_len(rules, j) for j in usable), default=0)
        for j in sorted(usable, key=lambda j: -points[j]):
            box = rules.slot_box(j)
            if points[j] <= 0:
                continue
            if box.kind is Kind.GROUPS and box.groups == (rules.dice,):
                return j
            if not (_is_combo(rules, j) or _is_shape(rules, j)):
                continue
            if box.kind is Kind.STRAIGHT and throws_left and _straight_len(rules, j) < longest_open:
                continue
            if box.points is Points.FIXED or points[j] >= _value(rules, j):
                return j
        return None

    def _chase(self, rules: Rules, usable: list[int], dice: Sequence[int]) -> tuple[int, ...]:
        counts = scoring.face_counts(dice)
        close: list[tuple[float, tuple[int, ...]]] = []  # a straight or a full-like shape one die short
        for j in usable:
            if _is_shape(rules, j):
                keep, share = target(rules.slot_box(j), dice)
                kept = [dice[p] for p in keep]
                pairs_only = rules.slot_box(j).kind is Kind.STRAIGHT or all(kept.count(f) >= 2 for f in kept)
                if share < 1 and len(keep) >= _shape_size(rules, j) - 1 and pairs_only:
                    close.append((_value(rules, j), keep))
        if close:
            return max(close)[1]
        face = max(range(1, 7), key=lambda f: (counts[f], f))
        kinds = [j for j in usable if rules.slot_box(j).kind is Kind.GROUPS and len(rules.slot_box(j).groups) == 1]
        uppers = {rules.slot_box(j).face for j in usable if rules.slot_box(j).is_upper}
        if counts[face] >= 2 and (face in uppers or kinds):
            return tuple(p for p in range(len(dice)) if dice[p] == face)
        high = [f for f in range(6, 0, -1) if counts[f] and f in uppers]
        return tuple(p for p in range(len(dice)) if high and dice[p] == high[0])[:1]

    def _where(self, rules: Rules, usable: list[int], points: dict[int, int]) -> int:
        paying = [j for j in usable if points[j] > 0]
        scratch = min(usable, key=lambda j: _value(rules, j))
        if not paying:
            return scratch
        best = max(paying, key=lambda j: (points[j] - _value(rules, j), points[j]))
        if points[best] - _value(rules, best) < -SCRATCH_MARGIN and points[scratch] == 0:
            return scratch
        return best
