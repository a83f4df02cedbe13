"""The end of a game: ranking, how it ended, the final sheet, and a review of every decision
the people at the table made (the points each lost against optimal play)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, ProgressBar, Static

from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.i18n import _, file_reason, number, rules_title, translate_error
from cubilete.play import coach
from cubilete.play.win_review import Timeline, chance_timeline, win_review, win_review_lines, write_chart
from cubilete.present.players import shown_name
from cubilete.present.render import end_line
from cubilete.tui.navigation import SETUP, go
from cubilete.tui.options import AppOptions
from cubilete.tui.screens.dialogs import SaveDialog
from cubilete.tui.session import Session
from cubilete.tui.styles import tcss
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.widgets.scorecard import ScoreCard, SheetData
from cubilete.tui.words import dice_words


def ranking_rows(game: Game) -> list[tuple[int, str, int, bool]]:
    """(place, name, total, winner) from first to last; equal results share a place."""
    st, totals = game.state, game.totals()
    key = {i: (i not in st.winners, -totals[i]) for i in range(len(game.players))}
    ordered = sorted(range(len(game.players)), key=lambda i: (*key[i], st.order.index(i)))
    rows: list[tuple[int, str, int, bool]] = []
    place = 0
    for n, i in enumerate(ordered):
        if n == 0 or key[i] != key[ordered[n - 1]]:
            place = n + 1
        rows.append((place, game.players[i], totals[i], i in st.winners))
    return rows


def review_lines(game: Game, review: coach.Review) -> list[str]:
    """Each person's total loss and three worst moments, in words."""
    lines: list[str] = []
    for player, lost in review.total_loss.items():
        count = sum(1 for d in review.decisions if d.player == player)
        lines.append(_("{player}: {loss} points lost against optimal play, in {count} decisions.").format(
            player=player, loss=number(lost), count=count
        ))
        worst = review.worst.get(player, [])
        if not worst:
            lines.append("  " + _("No decision lost points: a perfect game."))
        for d in worst:
            lines.append("  " + _("Turn {turn}, throw {throw} ({dice}): {action}; best: {best} (-{loss})").format(
                turn=d.turn, throw=d.throw, dice=dice_words(d.dice), action=d.action, best=d.best, loss=number(d.loss)
            ))
    lines.append(_("Optimal play means the highest expected final score; instant wins are not modelled."))
    if not review.exact:
        lines.append(_("Approximate values: these rules are too large to solve exactly."))
    return lines


SPARK = "▁▂▃▄▅▆▇█"  # an eighth of the chance to win per step: 0% is the lowest bar, 100% the highest


def chance_chart_lines(line: Timeline) -> list[str]:
    """Everyone's chance to win turn by turn as a line of bars in the terminal (the c key writes it as a
    picture): one bar per moment, on a fixed 0-100% scale, then the chance at the end."""
    names = [shown_name(name) for name in line.players]
    width = max(len(name) for name in names)
    title = _("Chances to win, turn by turn:") if line.exact else _("Chances to win, turn by turn (estimated):")
    out = [title]
    for seat, name in enumerate(names):
        values = [row[seat] for row in line.chances]
        bars = "".join(SPARK[min(len(SPARK) - 1, int(p * len(SPARK)))] for p in values)
        out.append(f"  {name:<{width}}  {bars}  {round(100 * values[-1])}%")
    return out


class EndScreen(Screen[None]):
    """The result of a finished game."""

    DEFAULT_CSS = tcss("EndScreen")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,e", "export", show=False),
        Binding("c", "export_chart", show=False),
        Binding("n", "new_game", show=False),
        Binding("q", "quit_app", show=False),
    ]

    def __init__(self, session: Session, options: AppOptions) -> None:
        super().__init__()
        self.session = session
        self.options = options
        self.review: coach.Review | None = None
        self.ready = False  # set once the tables are filled

    @property
    def game(self) -> Game:
        """The finished game."""
        return self.session.game

    def compose(self) -> ComposeResult:
        """Title, how it ended, ranking beside the final sheet, the review, the keys."""
        yield Static(_("Final result: {rules}").format(rules=rules_title(self.game.rules)), id="end-title")
        yield Static(end_line(self.game), id="how")
        with Horizontal(id="results"):
            with Vertical(id="ranking-box"):
                yield DataTable(id="ranking", cursor_type="none", show_cursor=False)
            yield ScoreCard(show_now=False, id="sheet")
        with VerticalScroll(id="review-box"):
            yield Static(_("Review of your decisions"), id="review-title")
            yield ProgressBar(id="review-progress", show_eta=False)
            yield Static("", id="review")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Fill the tables and start the review."""
        table = self.query_one("#ranking", DataTable)
        table.add_column(_("Place"), key="place")
        table.add_column(_("Player"), key="player")
        table.add_column(_("Total"), key="total")
        table.add_column("", key="mark")
        for place, name, total, winner in ranking_rows(self.game):
            mark = Text(_("winner"), style="bold green") if winner else Text("")
            table.add_row(f"{place}.", shown_name(name), Text(str(total), justify="right"), mark, key=name)
        self.query_one(ScoreCard).show(SheetData.of_game(self.game))
        self.query_one(KeyBar).show(
            [("s", _("save / export the record")), *self.chart_key(), ("n", _("new game")), ("q", _("quit"))]
        )
        self.ready = True
        humans = self.session.humans
        if humans:
            self.query_one("#review", Static).update(_("Reviewing…"))
            self.run_review(humans)
        else:
            self.query_one("#review-progress", ProgressBar).display = False
            self.query_one("#review", Static).update(_("No person played: nothing to review."))

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def run_review(self, humans: list[str]) -> None:
        """Judge every decision of the people at the table (in a thread, with a progress bar)."""

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self.show_progress, done, total)

        try:
            review = coach.review(self.game, humans, progress)
            win = win_review(self.game, humans) if len(self.game.players) > 1 else None
            chart = chance_chart_lines(chance_timeline(self.game)) if len(self.game.players) > 1 else []
        except Exception as exc:  # the review must never take the end screen down: say what went wrong
            reason = translate_error(str(exc)) if isinstance(exc, CubileteError) else repr(exc)
            self.app.call_from_thread(self.show_review_problem, reason)
            return
        win_lines = win_review_lines(win) if win is not None else []
        self.app.call_from_thread(self.show_review, review, [*win_lines, "", *chart] if chart else win_lines)

    def show_progress(self, done: int, total: int) -> None:
        """Move the progress bar."""
        self.query_one("#review-progress", ProgressBar).update(total=total, progress=done)

    def show_review(self, review: coach.Review, win_lines: Sequence[str] = ()) -> None:
        """Show each person's losses and worst moments (and the chance to win given up, with opponents)."""
        self.review = review
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review", Static).update("\n".join([*review_lines(self.game, review), *win_lines]))

    def show_review_problem(self, reason: str) -> None:
        """The review could not be made."""
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review", Static).update(_("The review is not available: {reason}").format(reason=reason))

    def action_export(self) -> None:
        """Write the game record (JSON) to a file."""
        from cubilete.store.stats import data_dir

        folder = (self.options.data_dir or data_dir()) / "saves"
        default = self.session.save_path or folder / f"{self.game.rules.name}-{self.game.seed[:8]}.json"
        self.app.push_screen(
            SaveDialog(_("Export the game record (JSON)"), default, self.export_to, own=self.session.save_path)
        )

    def export_to(self, path: Path) -> str | None:
        """Write the record; returns the problem, or None when written."""
        try:
            self.session.save_to(path)
        except (OSError, CubileteError) as exc:
            reason = file_reason(exc)
            return _("Cannot save to {path}: {reason}").format(path=path, reason=reason)
        self.app.notify(_("Game record written to {path}").format(path=path))
        return None

    def chart_key(self) -> list[tuple[str, str]]:
        """The chart's key, for a game with opponents."""
        return [("c", _("chart of the chances to win"))] if len(self.game.players) > 1 else []

    def action_export_chart(self) -> None:
        """Write the chart of everyone's chance to win over the game (PNG or SVG)."""
        if len(self.game.players) < 2:
            return
        default = Path.cwd() / f"{self.game.rules.name}-{self.game.seed[:8]}-chances.svg"
        self.app.push_screen(SaveDialog(_("Export the chart of the chances to win (.svg or .png)"), default,
                                        self.chart_to))

    def chart_to(self, path: Path) -> str | None:
        """Draw the chart; returns the problem, or None when written."""
        try:
            write_chart(chance_timeline(self.game), path)
        except CubileteError as exc:
            return str(exc)
        self.app.notify(_("Chart written to {path}").format(path=path))
        return None

    def action_new_game(self) -> None:
        """Back to the setup screen."""
        go(self, SETUP, self.options)

    def action_quit_app(self) -> None:
        """Leave the app."""
        self.app.exit()
