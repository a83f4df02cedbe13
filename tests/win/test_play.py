"""Target and win values of a decision checked by hand, the win bot, coach.hint(win=True), and the
commands (distribution, advise --target / --vs)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest
from tests.conftest import Table

from cubilete.cli import main
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.game import Game
from cubilete.engine.notation import parse_filled
from cubilete.engine.rules import find_rules, scoring
from cubilete.engine.rules.model import Start
from cubilete.engine.state import Seat
from cubilete.play.bots import make_bot
from cubilete.play.coach import hint
from cubilete.win import target_options, win_options
from cubilete.win.distribution import Distribution

GENERALA = find_rules("generala")
# Every box written but Poker: 3+6+9+12+15+18 + 20 + 30 + 50 + 0 = 163 points.
ALL_BUT_POKER = "1=3,2=6,3=9,4=12,5=15,6=18,escalera=20,full=30,generala=50,doble=0"
# Needs more than 20 points from the 2s and the 6s: 63 points; 1s, 5s, generala, doble scratched.
CHASE = "1=0,3=9,4=4,5=0,escalera=20,full=30,poker=0,generala=0,doble=0"


def point(score: int) -> Distribution:
    return Distribution("generala", score, np.ones(1))


def by_option(found: Sequence[object]) -> dict[object, float]:
    out = {}
    for w in found:
        o = w.option  # type: ignore[attr-defined]
        out[o.keep if o.kind == "keep" else o.slot] = w.win  # type: ignore[attr-defined]
    return out


class TestByHand:
    def test_poker_last_box_target(self) -> None:
        card = parse_filled(ALL_BUT_POKER, GENERALA)
        assert scoring.total(GENERALA, card) == 163
        found = by_option(target_options(GENERALA, card, (4, 4, 4, 1, 2), 2, 203))
        # keep 4 4 4: a fourth 4 among two dice, 1 - (5/6)^2 (a fifth 4 is a poker too)
        assert found[(4, 4, 4)] == pytest.approx(11 / 36, abs=1e-12)
        assert found[(1, 4, 4, 4)] == pytest.approx(1 / 6, abs=1e-12)
        assert found["poker"] == 0.0  # 4 4 4 1 2 is no poker: scratched
        # 45 needs a servida poker: impossible on the second throw
        assert max(w.win for w in target_options(GENERALA, card, (4, 4, 4, 1, 2), 2, 204)) == 0.0

    @pytest.mark.parametrize(("opponent", "share"), [(202, 1.0), (203, 0.5), (204, 0.0)])
    def test_poker_last_box_against_a_finished_opponent(self, opponent: int, share: float) -> None:
        card = parse_filled(ALL_BUT_POKER, GENERALA)
        found = by_option(win_options(GENERALA, card, (4, 4, 4, 1, 2), 2, [point(opponent)]))
        assert found[(4, 4, 4)] == pytest.approx(share * 11 / 36, abs=1e-12)  # a tie on 203 is half a win

    def test_behind_it_takes_the_points_that_can_still_win(self) -> None:
        """63 points against 83: scoring the 6s now (12, the points choice) leaves only five 2s to win;
        scoring 2 in the 2s leaves four 6s (or three for a tie) in the last turn."""
        card = parse_filled(CHASE, GENERALA)
        assert scoring.total(GENERALA, card) == 63
        found = win_options(GENERALA, card, (2, 3, 6, 4, 6), 3, [point(83)])
        best = found[0]
        assert (best.option.kind, best.option.slot) == ("score", "2")
        sixes = next(w for w in found if w.option.slot == "6")
        assert sixes.option.expected > best.option.expected  # the points choice
        assert best.win > sixes.win + 0.1

    def test_alone_every_option_wins(self) -> None:
        card = parse_filled(ALL_BUT_POKER, GENERALA)
        assert {w.win for w in win_options(GENERALA, card, (4, 4, 4, 1, 2), 2, [])} == {1.0}


def position(rules_name: str, sheets: Sequence[Mapping[str, int]], dice: Sequence[int]) -> Table:
    """A game at seat 0's turn with these sheets, after a first throw showing ``dice``."""
    rules = find_rules(rules_name).replace(start=Start.SEAT_ORDER)
    game = Game(rules, [f"p{i}" for i in range(len(sheets))], seed="t", dice=ScriptedDice([]))
    st = game.state
    seats = tuple(
        Seat(s.name, tuple(sheet.get(slot) for slot in rules.slots), 0, 0, len(sheet))
        for s, sheet in zip(st.seats, sheets, strict=True)
    )
    game._states[-1] = type(st)(seats, st.order, 0, st.turn, st.throws_made)
    table = Table(game)
    table.roll(dice)
    return table


class TestBotAndCoach:
    def test_the_win_bot_chases_where_points_would_not(self) -> None:
        chase = dict(kv.split("=") for kv in CHASE.split(","))
        opponent = dict(kv.split("=") for kv in ALL_BUT_POKER.split(","))
        opponent.update(poker="0", doble="0", generala="0", full="0")  # finished on 83
        sheets = [{k: int(v) for k, v in chase.items()}, {k: int(v) for k, v in opponent.items()}]
        t = position("generala", sheets, (2, 3, 6, 4, 6))
        t.roll((2, 3, 6), keep=(3, 4))  # the 4 and a 6 kept: 2 3 6 4 6 again
        t.roll((2, 3, 6), keep=(3, 4))  # and again: the third throw
        game = t.game
        assert game.totals() == [63, 83] and game.state.turn.throws == 3
        win = make_bot("bot:win", seed=1)
        analysis = win.analyse(game)
        assert "opponents assumed" in analysis.note
        assert abs(sum(o.expected for o in analysis[:1])) <= 1.0
        optimal = make_bot("bot:optimal", seed=1).analyse(game)[0]
        assert optimal.slot == "6"
        advice, exact = hint(game, top=3, win=True)
        assert not exact  # estimated: exact chances come only from a two-player table (none here)
        assert advice[0].win == pytest.approx(analysis[0].expected)
        assert advice[0].action == win.choose(game)
        plain, _ = hint(game, top=3)
        assert plain[0].win is None and plain[0].slot == "6"

    def test_the_win_bot_plays_whole_games_of_three(self) -> None:
        game = Game(GENERALA, ["w", "a", "b"], seed="three")
        bots = {0: make_bot("bot:win", 1), 1: make_bot("bot:optimal", 1), 2: make_bot("bot:optimal", 2)}
        while not game.is_over:
            action = bots[game.state.current].choose(game)
            assert action in game.legal_actions()
            game.apply(action)

    def test_falls_back_to_the_optimal_bot_where_there_are_no_tables(self) -> None:
        game = Game(find_rules("general-4-columns"), ["w", "o"], seed=2)
        bot = make_bot("bot:win", 1)
        game.apply(bot.choose(game))
        analysis = bot.analyse(game)
        assert "no exact tables" in analysis.note and "optimal bot" in analysis.note
        assert bot.choose(game) in game.legal_actions()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestCommands:
    def test_distribution_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "distribution", "--rules", "bozo", "--json")
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert data["rules"] == "bozo"
        assert sum(p for _, p in data["pmf"]) == pytest.approx(1.0, abs=1e-12)
        mean = sum(s * p for s, p in data["pmf"])
        assert data["mean"] == pytest.approx(mean, abs=1e-9)
        q = data["quantiles"]
        assert q["0.01"] <= q["0.5"] <= q["0.99"]

    def test_distribution_from_a_position_and_plot(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        pytest.importorskip("matplotlib")
        png = tmp_path / "d.png"
        code, out, err = run(capsys, "distribution", "--filled", ALL_BUT_POKER, "--plot", str(png))
        assert (code, err) == (0, "")
        assert "mean" in out and png.read_bytes()[:4] == b"\x89PNG"
        code, out, _ = run(capsys, "distribution", "--filled", ALL_BUT_POKER, "--json")
        pmf = dict(json.loads(out)["pmf"])
        assert set(pmf) == {163, 203, 208}  # scratched, armada or servida poker

    @pytest.mark.parametrize(
        ("argv", "code", "words"),
        [
            (["distribution", "--rules", "maxi-yatzy"], 1, "carry over"),
            (["distribution", "--filled", "nope=3"], 2, "unknown box"),
            (["advise", "--dice", "44412", "--throw", "2", "--vs", "full=x"], 2, "--vs (opponent 1)"),
            (["advise", "--rules", "yatzy", "--dice", "44412", "--throw", "2", "--vs", "1=3"], 1, "win tables"),
        ],
    )
    def test_bad_input_is_one_line(
        self, capsys: pytest.CaptureFixture[str], argv: list[str], code: int, words: str
    ) -> None:
        got, out, err = run(capsys, *argv)
        assert got == code and out == ""
        assert err.startswith("cubilete: error:") and words in err and err.count("\n") == 1

    def test_advise_target_and_vs(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["advise", "--dice", "44412", "--throw", "2", "--filled", ALL_BUT_POKER, "--json"]
        code, out, err = run(capsys, *argv, "--target", "203", "--vs", ALL_BUT_POKER.replace("full=30", "full=0"))
        assert (code, err) == (0, "")
        rows = json.loads(out)["options"]
        keep = next(r for r in rows if r.get("keep") == [4, 4, 4])
        assert keep["reach"] == pytest.approx(11 / 36, abs=1e-12)
        # the opponent (133 points, poker open) scores 40 or 45 with poker, or nothing
        assert 0.0 < rows[-1]["win"] <= keep["win"] == rows[0]["win"] < 1.0


@pytest.mark.slow
def test_yatzy_distribution_and_target_from_a_late_position(capsys: pytest.CaptureFixture[str]) -> None:
    """Yatzy has no (state x score) table: the forward pass and a table of the one target asked."""
    late = "1=3,2=6,3=9,4=12,5=15,6=18,one-pair=12,two-pairs=22,three-kind=18,four-kind=24,small-straight=15"
    code, out, err = run(capsys, "distribution", "--rules", "yatzy", "--filled", late, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert sum(p for _, p in data["pmf"]) == pytest.approx(1.0, abs=1e-12)
    assert data["pmf"][0][0] >= 3 + 6 + 9 + 12 + 15 + 18 + 50 + 12 + 22 + 18 + 24 + 15  # the bonus is already won
    code, out, err = run(capsys, "advise", "--rules", "yatzy", "--dice", "66612", "--throw", "3", "--filled", late,
                         "--target", "300", "--json")  # fmt: skip
    assert (code, err) == (0, "")
    rows = json.loads(out)["options"]
    assert all(0.0 <= r["reach"] <= 1.0 for r in rows) and rows[0]["reach"] > 0.0
    reach = [round(r["reach"], 9) for r in rows]
    assert reach == sorted(reach, reverse=True)  # ranked by the chance of reaching 300


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset",
    ["generala-apartada", "general-12", "general-4-columns"],
)
def test_the_win_bot_plays_every_kind_of_rules(preset: str) -> None:
    """Locked holds, fewer rounds than boxes, and a fallback (no exact tables)."""
    game = Game(find_rules(preset), ["w", "o", "x"], seed=f"win-{preset}")
    bots = {0: make_bot("bot:win", 1), 1: make_bot("bot:optimal", 1), 2: make_bot("bot:win", 2)}
    while not game.is_over:
        action = bots[game.state.current].choose(game)
        assert action in game.legal_actions()
        game.apply(action)
