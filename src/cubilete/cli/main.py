"""Entry point of the ``cubilete`` command: argument wiring and the one-line error contract."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator

from cubilete import __version__
from cubilete.cli import (
    advise_cmd,
    distribution_cmd,
    evaluate_cmd,
    guide_cmd,
    play_cmd,
    replay_cmd,
    rules_cmd,
    score_cmd,
    serve_cmd,
    simulate_cmd,
    site_flags_cmd,
    site_key_cmd,
    solve_cmd,
    stats_cmd,
    verify_cmd,
    warmup_cmd,
)
from cubilete.cli.common import USAGE_ERROR, CliError, Parser, UsageError, one_line
from cubilete.engine.errors import CubileteError
from cubilete.i18n import LANGUAGES, N_, _, ngettext, set_language, translate_formatted

EPILOG = N_("""\
examples:
  cubilete play                                   a game of Generala against a casual bot
  cubilete score --dice 3 4 5 6 1 --throw 1       what the hand gets in every box
  cubilete rules list                             every preset
  cubilete replay partida.json                    a saved game turn by turn
  cubilete advise --dice 1 1 3 4 5 --throw 1      the best play, with what each option loses
  cubilete serve                                  the web game on http://127.0.0.1:8000
  cubilete verify partida.json                    recheck every throw of a game against its seed
  cubilete warmup                                 compile the solver and solve Generala once

Every command has --help with examples. Exit status: 0 ok; 1 an invalid file or record,
or the input ended mid-game; 2 bad arguments (including a file that does not exist).
""")


# argparse's own messages (Python does not translate them): matched in English, shown translated
ARGPARSE_TEMPLATES: tuple[str, ...] = (
    N_("unrecognized arguments: {arguments}"),
    N_("the following arguments are required: {arguments}"),
    N_("argument {argument}: expected one argument"),
    N_("argument {argument}: expected at least one argument"),
    N_("argument {argument}: invalid int value: {value}"),
    N_("argument {argument}: invalid choice: {value} (choose from {choices})"),
    N_("argument {argument}: not allowed with argument {other}"),
    N_("choose a command: {commands}"),
    N_("{message} (try '{prog} --help')"),
)


# argparse's own words (usage, section titles, its errors): argparse looks them up with the
# standard gettext when it builds a parser or fails; ``argparse_speaks`` sends them to our catalogs
ARGPARSE_MESSAGES: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("not a whole number: %(value)r"),  # what players read for the message above: every typed option is an int
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("not allowed with argument %s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unexpected option string: %s"),
    N_("%(prog)s: error: %(message)s\n"),
)


@contextlib.contextmanager
def argparse_speaks() -> Iterator[None]:
    """While inside: argparse's own messages come from cubilete's catalogs, in the current language.

    argparse reads the module globals ``_`` and ``ngettext`` (bound to the standard gettext) when
    it builds a parser, prints help or fails; they are put back on the way out, so a program that
    embeds the command line keeps its own argparse as it was.
    """
    saved = argparse.__dict__["_"], argparse.__dict__["ngettext"]
    argparse.__dict__["_"], argparse.__dict__["ngettext"] = _argparse_message, ngettext
    try:
        yield
    finally:
        argparse.__dict__["_"], argparse.__dict__["ngettext"] = saved


def _argparse_message(message: str) -> str:
    """One of argparse's messages in the current language (a bad value of a typed option names no type)."""
    if message == "invalid %(type)s value: %(value)r":
        message = "not a whole number: %(value)r"
    return _(message)


def take_language(argv: list[str]) -> tuple[list[str], str | None]:
    """``--lang L`` (or ``--lang=L``) anywhere on the command line, taken out: (the other words, L or None).

    >>> take_language(["--lang", "es", "rules", "list"])
    (['rules', 'list'], 'es')
    >>> take_language(["score", "--dice", "11111", "--lang=pt-BR"])
    (['score', '--dice', '11111'], 'pt-BR')
    """
    rest: list[str] = []
    lang: str | None = None
    words = iter(argv)
    for word in words:
        if word == "--":
            rest.append(word)
            rest.extend(words)
            break
        if word == "--lang":
            lang = next(words, "")
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
        else:
            rest.append(word)
    return rest, lang


def build_parser() -> Parser:
    """The ``cubilete`` parser with every command."""
    parser = Parser(
        prog="cubilete",
        description=_("cubilete: Generala and its family of dice games (General, Bozó, Yahtzee, Yatzy, ...)."),
        epilog=_(EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"cubilete {__version__}", help=_("show the version and exit")
    )
    parser.add_argument(
        "--lang", metavar="L", help=_("language of every message: {languages} (default: from the environment)").format(
            languages=", ".join(LANGUAGES)
        ),
    )
    parser.set_defaults(func=None, parser=parser)
    commands = parser.add_subparsers(title=_("commands"), metavar=_("COMMAND"))
    play_cmd.register(commands)
    score_cmd.register(commands)
    rules_cmd.register(commands)
    guide_cmd.register(commands)
    replay_cmd.register(commands)
    solve_cmd.register(commands)
    advise_cmd.register(commands)
    distribution_cmd.register(commands)
    simulate_cmd.register(commands)
    stats_cmd.register(commands)
    verify_cmd.register(commands)
    serve_cmd.register(commands)
    site_key_cmd.register(commands)
    site_flags_cmd.register(commands)
    evaluate_cmd.register(commands)
    warmup_cmd.register(commands)
    return parser


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    """The names of a parser's subcommands, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def _fail(message: str, code: int) -> int:
    print(_("cubilete: error: {message}").format(message=one_line(message)), file=sys.stderr)
    return code


def _innermost(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)command parser the words name: ``rules show x`` -> ``cubilete rules show``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            words = [w for w in argv if not w.startswith("-")]  # commands take no option values
            if words and words[0] in action.choices:
                return _innermost(action.choices[words[0]], argv[argv.index(words[0]) + 1 :])
    return parser


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (tests capture stdout)
        pass


def _run(argv: list[str]) -> int:
    argv, lang = take_language(argv)
    if lang is not None:
        try:
            set_language(lang)
        except CubileteError as exc:
            return _fail(f"--lang: {exc}", USAGE_ERROR)
    with argparse_speaks():
        return _parse_and_run(argv, lang)


def _parse_and_run(argv: list[str], lang: str | None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if lang is not None and getattr(args, "lang", None) is None:
            args.lang = lang  # ``play`` passes it on to the terminal game
        if extra:
            raise UsageError(
                _("unrecognized arguments: {arguments}").format(arguments=" ".join(extra)),
                _innermost(parser, argv).prog,
            )
        if args.func is None:
            commands = ", ".join(_commands(args.parser))
            raise UsageError(_("choose a command: {commands}").format(commands=commands), args.parser.prog)
        code: int = args.func(args)
        return code
    except UsageError as exc:
        message = translate_formatted(exc.message, ARGPARSE_TEMPLATES)
        return _fail(_("{message} (try '{prog} --help')").format(message=message, prog=exc.prog), USAGE_ERROR)
    except CliError as exc:
        return _fail(exc.message, exc.code)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (bad input never ends in a traceback)."""
    try:
        code = _run(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()  # here, not at exit: a reader that went away (| head -1) is not an error to report
        return code
    except BrokenPipeError:
        _silence_stdout()
        return 1
