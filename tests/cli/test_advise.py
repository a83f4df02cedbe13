"""``cubilete advise``: every option of a situation, checked against facts worked out by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.engine.actions import Roll
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.bots.approx import approx_options
from cubilete.solver.advisor import advise
from cubilete.solver.cache import load_or_solve

# Generala with every box written but Full: 3+6+9+12+15+18 + 20 + 40 + 50 + 0 = 173 points.
ALL_BUT_FULL = "1=3,2=6,3=9,4=12,5=15,6=18,escalera=20,poker=40,generala=50,doble=0"


@pytest.fixture(scope="module", autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("advise-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    yield path
    mp.undo()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def advise_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, "advise", *argv, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def options(data: dict[str, object]) -> list[dict[str, object]]:
    rows = data["options"]
    assert isinstance(rows, list)
    return rows


class TestAdvice:
    def test_full_servido_with_only_full_open_is_scored_for_35(self, capsys: pytest.CaptureFixture[str]) -> None:
        # RULES.md 3.1: a Full made with the first throw is worth 35; thrown again it can be 30 at best.
        data = advise_json(capsys, "--dice", "2", "2", "3", "3", "3", "--throw", "1", "--filled", ALL_BUT_FULL)
        assert data["points_so_far"] == 173
        rows = options(data)
        assert rows[0] == {"kind": "score", "slot": "full", "points": 35, "expected": 208.0, "loss": 0.0}
        # 2 2 3 3 3 has 3 x 4 = 12 sub-multisets; keeping all five is no option: 11 keeps + 1 box.
        assert len(rows) == data["count"] == 12
        assert all(r["kind"] == "keep" and r["expected"] <= 173 + 30 for r in rows[1:])  # type: ignore[operator]
        for r in rows:
            assert r["loss"] == pytest.approx(208.0 - r["expected"])  # type: ignore[operator]

    def test_last_throw_offers_only_boxes(self, capsys: pytest.CaptureFixture[str]) -> None:
        # Armada (throw 3 of 3) 2 2 3 3 3 with only Full open: write the Full for 30, nothing else.
        data = advise_json(capsys, "-d", "22333", "-t", "3", "-f", ALL_BUT_FULL)
        assert options(data) == [{"kind": "score", "slot": "full", "points": 30, "expected": 203.0, "loss": 0.0}]

    def test_text_lists_options_best_first(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "advise", "--dice", "2", "2", "3", "3", "3", "--throw", "1", "-f", ALL_BUT_FULL)
        assert (code, err) == (0, "")
        lines = out.splitlines()
        assert lines[0] == "generala: dice 2 2 3 3 3, throw 1 of 3 (servida), 173 points so far"
        first = next(line for line in lines if line.lstrip().startswith("1."))
        assert first.split() == ["1.", "score", "full", "(35)", "208.000", "0.000"]
        assert "Instant wins are not modelled" in out

    def test_servida_is_named_only_where_the_first_throw_pays_more(self, capsys: pytest.CaptureFixture[str]) -> None:
        # Yatzy scores a first-throw hand like any other: no Generala word on its screen (RULES.md, Yatzy)
        code, out, err = run(capsys, "advise", "--rules", "yatzy", "--dice", "1", "2", "3", "4", "6", "--throw", "1")
        assert (code, err) == (0, "")
        assert out.splitlines()[0] == "yatzy: dice 1 2 3 4 6, throw 1 of 3, 0 points so far"
        code, out, err = run(capsys, "--lang", "es", "advise", "--rules", "yatzy", "--dice", "12346", "--throw", "2")
        assert (code, err) == (0, "")
        assert out.splitlines()[0].startswith("yatzy: dados 1 2 3 4 6, tiro 2 de 3, ")
        assert "armada" not in out and "servida" not in out

    def test_matches_the_python_api_and_top(self, capsys: pytest.CaptureFixture[str]) -> None:
        data = advise_json(capsys, "--dice", "1", "1", "3", "4", "5", "--throw", "1", "--filled",
                           "escalera=20,full=0", "--top", "3")  # fmt: skip
        rules = find_rules("generala")
        card = [None] * len(rules.slots)
        card[rules.slot_index("escalera")], card[rules.slot_index("full")] = 20, 0
        api = advise(load_or_solve(rules, moments=False), card, (1, 1, 3, 4, 5), throw=1)
        assert data["count"] == len(api)
        rows = options(data)
        assert len(rows) == 3
        for row, opt in zip(rows, api[:3], strict=True):
            assert row["expected"] == opt.expected and row["kind"] == opt.kind
        assert data["points_so_far"] == 20

    def test_locked_holds(self, capsys: pytest.CaptureFixture[str]) -> None:
        data = advise_json(capsys, "-r", "generala-apartada", "-d", "6", "6", "2", "3", "6", "-t", "2",
                           "--held", "6", "6")  # fmt: skip
        keeps = [tuple(r["keep"]) for r in options(data) if r["kind"] == "keep"]  # type: ignore[arg-type]
        # The two held sixes plus any proper part of {2, 3, 6}: 7 keeps, each with both sixes.
        assert len(keeps) == 7 and all(k.count(6) >= 2 for k in keeps)
        assert data["held"] == [6, 6]

    def test_extra_bonuses_count_in_the_final_score(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        # A small Yahtzee: Full House, Yahtzee, Chance. Two +100 bonuses already earned
        # add exactly 200 to every option's expected final score.
        profile = small_yahtzee(tmp_path, "1", "2", "3", "4", "5", "6")
        args = ("-r", str(profile), "-d", "6", "6", "6", "6", "6", "-t", "2", "-f", "yahtzee=50")
        plain = advise_json(capsys, *args)
        more = advise_json(capsys, *args, "--bonuses", "2")
        assert (plain["points_so_far"], more["points_so_far"]) == (50, 250)
        for a, b in zip(options(plain), options(more), strict=True):
            assert b["expected"] == pytest.approx(a["expected"] + 200)  # type: ignore[operator]


class TestErrors:
    @pytest.mark.parametrize(
        ("argv", "words"),
        [
            (["--dice", "1", "2", "3", "4", "--throw", "1"], "--dice"),
            (["--dice", "1", "2", "3", "4", "7", "--throw", "1"], "--dice"),
            (["--dice", "12345", "--throw", "4"], "--throw"),
            (["--dice", "12345", "--throw", "0"], "--throw"),
            (["--dice", "12345", "--throw", "1", "--filled", "full=31"], "--filled"),
            (["--dice", "12345", "--throw", "1", "--filled", ALL_BUT_FULL + ",full=30"], "complete"),
            (["--dice", "12345", "--throw", "1", "--held", "1"], "locked holds"),
            (["-r", "generala-apartada", "--dice", "12345", "--throw", "2", "--held", "6"], "not among the dice"),
            (["-r", "generala-apartada", "--dice", "12345", "--throw", "1", "--held", "1"], "before the first throw"),
            (["--dice", "12345", "--throw", "1", "--bonuses", "1"], "no extra bonuses"),
            (["--dice", "12345", "--throw", "1", "--top", "0"], "--top"),
            (["--dice", "12345"], "--throw"),
        ],
    )
    def test_bad_arguments_exit_2_with_one_line(
        self, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
    ) -> None:
        code, out, err = run(capsys, "advise", *argv)
        assert (code, out) == (2, "")
        assert err.startswith("cubilete: error:") and words in err
        assert err.count("\n") == 1 and "Traceback" not in err

    @pytest.mark.parametrize(("name", "seed"), [("general-4-columns", "cols-1"), ("maxi-yatzy", "maxi-1")])
    def test_rules_too_large_get_the_bots_approximate_search(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, seed: str
    ) -> None:
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))  # no exact table here
        game = Game(find_rules(name), ["ana"], seed=seed)
        game.apply(Roll())
        dice = "".join(map(str, sorted(game.state.turn.dice)))
        data = advise_json(capsys, "-r", name, "--dice", dice, "--throw", "1")
        assert data["exact"] is False and "one-turn search" in str(data["note"])
        # the same options and values as the bots' search in the same situation
        bot = approx_options(game)
        got = {(o["kind"], o.get("slot"), tuple(o.get("keep", ()))): o["expected"] for o in options(data)}  # type: ignore[arg-type]
        want = {(o.kind, o.slot, tuple(o.keep)): o.expected for o in bot}
        assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], abs=1e-9) for k in want)
        assert options(data)[0]["expected"] == pytest.approx(max(want.values()), abs=1e-9)
        code, out, err = run(capsys, "--lang", "es", "advise", "-r", name, "--dice", dice, "--throw", "1", "--top", "2")
        assert (code, err) == (0, "")
        assert "Valores aproximados" in out and "approximate" not in out

    def test_rules_too_large_refuse_win_chances(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "advise", "-r", "general-4-columns", "--dice", "12345", "--throw", "1", "--vs", "")
        assert (code, out) == (1, "")
        assert err.startswith("cubilete: error: general-4-columns") and "too large" in err and err.count("\n") == 1


def small_yahtzee(folder: Path, *also_removed: str) -> Path:
    """A house-rule profile: official Yahtzee (forced joker) without the four straights-and-kinds boxes."""
    removed = ["three-kind", "four-kind", "small-straight", "large-straight", *also_removed]
    profile = folder / "small.toml"
    names = ", ".join(f'"{b}"' for b in removed)
    profile.write_text(f'base = "yahtzee"\nname = "small-yahtzee"\nremove = [{names}]\n', encoding="utf-8")
    return profile


class TestForcedJoker:
    def test_an_extra_yahtzee_must_go_to_its_open_upper_box(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        # RULES.md 3.4, forced joker: with Yahtzee holding 50, a second 6 6 6 6 6 must be written in
        # the open Sixes box (30 points, plus the +100 bonus): on the last throw it is the only option.
        profile = small_yahtzee(tmp_path, "1", "2", "3", "4", "5")
        data = advise_json(capsys, "-r", str(profile), "-d", "66666", "-t", "3", "-f", "yahtzee=50")
        assert [(r["kind"], r.get("slot"), r.get("points")) for r in options(data)] == [("score", "6", 30)]
