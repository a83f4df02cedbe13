"""``cubilete advise --saved N`` on a game WITH saved throws: read from the exact saved-throws table
(a reduced Maxi Yatzy profile solved in the test), checked against the float64 oracle."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.caches import cache_dir
from tests.solver.test_maxi_saved import THREE, oracle
from tests.solver.test_saved_advice import best_by_throws_left, oracle_options

from cubilete.cli import main
from cubilete.engine.rules import load_rules
from cubilete.solver.cache import table_key
from cubilete.solver.maxi.saved import default_dir, solve_saved, useful_cap

PROFILE = """\
base = "maxi-yatzy"
name = "saved-3"
remove = ["1", "3", "4", "5", "6", "one-pair", "two-pairs", "three-pairs", "three-kind", "four-kind", "five-kind",
          "small-straight", "large-straight", "full-house", "villa", "tower", "chance"]
upper_bonus_threshold = 6
upper_bonus = 10
"""


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """THREE as a house-rule file, its exact table solved into the module's cache folder."""
    folder = tmp_path_factory.mktemp("advise-saved")
    path = folder / "three.toml"
    path.write_text(PROFILE, encoding="utf-8")
    with cache_dir(folder / "cache"):
        cap = useful_cap(THREE)
        assert solve_saved(THREE, cap, "lower", default_dir(THREE, cap, "lower")) is not None
        yield str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_profile_is_the_solved_game(profile: str) -> None:
    assert table_key(load_rules(profile)) == table_key(THREE)  # the table is found by this key


@pytest.mark.parametrize(("dice", "throw", "saved"), [("222345", 4, 2), ("222345", 5, 2), ("122456", 1, 2)])
def test_every_option_is_the_oracle_s(
    capsys: pytest.CaptureFixture[str], profile: str, dice: str, throw: int, saved: int
) -> None:
    argv = ["advise", "--rules", profile, "--dice", dice, "--throw", str(throw), "--saved", str(saved)]
    code, out, err = run(capsys, *argv, "--filled", "2=4", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["saved"] == saved and data["points_so_far"] == 4
    o = oracle(THREE)
    card, left = (4, None, None), THREE.throws + saved - throw
    hand = o.hands.index(tuple(int(c) for c in dice))
    want = oracle_options(o, card, 1, left, hand, best_by_throws_left(o, card, 1, left))
    assert data["count"] == len(want) == len(data["options"])
    for option in data["options"]:
        key = ("score", option["slot"]) if option["kind"] == "score" else ("keep", tuple(option["keep"]))
        assert option["expected"] == pytest.approx(want[key], abs=1e-4)
    assert data["options"][0]["expected"] == pytest.approx(max(want.values()), abs=1e-4)
    code, out, err = run(capsys, *argv, "--filled", "2=4")
    assert code == 0 and f"throw {throw} of {THREE.throws + saved}" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--saved", "3", "--throw", "1", "--filled", "2=4"], "at most 2 throws saved, not 3"),
        (["--saved", "1", "--throw", "1"], "at most 0 throws saved, not 1"),
        (["--saved", "-1", "--throw", "1"], "--saved: must be 0 or more, not -1"),
        (["--saved", "2", "--throw", "6", "--filled", "2=4"], "throws 1 to 5, not 6"),
    ],
)
def test_impossible_banks_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], profile: str, argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, "advise", "--rules", profile, "--dice", "222345", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("cubilete: error:") and words in err and err.count("\n") == 1


def test_saved_throws_on_rules_without_them_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with cache_dir(tmp_path):
        code, out, err = run(capsys, "advise", "--dice", "12345", "--throw", "1", "--saved", "2")
    assert (code, out) == (2, "")
    assert "--saved: generala does not carry unused throws over" in err and err.count("\n") == 1


def test_without_the_table_advise_searches_and_names_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with cache_dir(tmp_path):
        code, out, err = run(capsys, "advise", "--rules", "maxi-yatzy", "--dice", "123456", "--throw", "1")
    assert (code, err) == (0, "")  # the bots' approximate search, said so, and how to get the exact table
    assert "Approximate values" in out and "cubilete solve --rules maxi-yatzy --cap 38 --bound lower\n" in out
