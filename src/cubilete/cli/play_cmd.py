"""``cubilete play``: start or resume a game in line mode."""

from __future__ import annotations

import argparse
from pathlib import Path

from cubilete import record
from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, rules_arg
from cubilete.cli.play_line import LineSession
from cubilete.cli.players import parse_players, seat_bots
from cubilete.cli.render import final_table
from cubilete.errors import CubileteError
from cubilete.game import Game

DEFAULT_PLAYERS = "You,bot"
DEFAULT_RULES = "generala"

EXAMPLES = """\
examples:
  cubilete play                                   you against the random bot, Generala
  cubilete play --rules yahtzee --players "Ana,Beto,bot" --seed 7
  cubilete play --rules bozo --save partida.json  saved after every move
  cubilete play --resume partida.json             go on with a saved game
  printf 's 1\\ns 2\\n' | cubilete play --players Ana  works over pipes too

Players: 1 to 8 names separated by commas; bot (or bot:random) is the random bot.
Repeated names get suffixes (bot, bot-2). The first throw of each turn is made for
you, except where the rules have the 'em baixo' call (Bozó): then you type r or b.
Type ? during the game for every command: r, k 1 3, s full, s 8, u, c, q.
Line mode is the only mode for now; --plain keeps it when a full-screen mode arrives.

Exit status: 0 the game ended (or you quit); 1 the input ended mid-game, or the
record to resume is corrupt; 2 bad arguments.
"""


def register(subparsers: Subcommands) -> None:
    """Add the ``play`` command."""
    p = subparsers.add_parser(
        "play",
        help="play a game (line mode)",
        description="Play a game in line mode: you type commands, bots play at once.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", metavar="R", help=f"preset, alias or .toml profile (default {DEFAULT_RULES})")
    p.add_argument("--players", "-p", metavar="NAMES", help=f'comma-separated names (default "{DEFAULT_PLAYERS}")')
    p.add_argument("--seed", "-s", metavar="S", help="seed for the dice and the bots: the same seed, the same game")
    p.add_argument("--save", metavar="FILE", help="write the game record to FILE after every move")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (saved back there unless --save)")
    p.add_argument("--plain", action="store_true", help="line mode (the only mode for now)")
    p.set_defaults(func=run)


def _resume(args: argparse.Namespace) -> Game:
    given = [flag for flag, value in (("--rules", args.rules), ("--players", args.players), ("--seed", args.seed))
             if value is not None]
    if given:
        raise CliError(f"--resume continues the recorded game: drop {', '.join(given)}")
    if not Path(args.resume).is_file():
        raise CliError(f"--resume: no such file: {args.resume}")
    try:
        return record.load(args.resume)
    except CubileteError as exc:
        raise CliError(str(exc), DATA_ERROR) from None


def _new_game(args: argparse.Namespace) -> Game:
    rules = rules_arg(args.rules or DEFAULT_RULES)
    names = parse_players(args.players if args.players is not None else DEFAULT_PLAYERS)
    if not rules.min_players <= len(names) <= rules.max_players:
        raise CliError(f"--players: {rules.name} is for {rules.min_players} to {rules.max_players} players, "
                       f"not {len(names)}")
    try:
        return Game(rules, names, seed=args.seed)
    except CubileteError as exc:
        raise CliError(f"--players: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Set up the game (new or resumed) and play it in line mode."""
    game = _resume(args) if args.resume else _new_game(args)
    save = args.save or args.resume
    save_path = Path(save) if save else None
    if save_path is not None and save_path.is_dir():
        raise CliError(f"--save: {save_path} is a directory")
    if save_path is not None:
        try:
            record.save(game, save_path)
        except OSError as exc:
            raise CliError(f"--save: cannot write {save_path}: {exc.strerror}") from None
    if game.is_over:
        print("This game is already over.")
        print(*final_table(game), sep="\n")
        return 0
    if args.resume:
        print(f"Resuming {args.resume}: {len(game.history)} moves so far.")
    return LineSession(game, seat_bots(game), save_path).run()
