"""The guide's loss curve: distil a guide of up to 30 rules, then play each prefix alone for many games.

    PYTHONPATH=src python benchmarks/guide_curve.py --rules yatzy --games 20000 --counts 5,10,20,30

Prints, per number of rules, the mean final score, its standard error and the points lost against the
optimal bot's mean on the same deals (the named peer, played side by side on the same seeds).
"""

from __future__ import annotations

import argparse
import statistics
import time

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.bots import OptimalBot, Strategy
from cubilete.play.guide.bot import GuideBot
from cubilete.play.guide.distil import distil
from cubilete.play.guide.rules import Rule


def play(rules_name: str, bot: Strategy, games: int, seed: str) -> list[int]:
    rules = find_rules(rules_name)
    scores = []
    for index in range(games):
        game = Game(rules, ["solo"], seed=f"{seed}-{index}")
        while not game.is_over:
            game.apply(bot.choose(game))
        scores.append(game.totals()[0])
    return scores


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--distil-games", type=int, default=200)
    parser.add_argument("--counts", default="5,10,20,30")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    rules = find_rules(args.rules)
    start = time.monotonic()
    rounds: list[tuple[Rule, ...]] = []
    steps = distil(rules, max(counts), games=args.distil_games, rounds=rounds)
    print(f"# {args.rules}: distilled {len(steps)} rules in {time.monotonic() - start:.0f} s")
    for number, step in enumerate(steps, 1):
        print(f"#  {number:2}. {step.rule.words(rules)} (saves {step.saved:.2f})")
    optimal = play(args.rules, OptimalBot(), args.games, "curve")
    best = statistics.fmean(optimal)
    print(f"rules\tmean\tse\tlost_vs_optimal   (optimal mean {best:.2f} over {args.games} games)")
    for count in counts:
        guide = rounds[min(count, len(rounds)) - 1]  # the guide distilled at that many rules
        scores = play(args.rules, GuideBot(guide), args.games, "curve")
        mean = statistics.fmean(scores)
        se = statistics.stdev(scores) / len(scores) ** 0.5
        print(f"{count}\t{mean:.2f}\t{se:.2f}\t{best - mean:.2f}", flush=True)


if __name__ == "__main__":
    main()
