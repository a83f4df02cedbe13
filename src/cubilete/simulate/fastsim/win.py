"""The compiled win and target bots: seats of :func:`cubilete.simulate.fastsim.loop._play` that play ``win``
(the moves of :class:`cubilete.play.bots.win.WinBot`) or ``target:T`` (those of
:class:`cubilete.play.bots.target.TargetBot`), beside optimal bots, each other, or the exact bot heads-up;
many deals on every core.

They play on the rules that have the win tables (``follow`` and ``target``: Generala, General, Bozó and
the smaller presets and profiles; not Yahtzee or Yatzy, where the Python win bot plays the optimal moves
and the Python target bot reads a table of its one target). ``paired`` with more than two bots rotates
the seats: run r puts bot b in seat (b + r) mod n, so every bot plays every seat on the same dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cubilete.engine.rules.model import Rules
from cubilete.simulate.fastsim import rotated

if TYPE_CHECKING:
    from cubilete.simulate.fastsim import Batch, Mode, Progress

__all__ = ["play_win", "rotated", "win_unsupported"]


def win_unsupported(rules: Rules, levels: Sequence[str]) -> str | None:
    """Why the compiled win or target bot cannot play on these rules (None if it can)."""
    from cubilete.engine.errors import SolverUnsupportedError
    from cubilete.win.tables import check_tables

    who = "win bot" if "win" in levels else "target bot"
    try:
        check_tables(rules)
    except SolverUnsupportedError as exc:
        return f"the compiled {who} needs the win tables: {exc}"
    return None


def play_win(
    rules: Rules,
    levels: Sequence[str],
    seed: str | int,
    deals: int,
    mode: Mode = "table",
    first: int = 0,
    progress: Progress | None = None,
    threads: int | None = None,
    trace: int = 0,
    departures: np.ndarray | None = None,
) -> Batch:
    """:func:`cubilete.simulate.fastsim.play` (kept for the studies): with ``departures`` (turns x (slots + 3), int64)
    it adds the win seats' decisions and departures from the points choice by turn."""
    from cubilete.simulate.fastsim import play

    return play(rules, levels, seed, deals, mode, first, progress, threads, trace, departures)
