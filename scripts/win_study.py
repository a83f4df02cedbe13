"""Win bot against the expected-score optimum: paired deals (every deal played twice, seats swapped,
same seeded dice), with a 95% interval on the win bot's share. Results go to docs/WINNING.md by hand.

    PYTHONPATH=src python scripts/win_study.py --rules generala --deals 2000 --players 2
"""

from __future__ import annotations

import argparse
import math
import time

from cubilete.bots import make_bot
from cubilete.game import Game
from cubilete.rules import find_rules


def play(rules_name: str, deal: int, players: int, win_seat: int) -> float:
    """The win bot's share of the win in one game (ties shared)."""
    rules = find_rules(rules_name)
    names = [f"p{i}" for i in range(players)]
    game = Game(rules, names, seed=f"win-study:{deal}")
    bots = {i: make_bot("bot:win" if i == win_seat else "bot:optimal", seed=deal) for i in range(players)}
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    winners = game.state.winners
    return 1.0 / len(winners) if win_seat in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="generala")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out", help="append each deal's share to this file (deal, share), one line a deal")
    args = parser.parse_args()
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    start = time.perf_counter()
    per_deal = []
    for deal in range(args.first, args.first + args.deals):
        shares = [play(args.rules, deal, args.players, seat) for seat in range(args.players)]
        per_deal.append(sum(shares) / args.players)
        if out is not None:
            out.write(f"{deal} {per_deal[-1]!r}\n")
            out.flush()
        n = len(per_deal)
        if n % 50 == 0 or n == args.deals:
            mean = sum(per_deal) / n
            var = sum((x - mean) ** 2 for x in per_deal) / max(1, n - 1)
            half = 1.96 * math.sqrt(var / n)
            print(
                f"{args.rules} {args.players}p deals {n} games {n * args.players}: win bot share {mean:.4f} "
                f"+- {half:.4f} (fair share {1 / args.players:.4f}) {time.perf_counter() - start:.0f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
