"""Small modal dialogs: a yes/no question, a message to acknowledge, a file name to save to."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from cubilete.i18n import _
from cubilete.tui.styles import tcss


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question: ``y``/enter for yes, ``n``/escape for no."""

    DEFAULT_CSS = tcss("Dialog")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,s", "answer(True)", show=False),  # s: sí, sim (the button says the key of its language)
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical():
            yield Static(self.question, id="question")
            with Horizontal():
                yield Button(_("Yes (y)"), variant="primary", id="yes")
                yield Button(_("No (n)"), id="no")

    def on_mount(self) -> None:
        """Enter answers yes."""
        # A key pressed while the app closes can open this dialog after its parts are gone: do nothing then.
        for part in self.query("#yes").results(Button):
            part.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button answers."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """A key answers."""
        self.dismiss(yes)


class MessageDialog(ModalScreen[None]):
    """A message with a title, closed with enter or escape."""

    DEFAULT_CSS = tcss("Dialog") + tcss("MessageDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        """Title, text and an OK button."""
        with Vertical():
            yield Label(self.title_text, id="title")
            yield Static(self.body, id="body")
            with Horizontal():
                yield Button(_("OK"), variant="primary", id="ok")

    def on_mount(self) -> None:
        """Enter closes."""
        # A key pressed while the app closes can open this dialog after its parts are gone: do nothing then.
        for part in self.query("#ok").results(Button):
            part.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """OK closes."""
        self.dismiss(None)

    def action_close(self) -> None:
        """Escape closes."""
        self.dismiss(None)


class SaveDialog(ModalScreen[Path | None]):
    """Ask for a file and write to it; a failure is shown here and the dialog stays open."""

    DEFAULT_CSS = tcss("Dialog") + tcss("SaveDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(
        self, title: str, default: Path, write: Callable[[Path], str | None], own: Path | None = None
    ) -> None:
        """``own``: the file this game is already saved in (written again without asking)."""
        super().__init__()
        self.title_text = title
        self.default = default
        self.write = write
        self.own = own
        self.replace: Path | None = None  # a file that exists, confirmed by pressing Save a second time

    def compose(self) -> ComposeResult:
        """Title, the file name and a place for the error."""
        with Vertical():
            yield Label(self.title_text)
            yield Input(str(self.default), placeholder=_("file name, e.g. partida.json"), id="path")
            yield Static("", id="error")
            with Horizontal():
                yield Button(_("Save"), variant="primary", id="save")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        """Start in the file name."""
        # A key pressed while the app closes can open this dialog after its parts are gone: do nothing then.
        for part in self.query("#path").results(Input):
            part.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the file name saves."""
        self._save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Save or cancel."""
        if event.button.id == "save":
            self._save()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        """Escape cancels."""
        self.dismiss(None)

    def _save(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self.query_one("#error", Static).update(_("Type a file name."))
            return
        path = Path(text).expanduser()
        if path.is_file() and path != self.own and path != self.replace:
            self.replace = path
            self.query_one("#error", Static).update(
                _("{path} already exists: press Save again to replace it, or type another name.").format(path=path)
            )
            return
        problem = self.write(path)
        if problem:
            self.query_one("#error", Static).update(problem)
            return
        self.dismiss(path)
