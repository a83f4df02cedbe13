"""Line mode: a game in any terminal or over a pipe; people type commands, bots move at once."""

from __future__ import annotations

import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from cubilete.cli.common import DATA_ERROR, CliError
from cubilete.cli.line_commands import Meta, help_text, parse_command
from cubilete.cli.play_view import auto_first_throw, decision_lines
from cubilete.engine import record
from cubilete.engine.actions import Action, Roll
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.i18n import _, file_reason, number, rules_title, translate_error
from cubilete.play import coach
from cubilete.play.bots import Strategy
from cubilete.present.flow import undo_to_decision as undo_to_decision
from cubilete.present.narrate import describe_step
from cubilete.present.render import final_table, score_sheet, start_lines, turn_header

INTERRUPTED = 130
THINKING_NOTICE = 1.5  # seconds a bot thinks before line mode says it is thinking (as the TUI)
COACH_THRESHOLD = 2.0  # coach mode warns about a decision that loses more than this many points (as the TUI)


def default_save_path(game: Game) -> Path:
    """Where ``s`` saves a game started without ``--save``: the user data folder, never over another game."""
    from cubilete.store.stats import data_dir

    folder = data_dir() / "saves"
    path = folder / f"{game.rules.name}-{game.seed[:8]}.json"
    n = 2
    while path.exists():
        path, n = folder / f"{game.rules.name}-{game.seed[:8]}-{n}.json", n + 1
    return path



class LineSession:
    """One game played in line mode, reading commands from ``stdin``."""

    def __init__(
        self, game: Game, bots: Mapping[int, Strategy], save_path: Path | None, stdin: TextIO | None = None
    ) -> None:
        self.game = game
        self.bots = dict(bots)
        self.save_path = save_path
        self.stdin = stdin if stdin is not None else sys.stdin
        self.echo = not _is_tty(self.stdin)
        self._announced = -1
        self.coach_mode = False

    # --- helpers ---------------------------------------------------------------------
    def is_decision(self, game: Game) -> bool:
        """True when a person must choose the next action."""
        return not game.is_over and game.state.current not in self.bots and not auto_first_throw(game)

    def save(self) -> None:
        """Write the record if ``--save`` was given."""
        if self.save_path is None:
            return
        try:
            record.save(self.game, self.save_path)
        except OSError as exc:
            message = _("cannot save the game to {path}: {reason}").format(path=self.save_path, reason=file_reason(exc))
            raise CliError(message, DATA_ERROR) from None

    def apply(self, action: Action) -> None:
        """Play an action, say what it did and save."""
        before = self.game.state
        self.game.apply(action)
        for line in describe_step(self.game, action, before):
            print(f"  {line}")
        self.save()

    def read(self, prompt: str) -> str | None:
        """One typed line, or None when the input has ended."""
        print(prompt, end="", flush=True)
        line = self.stdin.readline()
        if not line:
            print()
            return None
        if self.echo:
            print(line.rstrip("\n"))
        return line

    def _saved_words(self) -> str:
        if self.save_path is None:
            return _("the game was not saved (use --save FILE to keep a game)")
        saved = _("the game is saved in {path}; continue with: cubilete play --resume {path}")
        return saved.format(path=self.save_path)

    # --- the game --------------------------------------------------------------------
    def intro(self) -> None:
        """Title, players, seed, who starts and how to get help."""
        g = self.game
        who = " vs ".join(g.players)
        print(_("{title}: {players} (seed {seed})").format(title=rules_title(g.rules), players=who, seed=g.seed))
        for line in start_lines(g):
            print(line)
        if g.rules.face_down_call:
            print(_("Each turn starts with r or b (em baixo). Type ? for help."))
        else:
            print(_("The first throw of each turn is made for you. Type ? for help."))

    def run(self) -> int:
        """Play until the end, a quit or the end of the input; returns the exit code."""
        self.intro()
        self.save()
        try:
            while not self.game.is_over:
                code = self.step()
                if code is not None:
                    return code
        except KeyboardInterrupt:
            self.save()
            print("\ncubilete: " + _("interrupted; {saved}").format(saved=self._saved_words()), file=sys.stderr)
            return INTERRUPTED
        for line in final_table(self.game):
            print(line)
        self.save()
        return 0

    def step(self) -> int | None:
        """Make the next move happen: a bot's, an automatic first throw, or a person's."""
        g = self.game
        st = g.state
        if st.turn.throws == 0 and self._announced != len(g.history):
            self._announced = len(g.history)
            print(turn_header(g, st))
        bot = self.bots.get(st.current)
        if bot is not None:
            self.apply(self.bot_move(bot))
            return None
        if auto_first_throw(g):
            self.apply(Roll())
            return None
        return self.decide()

    def bot_move(self, bot: Strategy) -> Action:
        """The bot's move; if it thinks long (its first move on some rules builds its tables), say so."""
        g = self.game
        moved: list[Action] = []
        failed: list[BaseException] = []

        def think() -> None:
            try:
                moved.append(bot.choose(g))
            except BaseException as exc:  # raised again in this thread
                failed.append(exc)

        thread = threading.Thread(target=think, name="bot-move", daemon=True)
        thread.start()
        thread.join(THINKING_NOTICE)
        if thread.is_alive():
            name = g.players[g.state.current]  # as the rest of line mode names the seats
            print(_("{name} is thinking (the first time on these rules it prepares its tables: "
                    "this can take a few minutes)...").format(name=name), flush=True)  # fmt: skip
            thread.join()
        if failed:
            raise failed[0]
        return moved[0]

    def decide(self) -> int | None:
        """Show the table and read commands until one changes the game (None) or ends the session."""
        g = self.game
        print(*decision_lines(g), sep="\n")
        while True:
            line = self.read(f"{g.current_player}> ")
            if line is None:
                self.save()
                ended = _("input ended before the game was over; {saved}").format(saved=self._saved_words())
                print(f"cubilete: {ended}", file=sys.stderr)
                return DATA_ERROR
            try:
                command = parse_command(line, g)
                if not isinstance(command, Meta):
                    warning = self.judge(command)
                    self.apply(command)
                    if warning:
                        print(f"  {warning}")
                    return None
                done, code = self.meta(command)
                if done:
                    return code
            except CubileteError as exc:
                print(f"  ! {translate_error(str(exc))}")

    def hint_lines(self) -> list[str]:
        """The coach's best options now (``h``), each with its expected final score and loss."""
        g = self.game
        if g.state.turn.throws == 0:
            return ["  ! " + _("Throw first: the coach judges the dice on the table.")]
        try:
            advice, exact = coach.hint(g, top=5)
        except CubileteError as exc:
            return ["  ! " + _("No advice: {reason}").format(reason=translate_error(str(exc)))]
        if not advice:
            return ["  " + _("Nothing to advise here.")]
        lines = ["  " + _("Coach: best options")]
        width = max(len(a.describe(g.rules)) for a in advice)
        for rank, a in enumerate(advice, 1):
            lines.append(f"  {rank}. {a.describe(g.rules):<{width}}  {number(a.expected, 2):>8}  -{number(a.loss, 2)}")
        if not exact:  # the search's numbers rank the options; as final scores they would mislead
            lines.append("  " + _(
                "Approximate values: a one-turn search ranks the options; the numbers are not a forecast of the "
                "final score (no exact table for these rules here)."
            ))
        elif any(b.instant_win for b in g.rules.boxes):
            lines.append("  " + _("Expected final score with best play from here; instant wins are not modelled."))
        else:
            lines.append("  " + _("Expected final score with best play from here."))
        return lines

    def judge(self, action: Action) -> str:
        """Coach mode: a warning if the action loses more than the threshold ('' otherwise)."""
        g = self.game
        if not self.coach_mode or action not in g.legal_actions():
            return ""
        try:
            loss = coach.action_loss(g, action)
            if loss is None or loss <= COACH_THRESHOLD:
                return ""
            best, _exact = coach.hint(g, top=1)
        except CubileteError:
            return ""
        text = _("With {dice} that lost about {loss} points; best was: {best}.")
        return text.format(
            dice=" ".join(map(str, g.state.turn.dice)), loss=number(loss),
            best=best[0].describe(g.rules) if best else "?",
        )

    def meta(self, command: Meta) -> tuple[bool, int | None]:
        """Run a command that is not a move: (whether the decision is over, exit code or None)."""
        g = self.game
        if command is Meta.HELP:
            print(*help_text(g.rules), sep="\n")
        elif command is Meta.HINT:
            print(*self.hint_lines(), sep="\n")
        elif command is Meta.COACH:
            self.coach_mode = not self.coach_mode
            if self.coach_mode:
                text = _("Coach mode on: a warning after each decision that loses more than {points} points.")
                print("  " + text.format(points=f"{COACH_THRESHOLD:g}"))
            else:
                print("  " + _("Coach mode off."))
        elif command is Meta.SAVE:
            if self.save_path is None:
                self.save_path = default_save_path(g)
                self.save_path.parent.mkdir(parents=True, exist_ok=True)
            self.save()
            saved = _("Saved in {path}; continue later with: cubilete play --resume {path}")
            print("  " + saved.format(path=self.save_path))
        elif command is Meta.SHEET:
            print(*score_sheet(g), sep="\n")
        elif command is Meta.QUIT:
            self.save()
            print(_("Quit: {saved}.").format(saved=self._saved_words()))
            return True, 0
        elif command is Meta.UNDO:
            if undo_to_decision(g, self.is_decision):
                self._announced = len(g.history)
                print("  " + _("undone"))
                self.save()
                return True, None
            print("  ! " + _("nothing to undo"))
        return False, None


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
