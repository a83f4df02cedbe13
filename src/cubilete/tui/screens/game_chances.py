"""Every player's chance to win on the game screen, recomputed after every throw and score.

:func:`cubilete.win.chance.chance` (the model of the coach's "to win" numbers too) runs in one
background thread on a copy of the game; when the game moves on while it works, only the newest
position is computed next (the first call for a preset may build its tables for a while, and the
screen never waits for it).
"""

from __future__ import annotations

import threading

from cubilete.engine.actions import Action
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.i18n import _, translate_error
from cubilete.present.players import shown_name
from cubilete.tui.screens.game_coach import CoachKeys
from cubilete.tui.session import snapshot
from cubilete.tui.widgets.chances import ChancesPanel


class ChancesFeed(CoachKeys):
    """Keeps a :class:`ChancesPanel` up to date from a background thread."""

    _chances_lock: threading.Lock
    _chances_pending: tuple[tuple[Action, ...], Game] | None
    _chances_running: bool
    _chances_asked: tuple[Action, ...] | None

    def init_chances(self) -> None:
        """Set up the feed (call from ``__init__``)."""
        self._chances_lock = threading.Lock()
        self._chances_pending = None
        self._chances_running = False
        self._chances_asked = None

    @property
    def chances_shown(self) -> bool:
        """True when the table has opponents (one player alone always "wins")."""
        return len(self.game.players) > 1

    def request_chances(self) -> None:
        """Ask for the chances of the position on the table (nothing if already asked for it)."""
        if not self.chances_shown:
            return
        key = tuple(self.game.history)
        if key == self._chances_asked:
            return
        self._chances_asked = key
        copy = snapshot(self.game)
        with self._chances_lock:
            self._chances_pending = (key, copy)
            if self._chances_running:
                return
            self._chances_running = True
        threading.Thread(target=self._chances_loop, name="cubilete-chances", daemon=True).start()

    def _chances_loop(self) -> None:
        """The thread: compute the newest pending position until none is left."""
        from cubilete.win.chance import chance

        while True:
            with self._chances_lock:
                job = self._chances_pending
                self._chances_pending = None
                if job is None:
                    self._chances_running = False
                    return
            key, copy = job
            try:
                result = chance(copy)
                probabilities, exact, problem = list(result.probabilities), result.exact, ""
            except Exception as exc:  # the chances must never take the game down: say what went wrong
                probabilities, exact = [], False
                problem = translate_error(str(exc)) if isinstance(exc, CubileteError) else repr(exc)
            try:
                self.app.call_from_thread(self.show_chances, key, probabilities, exact, problem)
            except Exception:  # the app has closed meanwhile
                with self._chances_lock:
                    self._chances_running = False
                return

    def show_chances(self, key: tuple[Action, ...], probabilities: list[float], exact: bool, problem: str) -> None:
        """Show the numbers if the game is still where they were computed."""
        if key != tuple(self.game.history) or not self.is_mounted:
            return
        panel = self.query_one(ChancesPanel)
        if problem:
            panel.unavailable(_("Not available: {reason}").format(reason=problem))
        else:
            panel.show_chances([shown_name(name) for name in self.game.players], probabilities, exact)
