"""The 4-column sheet: the optimal bot's search valued by its columns vs by a per-box estimate.

Both play the same seeded games alone (game i uses the dice seed ``{seed}:{i}``); the figures are
the mean score of each with its 95% interval and the mean of the per-game difference with its own.

    python tools/columns_study.py --games 200 --seed columns-study
"""

from __future__ import annotations

import argparse
import math
import statistics
from concurrent.futures import ProcessPoolExecutor

import cubilete.play.bots.approx as approx
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.bots import make_bot


def play(args: tuple[str, str, int, bool]) -> int:
    """One game alone; ``columns=False`` values the future by the per-box estimate instead."""
    rules_name, seed, index, columns = args
    if not columns:
        approx.column_values = lambda rules: None  # type: ignore[assignment]  # this worker only
    rules = find_rules(rules_name)
    game = Game(rules, ["bot"], seed=f"{seed}:{index}")
    bot = make_bot("bot:optimal", f"{seed}:{index}:bot")
    while not game.is_over:
        game.apply(bot.choose(game))
    return game.totals()[0]


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    return statistics.mean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="general-4-columns")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="columns-study")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(args.rules, args.seed, i, columns) for columns in (True, False) for i in range(args.games)]
    # one pool per variant: a worker that played the per-box variant keeps its patched function
    with ProcessPoolExecutor(args.workers) as pool:
        by_columns = list(pool.map(play, jobs[: args.games]))
    with ProcessPoolExecutor(args.workers) as pool:
        by_boxes = list(pool.map(play, jobs[args.games:]))
    diff = [float(a - b) for a, b in zip(by_columns, by_boxes, strict=True)]
    for label, values in (("columns", by_columns), ("per-box estimate", by_boxes), ("difference", diff)):
        mean, half = interval([float(v) for v in values])
        print(f"{label:>18}: {mean:7.1f}  [{mean - half:.1f}, {mean + half:.1f}]  ({len(values)} games)")


if __name__ == "__main__":
    main()
