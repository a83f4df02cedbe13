"""The rules model: hashable values, the codec round trip, the preset registry and the consistency checks."""

from __future__ import annotations

import json

import pytest

from cubilete.engine.errors import RulesError, UnknownRulesError
from cubilete.engine.rules import (
    Box,
    Joker,
    Kind,
    Order,
    Points,
    Rules,
    all_presets,
    find_rules,
    preset_names,
    rules_from_dict,
    rules_hash,
    rules_to_dict,
)
from cubilete.engine.rules.codec import box_to_dict

PRESETS = preset_names()


def tiny(**changes: object) -> Rules:
    """A small valid rule set to break one field at a time."""
    boxes = (
        Box("1", "Ones", Kind.UPPER, Points.PATTERN, face=1),
        Box("full", "Full", Kind.GROUPS, value=30, groups=(3, 2)),
        Box("five", "Five", Kind.GROUPS, value=50, groups=(5,)),
    )
    fields: dict[str, object] = {"name": "tiny", "title": "Tiny", "boxes": boxes}
    fields.update(changes)
    return Rules(**fields)  # type: ignore[arg-type]


class TestValues:
    @pytest.mark.parametrize("name", PRESETS)
    def test_hashable_and_equal_copies_hash_equal(self, name):
        r = find_rules(name)
        copy = rules_from_dict(rules_to_dict(r))
        assert copy is not r
        assert copy == r
        assert hash(copy) == hash(r)
        assert {r: 1}[copy] == 1

    def test_every_preset_is_a_different_value(self):
        presets = all_presets()
        assert len(set(presets)) == len(presets) == len(PRESETS)

    def test_aliases_do_not_change_the_value(self):
        r = find_rules("generala")
        assert r.replace(aliases=("otra",)) == r

    def test_replace_checks_again(self):
        with pytest.raises(RulesError, match="dice must be 1 to 8, not 0"):
            find_rules("generala").replace(dice=0)

    def test_frozen(self):
        r = find_rules("generala")
        with pytest.raises(AttributeError):
            r.dice = 6  # type: ignore[misc]

    def test_slots_and_turns(self):
        assert find_rules("generala").slots[:7] == ("1", "2", "3", "4", "5", "6", "escalera")
        four = find_rules("general-4-columns")
        assert len(four.slots) == 52 and four.turns == 52
        assert four.slots[0] == "1@1" and four.slots[13] == "1@2" and four.slots[-1] == "aleatoria@4"
        assert four.slot_box(14).id == "2" and four.slot_column(14) == 1
        assert four.slot_index("full@3") == 2 * 13 + 8
        assert find_rules("yatzy-13").turns == 13 and len(find_rules("yatzy-13").slots) == 15

    def test_unknown_box_or_slot(self):
        r = find_rules("generala")
        with pytest.raises(RulesError, match="no box 'chance' in generala; boxes: 1, 2, 3"):
            r.box("chance")
        with pytest.raises(RulesError, match="no box 'full@2' in generala"):
            r.slot_index("full@2")
        with pytest.raises(RulesError, match="no box 'chance'"):
            r.with_box("chance", value=1)
        with pytest.raises(RulesError, match="no box 'chance'"):
            r.without_box("chance")

    def test_is_upper(self):
        r = find_rules("yahtzee")
        assert [b.id for b in r.boxes if b.is_upper] == ["1", "2", "3", "4", "5", "6"]


class TestCodec:
    @pytest.mark.parametrize("name", PRESETS)
    def test_round_trip(self, name):
        r = find_rules(name)
        assert rules_from_dict(rules_to_dict(r)) == r
        assert rules_from_dict(json.loads(json.dumps(rules_to_dict(r)))) == r

    def test_box_to_dict_leaves_out_defaults(self):
        box = find_rules("generala-espanola").box("poker")
        assert box_to_dict(box) == {
            "id": "poker",
            "name": "Póker",
            "kind": "groups",
            "value": 70,
            "groups": [4],
            "face_values": {"1": 80},
        }

    def test_hash_ignores_names_but_not_rules(self):
        g = find_rules("generala")
        assert rules_hash(g) == rules_hash(g.replace(name="otra", title="Otra", description="x"))
        assert rules_hash(g) == rules_hash(g.with_box("full", name="Full house"))
        assert rules_hash(g) != rules_hash(find_rules("generala-60"))
        assert len({rules_hash(r) for r in all_presets()}) == len(PRESETS)

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ([], "rules: expected an object"),
            ({"title": "x", "boxes": []}, "missing 'name'"),
            ({"name": "x", "title": "x", "boxes": {}}, "rules.boxes: expected a list of boxes"),
            ({"name": "x", "title": "x", "boxes": [{"id": "a", "name": "A"}]}, r"rules.boxes\[0\]: a box needs kind"),
            ({"name": "x", "title": "x", "boxes": [7]}, r"rules.boxes\[0\]: expected a table of box fields"),
            ({"name": "x", "title": "x", "boxes": [], "dice": "5"}, "rules.dice: expected an integer"),
            ({"name": "x", "title": "x", "boxes": [], "aliases": []}, "unknown rules field 'aliases'"),
        ],
    )
    def test_bad_data(self, data, message):
        with pytest.raises(RulesError, match=message):
            rules_from_dict(data)


class TestRegistry:
    @pytest.mark.parametrize(
        ("name", "preset"),
        [
            ("generala", "generala"),
            ("Generala", "generala"),
            ("Generala Argentina", "generala"),
            ("default", "generala"),
            ("Bozó", "bozo"),
            ("BOZO", "bozo"),
            ("generala-española", "generala-espanola"),
            ("Generala Española", "generala-espanola"),
            ("KNIFFEL", "yahtzee"),
            ("yam", "general"),
            ("general_de_mao", "general-de-mao"),
            ("General de mão", "general-de-mao"),
            ("super yatzy", "maxi-yatzy"),
            ("maxi", "maxi-yatzy"),
            ("obligada", "generala-obligada"),
            ("generala-10", "generala-sin-doble"),
            ("  yatzy ", "yatzy"),
        ],
    )
    def test_names_aliases_and_accents(self, name, preset):
        assert find_rules(name).name == preset

    def test_unknown_name_lists_the_presets(self):
        with pytest.raises(UnknownRulesError) as err:
            find_rules("parchís")
        message = str(err.value)
        assert "unknown rules 'parchís'" in message
        for name in PRESETS:
            assert name in message

    def test_preset_names_match_the_presets(self):
        assert [r.name for r in all_presets()] == PRESETS
        assert PRESETS[0] == "generala"

    @pytest.mark.parametrize(
        ("name", "boxes", "dice"),
        [
            ("generala", 11, 5),
            ("generala-sin-doble", 10, 5),
            ("generala-espanola", 10, 5),
            ("general", 13, 5),
            ("general-12", 12, 5),
            ("bozo", 10, 5),
            ("yahtzee", 13, 5),
            ("yatzy", 15, 5),
            ("maxi-yatzy", 20, 6),
        ],
    )
    def test_sheet_sizes(self, name, boxes, dice):
        """RULES.md P13: rounds = number of boxes; P1: dice."""
        r = find_rules(name)
        assert (len(r.boxes), r.dice, r.turns) == (boxes, dice, boxes)

    def test_switches_are_one_field_away(self):
        g = find_rules("generala")
        assert find_rules("generala-apartada").replace(name="generala", title=g.title, description=g.description) == (
            g.replace(locked_holds=True)
        )
        assert find_rules("generala-obligada").columns == (Order.DOWN,)
        assert find_rules("maxi-yatzy").carry_over_throws
        assert find_rules("bozo").face_down_call
        assert find_rules("yahtzee").joker is Joker.FORCED


class TestChecks:
    def test_tiny_is_valid(self):
        assert tiny().box_ids == ("1", "full", "five")

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"boxes": ()}, "there must be at least one box"),
            ({"dice": 0}, "dice must be 1 to 8, not 0"),
            ({"dice": 9}, "dice must be 1 to 8, not 9"),
            ({"throws": 0}, "throws must be 1 to 10, not 0"),
            ({"throws": 11}, "throws must be 1 to 10, not 11"),
            ({"columns": ()}, "there must be at least one column"),
            ({"rounds": 0}, r"rounds must be 1 to the number of boxes \(3\), not 0"),
            ({"rounds": 4}, r"rounds must be 1 to the number of boxes \(3\), not 4"),
            ({"min_players": 0}, "players must satisfy"),
            ({"min_players": 3, "max_players": 2}, "players must satisfy"),
            ({"max_players": 9}, "players must satisfy"),
            ({"extra_bonus_box": "yahtzee"}, "extra_bonus_box 'yahtzee' is not a box"),
            ({"joker": Joker.FORCED}, "a joker rule needs extra_bonus_box"),
            ({"upper_bonus_threshold": -1}, "upper_bonus_threshold must be 0 or more, not -1"),
            ({"upper_bonus": -35}, "upper_bonus must be 0 or more, not -35"),
            ({"extra_bonus": -100}, "extra_bonus must be 0 or more, not -100"),
            ({"dice": 4}, "box 'full': groups \\[3, 2\\] need more than 4 dice"),
        ],
    )
    def test_rules_level(self, changes, message):
        with pytest.raises(RulesError, match=message):
            tiny(**changes)

    def test_more_columns_allow_more_rounds(self):
        assert tiny(columns=(Order.DOWN, Order.UP), rounds=6).turns == 6

    def test_duplicate_ids(self):
        boxes = (*tiny().boxes, Box("full", "Full again", Kind.GROUPS, value=25, groups=(3, 2)))
        with pytest.raises(RulesError, match="box ids must be unique; repeated: full"):
            tiny(boxes=boxes)

    @pytest.mark.parametrize(
        ("box", "message"),
        [
            (Box("six", "Six", Kind.GROUPS, groups=(6,)), r"groups \[6\] need more than 5 dice"),
            (Box("two", "Two", Kind.GROUPS, groups=(3, 3)), r"groups \[3, 3\] need more than 5 dice"),
            (Box("none", "None", Kind.GROUPS), "groups must be a list of sizes of at least 1"),
            (Box("zero", "Zero", Kind.GROUPS, groups=(0, 2)), "groups must be a list of sizes of at least 1"),
            (Box("u0", "U", Kind.UPPER, face=0), "an upper box needs a face 1 to 6, not 0"),
            (Box("u7", "U", Kind.UPPER, face=7), "an upper box needs a face 1 to 6, not 7"),
            (Box("st", "S", Kind.STRAIGHT), "a straight needs at least one pattern"),
            (Box("st", "S", Kind.STRAIGHT, patterns=((),)), "an empty pattern would match every hand"),
            (Box("st", "S", Kind.STRAIGHT, patterns=((1, 2, 3, 4, 7),)), "pattern 12347 must be sorted faces 1-6"),
            (Box("st", "S", Kind.STRAIGHT, patterns=((2, 1, 3),)), "pattern 213 must be sorted"),
            (Box("st", "S", Kind.STRAIGHT, patterns=((1, 2, 3, 4, 5, 6),)), "at most 5 dice"),
            (Box("fv", "F", Kind.GROUPS, groups=(4,), face_values=((7, 80),)), "face_values faces must be 1 to 6"),
            (Box("rq", "R", Kind.GROUPS, groups=(5,), requires="doble"), "requires 'doble', which is not another box"),
            (Box("rq", "R", Kind.GROUPS, groups=(5,), requires="rq"), "requires 'rq', which is not another box"),
            (Box("neg", "N", Kind.GROUPS, groups=(4,), value=-1), "values must not be negative"),
            (Box("neg", "N", Kind.GROUPS, groups=(4,), first_throw_bonus=-5), "values must not be negative"),
            (Box("neg", "N", Kind.GROUPS, groups=(4,), first_throw_value=-5), "values must not be negative"),
            (Box("bad id", "B", Kind.CHANCE), "an id uses only letters, digits, '-' and '_'"),
            (Box("a@2", "B", Kind.CHANCE), "an id uses only letters"),
            (Box("", "B", Kind.CHANCE), "an id uses only letters"),
        ],
    )
    def test_box_level(self, box, message):
        with pytest.raises(RulesError, match=message) as err:
            tiny(boxes=(*tiny().boxes, box))
        assert f"box {box.id!r}" in str(err.value)

    def test_requires_an_existing_box(self):
        doble = Box("doble", "Doble", Kind.GROUPS, value=100, groups=(5,), requires="five")
        assert tiny(boxes=(*tiny().boxes, doble)).box("doble").requires == "five"

    def test_joker_with_its_box(self):
        r = tiny(joker=Joker.FREE, extra_bonus_box="five", extra_bonus=100)
        assert r.joker is Joker.FREE
