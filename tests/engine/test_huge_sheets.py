"""Issue 10, break 3: a huge house-rule sheet must not make each move quadratic in its slots.

A profile of 60 columns x 120 boxes (7,200 slots) took 12 s per ``legal_actions`` and per
``apply`` (every slot rebuilt the tuple of every slot id). The work per move is counted in
Python function calls, not timed: doubling the columns must at most about double the work.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from cubilete.engine.actions import Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules
from cubilete.engine.rules.profile import rules_from_toml


def big_profile(columns: int, boxes: int = 120) -> Rules:
    """Generala without its lower boxes, plus chance boxes up to ``boxes``, on ``columns`` free columns."""
    lines = ['base = "generala"', 'name = "big"', "columns = [" + ", ".join(['"free"'] * columns) + "]",
             'remove = ["generala", "poker", "full", "escalera", "doble"]']
    for i in range(boxes - 6):
        lines += [f"[box.c{i}]", 'name = "C"', 'kind = "chance"']
    return rules_from_toml("\n".join(lines) + "\n", "big.toml")


def calls(work: Callable[[], Any]) -> int:
    """How many Python-level calls (functions, generator steps) ``work`` makes."""
    count = 0

    def tracer(_frame: FrameType, event: str, _arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(tracer)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def one_move_work(rules: Rules) -> int:
    game = Game(rules, ["Ana", "Bea"], seed=3)
    game.apply(Roll())

    def move() -> None:
        actions = game.legal_actions()
        scores = [a for a in actions if isinstance(a, Score)]
        game.apply(scores[-1])
        game.apply(Roll())
        game.legal_actions()

    return calls(move)


def test_the_60_by_120_sheet_has_every_slot_to_choose_from() -> None:
    rules = big_profile(60)
    assert len(rules.slots) == 7200
    game = Game(rules, ["Ana", "Bea"], seed=3)
    game.apply(Roll())
    scores = [a for a in game.legal_actions() if isinstance(a, Score)]
    assert len(scores) == 7200  # every column is free: every open slot takes the hand
    player = game.state.current
    game.apply(Score("c0@60"))
    assert game.state.seats[player].card[rules.slot_index("c0@60")] is not None


@pytest.mark.timeout(60)
def test_the_work_of_a_move_grows_linearly_with_the_slots() -> None:
    small, large = one_move_work(big_profile(15)), one_move_work(big_profile(30))
    # linear: x2 (plus constant parts); the quadratic engine made x4
    assert large < 2.5 * small, (small, large)
