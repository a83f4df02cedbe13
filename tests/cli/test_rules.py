"""``cubilete rules list|show|check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.engine.rules import find_rules, preset_names


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestList:
    def test_every_preset_with_title_and_aliases(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "rules", "list")
        assert code == 0
        lines = out.splitlines()
        assert [line.split()[0] for line in lines] == preset_names()
        generala = lines[preset_names().index("generala")]
        assert "Generala (Argentina)" in generala and "generala-argentina" in generala
        assert "kniffel" in lines[preset_names().index("yahtzee")]

    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "rules", "list", "--json")
        assert code == 0
        data = json.loads(out)
        assert [p["name"] for p in data] == preset_names()
        bozo = next(p for p in data if p["name"] == "bozo")
        assert bozo["aliases"] == ["bozó"] and bozo["title"].startswith("Bozó")


class TestShow:
    def test_generala_in_plain_words(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "rules", "show", "generala")
        assert code == 0
        assert out.startswith("Generala (Argentina) [generala]")
        assert "5 dice, 3 throws a turn" in out
        box_lines = out.split("Boxes:\n")[1].splitlines()
        # RULES.md 3.1: 11 boxes, 1-6 then Escalera, Full, Póker, Generala, Doble
        assert [line.split()[1] for line in box_lines] == [
            "1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "generala", "doble",
        ]  # fmt: skip
        escalera = box_lines[6]
        assert "Escalera" in escalera and "20" in escalera and "25 servida" in escalera
        assert "1-3-4-5-6" in escalera
        assert "points only once generala holds points" in box_lines[10]

    def test_alias_and_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "rules", "show", "kniffel", "--json")
        assert code == 0
        data = json.loads(out)
        assert data["name"] == "yahtzee"
        assert len(data["boxes"]) == 13  # RULES.md 3.4
        chance = {"line": 13, "id": "chance", "name": "Chance", "rule": "any dice: sum of all the dice"}
        assert data["boxes"][12] == chance
        assert data["rules"]["upper_bonus"] == 35 and data["rules"]["upper_bonus_threshold"] == 63
        assert "upper bonus 35 at 63" in data["summary"]

    def test_four_columns_lists_52_slots(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "rules", "show", "general-4-columns", "--json")
        assert code == 0
        data = json.loads(out)
        assert len(data["slots"]) == 52 and data["slots"][13] == "1@2"
        assert len(data["boxes"]) == 13

    def test_house_rule_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text('base = "generala"\nname = "mesa"\nremove = ["doble"]\n', encoding="utf-8")
        code, out, _ = run(capsys, "rules", "show", str(profile))
        assert code == 0
        assert "[mesa]" in out.splitlines()[0]
        assert "doble" not in out.split("Boxes:\n")[1]


class TestCheck:
    def test_valid_profile(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text('base = "generala"\nname = "mesa"\nremove = ["doble"]\n', encoding="utf-8")
        code, out, err = run(capsys, "rules", "check", str(profile))
        assert (code, err) == (0, "")
        assert out.startswith("ok: mesa — 10 boxes, 5 dice, 3 throws")

    def test_invalid_profile_names_line_and_key(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text('base = "generala"\n\n[box.generala]\nvalue = "sixty"\n', encoding="utf-8")
        code, out, err = run(capsys, "rules", "check", str(profile))
        assert code == 1 and out == ""
        assert err.startswith(f"cubilete: error: {profile}:4:") and err.count("\n") == 1
        assert "value" in err

    def test_unknown_base(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text('base = "pocker"\n', encoding="utf-8")
        code, _, err = run(capsys, "rules", "check", str(profile))
        assert code == 1 and f"{profile}:1" in err and "unknown rules 'pocker'" in err

    def test_not_toml(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text("base = = \n", encoding="utf-8")
        code, _, err = run(capsys, "rules", "check", str(profile))
        assert code == 1 and "not valid TOML" in err and err.count("\n") == 1

    def test_missing_file_is_exit_2(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        code, _, err = run(capsys, "rules", "check", str(tmp_path / "nope.toml"))
        assert code == 2 and "no such file" in err

    def test_preset_name_gets_a_hint(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, _, err = run(capsys, "rules", "check", "generala")
        assert code == 2 and "cubilete rules show generala" in err


def test_show_matches_the_registry_for_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    for name in preset_names():
        code, out, _ = run(capsys, "rules", "show", name, "--json")
        assert code == 0
        assert [b["id"] for b in json.loads(out)["boxes"]] == list(find_rules(name).box_ids)
