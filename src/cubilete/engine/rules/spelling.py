"""Rules spelled as short Python that evaluates back (``repr``), as python-chess spells a move.

A preset is ``find_rules('generala')``; rules made from one add the changes
(``find_rules('generala').replace(throws=2).with_box('full', value=35)``); anything else is spelled in full.
The names are those of :mod:`cubilete.engine.rules`, so ``eval(repr(r), vars(cubilete.engine.rules)) == r``.
"""

from __future__ import annotations

import dataclasses
from enum import Enum

from cubilete.engine.rules.model import Box, Rules


def _value(value: object) -> str:
    """One field's value as Python source: enums by their class and member name."""
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        inner = ", ".join(_value(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def _changes(value: object, base: object, skip: tuple[str, ...] = ()) -> list[str]:
    """``field=value`` for every field of a dataclass value that differs from ``base``."""
    return [
        f"{f.name}={_value(getattr(value, f.name))}"
        for f in dataclasses.fields(value)  # type: ignore[arg-type]
        if f.name not in skip and getattr(value, f.name) != getattr(base, f.name)
    ]


def _defaults(cls: type) -> dict[str, object]:
    """The default of every field of a dataclass that has one."""
    return {f.name: f.default for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING}


def box_repr(box: Box) -> str:
    """``Box('full', 'Full', Kind.GROUPS, ...)``: the required fields, then only those off their default."""
    head = f"Box({box.id!r}, {box.name!r}, {_value(box.kind)}"
    defaults = _defaults(Box)
    rest = [f"{k}={_value(getattr(box, k))}" for k, d in defaults.items() if getattr(box, k) != d]
    return head + "".join(f", {r}" for r in rest) + ")"


def _from_preset(rules: Rules, preset: Rules) -> str | None:
    """Rules spelled as a preset plus changes, or None when the boxes differ in more than their fields."""
    if preset.box_ids != rules.box_ids:
        return None
    text = f"find_rules({preset.name!r})"
    fields = _changes(rules, preset, skip=("boxes", "aliases"))
    if fields:
        text += f".replace({', '.join(fields)})"
    for mine, theirs in zip(rules.boxes, preset.boxes, strict=True):
        box_fields = _changes(mine, theirs)
        if box_fields:
            text += f".with_box({mine.id!r}, {', '.join(box_fields)})"
    return text


def rules_repr(rules: Rules) -> str:
    """The shortest spelling of the rules this module knows, evaluable with :mod:`cubilete.engine.rules`."""
    from cubilete.engine.rules.presets import all_presets  # the registry imports this module's package

    spellings = [s for p in all_presets() if (s := _from_preset(rules, p)) is not None]
    if spellings:
        return min(spellings, key=len)
    boxes = "(" + ", ".join(box_repr(b) for b in rules.boxes) + ("," if len(rules.boxes) == 1 else "") + ")"
    defaults = _defaults(Rules)
    rest = [f"{k}={_value(getattr(rules, k))}" for k, d in defaults.items() if getattr(rules, k) != d]
    return f"Rules({rules.name!r}, {rules.title!r}, {boxes}" + "".join(f", {r}" for r in rest) + ")"
