"""Issue 21: the terminal's styles live in ``.tcss`` files, and the wheel carries every one of them (an
installed game without them would fail at import, where each widget reads its style)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

ROOT = Path(__file__).resolve().parents[2]
TUI = ROOT / "src" / "cubilete" / "tui"


def styles_read() -> set[str]:
    """Every ``tcss("Name")`` in the terminal's code, as the file it reads."""
    names = {n for f in TUI.rglob("*.py") for n in re.findall(r'\btcss\("(\w+)"\)', f.read_text(encoding="utf-8"))}
    return {f"cubilete/tui/styles/{name}.tcss" for name in names}


def test_no_style_is_left_inline() -> None:
    inline = [f.name for f in TUI.rglob("*.py") if re.search(r'DEFAULT_CSS = """', f.read_text(encoding="utf-8"))]
    assert inline == []


def test_the_wheel_carries_every_style(tmp_path: Path) -> None:
    wheel = next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    with zipfile.ZipFile(wheel) as built:
        inside = set(built.namelist())
    read = styles_read()
    assert len(read) >= 14  # every widget and screen that has a style
    assert read <= inside, sorted(read - inside)
