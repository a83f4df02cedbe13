"""The game screen: the dice, every player's sheet, the coach and the log.

People play with the keyboard (or the mouse); bots play in a worker at a pace people can
follow, so the screen never freezes.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static
from textual.worker import Worker

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.errors import CubileteError
from cubilete.engine.state import EndReason, GameState, Phase
from cubilete.i18n import _, explain_illegal, file_reason, pgettext, rules_title, servida_word
from cubilete.play.bots import make_bot
from cubilete.play.sheet import SlotState, SlotView, slot_views
from cubilete.present.narrate import describe_step
from cubilete.present.players import shown_name
from cubilete.present.render import instant_win_box, start_lines
from cubilete.tui.navigation import END, go
from cubilete.tui.options import AppOptions
from cubilete.tui.screens.dialogs import ConfirmDialog, MessageDialog, SaveDialog
from cubilete.tui.screens.game_chances import ChancesFeed
from cubilete.tui.screens.layout import (
    BREAKPOINTS,
    SHORT,
    VERTICAL_BREAKPOINTS,
    FitNotice,
    check_fit,
    sideways_scrollbar_when_tall,
)
from cubilete.tui.session import Session, snapshot
from cubilete.tui.styles import tcss
from cubilete.tui.widgets.chances import ChancesPanel
from cubilete.tui.widgets.dice import DiceRow, Die
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.widgets.panels import CoachPanel, GameLog, MessageLine, TurnPanel
from cubilete.tui.widgets.scorecard import BOX_LETTERS, ScoreCard, SheetData, box_letter
from cubilete.tui.words import round_words, throw_words, tiebreak_lines

MAX_DICE = 8
DIGIT_PAUSE = 1.2  # seconds: a second digit typed within this time makes a two-digit line number (1, 0 -> 10)


def default_save_path(session: Session, folder: Path | None = None) -> Path:
    """Where a game is saved unless the player types another file: the user data folder's ``saves``."""
    if session.save_path is not None:
        return session.save_path
    from cubilete.store.stats import data_dir

    game = session.game
    return (folder or data_dir()) / "saves" / f"{game.rules.name}-{game.seed[:8]}.json"


class GameScreen(ChancesFeed):
    """One game in play."""

    DEFAULT_CSS = tcss("GameScreen") + tcss("CardAndSide")
    THINKING_NOTICE = 1.5  # seconds a bot thinks before the screen says it is thinking
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"digit({n})", show=False) for n in range(10)),
        *(Binding(letter, f"box({i})", show=False) for i, letter in enumerate(BOX_LETTERS)),
        Binding("question_mark", "help", show=False),
        Binding("space,r", "throw(False)", show=False),
        Binding("b", "throw(True)", show=False),
        Binding("t", "stand", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("c", "coach_mode", show=False),
        Binding("m", "coach_more", show=False),
        Binding("s", "save", show=False),
        Binding("q", "leave", show=False),
        Binding("f", "hurry", show=False),
    ]

    def __init__(self, session: Session, options: AppOptions) -> None:
        super().__init__()
        self.session = session
        self.options = options
        self.held: set[int] = set(session.game.state.turn.held)
        self.coach_mode = options.coach_mode
        self.finished = False
        self.bot_worker: Worker[None] | None = None
        self.views: list[SlotView] | None = None
        self.line_typed = ""  # the digits of a line number being typed (no throws left)
        self.line_typed_at = 0.0
        self.hurry = False  # f: the bots play their turns at once, until a person must decide again
        self.init_chances()

    # --- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Title; dice and turn; sheet beside the coach and the log; the keys."""
        yield Static(id="title")
        with Horizontal(id="table-top"):
            yield DiceRow(self.game.rules.dice, id="dice")
            with Vertical(id="turn-side"):
                yield TurnPanel(id="turn")
                yield MessageLine(id="message")
        with Horizontal(id="main"):
            yield ScoreCard(id="sheet")
            with Vertical(id="side"):
                yield ChancesPanel(id="chances")
                with VerticalScroll(id="coach-scroll"):  # advice longer than a small terminal's lines scrolls
                    yield CoachPanel(id="coach")
                yield GameLog(id="log")
        yield FitNotice()  # shown only when the sheet is taller than the terminal leaves it
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Say who starts, draw everything and let the bots play if it is their turn."""
        log = self.query_one(GameLog)
        game = self.game
        log.write(_("{title}: {players} (seed {seed})").format(
            title=rules_title(game.rules), players=" · ".join(map(shown_name, game.players)), seed=game.seed
        ))
        for line in start_lines(game, [shown_name(name) for name in game.players]):
            log.write(line)
        if game.history:
            log.write(_("Resumed: {count} moves so far.").format(count=len(game.history)))
        self.query_one(CoachPanel).show_lines(_("Coach"), [_("h: the best options now · c: coach mode")], active=False)
        self.query_one(ScoreCard).focus()
        chances = self.query_one(ChancesPanel)
        if not self.chances_shown:  # set only then: an inline display=True would beat the CSS that hides it
            chances.display = False
        chances.waiting([shown_name(name) for name in game.players])
        self.after_change()

    def on_resize(self) -> None:
        """Small dice under ``SHORT`` lines, large ones above (the CSS breakpoints follow by themselves)."""
        if self.is_mounted and self.query(DiceRow):
            self.query_one(DiceRow).show(self.game.state.turn.dice, sorted(self.held), small=self.size.height < SHORT)
            self.call_after_refresh(check_fit, self, self.tall_extra)

    def on_score_card_resized(self) -> None:
        """The sheet has its new size: say again whether it fits."""
        self.call_after_refresh(check_fit, self, self.tall_extra)

    def tall_extra(self) -> int:
        """The lines a terminal of ``SHORT`` lines or more takes more than a short one: the large dice, two
        lines of keys, and below a narrow sheet the framed chances with up to 10 lines."""
        extra = 7 - self.query_one("#table-top").outer_size.height  # DiceRow and TurnPanel + MessageLine: 7
        keys = self.query_one(KeyBar)
        extra += min(2, keys.get_content_height(keys.size, self.size, keys.size.width)) - keys.outer_size.height
        side = self.query_one("#side")
        if self.has_class("-narrow"):
            shown = [part for part in side.children if part.display]
            chances = self.query_one(ChancesPanel)
            frame = 2 if chances.display else 0
            extra += min(10, sum(part.outer_size.height for part in shown) + frame) - side.outer_size.height
        return extra + sideways_scrollbar_when_tall(self.query_one(ScoreCard))

    # --- drawing -----------------------------------------------------------------------
    def human_deciding(self) -> bool:
        """True when a person at this table must choose now."""
        return self.session.is_decision()

    def refresh_view(self) -> None:
        """Redraw the title, dice, turn panel, sheet and keys from the game."""
        game, st = self.game, self.game.state
        turn = st.turn
        title = f"{rules_title(game.rules)} · {round_words(game)}"
        if not game.is_over:
            title += f" · {shown_name(game.current_player)}"
        self.query_one("#title", Static).update(title)
        self.query_one(DiceRow).show(turn.dice, sorted(self.held), small=self.size.height < SHORT)
        self.query_one(TurnPanel).update("\n".join(self.turn_lines()))
        deciding = self.human_deciding() and st.phase is Phase.PLAY and turn.throws > 0
        card = game.seat().card
        self.views = slot_views(game.rules, card, turn.dice, turn.first_throw) if deciding else None
        self.query_one(ScoreCard).show(SheetData.of_game(game, self.views))
        self.query_one(KeyBar).show(self.key_hints())
        self.call_after_refresh(check_fit, self, self.tall_extra)
        self.request_chances()

    def turn_lines(self) -> list[str]:
        """What the turn panel says."""
        game = self.game
        if game.is_over:
            return [_("Game over.")]
        name = shown_name(game.current_player)
        bot = self.session.bot_to_move()
        lines = [
            _("{name} (bot) is playing…").format(name=name) if bot else _("Your turn, {name}.").format(name=name),
            throw_words(game),
            *tiebreak_lines(game),
        ]
        if bot is None:
            lines.append(self.what_now())
        return lines

    def what_now(self) -> str:
        """The next step for the person deciding, in one line."""
        game, turn = self.game, self.game.state.turn
        if turn.throws == 0:
            if game.rules.face_down_call:
                return _("Press r to throw, or b to call em baixo.")
            return _("Press r (or space) to throw.")
        if game.state.phase is Phase.TIEBREAK:
            if turn.throws < turn.allowance:
                return _("1-{n} hold dice, r throws again, t stands with this hand.").format(n=game.rules.dice)
            return _("No throws left: press t to stand.")
        if turn.throws < turn.allowance:
            return _("1-{n} hold dice, r throws again; or choose a box (arrows or its letter, enter).").format(
                n=game.rules.dice
            )
        return _("No throws left: choose a box (arrows, its letter or line number, enter).")

    def key_hints(self) -> list[tuple[str, str]]:
        """The keys that do something on this screen."""
        rules = self.game.rules
        hints = [(f"1-{rules.dice}", _("hold")), ("r", _("throw"))]
        if rules.face_down_call:
            hints.append(("b", _("em baixo")))
        if self.game.state.phase is Phase.TIEBREAK:
            hints.append(("t", _("stand")))
        else:
            last = box_letter(min(len(rules.slots), len(BOX_LETTERS)) - 1)
            hints.append((f"↑↓ A-{last} ⏎", _("score")))
        if self.session.bot_to_move() is not None and not self.game.is_over:
            hints.append(("f", _("bots at once")))
        hints += [
            ("u", _("undo")),
            ("h", _("hint")),
            ("c", _("coach mode on") if self.coach_mode else _("coach mode off")),
            ("s", _("save")),
            ("q", _("quit")),
            ("?", _("help")),
        ]
        return hints

    def say(self, text: str) -> None:
        """Show a message under the turn panel."""
        self.query_one(MessageLine).say(text)

    def log_step(self, action: Action, before: GameState) -> None:
        """Write what an action did in the log."""
        names = [shown_name(name) for name in self.game.players]
        for line in describe_step(self.game, action, before, ids=False, names=names):  # boxes by letter here
            self.query_one(GameLog).write(line)

    # --- the flow of the game ----------------------------------------------------------------
    def after_change(self) -> None:
        """After any move or undo: redraw, then finish the game, let bots play, or wait for a person."""
        turn = self.game.state.turn
        self.held = set(turn.held)
        self.refresh_view()
        if self.game.is_over:
            self.finish()
        elif self.session.bot_to_move() is not None:
            self.bot_worker = self.run_bots()
        elif self.views is not None and self.game.history and isinstance(self.game.history[-1], Roll):
            self.point_at_first_usable()

    def point_at_first_usable(self) -> None:
        """Put the sheet's cursor on the first box that takes these dice."""
        assert self.views is not None
        usable = [v.index for v in self.views if v.state is SlotState.USABLE]
        paying = [v.index for v in self.views if v.state is SlotState.USABLE and (v.points or 0) > 0]
        target = (paying or usable or [0])[0]
        self.query_one(ScoreCard).focus_slot(target)

    @work(exclusive=True, group="bots")
    async def run_bots(self) -> None:
        """Bots move one action at a time, pausing between actions; their thinking runs in a thread."""
        session = self.session
        while (bot := session.bot_to_move()) is not None:
            await self.bot_pause()
            game = session.game
            thinking = asyncio.ensure_future(asyncio.to_thread(bot.choose, game))
            slow = not (await asyncio.wait({thinking}, timeout=self.THINKING_NOTICE))[0]
            if slow:  # a bot's first move on some rules builds its tables (a minute or more): say so
                self.say(_("{name} is thinking (the first time on these rules it prepares its tables: "
                           "this can take a few minutes)...").format(name=shown_name(game.players[game.state.current])))
            try:
                action = await thinking
            except Exception as exc:  # a bot that fails must not stop the game: the random bot takes over
                seat = game.state.current
                self.say(_("{name} failed ({reason}); the random bot plays that seat.").format(
                    name=game.players[seat], reason=exc
                ))
                session.bots[seat] = make_bot("bot:random", f"{game.seed}:seat{seat}")
                continue
            before = game.state
            if slow:
                self.say("")
            try:
                session.apply(action)
            except OSError as exc:
                self.say(_("The game could not be saved: {reason}").format(reason=file_reason(exc)))
            self.log_step(action, before)
            self.held = set(game.state.turn.held)
            self.refresh_view()
        self.hurry = False
        self.after_change()

    async def bot_pause(self) -> None:
        """The pause before a bot's action (so a person can follow it), cut short when f is pressed."""
        waited, step = 0.0, 0.05
        while waited < self.options.bot_delay and not self.hurry:
            await asyncio.sleep(min(step, self.options.bot_delay - waited))
            waited += step

    def action_hurry(self) -> None:
        """f: the bots play their turns at once (no pause between their actions) until a person decides."""
        if self.game.is_over or self.human_deciding():
            self.say(_("f plays the bots' turns at once, while they play."))
            return
        self.hurry = True
        self.say(_("The bots play at once."))

    def play(self, action: Action) -> None:
        """Play a person's action: check it, judge it in coach mode, apply it, go on."""
        game = self.game
        if action not in game.legal_actions():
            self.say(explain_illegal(game, action))
            return
        judged = self.coach_mode and game.state.phase is Phase.PLAY and game.state.turn.throws > 0
        copy = snapshot(game) if judged else None
        before = game.state
        try:
            self.session.apply(action)
        except OSError as exc:
            self.say(_("The game could not be saved: {reason}").format(reason=file_reason(exc)))
        self.say("")
        self.log_step(action, before)
        self.query_one(CoachPanel).show_lines(_("Coach"), [])
        if copy is not None:
            self.judge(copy, action)
        self.after_change()

    def finish(self) -> None:
        """Record the result once, announce an instant win, and show the end of the game."""
        if self.finished:
            return
        self.finished = True
        problem = self.session.record_result(self.options.data_dir)
        if problem:
            self.app.notify(_("The statistics could not be saved: {reason}").format(reason=problem),
                            severity="warning", timeout=10)
        game = self.game
        st = game.state
        if st.reason is EndReason.INSTANT_WIN:
            winner = game.players[st.winners[0]]
            box = instant_win_box(game.rules, st.turn.dice)
            self.app.push_screen(
                MessageDialog(
                    f"{box} {servida_word(game.rules)}!",
                    _("{name} made {box} with the first throw and wins at once.").format(name=winner, box=box),
                ),
                lambda _result: self.show_end(),
            )
        else:
            self.show_end()

    def show_end(self) -> None:
        """Replace this screen with the end of the game."""
        go(self, END, self.session, self.options)

    # --- keys --------------------------------------------------------------------------------
    def can_act(self) -> bool:
        """True when a person at this table may act now (else says why)."""
        if self.game.is_over:
            return False
        if not self.human_deciding():
            self.say(_("Wait: {name} is playing (f: the bots play at once).").format(
                name=shown_name(self.game.current_player)))
            return False
        return True

    def action_digit(self, number: int) -> None:
        """A digit holds that die while the dice can be thrown again; with no throws left it picks a box by line."""
        game, turn = self.game, self.game.state.turn
        picking = game.state.phase is Phase.PLAY and turn.throws > 0 and turn.throws >= turn.allowance
        if not picking:
            if 1 <= number <= game.rules.dice:
                self.action_hold(number - 1)
            elif turn.throws > 0 and game.state.phase is Phase.PLAY:
                self.say(_("Dice are 1 to {n}; with throws left, choose a box by its letter (A, B, ...).").format(
                    n=game.rules.dice
                ))
            return
        now = time.monotonic()
        typed = self.line_typed + str(number) if now - self.line_typed_at < DIGIT_PAUSE else str(number)
        if not typed.lstrip("0") or int(typed) > len(game.rules.slots):
            typed = str(number)
        self.line_typed, self.line_typed_at = typed, now
        if 1 <= int(typed) <= len(game.rules.slots):
            self.point_at_line(int(typed) - 1)

    def action_box(self, index: int) -> None:
        """Shift + the letter shown before a box: put the cursor on that box (enter scores it)."""
        if index < len(self.game.rules.slots):
            self.point_at_line(index)

    def point_at_line(self, index: int) -> None:
        """Put the sheet's cursor on a box and say what it would get (or why it cannot be used)."""
        if not self.can_act():
            return
        if self.views is None:
            self.say(_("Throw first: press r."))
            return
        view = self.views[index]
        card = self.query_one(ScoreCard)
        card.focus()
        card.focus_slot(index)
        if view.state is SlotState.CLOSED:
            self.say(_("{box} is already closed.").format(box=view.label))
        elif view.greyed:
            self.say(f"{view.label}: {view.note}")
        else:
            self.say(_("{box}: {points} points; enter to score.").format(box=view.label, points=view.points or 0))

    def action_help(self) -> None:
        """``?``: every key of the game screen."""
        rules = self.game.rules
        last = box_letter(min(len(rules.slots), len(BOX_LETTERS)) - 1)
        rows = [
            ("r, " + pgettext("key", "space"), _("throw the dice not held")),  # the space bar, in words
            (f"1-{rules.dice}", _("hold a die, or throw it again (or click it)")),
            (f"A-{last}", _("put the cursor on a box by its letter (shift + the letter)")),
            ("↑ ↓", _("move between the open boxes (closed ones are skipped; the cursor wraps)")),
            (f"1-{len(rules.slots)}", _("with no throws left: the box on that line of the sheet")),
            ("enter", _("score the box under the cursor (a scratch is confirmed first)")),
        ]
        if rules.face_down_call:
            rows.append(("b", _("call 'em baixo' and throw: the faces resting on the table count")))
        rows += [
            ("t", _("in a tie-break round: keep this hand")),
            ("u", _("undo your last move (a die thrown again shows the same faces)")),
            ("h", _("the coach: the best options now, with what each one loses")),
            ("c", _("coach mode on or off: a warning after each decision that loses points")),
            ("m", _("the coach's next lines, when its advice is longer than its panel")),
            ("f", _("while the bots play: their turns at once, without the pause")),
            ("s", _("save the game (then it is saved after every move)")),
            ("q", _("quit")),
            ("?", _("this help")),
        ]
        width = max(len(key) for key, _words in rows)
        body = "\n".join(f"{key:<{width}}  {words}" for key, words in rows)
        self.app.push_screen(MessageDialog(_("Keys"), body))

    def action_coach_more(self) -> None:
        """``m``: the rest of advice longer than the coach's panel (a small terminal)."""
        scroll = self.query_one("#coach-scroll", VerticalScroll)
        if scroll.scroll_y >= scroll.max_scroll_y:  # after the last lines, the first again
            scroll.scroll_home(animate=False)
        else:
            page = max(1, scroll.scrollable_content_region.height - 1)  # a line of the last page stays in view
            scroll.scroll_to(y=min(scroll.max_scroll_y, scroll.scroll_y + page), animate=False)

    def action_hold(self, position: int) -> None:
        """Hold a die, or throw it again."""
        game, turn = self.game, self.game.state.turn
        if position >= game.rules.dice or not self.can_act():
            return
        if turn.throws == 0:
            self.say(_("Throw first: press r."))
            return
        if turn.throws >= turn.allowance:
            self.say(_("No throws left: choose a box."))
            return
        if position in self.held and game.rules.locked_holds and position in turn.held:
            self.say(_("Held dice stay held for the rest of the turn (these rules)."))
            return
        self.held ^= {position}
        self.say("")
        self.query_one(DiceRow).show(turn.dice, sorted(self.held), small=self.size.height < SHORT)

    def on_die_toggled(self, message: Die.Toggled) -> None:
        """A click on a die."""
        self.action_hold(message.position)

    def action_throw(self, face_down: bool) -> None:
        """Throw the dice not held (``b``: calling em baixo)."""
        if not self.can_act():
            return
        turn = self.game.state.turn
        if face_down and not self.game.rules.face_down_call:
            self.say(_("These rules have no em baixo call."))
            return
        if turn.throws >= turn.allowance:
            self.say(_("No throws left: choose a box.") if self.game.state.phase is Phase.PLAY
                     else _("No throws left: press t to stand."))
            return
        keep = tuple(sorted(self.held)) if turn.throws else ()
        if len(keep) == self.game.rules.dice:
            self.say(_("Every die is held: release one (1-{n}) to throw.").format(n=self.game.rules.dice))
            return
        self.play(Roll(keep, face_down))

    def action_stand(self) -> None:
        """Tie-break: show this hand."""
        if not self.can_act():
            return
        if self.game.state.phase is not Phase.TIEBREAK:
            self.say(_("Standing is only for a tie-break round; choose a box."))
            return
        if self.game.state.turn.throws == 0:
            self.say(_("Throw first: press r."))
            return
        self.play(Stand())

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """A greyed box under the cursor says why in full (the Note column may cut it)."""
        if self.views is None or not 0 <= event.cursor_row < len(self.views):
            return
        view = self.views[event.cursor_row]
        self.say(f"{view.label}: {view.note}" if view.greyed else "")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a second click) on a row of the sheet scores that box."""
        slot = event.row_key.value
        if slot is None or slot.startswith("_"):
            return
        self.choose_slot(slot)

    def choose_slot(self, slot: str) -> None:
        """Score the dice in a box; a scratch (0 points) is confirmed first."""
        if not self.can_act():
            return
        game, st = self.game, self.game.state
        if st.phase is Phase.TIEBREAK:
            self.say(_("Tie-break round: press t to stand with these dice."))
            return
        if st.turn.throws == 0 or self.views is None:
            self.say(_("Throw first: press r."))
            return
        view = self.views[game.rules.slot_index(slot)]
        if view.state is SlotState.CLOSED:
            self.say(_("{box} is already closed.").format(box=view.label))
            return
        if view.state is SlotState.BLOCKED:
            self.say(_("{box} cannot be used now: {reason}").format(box=view.label, reason=view.note))
            return
        if not view.points:
            question = _("Scratch {box}? It gets 0 points.").format(box=view.label)
            if view.state is SlotState.SCRATCH_ONLY:
                question = f"{view.note}.\n{question}"
            self.app.push_screen(ConfirmDialog(question), lambda yes: self.play(Score(slot)) if yes else None)
            return
        self.play(Score(slot))

    def action_undo(self) -> None:
        """Go back to this table's previous decision by a person, bots' moves included."""
        if self.game.is_over:
            return
        if self.bot_worker is not None:
            self.bot_worker.cancel()
            self.bot_worker = None
        if not self.session.undo():
            self.say(_("Nothing to undo."))
            if self.session.bot_to_move() is not None:
                self.bot_worker = self.run_bots()
            return
        self.say(_("Undone: back to {name}'s decision (thrown dice show the same faces again).").format(
            name=self.game.current_player
        ))
        self.query_one(GameLog).write(_("— undone —"))
        self.query_one(CoachPanel).show_lines(_("Coach"), [])
        self.after_change()

    def action_save(self) -> None:
        """Save the game to a file (it is then saved there after every move)."""
        folder = self.options.data_dir
        self.app.push_screen(
            SaveDialog(_("Save the game to a file"), default_save_path(self.session, folder), self.save_to,
                       own=self.session.save_path)
        )

    def save_to(self, path: Path) -> str | None:
        """Write the record; returns the problem, or None when saved."""
        try:
            self.session.save_to(path)
        except (OSError, CubileteError) as exc:
            reason = file_reason(exc)
            return _("Cannot save to {path}: {reason}").format(path=path, reason=reason)
        self.say(_("Saved in {path}; continue later with: cubilete play --resume {path}").format(path=path))
        return None

    def action_leave(self) -> None:
        """Quit, after a confirmation."""
        where = self.session.save_path
        question = (
            _("Quit? The game is saved in {path}.").format(path=where)
            if where is not None
            else _("Quit? This game is not saved (press s first to save it).")
        )
        self.app.push_screen(ConfirmDialog(question), lambda yes: self.app.exit() if yes else None)
