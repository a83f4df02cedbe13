"""The guides distilled and measured for the presets (docs/GUIDE.md), shipped with the package so that
``cubilete guide`` prints and ``bot:guide:N`` plays at once instead of distilling for minutes.

Each file holds the guide after every distillation round (``benchmarks/guide_curve.py --save``); the
N-rule guide is the last one with at most N rules, as the measured curve takes it. Files are found by a
fixed table of preset names, never by a name that came with the rules (house rules may be named anything),
and used only when the rules are that preset exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Rules
from cubilete.play.guide.rules import Do, Rule, When

FOLDER = Path(__file__).with_name("shipped")
FILES = {"yatzy": "yatzy.json", "yahtzee": "yahtzee.json", "generala": "generala.json"}


def to_json(guide: Sequence[Rule]) -> list[list[object]]:
    """A guide as the files store it: [condition, action, box, number] per rule."""
    return [[r.when.value, r.do.value, r.box, r.n] for r in guide]


def from_json(rows: Sequence[Sequence[object]]) -> tuple[Rule, ...]:
    """A guide from its stored rows."""
    return tuple(Rule(When(str(w)), Do(str(d)), None if b is None else str(b), int(str(n))) for w, d, b, n in rows)


def at_most(rounds: Sequence[tuple[Rule, ...]], count: int) -> tuple[Rule, ...]:
    """The last guide of the rounds with at most ``count`` rules (a round may drop rules as well as add)."""
    return next((guide for guide in reversed(rounds) if len(guide) <= count), rounds[0])


@cache
def _rounds(preset: str) -> tuple[tuple[Rule, ...], ...]:
    data = json.loads((FOLDER / FILES[preset]).read_text(encoding="utf-8"))
    return tuple(from_json(rows) for rows in data["rounds"])


def shipped_guide(rules: Rules, count: int) -> tuple[Rule, ...] | None:
    """The shipped guide of at most ``count`` rules for these rules, or None (not a preset with a guide)."""
    for preset in FILES:
        if rules == find_rules(preset):
            return at_most(_rounds(preset), count)
    return None
