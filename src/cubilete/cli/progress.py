"""The progress bar of long commands (solve, advise's first solve, simulate, distribution, evaluate, warmup).

One helper for every command: a ``rich`` bar on stderr with what is done, the elapsed and the
remaining time, in the player's language; nothing at all when stderr is not a terminal or the
command prints JSON (its output stays plain for pipes and programs).

    with progress_bar(_("solving {rules}").format(rules="generala"), enabled=not args.json) as show:
        solve(rules, show)          # show is None when no bar is drawn: the callee skips it

The bar starts at the first report, so work that turns out to be instant (tables loaded from
the cache) draws nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cubilete.i18n import _

Report = Callable[[int, int], None]  # (done, in all), as the solver, the simulator and the evaluator call it


class _Bar:
    """A report callable drawing a rich bar, started at its first call."""

    def __init__(self, label: str, console: Console) -> None:
        self.label = label
        self.console = console
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self.progress is None:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(_("elapsed")),
                TimeElapsedColumn(),
                TextColumn(_("left")),
                TimeRemainingColumn(),
                console=self.console,
                transient=False,
            )
            self.progress.start()
            self.task = self.progress.add_task(self.label, total=max(total, 1))
        assert self.task is not None
        self.progress.update(self.task, completed=done, total=max(total, 1))

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


@contextmanager
def progress_bar(label: str, *, enabled: bool = True, console: Console | None = None) -> Iterator[Report | None]:
    """A report callable ``(done, total)`` drawing a bar labelled ``label``, or None (no terminal, or not
    ``enabled``: ``--json``). The bar is stopped on the way out, also when the work fails."""
    console = console if console is not None else Console(file=sys.stderr)
    if not enabled or not console.is_terminal:
        yield None
        return
    bar = _Bar(label, console)
    try:
        yield bar
    finally:
        bar.close()
