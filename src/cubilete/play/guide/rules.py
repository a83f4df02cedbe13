"""The rule language: "if <condition a person can check> then <keep these dice | score this box>".

A guide is an ordered tuple of :class:`Rule`; the first rule whose condition holds gives the move,
and the last rule is always :data:`DEFAULT` so every position has one. A keep rule holds only while
a throw is left, so a keep never hides the scoring rules below it on the last roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Kind, Rules
from cubilete.i18n import _, box_name
from cubilete.play.bots.patterns import slot_maxima, target, usable_maxima


class When(StrEnum):
    """Conditions a person can check at the table."""

    ALWAYS = "always"
    LAST_ROLL = "last-roll"  # no throws left this turn
    FIRST_ROLL = "first-roll"  # every throw of the turn still to come after this one
    PAYS_HALF = "pays-half"  # the box is open and pays at least half its maximum now
    PAYS_FULL = "pays-full"  # the box is open and pays its maximum now
    PAYS_AT_LEAST = "pays-at-least"  # the box is open and pays at least n points now
    OPEN = "open"  # the box is open
    SERVE = "serve"  # the box is open and at least n dice already serve it
    PAIR = "pair"  # (the box is open and) you have a pair or better
    THREE_KIND = "three-kind"  # (the box is open and) you have 3 or more of a kind
    FOUR_KIND = "four-kind"  # (the box is open and) you have 4 or more of a kind
    FOUR_RUN = "four-run"  # (the box is open and) you have 4 in a row
    TWO_PAIRS = "two-pairs"  # (the box is open and) you have two pairs (or a full house)
    ON_PACE = "on-pace"  # (the box is open and) the upper total is at least 3 of each upper face written
    BEHIND_PACE = "behind-pace"  # (...) below that pace, and the upper bonus still in reach
    BONUS_SETTLED = "bonus-settled"  # (...) the upper bonus is already made or out of reach
    OPEN_AT_LEAST = "open-at-least"  # (...) at least n boxes are open (early in the game)
    OPEN_AT_MOST = "open-at-most"  # (...) at most n boxes are open (late in the game)


class Do(StrEnum):
    """Actions in words."""

    SCORE_BOX = "score-box"  # score this box
    SCORE_BEST = "score-best"  # score the box that pays most now (scratch the smallest if none pays)
    KEEP_FOR = "keep-for"  # keep the dice that serve this box, throw the rest
    KEEP_MOST = "keep-most"  # keep the commonest face (the higher on a tie), throw the rest
    KEEP_RUN = "keep-run"  # keep the longest run of consecutive faces, one die each
    KEEP_PAIRS = "keep-pairs"  # keep every pair (the two highest), throw the rest
    KEEP_MOST_OPEN = "keep-most-open"  # keep the commonest face whose upper box is open (else the commonest)


STAGES = (When.ON_PACE, When.BEHIND_PACE, When.BONUS_SETTLED, When.OPEN_AT_LEAST, When.OPEN_AT_MOST)
BONUS_STAGES = (When.ON_PACE, When.BEHIND_PACE, When.BONUS_SETTLED)
PACE = 3  # "3 of each face": the pace the bonus words name

KEEPS = (Do.KEEP_FOR, Do.KEEP_MOST, Do.KEEP_RUN, Do.KEEP_PAIRS, Do.KEEP_MOST_OPEN)


@dataclass(frozen=True)
class Rule:
    """One line of a guide; ``box`` names the slot the condition or action is about (or None);
    ``n`` is the condition's number (points for PAYS_AT_LEAST, dice for SERVE)."""

    when: When
    do: Do
    box: str | None = None
    n: int = 0

    def words(self, rules: Rules) -> str:
        """The rule in plain words, in the current language (the printed guide)."""
        box = box_name(rules, self.box) if self.box is not None else ""
        cond = _condition_words(self.when, self.box is not None)
        if self.when is When.ALWAYS and self.do in KEEPS:  # not "Otherwise": rules below it still count
            cond = _("If you can still throw")
        action = {
            Do.SCORE_BOX: _("score {box}"),
            Do.SCORE_BEST: _("score the box that pays most (if none pays, cross out the smallest)"),
            Do.KEEP_FOR: _("keep the dice for {box} and throw the rest"),
            Do.KEEP_MOST: _("keep your commonest face (the higher on a tie) and throw the rest"),
            Do.KEEP_RUN: _("keep your longest run in a row, one die a face, and throw the rest"),
            Do.KEEP_PAIRS: _("keep your two highest pairs and throw the rest"),
            Do.KEEP_MOST_OPEN: _(
                "keep your commonest face whose upper box is open (the higher on a tie; if none, your commonest "
                "face) and throw the rest"
            ),
        }[self.do]
        return _("{condition}: {action}.").format(
            condition=cond.format(box=box, n=self.n), action=action.format(box=box)
        )


def _condition_words(when: When, about_box: bool) -> str:
    if about_box:
        with_box = {
            When.PAYS_HALF: _("If {box} is open and pays at least half its best"),
            When.PAYS_FULL: _("If {box} is open and pays its best"),
            When.PAYS_AT_LEAST: _("If {box} is open and pays at least {n}"),
            When.OPEN: _("If {box} is open"),
            When.SERVE: _("If {box} is open and at least {n} of your dice serve it"),
            When.PAIR: _("If {box} is open and you have a pair or better"),
            When.THREE_KIND: _("If {box} is open and you have 3 of a kind or better"),
            When.FOUR_KIND: _("If {box} is open and you have 4 of a kind or better"),
            When.FOUR_RUN: _("If {box} is open and you have 4 in a row"),
            When.TWO_PAIRS: _("If {box} is open and you have two pairs"),
            When.ON_PACE: _(
                "If {box} is open and your upper total is at least 3 of each upper face you have written (on pace "
                "for the bonus)"
            ),
            When.BEHIND_PACE: _(
                "If {box} is open and your upper total is below 3 of each upper face you have written, but the "
                "bonus can still be made"
            ),
            When.BONUS_SETTLED: _("If {box} is open and the upper bonus is already made or out of reach"),
            When.OPEN_AT_LEAST: _("If {box} is open and at least {n} boxes are open (this one included)"),
            When.OPEN_AT_MOST: _("If {box} is open and at most {n} boxes are open (this one included)"),
        }
        if when in with_box:
            return with_box[when]
    return {
        When.ALWAYS: _("Otherwise"),
        When.LAST_ROLL: _("On your last roll"),
        When.FIRST_ROLL: _("On your first roll"),
        When.PAIR: _("If you have a pair or better"),
        When.THREE_KIND: _("If you have 3 of a kind or better"),
        When.FOUR_KIND: _("If you have 4 of a kind or better"),
        When.FOUR_RUN: _("If you have 4 in a row"),
        When.TWO_PAIRS: _("If you have two pairs"),
        When.ON_PACE: _(
            "If your upper total is at least 3 of each upper face you have written (on pace for the bonus)"
        ),
        When.BEHIND_PACE: _(
            "If your upper total is below 3 of each upper face you have written, but the bonus can still be made"
        ),
        When.BONUS_SETTLED: _("If the upper bonus is already made or out of reach"),
        When.OPEN_AT_LEAST: _("If at least {n} boxes are open"),
        When.OPEN_AT_MOST: _("If at most {n} boxes are open"),
    }[when]


DEFAULT = Rule(When.ALWAYS, Do.SCORE_BEST)


def most_alike(dice: tuple[int, ...]) -> int:
    """How many dice show the commonest face."""
    return max(dice.count(face) for face in dice)


def longest_run(dice: tuple[int, ...]) -> int:
    """The longest run of consecutive faces among the dice."""
    faces, best, run = sorted(set(dice)), 1, 1
    for low, high in pairwise(faces):
        run = run + 1 if high == low + 1 else 1
        best = max(best, run)
    return best


def pair_faces(dice: tuple[int, ...]) -> list[int]:
    """The faces showing on two or more dice, highest first."""
    return sorted((face for face in set(dice) if dice.count(face) >= 2), reverse=True)


PATTERNS: dict[When, Callable[[tuple[int, ...]], bool]] = {
    When.PAIR: lambda dice: most_alike(dice) >= 2,
    When.THREE_KIND: lambda dice: most_alike(dice) >= 3,
    When.FOUR_KIND: lambda dice: most_alike(dice) >= 4,
    When.FOUR_RUN: lambda dice: longest_run(dice) >= 4,
    When.TWO_PAIRS: lambda dice: len(pair_faces(dice)) >= 2,
}


def has_paced_bonus(rules: Rules) -> bool:
    """Whether the bonus words fit the rules: one column whose upper bonus needs 3 of each upper face."""
    faces = [box.face for box in rules.boxes if box.kind is Kind.UPPER]
    return len(rules.columns) == 1 and rules.upper_bonus > 0 and rules.upper_bonus_threshold == PACE * sum(faces)


def bonus_stage(rules: Rules, card: Sequence[int | None]) -> When | None:
    """ON_PACE, BEHIND_PACE or BONUS_SETTLED for the card (None where the bonus words do not fit the rules).

    On pace: the upper boxes written hold at least 3 of each of their faces (then the bonus is in reach: 3 of
    each face still to write makes it). Settled: the bonus is made, or even 5 of each open face would miss it.
    """
    if not has_paced_bonus(rules):
        return None
    upper = [(rules.slot_box(j).face, filled) for j, filled in enumerate(card) if rules.slot_box(j).kind is Kind.UPPER]
    total = sum(filled or 0 for _, filled in upper)
    best_left = sum(rules.dice * face for face, filled in upper if filled is None)
    if total >= rules.upper_bonus_threshold or total + best_left < rules.upper_bonus_threshold:
        return When.BONUS_SETTLED
    written = sum(face for face, filled in upper if filled is not None)
    return When.ON_PACE if total >= PACE * written else When.BEHIND_PACE


class View:
    """What a person sees at the table, counted once per decision so that many rules check it fast."""

    def __init__(self, game: Game) -> None:
        turn, rules, card = game.state.turn, game.rules, game.seat().card
        usable = scoring.usable_slots(rules, card, turn.dice, turn.first_throw)
        self.rules = rules
        self.dice = turn.dice
        self.throws = turn.throws  # throws made this turn
        self.can_keep = turn.throws < turn.allowance  # a throw is left
        self.usable = frozenset(usable)  # the slots open to score now
        self.points = {j: scoring.slot_points(rules, card, j, turn.dice, turn.first_throw) for j in usable}
        self.best = usable_maxima(rules, card)  # slot -> the most it can pay on this card
        self.shapes = frozenset(when for when, shape in PATTERNS.items() if shape(turn.dice))
        self.stage = bonus_stage(rules, card)
        self.open_boxes = sum(1 for filled in card if filled is None)
        self._serving: dict[int, int] = {}

    def serving(self, slot: int) -> int:
        """How many dice already serve the slot's box (counted when first asked)."""
        if slot not in self._serving:
            self._serving[slot] = len(target(self.rules.slot_box(slot), self.dice)[0])
        return self._serving[slot]


def view(game: Game) -> View:
    """The position as the rules see it (the player whose turn it is)."""
    return View(game)


def holds(rule: Rule, seen: View, slot: int | None) -> bool:
    """Whether the rule's condition holds in the view; ``slot`` is the index of the rule's box."""
    if rule.do in KEEPS and not seen.can_keep:
        return False  # no throw left: nothing to keep for
    if rule.when is When.ALWAYS:
        return True
    if rule.when is When.LAST_ROLL:
        return not seen.can_keep
    if rule.when is When.FIRST_ROLL:
        return seen.throws == 1
    if rule.when in STAGES and not _stage_holds(rule, seen):
        return False
    if slot is None:
        return rule.when in STAGES or rule.when in seen.shapes
    if slot not in seen.usable:
        return False
    if rule.when is When.OPEN or rule.when in STAGES:
        return True
    if rule.when in PATTERNS:
        return rule.when in seen.shapes
    if rule.when is When.SERVE:
        return seen.serving(slot) >= rule.n
    points = seen.points[slot]
    if rule.when is When.PAYS_AT_LEAST:
        return points > 0 and points >= rule.n
    if rule.when is When.PAYS_FULL:
        return points > 0 and points >= seen.best[slot]
    return points > 0 and 2 * points >= seen.best[slot]


def _stage_holds(rule: Rule, seen: View) -> bool:
    if rule.when is When.OPEN_AT_LEAST:
        return seen.open_boxes >= rule.n
    if rule.when is When.OPEN_AT_MOST:
        return seen.open_boxes <= rule.n
    return seen.stage is rule.when


def matches(rule: Rule, game: Game) -> bool:
    """Whether the rule's condition holds for the player whose turn it is."""
    slot = game.rules.slots.index(rule.box) if rule.box is not None else None
    return holds(rule, view(game), slot)


def open_faces(rules: Rules, card: Sequence[int | None]) -> set[int]:
    """The faces whose upper box is still open."""
    boxes = [(rules.slot_box(j), filled) for j, filled in enumerate(card)]
    return {box.face for box, filled in boxes if box.kind is Kind.UPPER and filled is None}


def kept_positions(rule: Rule, dice: tuple[int, ...], rules: Rules, card: Sequence[int | None] = ()) -> tuple[int, ...]:
    """The positions of the dice a keep rule keeps (``card``: the player's sheet, for KEEP_MOST_OPEN)."""
    if rule.do is Do.KEEP_FOR and rule.box is not None:
        return target(rules.slot_box(rules.slots.index(rule.box)), dice)[0]
    if rule.do in (Do.KEEP_MOST, Do.KEEP_MOST_OPEN):
        wanted = set(dice) & open_faces(rules, card) if rule.do is Do.KEEP_MOST_OPEN and card else set()
        face = max(wanted or set(dice), key=lambda f: (dice.count(f), f))
        return tuple(p for p, d in enumerate(dice) if d == face)
    if rule.do is Do.KEEP_PAIRS:
        faces = pair_faces(dice)[:2]
        return tuple(p for p, d in enumerate(dice) if d in faces)
    return _run_positions(dice)


def _run_positions(dice: tuple[int, ...]) -> tuple[int, ...]:
    """One die of each face of the longest run (the higher run on a tie)."""
    faces = sorted(set(dice))
    runs: list[list[int]] = [[faces[0]]]
    for low, high in pairwise(faces):
        if high == low + 1:
            runs[-1].append(high)
        else:
            runs.append([high])
    best = max(runs, key=lambda run: (len(run), run[-1]))
    return tuple(dice.index(face) for face in best)


def act(rule: Rule, game: Game) -> Action:
    """The rule's action as a legal move (a keep that keeps every die, or no throw left, scores instead)."""
    turn, rules, card = game.state.turn, game.rules, game.seat().card
    usable = scoring.usable_slots(rules, card, turn.dice, turn.first_throw)
    if rule.do in KEEPS and turn.throws < turn.allowance:
        keep = kept_positions(rule, turn.dice, rules, card)
        if rules.locked_holds:
            keep = tuple(sorted(set(keep) | set(turn.held)))
        if len(keep) < rules.dice:
            return Roll(tuple(sorted(keep)))
    if rule.do is Do.SCORE_BOX and rule.box is not None and rules.slots.index(rule.box) in usable:
        return Score(rule.box)
    points = {j: scoring.slot_points(rules, card, j, turn.dice, turn.first_throw) for j in usable}
    best = max(usable, key=lambda j: points[j])
    if points[best] == 0:
        best = min(usable, key=lambda j: slot_maxima(rules)[j])
    return Score(rules.slots[best])
