"""Text notation: dice, box names and ``--filled`` score cards (expected values from RULES.md)."""

from __future__ import annotations

import pytest

from cubilete.engine.errors import NotationError
from cubilete.engine.notation import find_slot, format_dice, format_filled, parse_filled, parse_hand, possible_points
from cubilete.engine.rules import find_rules

GENERALA = find_rules("generala")
YAHTZEE = find_rules("yahtzee")
FOUR_COLUMNS = find_rules("general-4-columns")


class TestDice:
    def test_spaced_compact_and_listed_forms_agree(self) -> None:
        assert parse_hand("3 4 5 6 1", GENERALA) == (3, 4, 5, 6, 1)
        assert parse_hand("34561", GENERALA) == (3, 4, 5, 6, 1)
        assert parse_hand(["3", "4", "5", "6", "1"], GENERALA) == (3, 4, 5, 6, 1)
        assert parse_hand("3,4,5,6,1", GENERALA) == (3, 4, 5, 6, 1)

    def test_six_dice_for_maxi_yatzy(self) -> None:
        assert parse_hand("123456", find_rules("maxi-yatzy")) == (1, 2, 3, 4, 5, 6)

    def test_wrong_count_names_the_rules_and_count(self) -> None:
        with pytest.raises(NotationError, match=r"generala uses 5 dice; got 6"):
            parse_hand("1 2 3 4 5 6", GENERALA)
        with pytest.raises(NotationError, match=r"maxi-yatzy uses 6 dice; got 5"):
            parse_hand("12345", find_rules("maxi-yatzy"))

    @pytest.mark.parametrize("text", ["1 2 3 4 7", "0 1 2 3 4", "1 2 x 4 5", "1 2 -3 4 5"])
    def test_bad_face_is_named(self, text: str) -> None:
        with pytest.raises(NotationError, match=r"is not a die face \(1 to 6\)"):
            parse_hand(text, GENERALA)

    def test_no_dice(self) -> None:
        with pytest.raises(NotationError, match="no dice"):
            parse_hand("", GENERALA)

    def test_format_dice(self) -> None:
        assert format_dice((6, 6, 1)) == "6 6 1"


class TestFindSlot:
    def test_ids_names_and_accents(self) -> None:
        assert GENERALA.slots[find_slot(GENERALA, "full")] == "full"
        assert GENERALA.slots[find_slot(GENERALA, "Póker")] == "poker"
        assert GENERALA.slots[find_slot(GENERALA, "POKER")] == "poker"
        assert GENERALA.slots[find_slot(GENERALA, "Doble Generala")] == "doble"
        assert GENERALA.slots[find_slot(GENERALA, "6")] == "6"
        assert GENERALA.slots[find_slot(GENERALA, "Seises")] == "6"

    def test_columns(self) -> None:
        assert FOUR_COLUMNS.slots[find_slot(FOUR_COLUMNS, "full@2")] == "full@2"
        assert FOUR_COLUMNS.slots[find_slot(FOUR_COLUMNS, "Full-hand@4")] == "full@4"
        with pytest.raises(NotationError, match=r"4 columns: write full@1 to full@4"):
            find_slot(FOUR_COLUMNS, "full")
        with pytest.raises(NotationError, match=r"columns are 1 to 4"):
            find_slot(FOUR_COLUMNS, "full@5")

    def test_unknown_box_lists_the_boxes(self) -> None:
        with pytest.raises(NotationError, match=r"unknown box 'chance' in generala; boxes: 1, 2, .*doble"):
            find_slot(GENERALA, "chance")


class TestPossiblePoints:
    def test_upper_box_multiples_of_the_face(self) -> None:
        assert possible_points(GENERALA.box("4"), 5) == {0, 4, 8, 12, 16, 20}

    def test_servida_values_are_possible(self) -> None:
        assert possible_points(GENERALA.box("full"), 5) == {0, 30, 35}
        assert possible_points(GENERALA.box("generala"), 5) == {0, 50}

    def test_sum_boxes(self) -> None:
        assert possible_points(YAHTZEE.box("chance"), 5) == set(range(5, 31)) | {0}
        # three of a kind adds all five dice: at least 1+1+1+1+1... but three equal: 1+1+1+1+2=6? no: 1+1+1+1+1=5
        assert min(possible_points(YAHTZEE.box("three-kind"), 5) - {0}) == 5


class TestFilled:
    def test_points_and_open_boxes(self) -> None:
        card = parse_filled("generala=50,full=0", GENERALA)
        assert card[GENERALA.slot_index("generala")] == 50
        assert card[GENERALA.slot_index("full")] == 0
        assert sum(v is None for v in card) == 9

    def test_empty_text_is_an_empty_card(self) -> None:
        assert parse_filled("", GENERALA) == (None,) * 11

    def test_spaces_and_names(self) -> None:
        card = parse_filled(" generala = 50 ; Póker=45  escalera=25 ", GENERALA)
        assert card[GENERALA.slot_index("poker")] == 45
        assert card[GENERALA.slot_index("escalera")] == 25

    def test_scratched_generala_closes_doble(self) -> None:
        # RULES.md §4: a scratched Generala closes Doble too
        card = parse_filled("generala=0", GENERALA)
        assert card[GENERALA.slot_index("doble")] == 0

    def test_doble_needs_generala_with_points(self) -> None:
        with pytest.raises(NotationError, match=r"doble=100: Doble Generala holds points only once generala"):
            parse_filled("doble=100", GENERALA)
        with pytest.raises(NotationError, match=r"only once generala holds points"):
            parse_filled("generala=0,doble=100", GENERALA)
        card = parse_filled("generala=50,doble=100", GENERALA)
        assert card[GENERALA.slot_index("doble")] == 100

    def test_impossible_value_lists_the_possible_ones(self) -> None:
        with pytest.raises(NotationError, match=r"'generala=49': Generala \(generala\) can hold 0 or 50, not 49"):
            parse_filled("generala=49", GENERALA)
        with pytest.raises(NotationError, match=r"can hold 0, 20 or 25, not 30"):
            parse_filled("escalera=30", GENERALA)
        with pytest.raises(NotationError, match=r"can hold 0 or 5 to 30, not 31"):
            parse_filled("chance=31", YAHTZEE)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("gen=50", r"unknown box 'gen' in generala"),
            ("full", r"'full' needs points: write full=30"),
            ("full=", r"give the points after '='"),
            ("full=treinta", r"points must be a whole number, not 'treinta'"),
            ("full=-30", r"points cannot be negative"),
            ("=30", r"name a box before '='"),
            ("full=30,full=35", r"box full is given twice"),
            ("full=30,Full=35", r"box full is given twice"),
        ],
    )
    def test_bad_text(self, text: str, message: str) -> None:
        with pytest.raises(NotationError, match=message):
            parse_filled(text, GENERALA)

    def test_four_columns(self) -> None:
        card = parse_filled("full@2=25, general@4=50", FOUR_COLUMNS)
        assert card[FOUR_COLUMNS.slot_index("full@2")] == 25
        assert card[FOUR_COLUMNS.slot_index("general@4")] == 50

    def test_format_round_trip(self) -> None:
        card = parse_filled("poker=40,1=3,generala=0", GENERALA)
        assert format_filled(GENERALA, card) == "1=3,poker=40,generala=0,doble=0"
        assert parse_filled(format_filled(GENERALA, card), GENERALA) == card
