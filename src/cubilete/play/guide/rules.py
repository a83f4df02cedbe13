"""The rule language: "if <condition a person can check> then <keep these dice | score this box>".

A guide is an ordered tuple of :class:`Rule`; the first rule whose condition holds gives the move,
and the last rule is always :data:`DEFAULT` so every position has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.i18n import _, box_name
from cubilete.play.bots.patterns import slot_maxima, target, usable_maxima


class When(StrEnum):
    """Conditions a person can check at the table."""

    ALWAYS = "always"
    LAST_ROLL = "last-roll"  # no throws left this turn
    PAYS_HALF = "pays-half"  # the box is open and pays at least half its maximum now
    PAYS_FULL = "pays-full"  # the box is open and pays its maximum now
    OPEN = "open"  # the box is open
    PAIR = "pair"  # the box is open and you have a pair or better
    THREE_KIND = "three-kind"  # the box is open and you have 3 or more of a kind
    FOUR_KIND = "four-kind"  # the box is open and you have 4 or more of a kind
    FOUR_RUN = "four-run"  # the box is open and you have 4 in a row


class Do(StrEnum):
    """Actions in words."""

    SCORE_BOX = "score-box"  # score this box
    SCORE_BEST = "score-best"  # score the box that pays most now (scratch the smallest if none pays)
    KEEP_FOR = "keep-for"  # keep the dice that serve this box, throw the rest


@dataclass(frozen=True)
class Rule:
    """One line of a guide; ``box`` names the slot the condition or action is about (or None)."""

    when: When
    do: Do
    box: str | None = None

    def words(self, rules: Rules) -> str:
        """The rule in plain words, in the current language (the printed guide)."""
        box = box_name(rules, self.box) if self.box is not None else ""
        cond = {
            When.ALWAYS: _("Otherwise"),
            When.LAST_ROLL: _("On your last roll"),
            When.PAYS_HALF: _("If {box} is open and pays at least half its best"),
            When.PAYS_FULL: _("If {box} is open and pays its best"),
            When.OPEN: _("If {box} is open"),
            When.PAIR: _("If {box} is open and you have a pair or better"),
            When.THREE_KIND: _("If {box} is open and you have 3 of a kind or better"),
            When.FOUR_KIND: _("If {box} is open and you have 4 of a kind or better"),
            When.FOUR_RUN: _("If {box} is open and you have 4 in a row"),
        }[self.when]
        action = {
            Do.SCORE_BOX: _("score {box}"),
            Do.SCORE_BEST: _("score the box that pays most (if none pays, cross out the smallest)"),
            Do.KEEP_FOR: _("keep the dice for {box} and throw the rest"),
        }[self.do]
        return _("{condition}: {action}.").format(condition=cond.format(box=box), action=action.format(box=box))


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


PATTERNS = {
    When.PAIR: lambda dice: most_alike(dice) >= 2,
    When.THREE_KIND: lambda dice: most_alike(dice) >= 3,
    When.FOUR_KIND: lambda dice: most_alike(dice) >= 4,
    When.FOUR_RUN: lambda dice: longest_run(dice) >= 4,
}


def matches(rule: Rule, game: Game) -> bool:
    """Whether the rule's condition holds for the player whose turn it is."""
    turn, rules, card = game.state.turn, game.rules, game.seat().card
    if rule.when is When.ALWAYS:
        return True
    if rule.when is When.LAST_ROLL:
        return turn.throws >= turn.allowance
    assert rule.box is not None
    j = rules.slots.index(rule.box)
    usable = scoring.usable_slots(rules, card, turn.dice, turn.first_throw)
    if j not in usable:
        return False
    if rule.when is When.OPEN:
        return True
    if rule.when in PATTERNS:
        return PATTERNS[rule.when](turn.dice)
    points = scoring.slot_points(rules, card, j, turn.dice, turn.first_throw)
    best = usable_maxima(rules, card)[j]
    if rule.when is When.PAYS_FULL:
        return points > 0 and points >= best
    return points > 0 and 2 * points >= best


def act(rule: Rule, game: Game) -> Action:
    """The rule's action as a legal move (a keep that keeps every die, or no throw left, scores instead)."""
    turn, rules, card = game.state.turn, game.rules, game.seat().card
    usable = scoring.usable_slots(rules, card, turn.dice, turn.first_throw)
    if rule.do is Do.KEEP_FOR and turn.throws < turn.allowance and rule.box is not None:
        j = rules.slots.index(rule.box)
        keep, _ = target(rules.slot_box(j), turn.dice)
        if rules.locked_holds:
            keep = tuple(sorted(set(keep) | set(turn.held)))
        if len(keep) < rules.dice:
            return Roll(keep)
    if rule.do is Do.SCORE_BOX and rule.box is not None and rules.slots.index(rule.box) in usable:
        return Score(rule.box)
    points = {j: scoring.slot_points(rules, card, j, turn.dice, turn.first_throw) for j in usable}
    best = max(usable, key=lambda j: points[j])
    if points[best] == 0:
        best = min(usable, key=lambda j: slot_maxima(rules)[j])
    return Score(rules.slots[best])
