"""The score sheet of every player: boxes as rows, players as columns, bonuses and totals.

For the player deciding, two more columns show what each open box would get now and, for
a box greyed out, why it cannot take these dice (empty while nobody is deciding).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from cubilete.engine.game import Game
from cubilete.engine.rules import Rules
from cubilete.i18n import _
from cubilete.play.sheet import SlotState, SlotView, slot_label, upper_progress
from cubilete.present.players import shown_name
from cubilete.tui.styles import tcss

UPPER_ROW = "_upper"
EXTRA_ROW = "_extra"
TOTAL_ROW = "_total"
NOTE_WIDTH = 42  # the longest note or reason a box is greyed out (longer ones are cut)
BOX_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # shift + the letter shown before a box puts the cursor on it


def box_letter(index: int) -> str:
    """The letter of the sheet's line ``index`` (0-based): ``A`` for the first; '' past ``Z``."""
    return BOX_LETTERS[index] if index < len(BOX_LETTERS) else ""


@dataclass(frozen=True)
class SheetData:
    """What the sheet shows: every player's card and totals, and the current player's view of the dice."""

    rules: Rules
    names: tuple[str, ...]
    cards: tuple[tuple[int | None, ...], ...]
    extra_bonuses: tuple[int, ...]
    totals: tuple[int, ...]
    current: int | None = None  # the seat whose turn it is
    views: tuple[SlotView, ...] | None = None  # the current player's slots judged for the dice on the table

    @classmethod
    def of_game(cls, game: Game, views: Sequence[SlotView] | None = None) -> SheetData:
        """The sheet of a game in play (or over)."""
        seats = game.state.seats
        return cls(
            game.rules,
            tuple(shown_name(name) for name in game.players),  # "bot fuerte", not "bot:strong"
            tuple(s.card for s in seats),
            tuple(s.extra_bonuses for s in seats),
            tuple(game.totals()),
            None if game.is_over else game.state.current,
            tuple(views) if views is not None else None,
        )


def _cell(value: int | None) -> Text:
    if value is None:
        return Text("·", style="dim", justify="right")
    return Text(str(value), justify="right")


def _now_cell(view: SlotView) -> Text:
    if view.state is SlotState.BLOCKED:
        return Text("—", style="dim", justify="right")
    if view.points is None:
        return Text("")
    style = "dim" if view.greyed else ("bold green" if view.points > 0 else "")
    return Text(str(view.points), style=style, justify="right")


class ScoreCard(DataTable[Text]):
    """The sheet as a table; a row is chosen with the arrow keys and enter, or by clicking it twice."""

    DEFAULT_CSS = tcss("ScoreCard")

    class Resized(Message):
        """The sheet was laid out at another size: its screen checks whether the whole sheet still shows."""

    def on_resize(self, event: events.Resize) -> None:
        """Tell the screen once the new layout is done (its own resize comes before the sheet's)."""
        self.post_message(self.Resized())

    def __init__(self, show_now: bool = True, **kwargs: str) -> None:
        """``show_now`` False: a finished sheet (no "Now" and "Note" columns, no cursor)."""
        cursor = "row" if show_now else "none"
        super().__init__(cursor_type=cursor, zebra_stripes=False, **kwargs)  # type: ignore[arg-type]
        self.show_now = show_now  # the "Now" and "Note" columns, for a game in play
        self.data: SheetData | None = None
        self._shape: tuple[Rules, tuple[str, ...]] | None = None
        self._column_keys: list[str] = []

    def show(self, data: SheetData) -> None:
        """Redraw the sheet: cells are updated in place while the players and rules stay the same."""
        shape = (data.rules, data.names)
        rows = self._rows(data)
        if shape != self._shape:
            self._shape = shape
            self._build(data, rows)
        else:
            for key, cells in rows.items():
                for column, cell in zip(self._column_keys, cells, strict=False):
                    self.update_cell(key, column, cell)
        for seat, name in enumerate(data.names):
            mark = "▶ " if seat == data.current else ""
            self.columns[ColumnKey(f"p{seat}")].label = Text(mark + name, style="bold" if mark else "")
        self.data = data
        self.refresh()

    def _build(self, data: SheetData, rows: dict[str, list[Text]]) -> None:
        """Columns of fixed widths, so that later updates never resize the table."""
        self.clear(columns=True)
        labels = [cells[0].cell_len for cells in rows.values()]
        self.add_column(_("Box"), key="box", width=max(labels))
        for seat, name in enumerate(data.names):
            self.add_column(name, key=f"p{seat}", width=max(5, len(name) + 2))
        self._column_keys = ["box", *(f"p{seat}" for seat in range(len(data.names)))]
        if self.show_now:
            self.add_column(_("Now"), key="now", width=max(4, len(_("Now"))))
            self.add_column(_("Note"), key="note", width=NOTE_WIDTH)
            self._column_keys += ["now", "note"]
        for key, cells in rows.items():
            self.add_row(*cells[: len(self._column_keys)], key=key)

    def _rows(self, data: SheetData) -> dict[str, list[Text]]:
        rules = data.rules
        rows: dict[str, list[Text]] = {}
        for i, slot in enumerate(rules.slots):
            label = f"{box_letter(i):<1} {slot_label(rules, i)}" if self.show_now else slot_label(rules, i)
            cells = [Text(label)] + [_cell(card[i]) for card in data.cards]
            if data.views is not None:
                view = data.views[i]
                if view.greyed:
                    cells[0].stylize("dim")
                elif view.state is SlotState.USABLE:
                    cells[0].stylize("bold")
                cells += [_now_cell(view), Text(view.note, style="dim italic" if view.greyed else "italic")]
            else:
                cells += [Text(""), Text("")]
            rows[slot] = cells
        tail = [Text(""), Text("")]
        if rules.upper_bonus:
            label = _("Upper bonus ({points} at {threshold})").format(
                points=rules.upper_bonus, threshold=rules.upper_bonus_threshold
            )
            upper = [Text(upper_progress(rules, c), justify="right") for c in data.cards]
            rows[UPPER_ROW] = [Text(label, style="italic"), *upper, *tail]
        if rules.extra_bonus:
            extra = [Text(str(n * rules.extra_bonus), justify="right") for n in data.extra_bonuses]
            rows[EXTRA_ROW] = [Text(_("Extra bonuses"), style="italic"), *extra, *tail]
        totals = [Text(str(t), style="bold", justify="right") for t in data.totals]
        rows[TOTAL_ROW] = [Text(_("Total"), style="bold"), *totals, *tail]
        return rows

    def _open_rows(self) -> list[int]:
        """The slot rows the cursor stops on while a player decides: every box not yet closed."""
        if self.data is None or self.data.views is None:
            return []
        return [v.index for v in self.data.views if v.state is not SlotState.CLOSED]

    def _step(self, direction: int) -> bool:
        """Move to the next open box (wrapping round the sheet); False when nobody is deciding."""
        rows = self._open_rows()
        if not rows:
            return False
        here = self.cursor_row
        ahead = [r for r in rows if (r - here) * direction > 0]
        target = (min(ahead) if direction > 0 else max(ahead)) if ahead else (rows[0] if direction > 0 else rows[-1])
        self.move_cursor(row=target, animate=False)
        return True

    def action_cursor_down(self) -> None:
        """Down: the next open box, from the last one back to the first (closed boxes are skipped)."""
        if not self._step(+1):
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        """Up: the previous open box, from the first one round to the last (closed boxes are skipped)."""
        if not self._step(-1):
            super().action_cursor_up()

    def focus_slot(self, index: int) -> None:
        """Put the cursor on a slot's row."""
        if 0 <= index < self.row_count:
            self.move_cursor(row=index, animate=False)

    @property
    def selected_slot(self) -> str | None:
        """The slot id under the cursor (None on the bonus and total rows)."""
        if self.data is None or not 0 <= self.cursor_row < len(self.data.rules.slots):
            return None
        return self.data.rules.slots[self.cursor_row]

