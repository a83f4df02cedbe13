"""Advise latency on a loaded table: cubilete's advisor against a named peer on the same situations.

    .venv/bin/python benchmarks/advise_latency.py [--situations 2000] [--seed 1]

Loads (or solves once) the yahtzee and generala tables, collects random reachable situations
by playing games that take the best option half the time and a random one otherwise, and
times one ``advise`` call per situation (it returns the ranked rows of one compiled call and
builds an ``Option`` only when one is read: the best one is read after the clock stops, as a bot
reads it; ``list(advise(...))``, every option built, and ``coach.advise_hand(..., top=5)``, the
advice the scorekeeper and the apps ask for typed dice, are timed on their own lines). Prints median
and p99 in ms (target: < 5 ms). The two sides take turns, 100 situations at a time, so that
a change in the machine's load hits both.

Peers: for yahtzee, yatzy-solver's ``option_values`` on the same situations (its
"american+forced-joker" variant, built once in its own process; the best values of the two
are checked to agree). Generala has no peer package, so its ratio is against a plain-Python
one-turn expectimax (every keep valued by the points it can make by the end of this turn),
which is what an advisor without a solved table has to compute.

Then the whole-turn analysis the apps run per decision, on yahtzee games (optimal move half the
time, a random one otherwise): the optimal bot's ``choose`` and ``analyse`` (its options cache
and the turn memo emptied before each call), ``coach.hint(game, top=5)`` (the advice the TUI, the web
and the CLI show in a game: dice in the order thrown, dice held) and ``coach.review`` per judged
decision (every decision of the game judged by one batched compiled query, after one review not
counted: the kernel loads).
After each game the peer's ``option_values`` is timed on the same decisions (every situation after a
throw of that game); the ratios are medians against it (a review is timed per game: against the peer's
mean per decision of the same game), and against the peer's median above.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from functools import cache

import numba
from _peer import Peer, cores, median, ms

from cubilete.engine.game import Game
from cubilete.engine.rules import Rules, find_rules, scoring
from cubilete.play import coach
from cubilete.play.bots.optimal import _OPTIONS, OptimalBot
from cubilete.solver.advisor import _query, advise, option_table
from cubilete.solver.cache import shared_solution
from cubilete.solver.solve import Solution

Situation = tuple[tuple[int | None, ...], tuple[int, ...], int, int, tuple[int, ...]]  # card, dice, throw, bonus, held
CHUNK = 100  # situations per turn of each side
PEER_NAMES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
              "full_house", "small_straight", "large_straight", "five_of_a_kind", "chance"]  # fmt: skip


def situations(solution: Solution, count: int, rng: random.Random) -> list[Situation]:
    """Reachable situations from games that play the best option half the time, a random one otherwise."""
    rules = solution.rules
    found: list[Situation] = []
    while len(found) < count:
        card: tuple[int | None, ...] = (None,) * len(rules.slots)
        bonuses = 0
        while sum(v is not None for v in card) < rules.turns:  # a scratch may close two boxes
            dice = tuple(sorted(rng.randint(1, 6) for _ in range(rules.dice)))
            for throw in range(1, rules.throws + 1):
                found.append((card, dice, throw, bonuses, ()))
                options = advise(solution, card, dice, throw, bonuses)
                pick = options[0] if rng.random() < 0.5 else rng.choice(options)
                if pick.kind == "score":
                    assert pick.slot is not None
                    slot = rules.slots.index(pick.slot)
                    bonuses += int(scoring.extra_bonus_due(rules, card, slot, dice))
                    card = scoring.write(rules, card, slot, pick.points)
                    break
                dice = tuple(sorted(pick.keep + tuple(rng.randint(1, 6) for _ in range(rules.dice - len(pick.keep)))))
    rng.shuffle(found)
    return found[:count]


def time_ours(solution: Solution, cases: Sequence[Situation]) -> tuple[list[float], list[float]]:
    """(seconds per advise call, best expected points still to come) for each situation."""
    times, best = [], []
    memo = _query(solution).memo
    for card, dice, throw, bonuses, held in cases:
        memo.clear()  # no help from an earlier query of the same turn: the peer starts from scratch too
        start = time.perf_counter()
        options = advise(solution, card, dice, throw, bonuses, held)
        times.append(time.perf_counter() - start)
        best.append(options[0].expected - scoring.total(solution.rules, card, bonuses))
    return times, best


def time_table(solution: Solution, cases: Sequence[Situation]) -> list[float]:
    """Seconds per ``option_table`` call (the same query, rows in one array, no object per option)."""
    times = []
    memo = _query(solution).memo
    for card, dice, throw, bonuses, held in cases:
        memo.clear()
        start = time.perf_counter()
        option_table(solution, card, dice, throw, bonuses, held)
        times.append(time.perf_counter() - start)
    return times


def time_listed(solution: Solution, cases: Sequence[Situation]) -> list[float]:
    """Seconds per ``list(advise(...))``: the query and every ``Option`` object built (what a caller that
    reads all the options pays; ``advise`` builds them as they are read)."""
    times = []
    memo = _query(solution).memo
    for card, dice, throw, bonuses, held in cases:
        memo.clear()
        start = time.perf_counter()
        list(advise(solution, card, dice, throw, bonuses, held))
        times.append(time.perf_counter() - start)
    return times


def time_coach(solution: Solution, cases: Sequence[Situation], top: int = 5) -> list[float]:
    """Seconds per ``coach.advise_hand(..., top=5)``: what the scorekeeper and the apps call for typed dice
    (the query plus the ``top`` pieces of advice, each with its engine action and dice positions)."""
    times = []
    memo = _query(solution).memo
    rules = solution.rules
    for card, dice, throw, bonuses, held in cases:
        memo.clear()
        start = time.perf_counter()
        coach.advise_hand(rules, card, dice, throw, bonuses, held, top=top)
        times.append(time.perf_counter() - start)
    return times


def bot_games(rules: Rules, count: int, rng: random.Random) -> list[Game]:
    """Finished one-player games: the optimal bot's move half the time, a random legal one otherwise."""
    bot = OptimalBot(seed=0)
    games = []
    for g in range(count):
        game = Game(rules, ["ana"], seed=f"bench-{g}")
        while not game.is_over:
            if game.state.turn.throws and rng.random() < 0.5:
                game.apply(rng.choice(game.legal_actions()))
            else:
                game.apply(bot.choose(game))
        games.append(game)
    return games


def time_bot(solution: Solution, games: Sequence[Game]) -> tuple[list[float], list[float]]:
    """Seconds per decision of the optimal bot: (``choose``, ``analyse``), caches emptied before each."""
    bot = OptimalBot(seed=0)
    memo = _query(solution).memo
    chose, analysed = [], []
    for game in games:
        replay = Game(game.rules, game.players, seed=game.seed)
        for action in game.history:
            if replay.state.turn.throws:
                pair = [(bot.choose, chose), (bot.analyse, analysed)]
                if len(chose) % 2:  # the second call finds the table's lines in the CPU cache: take turns
                    pair.reverse()
                for method, times in pair:
                    _OPTIONS.clear()
                    memo.clear()
                    start = time.perf_counter()
                    method(replay)
                    times.append(time.perf_counter() - start)
            replay.apply(action)
    return chose, analysed


def time_hint(solution: Solution, games: Sequence[Game]) -> list[float]:
    """Seconds per ``coach.hint(game, top=5)``: the advice the TUI, the web and the CLI ask for in a game (dice in
    the order thrown, dice held), on every decision of the games."""
    memo = _query(solution).memo
    times = []
    for game in games:
        replay = Game(game.rules, game.players, seed=game.seed)
        for action in game.history:
            if replay.state.turn.throws:
                memo.clear()
                start = time.perf_counter()
                coach.hint(replay, top=5)
                times.append(time.perf_counter() - start)
            replay.apply(action)
    return times


def time_review(solution: Solution, games: Sequence[Game]) -> list[float]:
    """Seconds per judged decision of ``coach.review`` (the whole game reviewed), per game."""
    memo = _query(solution).memo
    times = []
    for game in games:
        _OPTIONS.clear()
        memo.clear()
        start = time.perf_counter()
        review = coach.review(game, players=["ana"])
        times.append((time.perf_counter() - start) / max(1, len(review.decisions)))
    return times


def decisions_of(game: Game) -> list[Situation]:
    """The situations a game's player decided in (after a throw): what the bot and the review are timed on."""
    found: list[Situation] = []
    for before in game.states[: len(game.history)]:
        seat, turn = before.seats[before.current], before.turn
        if turn.throws:
            found.append((seat.card, tuple(sorted(turn.dice)), turn.throws, seat.extra_bonuses, ()))
    return found


def peer_notation(rules: Rules, situation: Situation) -> str:
    """The peer's notation of a yahtzee situation (values there exclude the score so far)."""
    card, dice, throw, _, _ = situation
    filled = [PEER_NAMES[j] for j, v in enumerate(card) if v is not None]
    upper = sum(v or 0 for j, v in enumerate(card) if rules.slot_box(j).is_upper)
    text = f"dice {' '.join(map(str, dice))} | rolls {rules.throws - throw} | upper {upper} | "
    text += f"filled {','.join(filled) or '-'}"
    yahtzee = card[rules.slot_index("yahtzee")]
    return text + (f" | five_of_a_kind {yahtzee}" if yahtzee is not None else "")


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every multiset thrown with ``n`` dice and its probability."""
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    return tuple((hand, c / 6**n) for hand, c in counts.items())


def one_turn_expectimax(rules: Rules, card: Sequence[int | None], dice: Sequence[int], throw: int) -> float:
    """The baseline peer: the best option's expected points by the end of this turn, in plain Python."""
    values: dict[tuple[tuple[int, ...], int], float] = {}

    def best_box(hand: tuple[int, ...], first: bool) -> float:
        usable = scoring.usable_slots(rules, card, hand, first)
        return max(scoring.slot_points(rules, card, j, hand, first) for j in usable)

    def keep_value(keep: tuple[int, ...], left: int) -> float:
        return sum(p * value(tuple(sorted(keep + rest)), left - 1) for rest, p in outcomes(rules.dice - len(keep)))

    def value(hand: tuple[int, ...], left: int) -> float:
        key = (hand, left)
        if key not in values:
            best = best_box(hand, False)
            if left:
                keeps = {tuple(sorted(k)) for r in range(len(hand)) for k in itertools.combinations(hand, r)}
                best = max(best, *(keep_value(k, left) for k in keeps))
            values[key] = best
        return values[key]

    hand = tuple(sorted(dice))
    now = best_box(hand, throw == 1)
    left = rules.throws - throw
    if not left:
        return now
    keeps = {tuple(sorted(k)) for r in range(len(hand)) for k in itertools.combinations(hand, r)}
    return max(now, *(keep_value(k, left) for k in keeps))


def report(name: str, times: list[float]) -> None:
    """One line of timings."""
    verdict = "ok" if ms(times, 0.99) < 5 else "ABOVE the 5 ms target"
    print(f"  ours  {name:<9} median {ms(times, 0.5):7.3f} ms  p99 {ms(times, 0.99):7.3f} ms  ({verdict})")


def main() -> int:
    """Time both tables and print the comparison."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--situations", type=int, default=2000, help="advise queries per table (default 2000)")
    p.add_argument("--baseline", type=int, default=100, help="situations for the plain-Python baseline (slow)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=10, help="yahtzee games for the bot and review timings (default 10)")
    args = p.parse_args()
    rng = random.Random(args.seed)
    print(f"{cores()} cores; numba {numba.__version__}; {args.situations} situations per table")

    # the process's one table per rule set, the one coach.advise_hand reads (as in the apps): a second copy
    # loaded here would leave advise_hand reading a table the other three runs don't keep in the CPU's caches
    yahtzee = shared_solution(find_rules("yahtzee"))
    generala = shared_solution(find_rules("generala"))
    advise(yahtzee, (None,) * 13, (1, 2, 3, 4, 5), 1)  # warm-up: not counted

    cases = situations(yahtzee, args.situations, rng)
    y_times: list[float] = []
    y_best: list[float] = []
    p_times: list[float] = []
    p_best: list[float] = []
    t_times: list[float] = []
    l_times: list[float] = []
    c_times: list[float] = []
    coach.advise_hand(yahtzee.rules, (None,) * 13, (1, 2, 3, 4, 5), 1)  # warm-up: not counted
    with Peer(cores()) as peer:
        peer.ask(op="build", variant="american+forced-joker")
        peer.ask(op="options", variant="american+forced-joker", situations=[peer_notation(yahtzee.rules, cases[0])])
        for at in range(0, len(cases), CHUNK):  # alternate ours and the peer, chunk by chunk (same load)
            chunk = cases[at : at + CHUNK]
            for run in range(4):  # ours four ways, the first after the peer's turn rotating (its caches are cold)
                which = (at // CHUNK + run) % 4
                if which == 0:
                    times, best = time_ours(yahtzee, chunk)
                    y_times += times
                    y_best += best
                elif which == 1:
                    t_times += time_table(yahtzee, chunk)
                elif which == 2:
                    l_times += time_listed(yahtzee, chunk)
                else:
                    c_times += time_coach(yahtzee, chunk)
            answer = peer.ask(op="options", variant="american+forced-joker",
                              situations=[peer_notation(yahtzee.rules, c) for c in chunk])  # fmt: skip
            p_times += answer["times"]
            p_best += answer["best"]
        # the whole-turn analysis, game by game, and the peer on the same decisions after each game
        games = bot_games(yahtzee.rules, args.games, rng)
        coach.review(games[0], players=["ana"])  # warm-up, not counted: loads the batched query's kernel
        chose: list[float] = []
        analysed: list[float] = []
        hinted: list[float] = []
        reviewed: list[float] = []
        d_times: list[float] = []
        d_games: list[float] = []  # the peer's mean per decision of each game: what a review per decision is
        for game in games:
            c, a = time_bot(yahtzee, [game])
            chose += c
            analysed += a
            hinted += time_hint(yahtzee, [game])
            reviewed += time_review(yahtzee, [game])
            answer = peer.ask(op="options", variant="american+forced-joker",
                              situations=[peer_notation(yahtzee.rules, d) for d in decisions_of(game)])  # fmt: skip
            d_times += answer["times"]
            d_games.append(sum(answer["times"]) / len(answer["times"]))
    report("yahtzee", y_times)
    gap = max(abs(a - b) for a, b in zip(y_best, p_best, strict=True))
    print(f"  peer  yahtzee   median {ms(p_times, 0.5):7.3f} ms  p99 {ms(p_times, 0.99):7.3f} ms  "
          f"(yatzy-solver option_values; best values agree within {gap:.1e})")  # fmt: skip
    print(f"  ours  yahtzee   median {ms(t_times, 0.5):7.3f} ms  p99 {ms(t_times, 0.99):7.3f} ms  "
          "(option_table: the same query, rows in one array)")  # fmt: skip
    print(f"  ours  yahtzee   median {ms(l_times, 0.5):7.3f} ms  p99 {ms(l_times, 0.99):7.3f} ms  "
          "(list(advise(...)): every Option object built)")  # fmt: skip
    print(f"  ours  yahtzee   median {ms(c_times, 0.5):7.3f} ms  p99 {ms(c_times, 0.99):7.3f} ms  "
          "(coach.advise_hand(top=5): what the scorekeeper and the apps call)")  # fmt: skip
    print(f"  ratio ours / yatzy-solver (medians): advise {median(y_times) / median(p_times):.2f}, "
          f"option_table {median(t_times) / median(p_times):.2f}, "
          f"list(advise) {median(l_times) / median(p_times):.2f}, "
          f"coach.advise_hand {median(c_times) / median(p_times):.2f}")  # fmt: skip
    print(f"  peer  decisions median {ms(d_times, 0.5):7.3f} ms  p99 {ms(d_times, 0.99):7.3f} ms  "
          f"(option_values on the {len(d_times)} decisions of {len(games)} games below)")  # fmt: skip
    for name, times, peer_times in (("bot choose", chose, d_times), ("bot analyse", analysed, d_times),
                                    ("hint top=5", hinted, d_times), ("review/dec.", reviewed, d_games)):  # fmt: skip
        print(f"  ours  {name:<11} median {ms(times, 0.5):7.3f} ms  p99 {ms(times, 0.99):7.3f} ms  "
              f"ratio to the peer on the same decisions {median(times) / median(peer_times):.2f}, "
              f"to its advise median {median(times) / median(p_times):.2f}")  # fmt: skip
    print(f"  (review/dec. is a game's review time over its decisions, against the peer's mean time per decision of "
          f"the same game: median over games {ms(d_games, 0.5):.3f} ms)")  # fmt: skip

    cases = situations(generala, args.situations, rng)
    g_times, _ = time_ours(generala, cases)
    report("generala", g_times)
    b_times = []
    for card, dice, throw, _, _ in cases[: args.baseline]:
        start = time.perf_counter()
        one_turn_expectimax(generala.rules, card, dice, throw)
        b_times.append(time.perf_counter() - start)
    print(
        f"  peer  generala  median {ms(b_times, 0.5):7.3f} ms  p99 {ms(b_times, 0.99):7.3f} ms  "
        f"(plain-Python one-turn expectimax, {len(b_times)} situations; no peer package plays Generala)"
    )
    print(f"  ratio ours / plain-Python one-turn expectimax (medians): {median(g_times) / median(b_times):.4f}")
    if not math.isfinite(gap) or gap > 1e-6:
        print("WARNING: the best values of ours and the peer disagree")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
