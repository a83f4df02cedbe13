"""A person's mistake told in one line, with the exit code a command ends with (the line mode, the commands,
and the seat names the terminal game shares with them)."""

from __future__ import annotations

from cubilete.i18n import _

USAGE_ERROR = 2  # bad arguments
DATA_ERROR = 1  # a file that is not valid (profile, record), input that ended too soon


class CliError(Exception):
    """Ends a command with one line on stderr (``cubilete: error: ...``) and an exit code."""

    def __init__(self, message: str, code: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.code = code



def text_arg(option: str, text: str) -> str:
    """The text of an argument, refused if it is not valid UTF-8 (it could not be saved, printed or hashed)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise CliError(_("{option}: {text} is not valid UTF-8 text").format(option=option, text=repr(text))) from None
    return text
