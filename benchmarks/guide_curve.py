"""The guide's loss curve: distil a guide of up to 30 rules, then play the guide of each size for many games.

    PYTHONPATH=src nice -n 19 python benchmarks/guide_curve.py --rules yatzy --games 20000 --counts 5,10,20,30 \
        --save src/cubilete/play/guide/shipped/yatzy.json

Prints, per number of rules, the mean final score, its standard error and the points lost against the
optimal bot's mean on the same deals (the named peer, played side by side on the same seeds). ``--save``
writes the distilled guides (one per round) as JSON; ``--load`` plays saved guides without distilling.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Rules
from cubilete.play.bots import OptimalBot, Strategy
from cubilete.play.guide.bot import GuideBot
from cubilete.play.guide.distil import distil
from cubilete.play.guide.shipped import at_most, from_json, to_json


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
    parser.add_argument("--distil-games", type=int, default=300)
    parser.add_argument("--counts", default="5,10,20,30")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--load", type=Path)
    parser.add_argument("--no-peer", action="store_true", help="skip the optimal bot's games (run them once)")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    rules = find_rules(args.rules)
    start = time.monotonic()
    if args.load:
        rounds = [from_json(rows) for rows in json.loads(args.load.read_text())["rounds"]]
    else:
        rounds = []

        def report(done: int, total: int) -> None:  # after each round: how far, and the guides so far saved
            size = len(rounds[-1]) if rounds else 0
            print(f"# round {done} ({size} of {total} rules) at {time.monotonic() - start:.0f} s", flush=True)
            if args.save:
                data = {"rules": args.rules, "distil_games": args.distil_games, "rounds": [to_json(g) for g in rounds]}
                args.save.write_text(json.dumps(data) + "\n")

        distil(rules, max(counts), games=args.distil_games, rounds=rounds, progress=report)
        report(len(rounds), max(counts))
        print(f"# {args.rules}: distilled {len(rounds[-1])} rules in {time.monotonic() - start:.0f} s", flush=True)
    for number, rule in enumerate(rounds[-1], 1):
        print(f"#  {number:2}. {rule.words(rules)}")
    exact = optimal_expectation(rules)
    print(f"rules\tmean\tse\tlost_vs_optimal   (optimal play expects {exact:.2f}, from the solved table)", flush=True)
    for count in counts:
        guide = at_most(rounds, count)  # the last guide the distillation had with at most that many rules
        start = time.monotonic()
        scores = play(args.rules, GuideBot(guide), args.games, "curve")
        mean = statistics.fmean(scores)
        se = statistics.stdev(scores) / len(scores) ** 0.5
        took = time.monotonic() - start
        print(f"{count}\t{mean:.2f}\t{se:.2f}\t{exact - mean:.2f}\t({took:.0f} s)", flush=True)
    if args.no_peer:
        return
    optimal = play(args.rules, OptimalBot(), args.games, "curve")  # the named peer, on the same deals
    mean, se = statistics.fmean(optimal), statistics.stdev(optimal) / len(optimal) ** 0.5
    print(f"optimal\t{mean:.2f}\t{se:.2f}\t{exact - mean:.2f}", flush=True)


def optimal_expectation(rules: Rules) -> float:
    """The expected final score of optimal play, read from the solved table at the start of a game."""
    from cubilete.play.bots.optimal import optimal_options

    game = Game(rules, ["solo"], seed="expectation")
    return optimal_options(game)[0].expected


if __name__ == "__main__":
    main()
