"""The generators of ``tools/`` (scripts beside the package, not in it) imported as modules for the tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as a module. ``tools/`` goes last on ``sys.path`` (once): its modules import each
    other by name, as they do when run as scripts, and it shadows nothing installed."""
    if str(TOOLS) not in sys.path:
        sys.path.append(str(TOOLS))
    return importlib.import_module(name)
