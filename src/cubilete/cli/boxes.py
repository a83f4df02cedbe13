"""What each box of a sheet would get for a hand now, with the reasons, for ``score`` and ``play``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cubilete import notation
from cubilete.errors import NotationError
from cubilete.rules import Box, Order, Rules, scoring


@dataclass(frozen=True)
class BoxLine:
    """One slot of the sheet seen from the dice on the table."""

    line: int  # 1-based position on the sheet (the number players type)
    slot: str  # slot id: a box id, or box@column
    box: Box
    written: int | None  # points already in the slot; None while open
    usable: bool  # open and allowed now (column order, joker)
    points: int | None  # what it would get now; None when closed or not usable
    extra_bonus: int = 0  # extra five-of-a-kind bonus paid by scoring here
    upper_bonus: int = 0  # upper bonus earned by scoring here
    notes: tuple[str, ...] = ()  # servida, scratch, joker, ...
    reason: str | None = None  # why an open slot cannot be used now


def _column_name(rules: Rules, column: int) -> str:
    return "the boxes go" if len(rules.columns) == 1 else f"column {column + 1} goes"


def _unusable_reason(rules: Rules, card: Sequence[int | None], slot: int, usable: list[int]) -> str:
    column = rules.slot_column(slot)
    order = rules.columns[column]
    free = [i for i in scoring.column_slots(rules, column) if card[i] is None]
    if order is Order.DOWN and slot != free[0]:
        return f"{_column_name(rules, column)} top to bottom: next is {rules.slots[free[0]]}"
    if order is Order.UP and slot != free[-1]:
        return f"{_column_name(rules, column)} bottom to top: next is {rules.slots[free[-1]]}"
    allowed = [rules.slots[i] for i in usable if rules.slot_column(i) == column] or [rules.slots[i] for i in usable]
    return f"joker rule: this extra five of a kind must go in {', '.join(allowed)}"


def _notes(rules: Rules, card: Sequence[int | None], slot: int, hand: Sequence[int], first_throw: bool) -> list[str]:
    box = rules.slot_box(slot)
    column = rules.slot_column(slot)
    points = scoring.slot_points(rules, card, slot, hand, first_throw)
    notes: list[str] = []
    if rules.columns[column] is Order.FIRST_THROW and not first_throw:
        notes.append(f"column {column + 1} pays only first-throw hands")
    if box.requires is not None and not card[scoring.slot_of(rules, box.requires, column)]:
        notes.append(f"needs {box.requires} with points")
    if points == 0:
        notes.insert(0, "scratch")
        return notes
    if first_throw and scoring.servida_points(box, hand) != scoring.base_points(box, hand):
        notes.append("servida")
    if not box.is_upper and scoring.joker_active(rules, card, column, hand) and not scoring.makes(box, hand):
        notes.append("joker")
    return notes


def box_lines(rules: Rules, card: Sequence[int | None], hand: Sequence[int], first_throw: bool) -> list[BoxLine]:
    """Every slot of the sheet, in sheet order, as seen from this hand."""
    usable = scoring.usable_slots(rules, card, hand, first_throw)
    lines: list[BoxLine] = []
    for slot, slot_id in enumerate(rules.slots):
        box = rules.slot_box(slot)
        if card[slot] is not None:
            lines.append(BoxLine(slot + 1, slot_id, box, card[slot], False, None))
        elif slot not in usable:
            reason = _unusable_reason(rules, card, slot, usable)
            lines.append(BoxLine(slot + 1, slot_id, box, None, False, None, reason=reason))
        else:
            points = scoring.slot_points(rules, card, slot, hand, first_throw)
            extra = rules.extra_bonus if scoring.extra_bonus_due(rules, card, slot, hand) else 0
            after = scoring.write(rules, card, slot, points)
            upper = scoring.upper_bonus(rules, after) - scoring.upper_bonus(rules, card)
            notes = tuple(_notes(rules, card, slot, hand, first_throw))
            lines.append(BoxLine(slot + 1, slot_id, box, None, True, points, extra, upper, notes))
    return lines


def describe_notes(line: BoxLine, rules: Rules) -> str:
    """The notes of a usable line in words, bonuses included."""
    words = list(line.notes)
    if line.extra_bonus:
        words.append(f"+{line.extra_bonus} bonus (extra {rules.extra_bonus_box})")
    if line.upper_bonus:
        words.append(f"reaches the upper bonus (+{line.upper_bonus})")
    return "; ".join(words)


def slot_from_word(rules: Rules, word: str) -> int:
    """The slot a player names: id or name first (``full``, ``Póker``, ``full@2``), else its line number."""
    try:
        return notation.find_slot(rules, word)
    except NotationError as exc:
        text = word.strip()
        if text.isdigit() and 1 <= int(text) <= len(rules.slots):
            return int(text) - 1
        if text.isdigit():
            raise NotationError(f"no line {text}: lines are 1 to {len(rules.slots)}") from None
        raise NotationError(f"{exc} (or a line number 1 to {len(rules.slots)})") from None
