"""Pieces every command shares: the one-line errors, the parser class, reading ``--rules``."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import NoReturn, TypeAlias

from cubilete import record
from cubilete.errors import CubileteError
from cubilete.rules import Rules, load_rules

USAGE_ERROR = 2  # bad arguments
DATA_ERROR = 1  # a file that is not valid (profile, record), input that ended too soon


class CliError(Exception):
    """Ends a command with one line on stderr (``cubilete: error: ...``) and an exit code."""

    def __init__(self, message: str, code: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def rules_arg(text: str) -> Rules:
    """The rules named by a ``--rules`` value: a preset name or alias, or a ``.toml`` house-rule file."""
    try:
        return load_rules(text)
    except CubileteError as exc:
        raise CliError(str(exc)) from None


def text_arg(option: str, text: str) -> str:
    """The text of an argument, refused if it is not valid UTF-8 (it could not be saved, printed or hashed)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise CliError(f"{option}: {text!r} is not valid UTF-8 text") from None
    return text


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
        raise CliError(f"{path} is a folder, not a game record")
    if not path.is_file():
        raise CliError(f"no such file: {path}")
    try:
        return record.parse(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror}", DATA_ERROR) from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not a cubilete game record: not a UTF-8 text file", DATA_ERROR) from None
    except CubileteError as exc:
        raise CliError(f"{path}: {exc}", DATA_ERROR) from None
