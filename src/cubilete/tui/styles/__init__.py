"""The terminal game's styles: one ``.tcss`` file per widget or screen, read into its ``DEFAULT_CSS``.

They stay default CSS (not ``CSS_PATH``) on purpose: a widget's default rules rank below the app's and
screens' own, and moving them up changed which rule won (the scorekeeper's scratch dialog snapshot guards it).
"""

from __future__ import annotations

from importlib.resources import files


def tcss(name: str) -> str:
    """The text of ``styles/<name>.tcss`` (package data: the wheel carries these files)."""
    return files(__name__).joinpath(f"{name}.tcss").read_text(encoding="utf-8")
