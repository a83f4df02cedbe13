"""describe.differences / closest_preset: what house rules change from the preset they were made from, in
plain words (the table page lists them), and nothing for a preset itself."""

from __future__ import annotations

import pytest

from cubilete.engine.rules import all_presets, find_rules
from cubilete.engine.rules.describe import closest_preset, differences
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.i18n import speaking


@pytest.mark.parametrize("preset", all_presets(), ids=lambda r: r.name)
def test_a_preset_is_its_own_closest_and_changes_nothing(preset: object) -> None:
    assert closest_preset(preset) == preset  # type: ignore[arg-type]
    assert differences(preset) == []  # type: ignore[arg-type]


def test_house_rules_list_each_change_from_their_base() -> None:
    text = ('base = "generala"\nname = "mesa"\nthrows = 2\nremove = ["doble"]\n'
            "[box.generala]\nvalue = 60\ninstant_win = false\n")
    rules = rules_from_toml(text)
    assert closest_preset(rules).name == "generala"  # its base, though Generala sin Doble has the same boxes
    with speaking("en"):
        lines = differences(rules)
    assert lines == [
        "5 dice, 2 throws a turn",
        "10 turns a player, 10 boxes",  # one box fewer: one turn fewer
        "Generala: 5 equal dice: 60",
        "Generala: a servida no longer wins the game at once",
        "no Doble Generala",
    ]


def test_a_new_box_and_a_changed_game_rule_are_named() -> None:
    rules = rules_from_toml('base = "yatzy"\nlocked_holds = true\n[box.twins]\nname = "Twins"\nkind = "groups"\n'
                            "groups = [2, 2]\nvalue = 7\n")
    with speaking("es"):
        lines = differences(rules, find_rules("yatzy"))
    assert lines[0] == "los dados apartados quedan apartados todo el turno"
    assert any(line.startswith("casillero nuevo Twins: ") and line.endswith(": 7") for line in lines)
