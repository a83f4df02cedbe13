"""Golden scoring vectors: hand-worked cases from RULES.md, one JSON file per preset in tests/golden/.

Each case names its preset (``rules``), the card already written (``filled``: slot id -> points, 0 = scratched,
applied in order with :func:`scoring.write`, so a scratch closes what it closes), a hand (``dice``) and the throw it
was made on (``throw``: 1 = first throw of the turn, i.e. servida / de boca / de mão / seco), and one or more checks:

* ``box`` + ``points``: ``slot_points`` for that slot;
* ``box`` + ``points`` + ``after``: the card after writing ``points`` in ``box`` (slot id -> points, null = open);
* ``box`` + ``extra_bonus``: ``extra_bonus_due`` for writing the hand there;
* ``usable``: the exact set of slot ids ``usable_slots`` allows;
* ``instant_win``: ``instant_win`` for a first-throw hand;
* ``total`` (+ optional ``extra_bonuses``): ``total`` of the filled card; no dice.

``why`` gives the hand reasoning; ``xfail`` (a reason) marks a case the core is known to get wrong.
Unknown keys and checks without their inputs are errors, so a typo cannot make a case test nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from cubilete.engine.rules import Rules, find_rules, scoring
from cubilete.engine.rules.scoring import Card

GOLDEN = Path(__file__).parents[1] / "golden"
MIN_CASES = 40
PRESET_FILES = (
    "generala",
    "generala-obligada",
    "generala-espanola",
    "general",
    "bozo",
    "yahtzee",
    "yatzy",
    "maxi-yatzy",
    "general-4-columns",
    "yatzy-brasil",
)
SWITCHES = (
    "generala-60",
    "generala-doble-120",
    "generala-sin-doble",
    "generala-bonus-5",
    "generala-bonus-10",
    "generala-escalera-hueco",
    "generala-escalera-as",
    "generala-apartada",
    "generala-sin-gana",
    "generala-poker-exacto",
    "general-de-mao",
    "general-fixo",
    "general-repetidos",
    "general-12",
    "yahtzee-free-joker",
    "yahtzee-original-joker",
    "yatzy-13",
    "bozo-riscado",
)
REQUIRED_FILES = (*PRESET_FILES, "switches")
RECORD_FILES = ("records",)  # hand-worked game records, replayed by test_golden_records.py

ALLOWED_KEYS = {
    "rules", "why", "xfail", "dice", "throw", "filled", "box",
    "points", "after", "extra_bonus", "usable", "instant_win", "total", "extra_bonuses",
}  # fmt: skip
CHECKS = ("points", "after", "extra_bonus", "usable", "instant_win", "total")
NEEDS_HAND = ("points", "extra_bonus", "usable", "instant_win")
NEEDS_BOX = ("points", "extra_bonus")

Case = dict[str, Any]


def load_file(stem: str) -> list[Case]:
    """The cases of one golden file (a JSON list of objects)."""
    data = json.loads((GOLDEN / f"{stem}.json").read_text(encoding="utf-8"))
    assert isinstance(data, list), f"{stem}.json must hold a JSON list of cases"
    return data


def allowed_rules(stem: str) -> tuple[str, ...]:
    """The preset names a case in this file may use."""
    return SWITCHES if stem == "switches" else (stem,)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _slot_problems(rules: Rules, ids: Sequence[object], what: str) -> list[str]:
    return [f"{what}: {i!r} is not a slot of {rules.name}" for i in ids if i not in rules.slots]


def schema_problems(case: object, stem: str) -> list[str]:
    """Everything wrong with the shape of one case; an empty list when it is well formed."""
    if not isinstance(case, dict):
        return ["a case must be a JSON object"]
    problems = [f"unknown key {k!r}" for k in case if k not in ALLOWED_KEYS]
    name = case.get("rules")
    if name not in allowed_rules(stem):
        return [*problems, f"rules {name!r} does not belong in {stem}.json (allowed: {allowed_rules(stem)})"]
    rules = find_rules(name)
    if rules.name != name:
        problems.append(f"rules {name!r} is an alias; use the preset's name {rules.name!r}")
    if not isinstance(case.get("why"), str) or not case["why"].strip():
        problems.append("every case needs a non-empty 'why'")
    if "xfail" in case and (not isinstance(case["xfail"], str) or not case["xfail"].strip()):
        problems.append("'xfail' must be a non-empty reason")
    checks = [c for c in CHECKS if c in case]
    if not checks:
        problems.append(f"a case needs at least one check of {CHECKS}")
    has_hand = any(c in case for c in NEEDS_HAND)
    for key in ("dice", "throw"):
        if has_hand and key not in case:
            problems.append(f"{', '.join(c for c in NEEDS_HAND if c in case)} needs '{key}'")
        if not has_hand and key in case:
            problems.append(f"'{key}' is given but no check uses the hand")
    if "dice" in case:
        dice = case["dice"]
        if not (isinstance(dice, list) and len(dice) == rules.dice and all(_is_int(d) and 1 <= d <= 6 for d in dice)):
            problems.append(f"dice must be {rules.dice} faces 1-6, not {dice!r}")
    if "throw" in case and (not _is_int(case["throw"]) or not 1 <= case["throw"] <= rules.throws):
        problems.append(f"throw must be 1 to {rules.throws}, not {case['throw']!r}")
    if "instant_win" in case and case.get("throw") != 1:
        problems.append("instant_win is about a first-throw hand: throw must be 1")
    needs_box = any(c in case for c in NEEDS_BOX) or "after" in case
    if needs_box != ("box" in case):
        problems.append("'box' goes with 'points', 'extra_bonus' or 'after', and they need it")
    if "box" in case:
        problems += _slot_problems(rules, [case["box"]], "box")
    if "after" in case and "points" not in case:
        problems.append("'after' checks the card after writing 'points' in 'box': 'points' is needed")
    if "extra_bonuses" in case and "total" not in case:
        problems.append("'extra_bonuses' only goes with 'total'")
    if "total" in case and has_hand:
        problems.append("'total' is about the filled card alone; put hand checks in another case")
    for key in ("points", "total", "extra_bonuses"):
        if key in case and (not _is_int(case[key]) or case[key] < 0):
            problems.append(f"{key!r} must be a whole number >= 0")
    for key in ("extra_bonus", "instant_win"):
        if key in case and not isinstance(case[key], bool):
            problems.append(f"{key!r} must be true or false")
    filled = case.get("filled", {})
    if not isinstance(filled, dict) or not all(_is_int(v) and v >= 0 for v in filled.values()):
        problems.append("'filled' must map slot ids to points >= 0")
    else:
        problems += _slot_problems(rules, list(filled), "filled")
    after = case.get("after", {})
    if not isinstance(after, dict) or not all(v is None or _is_int(v) for v in after.values()):
        problems.append("'after' must map slot ids to points or null")
    else:
        problems += _slot_problems(rules, list(after), "after")
    usable = case.get("usable", [])
    if not isinstance(usable, list) or len(set(usable)) != len(usable):
        problems.append("'usable' must be a list of distinct slot ids")
    else:
        problems += _slot_problems(rules, usable, "usable")
    return problems


def build_card(rules: Rules, filled: Mapping[str, int]) -> Card:
    """The card after writing each filled slot in turn (a scratch closes the boxes that depend on it)."""
    card: Card = (None,) * len(rules.slots)
    for slot_id, points in filled.items():
        slot = rules.slot_index(slot_id)
        if card[slot] is not None:
            assert card[slot] == points, f"filled {slot_id}={points}, but an earlier write closed it with {card[slot]}"
            continue
        card = scoring.write(rules, card, slot, points)
    return card


def _params() -> list[Any]:
    params = []
    for stem in REQUIRED_FILES:
        if not (GOLDEN / f"{stem}.json").exists():
            continue
        for n, case in enumerate(load_file(stem), start=1):
            marks = []
            if isinstance(case, dict) and isinstance(case.get("xfail"), str):
                marks.append(pytest.mark.xfail(strict=True, reason=case["xfail"]))
            params.append(pytest.param(stem, case, id=f"{stem}-{n:03d}", marks=marks))
    return params


@pytest.mark.parametrize("stem", REQUIRED_FILES)
def test_golden_file_is_complete(stem: str) -> None:
    """Every required file exists, has enough cases, all well formed; switches.json covers every switch."""
    path = GOLDEN / f"{stem}.json"
    assert path.exists(), f"missing golden file {path}"
    cases = load_file(stem)
    assert len(cases) >= MIN_CASES, f"{stem}.json has {len(cases)} cases; at least {MIN_CASES} are required"
    bad = {n: p for n, case in enumerate(cases, start=1) if (p := schema_problems(case, stem))}
    assert not bad, f"malformed cases in {stem}.json: {bad}"
    if stem == "switches":
        missing = set(SWITCHES) - {case["rules"] for case in cases}
        assert not missing, f"switches.json has no case for {sorted(missing)}"


def test_golden_files_are_all_known() -> None:
    """No stray file in tests/golden/ that the runner would silently skip."""
    stray = {p.stem for p in GOLDEN.glob("*.json")} - set(REQUIRED_FILES) - set(RECORD_FILES)
    assert not stray, f"golden files the runner does not read: {sorted(stray)}"


@pytest.mark.parametrize(("stem", "case"), _params())
def test_golden_case(stem: str, case: Case) -> None:
    """One hand-worked case against the scoring core."""
    problems = schema_problems(case, stem)
    assert not problems, f"malformed case: {problems}"
    rules = find_rules(case["rules"])
    why = f"{case['rules']}: {case['why']}"
    card = build_card(rules, case.get("filled", {}))
    hand = tuple(case.get("dice", ()))
    first = case.get("throw") == 1
    if "points" in case:
        slot = rules.slot_index(case["box"])
        got = scoring.slot_points(rules, card, slot, hand, first)
        assert got == case["points"], f"{case['box']}: expected {case['points']}, got {got} -- {why}"
        if "after" in case:
            new = scoring.write(rules, card, slot, case["points"])
            got_after = {s: new[rules.slot_index(s)] for s in case["after"]}
            assert got_after == case["after"], f"card after writing: expected {case['after']}, got {got_after} -- {why}"
    if "extra_bonus" in case:
        due = scoring.extra_bonus_due(rules, card, rules.slot_index(case["box"]), hand)
        assert due is case["extra_bonus"], f"extra bonus: expected {case['extra_bonus']}, got {due} -- {why}"
    if "usable" in case:
        usable = {rules.slots[i] for i in scoring.usable_slots(rules, card, hand, first)}
        expected = set(case["usable"])
        assert usable == expected, (
            f"usable: missing {sorted(expected - usable)}, unexpected {sorted(usable - expected)} -- {why}"
        )
    if "instant_win" in case:
        wins = scoring.instant_win(rules, card, hand)
        assert wins is case["instant_win"], f"instant win: expected {case['instant_win']}, got {wins} -- {why}"
    if "total" in case:
        got_total = scoring.total(rules, card, case.get("extra_bonuses", 0))
        assert got_total == case["total"], f"total: expected {case['total']}, got {got_total} -- {why}"
