"""Pieces every command shares: the one-line errors, the parser class, reading ``--rules``."""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TypeAlias

from cubilete.engine import record
from cubilete.engine.errors import CubileteError, NotationError
from cubilete.engine.notation import parse_filled, parse_hand
from cubilete.engine.rules import Rules, load_rules
from cubilete.i18n import _, file_reason, translate_error
from cubilete.present.errors import DATA_ERROR as DATA_ERROR
from cubilete.present.errors import USAGE_ERROR as USAGE_ERROR
from cubilete.present.errors import CliError as CliError
from cubilete.present.errors import text_arg as text_arg


def need_extra(extra: str, module: str) -> None:
    """Stop with a clear message when an optional part is not installed (``pip install 'cubilete[web]'``)."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise CliError(
            _("this command needs the '{extra}' extra ({module} is not installed): "
              "pip install 'cubilete[{extra}]' (or ./dev installs it)").format(extra=extra, module=module),
            DATA_ERROR,
        )


def rules_arg(text: str) -> Rules:
    """The rules named by a ``--rules`` value: a preset name or alias, or a ``.toml`` house-rule file."""
    try:
        return load_rules(text)
    except CubileteError as exc:
        raise CliError(translate_error(str(exc))) from None


def hand_arg(words: Sequence[str], rules: Rules, option: str = "--dice") -> tuple[int, ...]:
    """The dice of ``--dice 3 4 5 6 1`` (or ``34561``), sorted; a bad face is a usage error naming the option."""
    try:
        return parse_hand(list(words), rules)
    except NotationError as exc:
        raise CliError(f"{option}: {translate_error(str(exc))}") from None


def throw_arg(rules: Rules, throw: int) -> int:
    """A ``--throw`` number checked against the rules: 1 (servida) to the throws of a turn."""
    if throw < 1:
        raise CliError(_("--throw: throws are counted from 1, not {throw}").format(throw=throw))
    if throw > rules.throws and not rules.carry_over_throws:
        raise CliError(
            _("--throw: {rules} has {throws} throws a turn, not {throw}").format(
                rules=rules.name, throws=rules.throws, throw=throw
            )
        )
    return throw


def filled_arg(texts: Sequence[str], rules: Rules) -> tuple[int | None, ...]:
    """The card of ``--filled generala=50,full=0`` (the option may be repeated): points per slot, None if open."""
    try:
        return tuple(parse_filled(",".join(texts), rules))
    except NotationError as exc:
        raise CliError(f"--filled: {translate_error(str(exc))}") from None


def box_words_after_dice(dice: list[str]) -> list[str]:
    """``--dice 4 4 4 4 4 doble generala``: argparse gave the box to ``--dice``; take the words back (in place)."""
    words: list[str] = []
    while len(dice) > 1 and not dice[-1].isdigit():
        words.insert(0, dice.pop())
    return words



def paragraph(text: str) -> str:
    """A help description wrapped to the width of the examples (raw formatters print it as it is)."""
    return textwrap.fill(text, 88)


def one_line(text: str) -> str:
    """Messages from deep inside (e.g. TOML errors) folded onto one line."""
    return " ".join(text.split())


class UsageError(Exception):
    """Raised instead of argparse's two-line usage message."""

    def __init__(self, message: str, prog: str) -> None:
        super().__init__(message)
        self.message = message
        self.prog = prog


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: the message and where to find help."""

    def error(self, message: str) -> NoReturn:
        """Stop with a :class:`UsageError` (main prints it)."""
        raise UsageError(message, self.prog)


Subcommands: TypeAlias = "argparse._SubParsersAction[Parser]"  # what add_subparsers returns


def read_record_data(path: Path) -> object:
    """The JSON data of a record file (not yet checked); a missing file is a usage error, bad text a data error."""
    if path.is_dir():
        raise CliError(_("{path} is a folder, not a game record").format(path=path))
    if not path.is_file():
        raise CliError(_("no such file: {path}").format(path=path))
    try:
        return record.parse(path.read_text(encoding="utf-8"))
    except OSError as exc:
        text = _("{path}: cannot read: {reason}").format(path=path, reason=file_reason(exc))
        raise CliError(text, DATA_ERROR) from None
    except UnicodeDecodeError:
        raise CliError(
            _("{path}: not a cubilete game record: not a UTF-8 text file").format(path=path), DATA_ERROR
        ) from None
    except CubileteError as exc:
        raise CliError(f"{path}: {translate_error(str(exc))}", DATA_ERROR) from None
