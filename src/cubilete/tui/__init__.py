"""The terminal game (Textual): ``make_app(...)`` builds it for ``cubilete play`` and for tests."""

from cubilete.tui.app import CubileteApp, make_app

__all__ = ["CubileteApp", "make_app"]
