"""The ``cubilete`` command line (an app: nothing in the core imports it)."""

from cubilete.cli.main import main

__all__ = ["main"]
