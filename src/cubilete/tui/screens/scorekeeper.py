"""Scorekeeper mode: real dice on a real table. The player types the dice and the throw
number and picks a box; :class:`cubilete.play.scorekeeper.Scorekeeper` checks it under the rules
and keeps every sheet. ``h`` suggests what to hold (from the solver)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static

from cubilete.engine.errors import CubileteError, ScorekeeperError
from cubilete.engine.rules import Rules
from cubilete.engine.state import EndReason
from cubilete.i18n import _, rules_title, translate_error
from cubilete.play.scorekeeper import Scorekeeper
from cubilete.play.sheet import SlotState, SlotView, slot_label, slot_views
from cubilete.store.stats import StatsDB
from cubilete.tui.navigation import SETUP, go
from cubilete.tui.options import AppOptions
from cubilete.tui.screens.dialogs import ConfirmDialog, MessageDialog
from cubilete.tui.screens.layout import (
    BREAKPOINTS,
    VERTICAL_BREAKPOINTS,
    FitNotice,
    check_fit,
    sideways_scrollbar_when_tall,
)
from cubilete.tui.styles import tcss
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.widgets.panels import CoachPanel, GameLog, MessageLine
from cubilete.tui.widgets.scorecard import BOX_LETTERS, ScoreCard, SheetData, box_letter
from cubilete.tui.words import dice_words


class DigitsInput(Input):
    """A text field that takes only digits, spaces and commas; other keys reach the screen's bindings."""

    ALLOWED = frozenset("0123456789 ,")

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Only the characters of dice and throw numbers are typed here."""
        return character is not None and character in self.ALLOWED

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character not in self.ALLOWED:
            event.prevent_default()  # not typed here; the key goes on to the screen's keys (h, u, q)


def parse_faces(text: str) -> tuple[int, ...]:
    """Dice typed as ``3 4 5 6 1``, ``3,4,5,6,1`` or ``34561`` (the scorekeeper checks them).

    >>> parse_faces("34561"), parse_faces("3, 4 5")
    ((3, 4, 5, 6, 1), (3, 4, 5))
    """
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and len(parts[0]) > 1:
        parts = list(parts[0])
    return tuple(int(p) for p in parts if p.isdigit())


class KeeperSheet(ScoreCard):
    """The scorekeeper's sheet: no box is chosen, and no cursor shown, until the player picks one (a
    letter, an arrow or a click), so enter never writes in a box nobody chose."""

    picked = False

    def on_mount(self) -> None:
        """No box chosen yet."""
        self.unpick()

    def unpick(self) -> None:
        """Forget the chosen box and hide the cursor (new dice, or after an entry)."""
        self.picked = False
        self.show_cursor = False

    def pick(self, index: int | None = None) -> None:
        """Choose a box: the one at ``index``, or the one the hidden cursor rests on."""
        self.picked = True
        self.show_cursor = True
        if index is not None:
            self.focus_slot(index)

    def action_cursor_down(self) -> None:
        """The first arrow shows the cursor where it rests; the next ones move it."""
        if self.picked:
            super().action_cursor_down()
        else:
            self.pick()

    def action_cursor_up(self) -> None:
        """As :meth:`action_cursor_down`, upwards."""
        if self.picked:
            super().action_cursor_up()
        else:
            self.pick()

    async def _on_click(self, event: events.Click) -> None:
        """A first click chooses the box clicked (a second one writes there, as on the game screen)."""
        if self.picked:
            await super()._on_click(event)
            return
        row = event.style.meta.get("row")
        if isinstance(row, int) and self.data is not None and 0 <= row < len(self.data.rules.slots):
            self.focus()
            self.pick(row)


class ScorekeeperScreen(Screen[None]):
    """The sheet of a game played with real dice."""

    DEFAULT_CSS = tcss("ScorekeeperScreen") + tcss("CardAndSide")
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS  # under 30 lines: one line of message and of keys

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "suggest", show=False),
        Binding("u", "undo", show=False),
        Binding("q", "leave", show=False),
        Binding("n", "new_game", show=False),
        Binding("escape", "focus_dice", show=False),
        *(Binding(letter, f"box({i})", show=False) for i, letter in enumerate(BOX_LETTERS)),
    ]

    def __init__(self, rules: Rules, players: Sequence[str], options: AppOptions) -> None:
        super().__init__()
        self.keeper = Scorekeeper(rules, players)
        self.options = options
        self.views: list[SlotView] | None = None
        self.recorded = False  # the finished game is in the statistics

    @property
    def rules(self) -> Rules:
        """The rules in play."""
        return self.keeper.rules

    def compose(self) -> ComposeResult:
        """Title; dice and throw fields; the sheet beside the suggestions and the log; the keys."""
        yield Static(id="title")
        with Horizontal(id="entry"):
            yield Label(_("Dice"))
            yield DigitsInput(placeholder=_("e.g. 3 4 5 6 1"), id="dice")
            yield Label(_("Throw"))  # the noun: which throw of the turn made these dice
            yield DigitsInput("1", id="throw", max_length=2)  # a value, not a placeholder: enter takes it
        yield MessageLine(id="message")
        with Horizontal(id="main"):
            yield KeeperSheet(id="sheet")
            with Vertical(id="side"):
                yield CoachPanel(id="coach")
                yield GameLog(id="log")
        yield FitNotice()  # shown only when the sheet is taller than the terminal leaves it
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Draw and start in the dice field."""
        self.query_one(GameLog).write(_("Scorekeeper: {rules}. Players: {players}.").format(
            rules=rules_title(self.rules), players=", ".join(self.keeper.players)
        ))
        self.query_one(CoachPanel).show_lines(_("Coach"), [_("h: what to hold, for the dice typed")])
        self.query_one(KeyBar).show([
            (_("dice"), _("type them, enter")),
            (_("Throw"), _("1, 2, 3, enter")),
            (f"A-{self.last_letter} ↑↓ ⏎", _("choose a box, enter writes")),
            ("h", _("suggest")),
            ("u", _("undo")),
            ("esc", _("back to the dice")),
            ("q", _("quit")),
        ])
        self.refresh_view()
        self.query_one("#dice", Input).focus()

    @property
    def last_letter(self) -> str:
        """The letter of the sheet's last box."""
        return box_letter(min(len(self.rules.slots), len(BOX_LETTERS)) - 1)

    def sheet(self) -> KeeperSheet:
        """The sheet."""
        return self.query_one(KeeperSheet)

    def choose_box_words(self) -> str:
        """What to do to write the dice."""
        return _("Choose a box: its letter (A-{last}) or the arrows, then enter.").format(last=self.last_letter)

    # --- reading the entry ----------------------------------------------------------------
    def entry(self) -> tuple[tuple[int, ...], int]:
        """The dice and throw typed; a :class:`ScorekeeperError` says what is wrong."""
        text = self.query_one("#dice", Input).value
        faces = parse_faces(text)
        if not faces:
            raise ScorekeeperError(_("Type the dice you threw, e.g. 3 4 5 6 1."))
        throw_text = self.query_one("#throw", Input).value.strip()
        if not throw_text.isdigit():
            raise ScorekeeperError(_("Type the throw number: 1 for the first throw of the turn."))
        return faces, int(throw_text)

    def refresh_view(self) -> None:
        """Redraw the title and the sheet, with what each box would get for the dice typed."""
        keeper = self.keeper
        title = _("Scorekeeper · {rules}").format(rules=rules_title(self.rules))
        if keeper.starting:
            title += " · " + _("Who starts: {name} throws").format(name=keeper.current_player)
        elif keeper.tiebreak:
            title += " · " + _("Tie-break round {number}: {name}'s hand").format(
                number=keeper.tiebreak_round, name=keeper.current_player
            )
        elif not keeper.is_over:
            title += " · " + _("Round {number} of {rounds}").format(number=keeper.round, rounds=self.rules.turns)
            title += " · " + _("{name}'s turn").format(name=keeper.current_player)
        self.query_one("#title", Static).update(title)
        self.views = None
        if not keeper.is_over and not keeper.starting and not keeper.tiebreak:
            try:
                faces, throw = self.entry()
                keeper.preview(faces, throw)
                self.views = slot_views(self.rules, keeper.cards[keeper.current], faces, throw == 1)
            except ScorekeeperError:
                self.views = None
        data = SheetData(
            self.rules,
            keeper.players,
            tuple(keeper.cards),
            tuple(keeper.extra_bonuses),
            tuple(keeper.totals()),
            None if keeper.is_over else keeper.current,
            tuple(self.views) if self.views is not None else None,
        )
        self.query_one(ScoreCard).show(data)
        self.call_after_refresh(check_fit, self, self.tall_extra)

    def on_score_card_resized(self) -> None:
        """The sheet has its new size: say again whether it fits."""
        self.call_after_refresh(check_fit, self, self.tall_extra)

    def tall_extra(self) -> int:
        """The lines a terminal of ``SHORT`` lines or more takes more than a short one: the fields' frames, and
        below a narrow sheet the coach's frame, with up to 10 lines."""
        extra = 2
        coach = self.query_one(CoachPanel)
        if self.has_class("-narrow") and coach.display:
            extra += min(10, coach.virtual_size.height + 2) - self.query_one("#side").outer_size.height
        return extra + sideways_scrollbar_when_tall(self.query_one(ScoreCard))

    def on_resize(self) -> None:
        """A resized terminal may now show the whole sheet, or no longer."""
        self.call_after_refresh(check_fit, self, self.tall_extra)

    def say(self, text: str) -> None:
        """Show a refusal or a notice."""
        self.query_one(MessageLine).say(text)

    # --- events ---------------------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        """Show what each box would get as the dice are typed (a box chosen for other dice is forgotten)."""
        self.sheet().unpick()
        self.refresh_view()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves on: dice -> throw -> the sheet (a start throw needs only the dice, a
        tie-break hand the dice and the throw)."""
        if self.keeper.starting:
            self.start_throw()
            return
        if self.keeper.tiebreak and event.input.id == "throw":
            self.tiebreak_hand()
            return
        if event.input.id == "dice":
            throw_field = self.query_one("#throw", Input)
            throw_field.focus()
            throw_field.select_all()
            return
        try:
            faces, throw = self.entry()
            self.keeper.preview(faces, throw)
        except ScorekeeperError as exc:
            self.say(str(exc))
            return
        self.say(self.choose_box_words())
        sheet = self.sheet()
        sheet.focus()
        if self.views is not None and not sheet.picked:  # the first arrow starts on a box that pays
            paying = [v.index for v in self.views if v.state is SlotState.USABLE and (v.points or 0) > 0]
            usable = [v.index for v in self.views if v.state is SlotState.USABLE]
            sheet.focus_slot((paying or usable or [0])[0])

    def on_key(self, event: events.Key) -> None:
        """Enter on the sheet before a box is chosen writes nothing and says what to do."""
        sheet = self.sheet()
        if event.key == "enter" and sheet.has_focus and not sheet.picked:
            event.stop()
            self.say(self.choose_box_words())

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """A box chosen: say what it would get, or why it cannot be used."""
        if self.sheet().picked and self.views is not None and event.cursor_row < len(self.views):
            self.describe_box(self.views[event.cursor_row])

    def describe_box(self, view: SlotView) -> None:
        """What the dice typed would write in a box."""
        if view.state is SlotState.CLOSED:
            self.say(_("{box} is already closed.").format(box=view.label))
        elif view.greyed:
            self.say(f"{view.label}: {view.note}")
        else:
            self.say(_("{box}: {points} points; enter to write.").format(box=view.label, points=view.points or 0))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a chosen row writes the dice there."""
        slot = event.row_key.value
        if not self.sheet().picked:
            self.say(self.choose_box_words())
        elif slot is not None and not slot.startswith("_"):
            self.write_in(slot)

    def start_throw(self) -> None:
        """The dice typed are the awaited start throw."""
        keeper = self.keeper
        name = keeper.current_player
        faces = parse_faces(self.query_one("#dice", Input).value)
        try:
            keeper.start_throw(faces)
        except ScorekeeperError as exc:
            self.say(str(exc))
            return
        self.query_one(GameLog).write(_("{name} throws for who starts: {dice}").format(
            name=name, dice=dice_words(faces)
        ))
        if not keeper.starting:
            order = ", ".join(keeper.players[i] for i in keeper.order)
            self.query_one(GameLog).write(_("{name} starts. Order of play: {order}.").format(
                name=keeper.current_player, order=order
            ))
        self.cleared()

    def tiebreak_hand(self) -> None:
        """The dice and throw typed are a tied leader's tie-break hand."""
        keeper = self.keeper
        name = keeper.current_player
        try:
            faces, throw = self.entry()
            value = keeper.hand(faces, throw)
        except ScorekeeperError as exc:
            self.say(str(exc))
            return
        if not keeper.instant_win:
            self.query_one(GameLog).write(_("Tie-break: {name} shows {dice} (throw {throw}), worth {points}").format(
                name=name, dice=dice_words(faces), throw=throw, points=value
            ))
        self.cleared()
        if keeper.is_over:
            self.announce_end()

    def cleared(self) -> None:
        """Clear the fields and go back to the dice."""
        self.say("")
        self.query_one("#dice", Input).value = ""
        self.query_one("#throw", Input).value = "1"
        self.refresh_view()
        self.query_one("#dice", Input).focus()

    def write_in(self, slot: str) -> None:
        """Write the dice typed in a box; a refused box that may be scratched asks to scratch it."""
        if self.keeper.is_over:
            self.say(_("The game is over: n for a new game, q to quit."))
            return
        if self.keeper.starting or self.keeper.tiebreak:
            self.action_focus_dice()
            return
        try:
            faces, throw = self.entry()
            points = self.keeper.enter(faces, throw, slot)
        except ScorekeeperError as exc:
            self.say(str(exc))
            self.offer_scratch(slot, str(exc))
            return
        self.written(slot, points)

    def offer_scratch(self, slot: str, reason: str) -> None:
        """After a refusal: if the box may take a 0 now, ask whether to scratch it."""
        try:
            faces, throw = self.entry()
            usable = self.keeper.preview(faces, throw)
        except ScorekeeperError:
            return
        if usable.get(slot) != 0:
            return
        label = slot_label(self.rules, self.rules.slot_index(slot))
        question = f"{reason}.\n" + _("Scratch {box}? It gets 0 points.").format(box=label)

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                points = self.keeper.enter(faces, throw, slot, scratch=True)
            except ScorekeeperError as exc:
                self.say(str(exc))
                return
            self.written(slot, points)

        self.app.push_screen(ConfirmDialog(question), answer)

    def written(self, slot: str, points: int) -> None:
        """After an entry: log it, clear the fields, and announce the end."""
        keeper = self.keeper
        entry = keeper.entries[-1]
        label = slot_label(self.rules, self.rules.slot_index(slot))
        if not keeper.instant_win:
            self.query_one(GameLog).write(_("{name}: {dice} (throw {throw}) -> {box}: {points}").format(
                name=keeper.players[entry.seat], dice=dice_words(entry.dice), throw=entry.throw, box=label,
                points=points,
            ))
        self.say("")
        self.query_one("#dice", Input).value = ""
        self.query_one("#throw", Input).value = "1"
        self.sheet().unpick()
        self.query_one(CoachPanel).show_lines(_("Coach"), [])
        self.refresh_view()
        if keeper.is_over:
            self.announce_end()
        else:
            if keeper.tiebreak:
                self.query_one(GameLog).write(_("A tie for first: each tied player throws one more hand."))
            self.query_one("#dice", Input).focus()

    def announce_end(self) -> None:
        """The final ranking, in a dialog and in the log."""
        keeper = self.keeper
        totals = keeper.totals()
        order = sorted(range(len(keeper.players)), key=lambda i: -totals[i])
        lines = [f"{n}. {keeper.players[i]}  {totals[i]}" for n, i in enumerate(order, 1)]
        winners = ", ".join(keeper.players[i] for i in keeper.winners)
        if keeper.instant_win:
            how = _("{name} made a winning hand with the first throw and wins at once.").format(name=winners)
        elif keeper.reason is EndReason.TIE_BREAK:
            how = _("{name} wins the tie-break round.").format(name=winners)
        else:
            how = _("Winner: {names}").format(names=winners)
        self.record_result()
        for line in [how, *lines]:
            self.query_one(GameLog).write(line)
        self.say(_("The game is over: n for a new game, q to quit."))
        self.app.push_screen(MessageDialog(_("Final result"), "\n".join([how, "", *lines])))

    def record_result(self) -> None:
        """Add the finished game to the statistics (once); a problem is shown, never raised."""
        game = self.keeper.game
        if self.recorded or game is None or not game.is_over:
            return
        self.recorded = True
        folder = self.options.data_dir
        try:
            with StatsDB(folder / "stats.sqlite3" if folder is not None else None) as db:
                db.record_game(game, self.keeper.players)
        except (CubileteError, OSError, sqlite3.Error) as exc:
            self.app.notify(_("The statistics could not be saved: {reason}").format(reason=str(exc)),
                            severity="warning", timeout=10)

    # --- keys -----------------------------------------------------------------------------
    def action_focus_dice(self) -> None:
        """Back to the dice field, its text selected (typing replaces it)."""
        dice = self.query_one("#dice", Input)
        dice.focus()
        dice.select_all()

    def action_box(self, index: int) -> None:
        """Shift + the letter shown before a box: choose that box for the dice typed (enter writes)."""
        keeper = self.keeper
        if index >= len(self.rules.slots):
            return
        if keeper.is_over:
            self.say(_("The game is over: n for a new game, q to quit."))
            return
        if keeper.starting or keeper.tiebreak:
            self.say(_("No box now: type the dice thrown, then enter."))
            self.action_focus_dice()
            return
        try:
            faces, throw = self.entry()
            keeper.preview(faces, throw)
        except ScorekeeperError as exc:
            self.say(str(exc))
            return
        sheet = self.sheet()
        sheet.focus()
        sheet.pick(index)
        if self.views is not None:
            self.describe_box(self.views[index])

    def action_undo(self) -> None:
        """Take back the last entry: its box opens again and its dice and throw are back in the fields."""
        try:
            entry = self.keeper.undo()
        except ScorekeeperError as exc:
            self.say(str(exc))
            return
        self.query_one(GameLog).write(_("— undone —"))
        if entry is not None:
            self.query_one("#dice", Input).value = " ".join(map(str, entry.dice))
            self.query_one("#throw", Input).value = str(entry.throw)
        self.refresh_view()
        self.sheet().unpick()
        if entry is not None:
            self.sheet().focus()
            self.say(_("Undone: {name} writes again.").format(name=self.keeper.current_player) + " "
                     + self.choose_box_words())
        else:
            self.say(_("Undone: {name} writes again.").format(name=self.keeper.current_player))

    def action_suggest(self) -> None:
        """What to hold (or where to score) for the dice typed, from the solver."""
        try:
            faces, throw = self.entry()
            self.keeper.preview(faces, throw)
        except ScorekeeperError as exc:
            self.say(str(exc))
            return
        self.query_one(CoachPanel).thinking()
        self.compute_suggestion(faces, throw)

    @work(thread=True, exclusive=True, group="suggest", exit_on_error=False)
    def compute_suggestion(self, faces: tuple[int, ...], throw: int) -> None:
        """Ask the solver (in a thread: the first solve takes a few seconds)."""
        try:
            advice = self.keeper.suggest(faces, throw, top=3)
        except CubileteError as exc:
            reason = _("No advice: {reason}").format(reason=translate_error(str(exc)))
            self.app.call_from_thread(self.query_one(CoachPanel).show_lines, _("Coach"), [reason])
            return
        rows = [(a.describe(self.rules), a.expected, a.loss) for a in advice]
        self.app.call_from_thread(self.show_suggestion, rows)

    def show_suggestion(self, rows: list[tuple[str, float, float]]) -> None:
        """Show the suggestion."""
        panel = self.query_one(CoachPanel)
        if not rows:
            panel.show_lines(_("Coach"), [_("Nothing to advise here.")])
            return
        note = _("Expected final score with best play from here; instant wins are not modelled.")
        panel.show_options(_("Coach: best options"), rows, [note])

    def action_new_game(self) -> None:
        """Back to the setup screen (only once the game is over)."""
        if not self.keeper.is_over:
            self.say(_("Finish the game first (or q to quit)."))
            return
        go(self, SETUP, self.options)

    def action_leave(self) -> None:
        """Quit, after a confirmation."""
        self.app.push_screen(
            ConfirmDialog(_("Quit? The sheet of real dice is not saved.")),
            lambda yes: self.app.exit() if yes else None,
        )
