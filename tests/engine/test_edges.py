"""Edges of the core that mutation testing (tools/mutation.py) found unguarded: each test here fails
for a named small change of the code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cubilete import Game, RecordError, Roll, find_rules
from cubilete.engine.errors import RulesError
from cubilete.engine.game import MAX_TIEBREAK_ROUNDS
from cubilete.engine.record import loads
from cubilete.engine.rules.codec import LARGEST, box_from_dict, box_to_dict
from cubilete.engine.rules.describe import box_rule, rules_summary
from cubilete.engine.rules.model import Box, Kind, Points, Start
from cubilete.engine.rules.presets import UnknownRulesError
from cubilete.engine.rules.profile import load_rules, rules_from_toml
from cubilete.engine.rules.scoring import all_equal, base_points, upper_bonus
from cubilete.engine.state import EndReason, Phase

POKER = {"id": "poker", "name": "Póker", "kind": "groups", "groups": [4], "value": 40}


class FaultyDice:
    """A dice source (the DiceSource protocol) that answers every throw with the same faces."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces

    def throw(self, index: int, count: int) -> tuple[int, ...]:
        return self.faces


@pytest.mark.parametrize(
    "faces",
    [
        (1,) * 6,  # one die too many, every face fine (a check with "and" instead of "or" misses it)
        (6,) * 4,  # one too few
        (1, 2, 3, 4, 7),  # the right count, a face out of range
        (0, 2, 3, 4, 5),
        (1, 2, "3", 4, 5),
    ],
)
def test_a_dice_source_giving_a_wrong_hand_is_refused(faces: tuple[int, ...]) -> None:
    game = Game(find_rules("generala").replace(start=Start.SEAT_ORDER), ["Ana"], dice=FaultyDice(faces), seed=1)
    with pytest.raises(RecordError, match="dice source gave"):
        game.apply(Roll())
    assert game.state.throws_made == 0 and game.throws == []  # nothing was kept of the refused throw


class TestLoadRules:
    def test_a_profile_file_without_the_toml_suffix_is_read(self, tmp_path: Path) -> None:
        path = tmp_path / "mesa-de-los-jueves"
        path.write_text('base = "yahtzee"\nthrows = 2\n', encoding="utf-8")
        rules = load_rules(str(path))
        assert rules.throws == 2 and rules.name == "mesa-de-los-jueves"

    def test_a_folder_is_named_as_a_folder(self, tmp_path: Path) -> None:
        folder = tmp_path / "perfiles"
        folder.mkdir()
        with pytest.raises(RulesError, match=r"is a folder, not a preset name or a \.toml profile"):
            load_rules(str(folder))

    @pytest.mark.parametrize("name", ["generalla", "", "   "])
    def test_a_name_that_is_neither_a_preset_nor_a_file_is_an_unknown_preset(self, name: str) -> None:
        with pytest.raises(UnknownRulesError, match="unknown rules"):
            load_rules(name)


def test_the_last_tie_break_round_is_played_before_the_win_is_shared(make_table: Any) -> None:
    # P17: tied leaders play extra rounds while they stay tied, up to MAX_TIEBREAK_ROUNDS; then they share
    t = make_table(players=["Ana", "Beto"], rounds=1)
    for _ in range(2):
        t.turn((1, 2, 2, 3, 6), "1")
    for number in range(1, MAX_TIEBREAK_ROUNDS + 1):
        assert (t.state.phase, t.state.tiebreak_round) == (Phase.TIEBREAK, number)
        for _ in range(2):
            t.roll((2, 2, 3, 3, 3))  # a full servido each: tied again
            t.stand()
    assert t.game.is_over
    assert t.state.winners == (0, 1) and t.state.reason is EndReason.SHARED


class TestFaceValues:
    """A box's face values (P-fixed points per face) read from a table or from a list of pairs."""

    def test_a_list_of_pairs_is_read_like_a_table(self) -> None:
        as_table = box_from_dict({**POKER, "face_values": {"1": 80, "6": 60}}, "poker")
        as_pairs = box_from_dict({**POKER, "face_values": [[6, 60], [1, 80]]}, "poker")
        assert as_table.face_values == as_pairs.face_values == ((1, 80), (6, 60))

    @pytest.mark.parametrize("bad", [7, "1=80", [[1, 80, 3]], [[1]], [1, 80], [[1, 80], "6:60"]])
    def test_anything_else_is_a_rules_error(self, bad: object) -> None:
        with pytest.raises(RulesError, match="expected a table of face = value"):
            box_from_dict({**POKER, "face_values": bad}, "poker")


def test_numbers_up_to_the_largest_are_read_and_larger_ones_refused() -> None:
    assert box_from_dict({**POKER, "value": LARGEST}, "poker").value == LARGEST
    assert box_from_dict({**POKER, "value": -LARGEST}, "poker").value == -LARGEST
    for too_large in (LARGEST + 1, -LARGEST - 1):
        with pytest.raises(RulesError, match="is too large"):
            box_from_dict({**POKER, "value": too_large}, "poker")


class TestDescribe:
    """Rules in plain words, checked against RULES.md 3.1 (Generala) and 3.7 (the 4-column sheet)."""

    def test_generala_boxes(self) -> None:
        g = find_rules("generala")
        words = {b.id: box_rule(b) for b in g.boxes}
        assert words["1"] == "sum of the dice showing 1"
        assert words["escalera"] == "one of 1-2-3-4-5, 2-3-4-5-6, 1-3-4-5-6: 20; 25 servida (first throw)"
        assert words["full"] == "three equal dice and two equal dice of different faces: 30; 35 servida (first throw)"
        assert words["poker"] == "4 equal dice: 40; 45 servida (first throw)"  # one group: no "different faces"
        assert words["generala"] == "5 equal dice: 50; servida wins the game at once unless this box was scratched"
        assert words["doble"] == (
            "5 equal dice: 100; points only once generala holds points; closes when generala is scratched"
        )

    def test_generala_summary_has_one_column_and_no_column_count(self) -> None:
        lines = rules_summary(find_rules("generala"))
        assert lines[:4] == [
            "5 dice, 3 throws a turn",
            "held dice may be thrown again",
            "11 turns a player, 11 boxes",
            "columns: 1 any order",
        ]
        assert lines[-3:] == [
            "each throws one die, the highest starts; turns pass in seat order",  # RULES.md 3.1: start, direction
            "a tie for first is settled by one more hand each, repeated while tied",  # P17: an extra round
            "players: 1 to 8",
        ]

    def test_four_columns_summary(self) -> None:
        lines = rules_summary(find_rules("general-4-columns"))
        assert lines[2] == "52 turns a player, 52 boxes in 4 columns"
        assert lines[3] == (
            "columns: 1 top to bottom, 2 bottom to top, 3 any order, 4 any order, points only with the first throw"
        )


class TestScoringHelpers:
    def test_all_equal(self) -> None:
        assert all_equal((4, 4, 4, 4, 4)) and all_equal((2,))
        assert not all_equal((4, 4, 4, 4, 3)) and not all_equal(())


class AlwaysThree:
    """Dice that show 3 on every die: every start throw ties."""

    def throw(self, index: int, count: int) -> tuple[int, ...]:
        return (3,) * count


@pytest.mark.parametrize("players", [2, 3])
def test_start_throws_that_always_tie_give_up_after_fifty_rounds(players: int) -> None:
    # P15: ties throw again; a source that never stops tying must not hold the table for ever
    game = Game(find_rules("generala"), [f"P{i}" for i in range(players)], dice=AlwaysThree(), seed=1)
    assert len(game.start_throws) == game.state.throws_made == 50 * players  # 50 rounds, every seat each
    assert game.state.current == 0 and game.state.order == tuple(range(players))


def test_an_upper_bonus_of_one_point_is_paid() -> None:
    # P11 with house numbers: a 1-point bonus at 3 is still a bonus
    rules = find_rules("yahtzee").replace(upper_bonus=1, upper_bonus_threshold=3)
    card: list[int | None] = [None] * len(rules.slots)
    card[rules.slots.index("3")] = 3
    assert upper_bonus(rules, card) == 1
    card[rules.slots.index("3")] = 0
    card[rules.slots.index("2")] = 2
    assert upper_bonus(rules, card) == 0


def test_bozo_in_plain_words() -> None:
    # RULES.md 3.3: Full 10, Sequência 20, Quadra 30, +5 "de boca"; "em baixo" may be called
    bozo = find_rules("bozo")
    words = {b.id: box_rule(b) for b in bozo.boxes}
    assert [w for w in words.values() if "+5 servida (first throw)" in w] == [
        words[b.id] for b in bozo.boxes if b.first_throw_bonus == 5
    ]
    assert len([w for w in words.values() if w.endswith(": 10; +5 servida (first throw)")]) == 1  # the full
    em_baixo = "a player may call 'em baixo': the faces on the table count"
    assert em_baixo in rules_summary(bozo)
    assert em_baixo not in rules_summary(find_rules("generala"))


def test_a_profile_error_that_names_no_key_has_no_line() -> None:
    every_box = ", ".join(f'"{b}"' for b in find_rules("generala").box_ids)
    with pytest.raises(RulesError) as info:
        rules_from_toml(f"remove = [{every_box}]\n", "mesa.toml")
    assert str(info.value) == "mesa.toml: rules 'mesa': there must be at least one box"


def test_a_box_written_without_a_value_is_worth_nothing() -> None:
    # records and profiles leave out the fields at their defaults: an old record's box without "value"
    # must read as 0, whatever the code's defaults become
    box = box_from_dict({"id": "x", "name": "X", "kind": "groups", "groups": [4]}, "x")
    assert box.value == 0 and box.face == 0
    assert box_to_dict(box) == {"id": "x", "name": "X", "kind": "groups", "groups": [4]}


@pytest.mark.parametrize("text", ["", "  \n\t"])
def test_an_empty_record_is_named_empty(text: str) -> None:
    with pytest.raises(RecordError, match="not a cubilete game record: it is empty"):
        loads(text)


def test_a_straight_paying_its_dice_pays_the_best_run_it_holds() -> None:
    # a house rule: a run of five, either one, paying the sum of its dice; six dice may hold both runs
    run = Box("run", "Run", Kind.STRAIGHT, points=Points.PATTERN, patterns=((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)))
    assert base_points(run, (1, 2, 3, 4, 5, 6)) == 20
    assert base_points(run, (1, 1, 2, 3, 4, 5)) == 15
