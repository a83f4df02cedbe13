"""Entry point of the ``cubilete`` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    print("cubilete: not yet", file=sys.stderr)
    return 2
