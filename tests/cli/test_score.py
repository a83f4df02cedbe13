"""``cubilete score``: points worked out by hand from RULES.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cubilete.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, "score", *argv, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def boxes(data: dict[str, object]) -> dict[str, dict[str, object]]:
    rows = data["boxes"]
    assert isinstance(rows, list)
    return {row["slot"]: row for row in rows}


def points(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    """Slot id -> points (None where the box cannot be used now)."""
    return {slot: row["points"] for slot, row in boxes(score_json(capsys, *argv)).items()}


class TestGenerala:
    def test_escalera_servida_25_armada_20(self, capsys: pytest.CaptureFixture[str]) -> None:
        # RULES.md 3.1: Escalera 20; 25 servida; 3-4-5-6-1 is an Escalera
        assert points(capsys, "--dice", "3", "4", "5", "6", "1", "--throw", "1", "escalera") == {"escalera": 25}
        assert points(capsys, "--dice", "3", "4", "5", "6", "1", "--throw", "2", "escalera") == {"escalera": 20}

    def test_default_throw_is_armada(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "score", "--dice", "34561", "escalera")
        assert code == 0
        assert "throw 3 (armada" in out
        assert out.splitlines()[-1] == "escalera (Escalera): 20"

    def test_text_single_box_servida(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "score", "--dice", "3", "4", "5", "6", "1", "--throw", "1", "escalera")
        assert code == 0
        assert out.splitlines()[-1] == "escalera (Escalera): 25  (servida)"

    def test_every_open_box_of_a_hand(self, capsys: pytest.CaptureFixture[str]) -> None:
        # 3 4 5 6 1 armada: upper boxes add their face; Escalera 20; the rest scratch (0)
        expected = {
            "1": 1, "2": 0, "3": 3, "4": 4, "5": 5, "6": 6,
            "escalera": 20, "full": 0, "poker": 0, "generala": 0, "doble": 0,
        }  # fmt: skip
        assert points(capsys, "--dice", "34561") == expected

    def test_full_servido_35_and_five_of_a_kind_is_poker_not_full(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert points(capsys, "--dice", "22555", "--throw", "1", "full") == {"full": 35}
        five = points(capsys, "--dice", "55555")
        assert five["full"] == 0  # RULES.md §4: a five-of-a-kind is not a Full
        assert five["poker"] == 40  # P7: but it is a Póker
        assert five["generala"] == 50

    def test_doble_needs_generala_with_points(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert points(capsys, "--dice", "44444", "--filled", "generala=50", "doble") == {"doble": 100}
        assert points(capsys, "--dice", "44444", "doble") == {"doble": 0}
        code, out, _ = run(capsys, "score", "--dice", "4", "4", "4", "4", "4", "doble")
        assert code == 0
        assert "doble (Doble Generala): 0  (scratch; needs generala with points)" in out

    def test_box_after_the_dice_is_not_taken_for_a_die(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "score", "--dice", "4", "4", "4", "4", "4", "doble", "--filled", "generala=50")
        assert code == 0
        assert out.splitlines()[-1] == "doble (Doble Generala): 100"

    def test_generala_servida_wins_unless_scratched(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert score_json(capsys, "--dice", "66666", "--throw", "1")["instant_win"] is True
        assert score_json(capsys, "--dice", "66666", "--throw", "2")["instant_win"] is False
        # RULES.md §4: a servida Generala does not win for a player who scratched Generala
        assert score_json(capsys, "--dice", "66666", "--throw", "1", "--filled", "generala=0")["instant_win"] is False
        code, out, _ = run(capsys, "score", "--dice", "66666", "--throw", "1")
        assert code == 0
        assert "Generala servida: this hand wins the game at once" in out

    def test_filled_boxes_are_left_out_and_listed(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "score", "--dice", "34561", "--filled", "full=30,poker=0")
        assert code == 0
        assert "closed: full 30, poker 0" in out
        table = [line.split() for line in out.splitlines()[1:-1]]
        assert [row[1] for row in table] == ["1", "2", "3", "4", "5", "6", "escalera", "generala", "doble"]

    def test_line_number_names_a_box(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert points(capsys, "7", "--dice", "34561", "--throw", "1") == {"escalera": 25}

    def test_box_by_display_name(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert points(capsys, "Póker", "--dice", "22223", "--throw", "1") == {"poker": 45}


class TestOtherPresets:
    def test_general_has_no_wrapping_straight(self, capsys: pytest.CaptureFixture[str]) -> None:
        # RULES.md §4: 3-4-5-6-1 is an Escalera in generala, not a sequência in general
        got = points(capsys, "--rules", "general", "--dice", "34561")
        assert got["seq-alta"] == 0 and got["seq-baixa"] == 0
        assert points(capsys, "--rules", "general", "--dice", "23456", "seq-alta") == {"seq-alta": 30}
        assert points(capsys, "--rules", "general", "--dice", "12345", "seq-baixa") == {"seq-baixa": 40}

    def test_yahtzee_extra_bonus_and_forced_joker(self, capsys: pytest.CaptureFixture[str]) -> None:
        # RULES.md 3.4: +100 per extra Yahtzee while the box holds 50; forced joker: the matching upper box
        data = score_json(capsys, "--rules", "yahtzee", "--dice", "66666", "--filled", "yahtzee=50")
        rows = boxes(data)
        usable = {slot: row for slot, row in rows.items() if row["usable"]}
        assert list(usable) == ["6"]
        assert usable["6"]["points"] == 30 and usable["6"]["extra_bonus"] == 100
        assert "joker rule" in str(rows["chance"]["reason"])
        code, out, _ = run(capsys, "score", "--rules", "yahtzee", "--dice", "66666", "--filled", "yahtzee=50")
        assert code == 0
        assert "+100 bonus (extra yahtzee)" in out

    def test_yahtzee_joker_in_the_lower_boxes_when_the_upper_box_is_used(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # forced joker, Sixes used: any open lower box at full value (Full House 25, Large Straight 40)
        got = points(capsys, "--rules", "yahtzee", "--dice", "66666", "--filled", "yahtzee=50,6=24")
        assert got["full-house"] == 25 and got["large-straight"] == 40 and got["small-straight"] == 30
        assert got["chance"] == 30 and got["three-kind"] == 30

    def test_yahtzee_upper_bonus_reached_at_exactly_63(self, capsys: pytest.CaptureFixture[str]) -> None:
        # 3+6+9+12+15 = 45; three 6s add 18: 63, the bonus of 35 is paid
        filled = "1=3,2=6,3=9,4=12,5=15"
        rows = boxes(score_json(capsys, "--rules", "yahtzee", "--dice", "66612", "--filled", filled))
        assert rows["6"]["points"] == 18 and rows["6"]["upper_bonus"] == 35
        assert rows["three-kind"]["points"] == 21 and rows["three-kind"]["upper_bonus"] == 0
        rows = boxes(score_json(capsys, "--rules", "yahtzee", "--dice", "66112", "--filled", filled))
        assert rows["6"]["points"] == 12 and rows["6"]["upper_bonus"] == 0

    def test_bozo_de_boca_adds_5(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert points(capsys, "--rules", "bozo", "--dice", "22555", "--throw", "1", "full") == {"full": 15}
        assert points(capsys, "--rules", "bozo", "--dice", "22555", "--throw", "2", "full") == {"full": 10}

    def test_maxi_yatzy_six_dice(self, capsys: pytest.CaptureFixture[str]) -> None:
        got = points(capsys, "--rules", "maxi", "--dice", "1", "2", "3", "4", "5", "6")
        assert got["full-straight"] == 21 and got["small-straight"] == 15 and got["large-straight"] == 20

    def test_obligada_marks_the_boxes_out_of_order(self, capsys: pytest.CaptureFixture[str]) -> None:
        data = score_json(capsys, "--rules", "obligada", "--dice", "44444", "--filled", "1=0")
        rows = boxes(data)
        assert [slot for slot, row in rows.items() if row["usable"]] == ["2"]
        assert rows["poker"]["points"] is None
        assert rows["poker"]["reason"] == "the boxes go top to bottom: next is 2"
        code, out, _ = run(capsys, "score", "--rules", "obligada", "--dice", "44444", "--filled", "1=0")
        assert code == 0
        assert "cannot be used now: the boxes go top to bottom: next is 2" in out

    def test_four_columns_first_throw_column(self, capsys: pytest.CaptureFixture[str]) -> None:
        # column 4 pays only first-throw hands
        assert points(capsys, "--rules", "general-4-columns", "--dice", "12345", "--throw", "1", "seq-baixa@4") == {
            "seq-baixa@4": 40
        }
        assert points(capsys, "--rules", "general-4-columns", "--dice", "12345", "--throw", "2", "seq-baixa@4") == {
            "seq-baixa@4": 0
        }

    def test_house_rule_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text('base = "generala"\n[box.generala]\nvalue = 60\n', encoding="utf-8")
        assert points(capsys, "--rules", str(profile), "--dice", "33333", "generala") == {"generala": 60}
