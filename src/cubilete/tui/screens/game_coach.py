"""The coach on the game screen: ``h`` for the best options now, ``c`` for coach mode (a
warning after each decision that lost more than a threshold). The solver runs in threads."""

from __future__ import annotations

from collections.abc import Sequence

from textual import work
from textual.screen import Screen

from cubilete.engine.actions import Action
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules
from cubilete.i18n import _, number, translate_error
from cubilete.play import coach
from cubilete.play.coach_win import two_ways, two_ways_lines
from cubilete.tui.options import AppOptions
from cubilete.tui.session import Session, snapshot
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.widgets.panels import CoachPanel
from cubilete.tui.widgets.scorecard import ScoreCard
from cubilete.tui.words import dice_words


def advice_rows(advice: Sequence[coach.Advice], rules: Rules) -> list[tuple[str, float, float]]:
    """The coach's options as (what, expected final score, loss) rows."""
    return [(a.describe(rules), a.expected, a.loss) for a in advice]


class CoachKeys(Screen[None]):
    """The coach's keys and workers, for a screen that has a session, options and a coach panel."""

    session: Session
    options: AppOptions
    coach_mode: bool

    @property
    def game(self) -> Game:
        """The game in play."""
        return self.session.game

    def say(self, text: str) -> None:
        """Show a message (the game screen shows it under the turn panel)."""
        raise NotImplementedError

    def can_act(self) -> bool:
        """True when a person at this table may act now (else says why)."""
        raise NotImplementedError

    def key_hints(self) -> list[tuple[str, str]]:
        """The keys of the screen."""
        raise NotImplementedError

    def action_hint(self) -> None:
        """Ask the coach for the best options (computed in a thread)."""
        if not self.can_act():
            return
        if self.game.state.turn.throws == 0:
            self.say(_("Throw first: the coach judges the dice on the table."))
            return
        self.query_one(CoachPanel).thinking()
        self.compute_hint(snapshot(self.game), len(self.game.history))

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def compute_hint(self, copy: Game, moment: int) -> None:
        """The coach's options for a copy of the game (the first solve of a preset takes a few seconds)."""
        try:
            advice, exact = coach.hint(copy, top=5)
            if len(copy.players) > 1:  # the points first: the chances to win may still be computing (first run)
                self.app.call_from_thread(self.show_hint, advice, exact, moment)
            both = two_ways(copy) if len(copy.players) > 1 else None
            to_win = two_ways_lines(copy, both) if both is not None else []
        except Exception as exc:  # the coach must never take the game down: say what went wrong
            reason = translate_error(str(exc)) if isinstance(exc, CubileteError) else repr(exc)
            self.app.call_from_thread(self.show_hint_problem, reason, moment)
            return
        self.app.call_from_thread(self.show_hint, advice, exact, moment, to_win)

    def show_hint(self, advice: list[coach.Advice], exact: bool, moment: int, to_win: Sequence[str] = ()) -> None:
        """Show the coach's options, if the game has not moved on meanwhile."""
        if moment != len(self.game.history):
            return
        panel = self.query_one(CoachPanel)
        if not advice:
            panel.show_lines(_("Coach"), [_("Nothing to advise here.")])
            return
        if not exact:  # the search's numbers rank the options; as final scores they would mislead
            notes = [*to_win, _(
                "Approximate values: a one-turn search ranks the options; the numbers are not a forecast of the "
                "final score (no exact table for these rules here)."
            )]
        elif any(b.instant_win for b in self.game.rules.boxes):
            notes = [*to_win, _("Expected final score with best play from here; instant wins are not modelled.")]
        else:
            notes = [*to_win, _("Expected final score with best play from here.")]
        shown = advice[:3] if to_win else advice  # room in the panel for the advice to win
        panel.show_options(_("Coach: best options"), advice_rows(shown, self.game.rules), notes)
        best = advice[0]
        if best.kind == "score" and best.slot is not None:  # the coach's box under the cursor: enter writes it
            self.query_one(ScoreCard).focus_slot(self.game.rules.slot_index(best.slot))

    def show_hint_problem(self, reason: str, moment: int) -> None:
        """The coach could not answer."""
        if moment == len(self.game.history):
            self.query_one(CoachPanel).show_lines(_("Coach"), [_("No advice: {reason}").format(reason=reason)])

    def action_coach_mode(self) -> None:
        """Turn coach mode on or off."""
        self.coach_mode = not self.coach_mode
        if self.coach_mode:
            self.say(_("Coach mode on: a warning after each decision that loses more than {points} points.").format(
                points=f"{self.options.coach_threshold:g}"
            ))
        else:
            self.say(_("Coach mode off."))
        self.query_one(KeyBar).show(self.key_hints())

    @work(thread=True, group="judge", exit_on_error=False)
    def judge(self, copy: Game, action: Action) -> None:
        """Coach mode: how much a decision lost, judged on a copy of the game from before it."""
        try:
            loss = coach.action_loss(copy, action)
            if loss is None or loss <= self.options.coach_threshold:
                return
            best, _exact = coach.hint(copy, top=1)
        except CubileteError:
            return
        rules = self.game.rules
        dice = dice_words(copy.state.turn.dice)
        text = _("With {dice} that lost about {loss} points; best was: {best}.").format(
            dice=dice, loss=number(loss), best=best[0].describe(rules) if best else "?"
        )
        self.app.call_from_thread(self.warn, text)

    def warn(self, text: str) -> None:
        """Show a coach-mode warning."""
        self.query_one(CoachPanel).show_lines(_("Coach mode"), [text])
        self.app.notify(text, title=_("Coach mode"), severity="warning")

