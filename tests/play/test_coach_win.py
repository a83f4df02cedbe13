"""The coach's "for points" and "to win" advice, and why they differ (positions checked by hand in tests/win)."""

from __future__ import annotations

from tests.win.test_play import ALL_BUT_POKER, CHASE, position

from cubilete.engine.actions import Score
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.coach_win import two_ways, two_ways_lines


def chase_game() -> Game:
    """63 points against a finished 83, third throw 2 3 6 4 6: for points the 6s (12), to win the 2s
    (four 6s, or three for a tie, remain possible in the last turn; five 2s are far less likely)."""
    chase = {k: int(v) for k, v in (kv.split("=") for kv in CHASE.split(","))}
    opponent = {k: int(v) for k, v in (kv.split("=") for kv in ALL_BUT_POKER.split(","))}
    opponent.update(poker=0, doble=0, generala=0, full=0)
    t = position("generala", [chase, opponent], (2, 3, 6, 4, 6))
    t.roll((2, 3, 6), keep=(3, 4))
    t.roll((2, 3, 6), keep=(3, 4))
    return t.game


def test_behind_the_coach_says_to_win_differs_from_points_and_why() -> None:
    game = chase_game()
    assert game.totals() == [63, 83]
    both = two_ways(game)
    assert both is not None
    assert both.points.action == Score("6") and both.win.action == Score("2")
    assert both.differ and both.behind
    assert both.win.win is not None and both.points.win is not None
    assert both.win.win > both.points.win + 0.1
    assert both.points.expected > both.win.expected
    lines = two_ways_lines(game, both)
    assert lines[0].startswith("For points: score 6s") or lines[0].startswith("For points: score")
    assert "To win:" in lines[1] and "Why they differ: you are behind" in lines[2]


def test_when_points_also_win_best_the_coach_says_so() -> None:
    game = Game(find_rules("generala"), ["Ana", "Beto"], seed=3)
    from cubilete.engine.actions import Roll

    game.apply(Roll())
    both = two_ways(game)
    assert both is not None
    lines = two_ways_lines(game, both)
    if not both.differ:
        assert lines[1].startswith("To win: the same choice")
    estimated = 0 if both.exact else 1  # the last line says the chances are estimated (not heads-up exact)
    assert len(lines) == (3 if both.differ else 2) + estimated


def test_alone_or_without_win_tables_there_is_no_second_advice() -> None:
    from cubilete.engine.actions import Roll

    alone = Game(find_rules("generala"), ["Ana"], seed=3)
    alone.apply(Roll())
    assert two_ways(alone) is None
    large = Game(find_rules("general-4-columns"), ["Ana", "Beto"], seed=3)
    large.apply(Roll())
    assert two_ways(large) is None
