"""The score sheet seen from the dice on the table: what each slot would get now, and why a
slot is greyed out (closed, fixed order, joker rule, a box that pays only after another).

Everything here is computed with :mod:`cubilete.engine.rules.scoring`, the engine's own functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from cubilete.engine.rules import Order, Rules, scoring
from cubilete.i18n import _, box_name, servida_word


class SlotState(StrEnum):
    """How a slot of the sheet stands for the current player."""

    CLOSED = "closed"  # already written
    OPEN = "open"  # open; no dice on the table to judge
    USABLE = "usable"  # the dice may be written here now
    SCRATCH_ONLY = "scratch-only"  # may be used now, but only as a scratch (prerequisite, first-throw column)
    BLOCKED = "blocked"  # may not be used now (order of the column, joker rule)


@dataclass(frozen=True)
class SlotView:
    """One slot of the current player's sheet."""

    index: int
    slot: str
    label: str
    state: SlotState
    written: int | None = None
    points: int | None = None  # what it would get now (USABLE, SCRATCH_ONLY)
    note: str = ""  # notes (servida, joker, bonus) or the reason it is greyed out

    @property
    def greyed(self) -> bool:
        """True for the slots shown greyed out (with their reason)."""
        return self.state in (SlotState.SCRATCH_ONLY, SlotState.BLOCKED)


def slot_label(rules: Rules, index: int) -> str:
    """A slot's name for people: the box name, plus the column on a sheet of several columns."""
    name = box_name(rules, rules.slot_box(index).id)
    if len(rules.columns) == 1:
        return name
    return _("{box} (column {column})").format(box=name, column=rules.slot_column(index) + 1)


def _blocked_reason(rules: Rules, card: Sequence[int | None], index: int, usable: list[int]) -> str:
    column = rules.slot_column(index)
    order = rules.columns[column]
    free = [i for i in scoring.column_slots(rules, column) if card[i] is None]
    if order is Order.DOWN and index != free[0]:
        return _("fixed order, top to bottom: next is {box}").format(box=slot_label(rules, free[0]))
    if order is Order.UP and index != free[-1]:
        return _("fixed order, bottom to top: next is {box}").format(box=slot_label(rules, free[-1]))
    allowed = ", ".join(slot_label(rules, i) for i in usable)
    return _("joker rule: this hand must go in {boxes}").format(boxes=allowed)


def _scratch_only_reason(rules: Rules, card: Sequence[int | None], index: int, first_throw: bool) -> str | None:
    box = rules.slot_box(index)
    column = rules.slot_column(index)
    if rules.columns[column] is Order.FIRST_THROW and not first_throw:
        return _("only a scratch: this column pays first throws")
    if box.requires is not None and not card[scoring.slot_of(rules, box.requires, column)]:
        return _("only a scratch until {box} holds points").format(box=box_name(rules, box.requires))
    return None


def _usable_note(rules: Rules, card: Sequence[int | None], index: int, hand: Sequence[int], first: bool) -> str:
    box = rules.slot_box(index)
    column = rules.slot_column(index)
    points = scoring.slot_points(rules, card, index, hand, first)
    if points == 0:
        return _("scratch")
    notes: list[str] = []
    if first and scoring.servida_points(box, hand) != scoring.base_points(box, hand):
        notes.append(servida_word(rules))
    if not box.is_upper and scoring.joker_active(rules, card, column, hand) and not scoring.makes(box, hand):
        notes.append(_("joker"))
    if scoring.extra_bonus_due(rules, card, index, hand):
        notes.append(_("+{points} bonus").format(points=rules.extra_bonus))
    after = scoring.write(rules, card, index, points)
    gained = scoring.upper_bonus(rules, after) - scoring.upper_bonus(rules, card)
    if gained:
        notes.append(_("reaches the upper bonus (+{points})").format(points=gained))
    return "; ".join(notes)


def slot_views(
    rules: Rules, card: Sequence[int | None], hand: Sequence[int] | None = None, first_throw: bool = False
) -> list[SlotView]:
    """Every slot of one player's sheet, judged for ``hand`` (None: no dice on the table)."""
    usable = scoring.usable_slots(rules, card, hand, first_throw) if hand else []
    views: list[SlotView] = []
    for i, slot in enumerate(rules.slots):
        label = slot_label(rules, i)
        if card[i] is not None:
            views.append(SlotView(i, slot, label, SlotState.CLOSED, written=card[i]))
        elif not hand:
            views.append(SlotView(i, slot, label, SlotState.OPEN))
        elif i not in usable:
            views.append(SlotView(i, slot, label, SlotState.BLOCKED, note=_blocked_reason(rules, card, i, usable)))
        else:
            points = scoring.slot_points(rules, card, i, hand, first_throw)
            reason = _scratch_only_reason(rules, card, i, first_throw)
            if reason is not None:
                views.append(SlotView(i, slot, label, SlotState.SCRATCH_ONLY, points=points, note=reason))
            else:
                note = _usable_note(rules, card, i, hand, first_throw)
                views.append(SlotView(i, slot, label, SlotState.USABLE, points=points, note=note))
    return views


def _scratch_only(rules: Rules, card: Sequence[int | None], index: int, first_throw: bool) -> bool:
    """True where the dice may go only as a scratch (first-throw column, box paying after another)."""
    box = rules.slot_box(index)
    column = rules.slot_column(index)
    if rules.columns[column] is Order.FIRST_THROW and not first_throw:
        return True
    return box.requires is not None and not card[scoring.slot_of(rules, box.requires, column)]


def slot_states(
    rules: Rules, card: Sequence[int | None], hand: Sequence[int] | None = None, first_throw: bool = False
) -> list[tuple[str, SlotState, int | None, int | None]]:
    """(slot, state, points now, written) for every slot: :func:`slot_views` without words, for the web."""
    usable = set(scoring.usable_slots(rules, card, hand, first_throw)) if hand else set()
    out: list[tuple[str, SlotState, int | None, int | None]] = []
    for i, slot in enumerate(rules.slots):
        if card[i] is not None:
            out.append((slot, SlotState.CLOSED, None, card[i]))
        elif not hand:
            out.append((slot, SlotState.OPEN, None, None))
        elif i not in usable:
            out.append((slot, SlotState.BLOCKED, None, None))
        else:
            state = SlotState.SCRATCH_ONLY if _scratch_only(rules, card, i, first_throw) else SlotState.USABLE
            out.append((slot, state, scoring.slot_points(rules, card, i, hand, first_throw), None))
    return out


def upper_progress(rules: Rules, card: Sequence[int | None]) -> str:
    """The upper bonus cell: the bonus once earned, else ``sum/threshold``.

    >>> from cubilete.engine.rules import find_rules
    >>> r = find_rules("yahtzee")
    >>> upper_progress(r, [3, 6, None, None, None, None] + [None] * 7)
    '9/63'
    """
    if rules.upper_bonus <= 0:
        return ""
    earned = scoring.upper_bonus(rules, card)
    if earned:
        return f"+{earned}"
    parts = []
    for column in range(len(rules.columns)):
        upper = sum(card[i] or 0 for i in scoring.column_slots(rules, column) if rules.slot_box(i).is_upper)
        parts.append(f"{upper}/{rules.upper_bonus_threshold}")
    return " ".join(parts)
