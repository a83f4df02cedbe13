"""``repr`` of rules and boxes is short Python that evaluates back to an equal value (issue 21: it was 4,206
characters of dataclass fields that could not be pasted back)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cubilete.engine.rules as rules_module
from cubilete.engine.rules import Box, Joker, Kind, Points, Rules, all_presets, find_rules, load_rules

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = vars(rules_module)


def roundtrip(rules: Rules) -> str:
    text = repr(rules)
    assert eval(text, NAMESPACE) == rules, text
    return text


@pytest.mark.parametrize("name", [r.name for r in all_presets()])
def test_a_preset_is_its_name(name: str) -> None:
    assert roundtrip(find_rules(name)) == f"find_rules({name!r})"


def test_changes_to_a_preset_are_spelled_as_changes() -> None:
    rules = find_rules("yahtzee").replace(throws=2, joker=Joker.FREE).with_box("full-house", value=35)
    expected = "find_rules('yahtzee').replace(throws=2, joker=Joker.FREE).with_box('full-house', value=35)"
    assert roundtrip(rules) == expected


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "house-rules").glob("*.toml")), ids=lambda p: p.name)
def test_house_rules_evaluate_back(path: Path) -> None:
    text = roundtrip(load_rules(str(path)))
    assert len(text) < 600


def test_rules_without_a_preset_are_spelled_in_full() -> None:
    boxes = (
        Box("1", "Ones", Kind.UPPER, Points.PATTERN, face=1),
        Box("pair", "Pair", Kind.GROUPS, value=25, groups=(2,)),
    )
    rules = Rules("two-boxes", "Two boxes", boxes, dice=3, throws=2)
    text = roundtrip(rules)
    assert text.startswith("Rules('two-boxes', 'Two boxes', (Box('1', 'Ones', Kind.UPPER")
    assert "dice=3" in text and "throws=2" in text


def test_a_box_spells_only_what_differs_from_the_defaults() -> None:
    full = find_rules("generala").box("full")
    assert repr(full) == "Box('full', 'Full', Kind.GROUPS, value=30, groups=(3, 2), first_throw_value=35)"
    assert eval(repr(full), NAMESPACE) == full
