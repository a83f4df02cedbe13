"""What each box of a sheet would get for a hand now, with the reasons, for ``score`` and ``play``."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from cubilete.engine import notation
from cubilete.engine.errors import NotationError
from cubilete.engine.rules import Box, Order, Rules, scoring
from cubilete.i18n import N_, _, box_name, servida_word, translate_error, translate_formatted


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
    notes: tuple[str, ...] = ()  # in English, stable for JSON: servida, scratch, joker, ... (see describe_notes)
    reason: str | None = None  # why an open slot cannot be used now, in the player's language


# The notes of a usable line are kept in English (the JSON of ``score`` shows them as they are);
# these are their formats, translated when shown.
NOTE_TEMPLATES = (
    N_("scratch"),
    N_("servida"),
    N_("joker"),
    N_("column {column} pays only first-throw hands"),
    N_("needs {box} with points"),
)


def _unusable_reason(rules: Rules, card: Sequence[int | None], slot: int, usable: list[int]) -> str:
    column = rules.slot_column(slot)
    order = rules.columns[column]
    free = [i for i in scoring.column_slots(rules, column) if card[i] is None]
    one = len(rules.columns) == 1
    if order is Order.DOWN and slot != free[0]:
        nxt = rules.slots[free[0]]
        if one:
            return _("the boxes go top to bottom: next is {next}").format(next=nxt)
        return _("column {column} goes top to bottom: next is {next}").format(column=column + 1, next=nxt)
    if order is Order.UP and slot != free[-1]:
        nxt = rules.slots[free[-1]]
        if one:
            return _("the boxes go bottom to top: next is {next}").format(next=nxt)
        return _("column {column} goes bottom to top: next is {next}").format(column=column + 1, next=nxt)
    allowed = [rules.slots[i] for i in usable if rules.slot_column(i) == column] or [rules.slots[i] for i in usable]
    return _("joker rule: this extra five of a kind must go in {boxes}").format(boxes=", ".join(allowed))


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
    """The notes of a usable line in words, bonuses included, in the player's language."""
    words = [
        servida_word(rules) if note == "servida" else translate_formatted(note, NOTE_TEMPLATES) for note in line.notes
    ]
    if line.extra_bonus:
        words.append(_("+{points} bonus (extra {box})").format(points=line.extra_bonus, box=rules.extra_bonus_box))
    if line.upper_bonus:
        words.append(_("reaches the upper bonus (+{points})").format(points=line.upper_bonus))
    return "; ".join(words)


def _plain(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(ascii_text.strip().lower().replace("_", " ").split())


def _by_shown_name(rules: Rules, word: str) -> str | None:
    """``Sequência@2`` -> ``escalera@2``: a box named as the player's language shows it."""
    box_part, at, column = word.strip().partition("@")
    key = _plain(box_part)
    for b in rules.boxes:
        if key and _plain(box_name(rules, b.id)) == key:
            return b.id + at + column
    return None


def slot_from_word(rules: Rules, word: str) -> int:
    """The slot a player names: id or name (also as shown in the player's language), else its line number."""
    try:
        return notation.find_slot(rules, word)
    except NotationError as exc:
        shown = _by_shown_name(rules, word)
        if shown is not None:
            try:
                return notation.find_slot(rules, shown)
            except NotationError as again:
                raise NotationError(translate_error(str(again))) from None
        text = word.strip()
        n = len(rules.slots)
        if text.isdecimal() and 1 <= int(text) <= n:  # isdecimal: int() reads every such digit, not '²'
            return int(text) - 1
        if text.isdecimal():
            raise NotationError(_("no line {line}: lines are 1 to {last}").format(line=text, last=n)) from None
        also = _("(or a line number 1 to {last})").format(last=n)
        raise NotationError(f"{translate_error(str(exc))} {also}") from None
