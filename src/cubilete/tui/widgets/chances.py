"""Every player's chance to win, as a bar and a percentage, beside the sheet.

The numbers come from :func:`cubilete.win.chance.chance` (computed in a thread by the screen);
percentages are rounded so that they add up to exactly 100.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from cubilete.i18n import _
from cubilete.tui.styles import tcss

BAR = 12


def percentages(probabilities: Sequence[float]) -> list[int]:
    """Whole percentages adding up to 100 (largest remainders), from probabilities adding up to 1.

    >>> percentages([0.5, 0.25, 0.25])
    [50, 25, 25]
    >>> percentages([1 / 3, 1 / 3, 1 / 3])
    [34, 33, 33]
    """
    total = sum(probabilities)
    if total <= 0:
        return [0] * len(probabilities)
    raw = [100 * p / total for p in probabilities]
    whole = [math.floor(r) for r in raw]
    order = sorted(range(len(raw)), key=lambda i: (whole[i] - raw[i], i))
    for i in order[: 100 - sum(whole)]:
        whole[i] += 1
    return whole


def bar(fraction: float, width: int = BAR) -> str:
    """A bar of ``width`` cells, filled in eighths."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")).ljust(width, "·")


class ChancesPanel(Static):
    """Each player's probability of winning from here, marked "estimated" when not exact."""

    DEFAULT_CSS = tcss("ChancesPanel")

    def __init__(self, **kwargs: str) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.shown: list[int] | None = None  # the percentages on screen (None: not yet computed)
        self.exact = True

    def waiting(self, players: Sequence[str]) -> None:
        """Before the first numbers arrive."""
        text = Text(_("Chances to win"), style="bold")
        for name in players:
            text.append(f"\n{name[:12]:<12} …")
        self.update(text)

    def show_chances(self, players: Sequence[str], probabilities: Sequence[float], exact: bool) -> None:
        """One line per player: name, bar, percentage; the title says when the numbers are estimated."""
        shown = percentages(probabilities)
        self.shown, self.exact = shown, exact
        title = _("Chances to win") if exact else _("Chances to win (estimated)")
        text = Text(title, style="bold")
        for name, pct in zip(players, shown, strict=True):
            text.append(f"\n{name[:12]:<12} ")
            text.append(bar(pct / 100), style="green")
            text.append(f" {pct:>3}%")
        self.update(text)

    def unavailable(self, reason: str) -> None:
        """The chances could not be computed."""
        self.shown = None
        self.update(Text(_("Chances to win"), style="bold") + Text("\n" + reason))
