"""The win bot: at every decision, the option with the highest probability of winning the game.

It sees every opponent's sheet and total, and so who still plays this round; each opponent's
final score is taken from their exact distribution under expected-score play
(:mod:`cubilete.win.distribution`), independent of the bot's dice. Its own play comes from
:func:`cubilete.win.play.win_options`: this turn solved exactly for the share of the win,
later turns valued by its target tables. Ties are split evenly (a tie-break round taken as
a fair lottery); instant wins count with their per-turn chance. Among options that win
equally often (a lost or won game) it plays for points.

Where the rules have no exact tables (too large: Yahtzee, Yatzy) but the solver's do, heads-up, it
plays the approximate win model of :mod:`cubilete.win.approx` (normal from the solver's mean and
variance) and its analysis says "approximate". Elsewhere without tables (the 4-column sheet, carried
throws, three or more seats on Yahtzee or Yatzy), alone at the table, and in tie-break rounds, it plays
the optimal bot's move and its analysis says so.
"""

from __future__ import annotations

import contextlib

from cubilete.engine.actions import Action
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.base import Analysis, action_for, bot_seed, check_playable, in_play
from cubilete.play.bots.optimal import optimal_options
from cubilete.solver.advisor import Option

WIN_NOTE = (
    "win: values are probabilities of winning; opponents assumed to play for expected points "
    "(exact final-score distributions from their sheets), independent dice, ties split evenly, "
    "instant wins by their per-turn chance"
)
FALLBACK_NOTE = "win: {why}; playing the optimal bot's move (values are expected final scores)"


class WinBot:
    """Maximises the probability of winning (see the module)."""

    name = "win"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def prepare(self, rules: Rules) -> None:
        """Load (or build) the tables now rather than at the first move."""
        from cubilete.win.tables import vector_table

        try:
            vector_table(rules, "follow")
            vector_table(rules, "target")
        except SolverUnsupportedError:
            from cubilete.win.approx import moments_of

            with contextlib.suppress(SolverUnsupportedError):  # no tables at all: the optimal bot's moves
                moments_of(rules)

    def _fallback(self, game: Game, why: str) -> Analysis:
        base = optimal_options(game)
        return Analysis(base, base.exact, FALLBACK_NOTE.format(why=why))

    def _approximate(self, game: Game, why: str) -> Analysis:
        """Heads-up without exact win tables: the approximate win model; else the optimal bot's move."""
        from cubilete.win.approx import APPROX_NOTE, approx_turn_start_win, game_approx_win_options

        try:
            if game.state.turn.throws == 0:
                return Analysis([Option("keep", approx_turn_start_win(game), 0.0)], False, APPROX_NOTE)
            ranked = game_approx_win_options(game)
        except SolverUnsupportedError as exc:
            return self._fallback(game, f"no exact tables ({why}); {exc}")
        options = [Option(w.option.kind, w.win, w.loss, w.option.slot, w.option.points, w.option.keep) for w in ranked]
        return Analysis(options, False, APPROX_NOTE)

    def analyse(self, game: Game) -> Analysis:
        """Every option with its probability of winning (in ``expected``; ``loss``: what it gives up), best first."""
        check_playable(game)
        if not in_play(game):
            return self._fallback(game, "tie-break round")
        st = game.state
        if len(st.seats) == 1:
            return self._fallback(game, "alone at the table")
        from cubilete.win.odds import chances
        from cubilete.win.play import game_win_options
        from cubilete.win.tables import tables_fit, vector_table

        try:
            if not tables_fit(game.rules):  # remembered: asking vector_table again would size the rules every time
                return self._approximate(game, f"{game.rules.name}: the win tables are too large here")
            vector_table(game.rules, "target")  # raises where the rules have no exact tables
            if st.turn.throws == 0:
                return Analysis([Option("keep", chances(game)[st.current], 0.0)], True, WIN_NOTE)
            ranked = game_win_options(game)
        except SolverUnsupportedError as exc:
            return self._approximate(game, str(exc))
        options = [Option(w.option.kind, w.win, w.loss, w.option.slot, w.option.points, w.option.keep) for w in ranked]
        return Analysis(options, True, WIN_NOTE)

    def choose(self, game: Game) -> Action:
        """The option with the best probability of winning, as a game action."""
        return action_for(game, self.analyse(game)[0])
