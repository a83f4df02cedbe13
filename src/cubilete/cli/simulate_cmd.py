"""``cubilete simulate``: bots play many games; mean, SD, wins and loss against optimal play, with 95% intervals."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import textwrap

from cubilete.cli.common import CliError, Subcommands, rules_arg, text_arg
from cubilete.cli.progress import progress_bar
from cubilete.engine.errors import SimulationError, UnknownBotError
from cubilete.engine.rules import Rules
from cubilete.i18n import N_, _, count, interval, ngettext, number, rules_title, translate_error
from cubilete.play.bots import BOT_LEVELS
from cubilete.play.bots.optimal import is_exact
from cubilete.present.players import bot_label
from cubilete.simulate.pool import SimResult, simulate
from cubilete.solver.cache import shared_solution, table_path

MAX_GAMES = 1_000_000  # hours of play already; more games would only fill the memory with outcomes
NEEDS_TABLE = {"optimal", "beginner", "casual", "strong", "win", "exact"}  # levels that play from the solved table
MAX_WORKERS = 64  # each worker is a process, all started at once

EXAMPLES = N_("""\
examples:
  cubilete simulate --bots optimal,heuristic --games 1000 --seed 7
  cubilete simulate --rules yahtzee --bots optimal,strong,casual,beginner --games 500 --solo
  cubilete simulate --rules maxi-yatzy --bots optimal,greedy --games 50 --json
  cubilete simulate --bots exact,optimal --paired --games 500 --rules mini.toml

{bots}
At one table (the default) every bot plays in every game and wins are counted; with
--solo each bot plays alone, on the same dice seed as the others in that game. Where the
rules are solved exactly, every decision is judged on the solved table: "loss" is the
expected points per game a bot gives away against optimal play (0 for optimal). The
exact optimal expected score assumes one player and no instant wins (a Generala
servida is scored and play goes on), so compare it with --solo on a rule set without
instant wins, e.g. generala-sin-gana. The same seed gives the same games with any
number of workers. Where every seat is an optimal, exact, win or target:T bot on rules the
solver handles, the games are played by the compiled simulation (numba, on --workers
threads; its own counter-based dice, so the same seed plays other games than with
--engine, which forces the game engine); JSON says "compiled".

Exit status: 0 ok; 2 bad arguments.
""")


def examples() -> str:
    """The examples shown by ``cubilete simulate --help``, in the current language."""
    bots = _("Bots: {levels} (bot:LEVEL works too; a level may repeat).").format(levels=", ".join(BOT_LEVELS))
    return _(EXAMPLES).format(bots=textwrap.fill(bots, 88))


def register(subparsers: Subcommands) -> None:
    """Add the ``simulate`` command."""
    p = subparsers.add_parser(
        "simulate",
        help=_("bots play many games: scores, wins and loss with 95%% intervals"),
        description=_("Let bots play many games and print mean, SD, win rate and loss against optimal play."),
        epilog=examples(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", default="generala", metavar="R",
        help=_("preset, alias or .toml (default generala)"))
    p.add_argument(
        "--bots",
        "-b",
        default="optimal,heuristic",
        metavar=_("LEVELS"),
        help=_("comma-separated bot levels: {levels} (default optimal,heuristic)").format(levels=", ".join(BOT_LEVELS)),
    )
    p.add_argument("--games", "-n", type=int, default=100, metavar="N",
                   help=_("games to play, 1 to {most} (default 100)").format(most=count(MAX_GAMES)))
    p.add_argument("--seed", "-s", metavar="S", help=_("seed: the same seed, the same games (default: a random one)"))
    p.add_argument("--workers", "-w", type=int, default=2, metavar="W",
                   help=_("worker processes, 1 to {most} (default 2)").format(most=MAX_WORKERS))
    p.add_argument("--solo", action="store_true", help=_("each bot plays alone instead of all at one table"))
    p.add_argument("--paired", action="store_true",
                   help=_("two bots: every deal twice with the seats swapped on the same dice; differences with CIs"))
    p.add_argument("--no-loss", action="store_true", help=_("do not judge the decisions on the solved table"))
    p.add_argument("--engine", action="store_true",
                   help=_("play through the game engine even where the compiled simulation could"))
    p.add_argument("--json", action="store_true", help=_("print a JSON object"))
    p.add_argument("--dask", metavar=_("ADDRESS"),
        help=_("play the games on a Dask cluster (tcp://HOST:PORT; extra [dask])"))
    p.set_defaults(func=run)  # fmt: skip


def _interval(lo_hi: tuple[float, float] | None, digits: int = 1, scale: float = 1.0) -> str:
    if lo_hi is None:
        return "-"
    return interval(lo_hi[0] * scale, lo_hi[1] * scale, digits)


def result_lines(result: SimResult, instant_wins: bool = True, title: str | None = None) -> list[str]:
    """The result as a table for people (``instant_wins``: the rules have a hand that wins at once; ``title``:
    the rules' title in the reader's language, else the stored one)."""
    where = {
        "solo": _("alone (same dice seed per game)"),
        "paired": _("at one table, every deal twice with the seats swapped"),
    }.get(result.mode, _("at one table"))
    workers = ngettext("{count} worker", "{count} workers", result.workers).format(count=result.workers)
    lines = [
        _("{title}: {games} games, bots {where}, seed {seed}, {workers}, {seconds} s").format(
            title=title if title is not None else result.title, games=result.games, where=where, seed=result.seed,
            workers=workers,
            seconds=number(result.seconds),
        ),
        "",
    ]
    ci = _("95% CI")
    header = [_("bot"), _("mean"), ci, _("SD")]
    if result.mode != "solo":
        header += [_("wins"), ci]
    header += [_("loss/game"), ci]
    rows = [header]
    for b in result.bots:
        row = [bot_label(b.label), number(b.mean), _interval(b.mean_ci), number(b.sd)]
        if result.mode != "solo":
            row += [number((b.win_rate or 0.0) * 100) + "%", _interval(b.win_ci, 1, 100.0)]
        row += ["-" if b.mean_loss is None else number(b.mean_loss, 2), _interval(b.loss_ci, 2)]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    if result.exact_expected is not None:
        exact = number(result.exact_expected, 2)
        if instant_wins:
            text = _("Optimal expected score (exact; one player, no instant wins): {points}")
            lines.append(text.format(points=exact))
        else:
            lines.append(_("Optimal expected score (exact; one player): {points}").format(points=exact))
    if all(b.mean_loss is None for b in result.bots):
        lines.append(_("Loss not measured (rules too large to solve exactly, or --no-loss)."))
    else:
        lines.append(
            _("loss/game: expected points per game given away against optimal play, judged on the solved table.")
        )
    if result.paired is not None:
        first, second = bot_label(result.bots[0].label), bot_label(result.bots[1].label)
        pr = result.paired
        lines.append(
            _("paired ({deals} deals): {first} - {second}: wins {wins} percentage points {wins_ci}, "
              "points {points} {points_ci}").format(
                deals=pr.deals, first=first, second=second, wins=number(pr.win_diff * 100, 2, sign=True),
                wins_ci=_interval(pr.win_diff_ci, 2, 100.0), points=number(pr.points_diff, 2, sign=True),
                points_ci=_interval(pr.points_diff_ci, 2))
        )
    if result.mode != "solo":
        if instant_wins:
            lines.append(
                _("wins: share of games won (a shared win counts for each winner; instant wins end a game).")
            )
        else:
            lines.append(_("wins: share of games won (a shared win counts for each winner)."))
    return lines


def _solve_first(rules: Rules, specs: list[str], measure_loss: bool, quiet: bool) -> None:
    """The exact bots and the loss need the rules' solved table: the first run solves it (a minute or more),
    so say so and show its bar before the games' (later runs load it from the cache at once)."""
    levels = {spec.lower().removeprefix("bot:") for spec in specs}  # "optimal" or "bot:optimal"
    if not is_exact(rules) or not (measure_loss or levels & NEEDS_TABLE) or table_path(rules).is_file():
        return
    if not quiet and sys.stderr.isatty():  # a person waits at a terminal; pipes and programs get nothing
        print(_("cubilete: solving {rules} first, once (later runs load it from the cache at once)").format(
            rules=rules.name), file=sys.stderr)
    with progress_bar(_("solving {rules}").format(rules=rules.name), enabled=not quiet) as show:
        shared_solution(rules, show)


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print the table (or JSON)."""
    rules = rules_arg(args.rules)
    if args.games < 1:
        raise CliError(_("{option} must be at least 1, not {value}").format(option="--games", value=args.games))
    if args.games > MAX_GAMES:
        raise CliError(_("--games: at most {most} in one run, not {games} (run again with another --seed)").format(
            most=count(MAX_GAMES), games=count(args.games)))
    if args.solo and args.paired:
        raise CliError(_("--solo and --paired do not go together: choose one"))
    if args.workers < 1:
        raise CliError(_("{option} must be at least 1, not {value}").format(option="--workers", value=args.workers))
    if args.workers > MAX_WORKERS:
        raise CliError(_("--workers: at most {most}, not {workers} (one process each; this machine has {cores} cores)")
                       .format(most=MAX_WORKERS, workers=count(args.workers), cores=os.cpu_count() or 1))
    if args.seed is not None:
        text_arg("--seed", args.seed)
    specs = [s.strip() for s in args.bots.split(",")]
    if any(not s for s in specs):
        raise CliError(_("--bots: every bot needs a level (got {bots}); levels: {levels}").format(
            bots=repr(args.bots), levels=", ".join(BOT_LEVELS)))
    seed = args.seed if args.seed is not None else secrets.token_hex(4)
    try:
        _solve_first(rules, specs, measure_loss=not args.no_loss, quiet=args.json)
        with progress_bar(_("games"), enabled=not args.json) as progress:
            result = simulate(rules, specs, args.games, seed, args.workers, progress,
                              mode="solo" if args.solo else ("paired" if args.paired else "table"),
                              loss=not args.no_loss, dask=args.dask, engine=args.engine)  # fmt: skip
    except UnknownBotError as exc:
        raise CliError(f"--bots: {translate_error(str(exc))}") from None
    except SimulationError as exc:
        raise CliError(translate_error(str(exc))) from None
    except OSError as exc:
        raise CliError(f"--dask {args.dask}: {exc}") from None
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(*result_lines(result, any(b.instant_win for b in rules.boxes), rules_title(rules)), sep="\n")
    return 0
