"""``cubilete play``: start or resume a game: the full-screen app on a terminal, line mode
with ``--plain`` or when the input or output is not a terminal (a pipe, a screen reader)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError, Subcommands, one_line, rules_arg
from cubilete.cli.play_line import LineSession
from cubilete.engine import record
from cubilete.engine.errors import CubileteError, RecordError
from cubilete.engine.game import Game
from cubilete.i18n import LANGUAGES, N_, _, file_reason, set_language, translate_error
from cubilete.present.players import level_label, parse_players, seat_bots
from cubilete.present.render import final_table

if TYPE_CHECKING:
    from textual.app import App

DEFAULT_PLAYERS = "You,bot:casual"  # a named level, not the random bot
DEFAULT_RULES = "generala"

EXAMPLES = N_("""\
examples:
  cubilete play                                   the setup screen: rules, players, language
  cubilete play --players "Ana,bot:strong"        straight to a game of Generala
  cubilete play --rules yahtzee --players "Ana,Beto,bot" --seed 7
  cubilete play --rules bozo --save partida.json  saved after every move
  cubilete play --resume partida.json             go on with a saved game
  cubilete play --scorekeeper --players "Ana,Beto"  keep the score of real dice
  cubilete play --plain --lang es                 line mode, in Spanish
  printf 's 1\\ns 2\\n' | cubilete play --players Ana  line mode over pipes

On a terminal the game is full screen: 1-5 hold dice, r throws, arrows and enter
score a box, h asks the coach, c coach mode, u undo, s save, q quit. Without
--players it opens the setup screen (it remembers your last choice).

Players: 1 to 8 names separated by commas; bot is the random bot, bot:LEVEL another
level ({levels}). Repeated names get
suffixes (bot, bot-2).

Line mode (--plain, or when input or output is not a terminal) reads typed commands:
the first throw of each turn is made for you, except where the rules have the
'em baixo' call (Bozó): then you type r or b. Type ? during the game for every
command: r, k 1 3, s full, s 8, u, c, q.

Exit status: 0 the game ended (or you quit); 1 the input ended mid-game, or the
record to resume is corrupt; 2 bad arguments.
""")


HELP_LEVELS = ("greedy", "heuristic", "beginner", "casual", "strong", "optimal", "lookahead")


def level_list() -> str:
    """The levels typed after ``bot:``, each with its name in the language where that differs."""
    return ", ".join(lvl if level_label(lvl) == lvl else f"{lvl} = {level_label(lvl)}" for lvl in HELP_LEVELS)


def register(subparsers: Subcommands) -> None:
    """Add the ``play`` command."""
    p = subparsers.add_parser(
        "play",
        help=_("play a game (full screen on a terminal; --plain for line mode)"),
        description=_("Play a game against bots or friends: full screen on a terminal, line mode with --plain."),
        epilog=_(EXAMPLES).replace("{levels}", level_list()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", metavar="R",
        help=_("preset, alias or .toml profile (default {rules})").format(rules=DEFAULT_RULES))
    p.add_argument(
        "--players", "-p", metavar=_("NAMES"),
        help=_('comma-separated names (full screen: without it, the setup screen asks; line mode: "{players}")').format(
            players=DEFAULT_PLAYERS
        ),
    )
    p.add_argument("--seed", "-s", metavar="S", help=_("seed for the dice and the bots: the same seed, the same game"))
    p.add_argument("--save", metavar=_("FILE"), help=_("write the game record to FILE after every move"))
    p.add_argument("--resume", metavar=_("FILE"), help=_("continue a saved game (saved back there unless --save)"))
    p.add_argument("--plain", action="store_true", help=_("line mode: typed commands, for pipes and screen readers"))
    p.add_argument("--lang", metavar="L",
        help=_("language: {languages} (default: from the environment)").format(languages=", ".join(LANGUAGES)))
    p.add_argument(
        "--scorekeeper", action="store_true", help=_("keep the score of real dice on a real table (full screen)")
    )
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
        raise CliError(f"--seed: {exc}" if "seed" in str(exc) else f"--players: {exc}") from None


def wants_full_screen(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> bool:
    """True unless ``--plain`` was given or the input or the output is not a terminal."""
    if args.plain:
        return False
    return _is_tty(stdin if stdin is not None else sys.stdin) and _is_tty(stdout if stdout is not None else sys.stdout)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def build_app(args: argparse.Namespace) -> App[None]:
    """The full-screen app for these arguments (bad ones are a :class:`CliError`)."""
    from cubilete.tui import make_app

    if args.resume:
        _resume(args)  # the same checks and messages as line mode
    rules = rules_arg(args.rules) if args.rules else None
    players = parse_players(args.players) if args.players is not None else None
    if args.save and Path(args.save).is_dir():
        raise CliError(f"--save: {args.save} is a directory")
    try:
        return make_app(
            rules=rules,
            players=players,
            seed=args.seed,
            lang=args.lang,
            resume=args.resume,
            scorekeeper=args.scorekeeper,
            save=args.save,
        )
    except OSError as exc:
        text = _("cannot write {file}: {error}").format(file=args.save, error=file_reason(exc))
        raise CliError(f"--save: {text}") from None
    except CubileteError as exc:
        raise CliError(str(exc), DATA_ERROR if args.resume else USAGE_ERROR) from None


def run(args: argparse.Namespace) -> int:
    """Set up the game (new or resumed) and play it full screen or in line mode."""
    if args.lang is not None:
        try:
            set_language(args.lang)
        except CubileteError as exc:
            raise CliError(f"--lang: {exc}") from None
    if wants_full_screen(args):
        app = build_app(args)
        app.run()
        return app.return_code or 0
    if args.scorekeeper:
        raise CliError("--scorekeeper is full screen: run it on a terminal, without --plain")
    return run_line_mode(args)


def run_line_mode(args: argparse.Namespace) -> int:
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
            text = _("cannot write {file}: {error}").format(file=save_path, error=file_reason(exc))
            raise CliError(f"--save: {text}") from None
        except RecordError as exc:
            raise CliError(f"--save: {translate_error(str(exc))}") from None
    if game.is_over:
        print("This game is already over.")
        print(*final_table(game), sep="\n")
        return 0
    if args.resume:
        print(f"Resuming {args.resume}: {len(game.history)} moves so far.")
    code = LineSession(game, seat_bots(game), save_path).run()
    if game.is_over:
        _record_stats(game)
    return code


def _record_stats(game: Game) -> None:
    """Keep a finished game in the local statistics; a problem there is a note, never a lost game."""
    from cubilete.store.stats import StatsDB

    try:
        StatsDB().record_game(game)
    except (CubileteError, OSError) as exc:
        print(f"cubilete: note: the game was not added to the statistics: {one_line(str(exc))}", file=sys.stderr)
