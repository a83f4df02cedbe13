"""Text notation for people and command lines: dice, boxes and partly filled score cards.

Core level: standard library only. Every bad string raises a :class:`NotationError`
whose message says what was wrong and what is allowed.

>>> from cubilete.engine.rules import find_rules
>>> r = find_rules("generala")
>>> parse_hand("3 4 5 6 1", r)
(3, 4, 5, 6, 1)
>>> card = parse_filled("generala=50, full=0", r)
>>> card[r.slot_index("generala")], card[r.slot_index("full")], card[r.slot_index("poker")]
(50, 0, None)
>>> format_filled(r, card)
'full=0,generala=50'
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from cubilete.engine.dice import Hand
from cubilete.engine.dice import parse_dice as read_faces
from cubilete.engine.errors import NotationError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Box, Rules

__all__ = [
    "find_slot",
    "format_dice",
    "format_filled",
    "parse_dice",
    "parse_filled",
    "parse_hand",
    "possible_points",
]


def parse_dice(text: str | Sequence[str], count: int | None = None) -> Hand:
    """Faces as :func:`cubilete.engine.dice.parse_dice` reads them, refusing characters that look like digits
    but are not (``²``, ``①``) with the same message instead of a crash.

    >>> parse_dice("1²3")
    Traceback (most recent call last):
    ...
    cubilete.engine.errors.NotationError: '²' is not a die face (1 to 6)
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    for word in words:
        odd = [c for c in word if c.isdigit() and not c.isdecimal()]
        if odd:
            raise NotationError(f"{odd[0]!r} is not a die face (1 to 6)")
    return read_faces(text, count)


def parse_hand(text: str | Sequence[str], rules: Rules) -> Hand:
    """Faces for these rules: ``"3 4 5 6 1"``, ``"34561"`` or a list of words; the count must match.

    >>> from cubilete.engine.rules import find_rules
    >>> parse_hand(["6", "6", "6", "6", "6", "6"], find_rules("maxi-yatzy"))
    (6, 6, 6, 6, 6, 6)
    """
    hand = parse_dice(text)
    if len(hand) != rules.dice:
        raise NotationError(f"{rules.name} uses {rules.dice} dice; got {len(hand)} ({format_dice(hand)})")
    return hand


def format_dice(hand: Sequence[int]) -> str:
    """The faces separated by spaces.

    >>> format_dice((3, 4, 5, 6, 1))
    '3 4 5 6 1'
    """
    return " ".join(str(f) for f in hand)


def _plain(text: str) -> str:
    """Lower case, no accents, spaces and underscores as dashes (as preset names are matched)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(ascii_text.strip().lower().replace("_", " ").split())


def find_slot(rules: Rules, text: str) -> int:
    """The slot index named by a box id, a box's display name (accents and case ignored), or
    ``box@column`` on a sheet of several columns.

    >>> from cubilete.engine.rules import find_rules
    >>> r = find_rules("generala")
    >>> find_slot(r, "Póker"), find_slot(r, "doble generala"), find_slot(r, "6")
    (8, 10, 5)
    """
    wanted = text.strip()
    if wanted in rules.slots:
        return rules.slots.index(wanted)
    box_part, at, column = wanted.partition("@")
    key = _plain(box_part)
    matches = [b for b in rules.boxes if _plain(b.id) == key or _plain(b.name) == key]
    if matches and key:
        box = matches[0]
        if len(rules.columns) == 1 and not at:
            return rules.box_ids.index(box.id)
        if at and column.strip() in {str(c + 1) for c in range(len(rules.columns))}:
            return rules.slots.index(f"{box.id}@{column.strip()}")
        if not at:
            raise NotationError(
                f"{rules.name} has {len(rules.columns)} columns: write {box.id}@1 to {box.id}@{len(rules.columns)}"
            )
        raise NotationError(f"{wanted!r}: columns are 1 to {len(rules.columns)}")
    raise NotationError(f"unknown box {wanted!r} in {rules.name}; boxes: {', '.join(rules.slots)}")


@lru_cache(maxsize=512)
def possible_points(box: Box, dice: int) -> frozenset[int]:
    """Every number the box can hold with this many dice: 0 (a scratch) and each score it can pay.

    >>> from cubilete.engine.rules import find_rules
    >>> sorted(possible_points(find_rules("generala").box("escalera"), 5))
    [0, 20, 25]
    """
    found = {0}
    for hand in itertools.combinations_with_replacement(range(1, 7), dice):
        if scoring.makes(box, hand):
            found.add(scoring.base_points(box, hand))
            found.add(scoring.servida_points(box, hand))
    if box.joker:
        found.add(box.value)
    return frozenset(found)


def _describe_values(values: frozenset[int]) -> str:
    """``0 or 50``; ``0, 4, 8, 12, 16 or 20``; ``0 or 5 to 30``."""
    ordered = sorted(values)
    runs: list[list[int]] = []
    for v in ordered:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    words: list[str] = []
    for run in runs:
        if len(run) >= 3:
            words.append(f"{run[0]} to {run[-1]}")
        else:
            words.extend(str(v) for v in run)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _parse_points(item: str, key: str, value: str) -> int:
    if not value:
        raise NotationError(f"{item!r}: give the points after '=', e.g. {key}=30 (0 scratches the box)")
    if not re.fullmatch(r"[+-]?\d+", value):
        raise NotationError(f"{item!r}: points must be a whole number, not {value!r}")
    points = int(value)
    if points < 0:
        raise NotationError(f"{item!r}: points cannot be negative")
    return points


def parse_filled(text: str, rules: Rules) -> tuple[int | None, ...]:
    """A score card from ``"generala=50,full=0"``: the points already written, open slots None.

    Keys are slot ids or box names (see :func:`find_slot`); each value must be one the box
    can hold; a box that needs another one (Doble Generala) may hold points only if that box
    does; scratching a box closes the boxes that depend on it, as in play.

    >>> from cubilete.engine.rules import find_rules
    >>> r = find_rules("generala")
    >>> parse_filled("generala=0", r)[r.slot_index("doble")]
    0
    """
    normalised = re.sub(r"\s*=\s*", "=", text.strip())
    items = [i for i in re.split(r"[,;\s]+", normalised) if i]
    given: dict[int, int] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq:
            raise NotationError(f"{item!r} needs points: write {item}=30 (0 scratches the box)")
        if not key:
            raise NotationError(f"{item!r}: name a box before '='; boxes: {', '.join(rules.slots)}")
        slot = find_slot(rules, key)
        points = _parse_points(item, key, value)
        slot_id = rules.slots[slot]
        if slot in given:
            raise NotationError(f"box {slot_id} is given twice")
        box = rules.slot_box(slot)
        allowed = possible_points(box, rules.dice)
        if points not in allowed:
            raise NotationError(f"{item!r}: {box.name} ({slot_id}) can hold {_describe_values(allowed)}, not {points}")
        given[slot] = points
    for slot, points in given.items():
        box = rules.slot_box(slot)
        if box.requires is not None and points > 0:
            needed = scoring.slot_of(rules, box.requires, rules.slot_column(slot))
            if not given.get(needed):
                raise NotationError(
                    f"{rules.slots[slot]}={points}: {box.name} holds points only once "
                    f"{rules.slots[needed]} holds points; add {rules.slots[needed]}=..."
                )
    card: tuple[int | None, ...] = (None,) * len(rules.slots)
    for slot, points in given.items():
        card = scoring.write(rules, card, slot, points)
    return card


def format_filled(rules: Rules, card: Sequence[int | None]) -> str:
    """The written slots of a card as ``--filled`` text (the inverse of :func:`parse_filled`)."""
    return ",".join(f"{rules.slots[i]}={v}" for i, v in enumerate(card) if v is not None)


def numbered(names: Sequence[str]) -> list[str]:
    """Repeated names get suffixes: ``bot, bot-2, bot-3``.

    >>> numbered(["bot", "Ana", "bot"])
    ['bot', 'Ana', 'bot-2']
    """
    out: list[str] = []
    for name in names:
        candidate, n = name, 1
        while candidate in out:
            n += 1
            candidate = f"{name}-{n}"
        out.append(candidate)
    return out
