"""``cubilete guide``: its help, clear errors for bad arguments, and the guide in Spanish."""

from __future__ import annotations

import re

import pytest

from cubilete.cli.main import main
from cubilete.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> object:
    yield
    set_language("en")


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guide", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--rules-count" in out and "--format" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--rules", "nope"], "unknown rules 'nope'"),
        (["--rules", "generala", "--rules-count", "0"], "--rules-count must be a whole number of at least 1"),
        (["--rules", "generala", "--rules-count", "many"], "not 'many'"),
        (["--rules", "generala", "--format", "pdf"], "unknown format 'pdf'"),
        (["--rules", "maxi-yatzy", "-n", "2"], "no exact solution"),
    ],
)
def test_bad_arguments_are_one_clear_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guide", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_the_guide_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "es", "guide", "--rules", "generala", "-n", "2", "--games", "10"]) == 0
    out = capsys.readouterr().out
    assert "Guía" in out and "Si no" in out
    # the decimal comma of es: "pierde 12,03 puntos", never "12.03"
    assert re.search(r"pierde \d+,\d\d puntos", out) and not re.search(r"pierde \d+\.\d", out)


def test_markdown_has_a_title_and_a_numbered_list_ending_in_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guide", "--rules", "generala", "-n", "1", "--games", "5", "--format", "markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# Strategy guide for")
    numbered = [line for line in lines if line[:1].isdigit()]
    assert [line[:3] for line in numbered] == ["1. ", "2. "]
    assert numbered[-1].startswith("2. Otherwise: score the box that pays most")


def test_each_rule_says_what_it_still_loses_and_the_losses_add_up(capsys: pytest.CaptureFixture[str]) -> None:

    assert main(["guide", "--rules", "generala", "-n", "2", "--games", "5"]) == 0
    out = capsys.readouterr().out
    still = [float(x) for x in re.findall(r"(?:still loses|\(loses) ([0-9.]+) points per game", out)]
    total = float(re.search(r"loses about ([0-9.]+) points per game", out).group(1))  # type: ignore[union-attr]
    numbered = [line for line in out.splitlines() if line[:1].isdigit()]
    assert 2 <= len(still) == len(numbered) and abs(sum(still) - total) < 0.06


def test_a_preset_with_a_shipped_guide_prints_it_and_distil_makes_a_new_one(capsys: pytest.CaptureFixture[str]) -> None:
    from cubilete.engine.rules import find_rules
    from cubilete.play.guide.distil import prune
    from cubilete.play.guide.rules import DEFAULT
    from cubilete.play.guide.shipped import shipped_guide

    yatzy = find_rules("yatzy")
    guide = shipped_guide(yatzy, 30)
    assert guide is not None and len(guide) <= 30
    assert main(["guide", "--rules", "yatzy", "-n", "30", "--games", "5"]) == 0
    lines = [line.split(". ", 1)[1] for line in capsys.readouterr().out.splitlines() if line[:1].isdigit()]
    # the printed lines are the shipped guide's (what each saved was measured when it came in: not printed)
    assert [line.rsplit(" (", 1)[0] for line in lines] == [r.words(yatzy) for r in (*prune(guide), DEFAULT)]
    assert all("still loses" in line or "(loses" in line for line in lines) and not any("saves" in x for x in lines)
    assert main(["guide", "--rules", "generala", "-n", "1", "--games", "5", "--distil"]) == 0
    assert "saves" in capsys.readouterr().out  # distilled here: each rule's saving on its round


def test_house_rules_named_like_a_preset_do_not_get_its_guide() -> None:
    from cubilete.engine.rules import find_rules
    from cubilete.play.guide.shipped import shipped_guide

    yatzy = find_rules("yatzy")
    assert shipped_guide(yatzy.replace(upper_bonus=yatzy.upper_bonus + 1), 10) is None
    assert shipped_guide(find_rules("generala-sin-doble"), 10) is None
