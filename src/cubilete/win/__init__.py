"""Playing to win: exact score distributions, target play, win chances and the win bot's values.

Built on :mod:`cubilete.solver` and :mod:`cubilete.engine.rules.scoring`; imported by the bots, the
coach and the apps, never importing them.

* :func:`distribution`: the final score's distribution under expected-score-optimal play;
* :func:`target_options`: P(final score >= T) per option under the play that maximises it;
* :func:`chances`: every seat's probability of winning a game from its position (< 50 ms);
* :func:`win_options`: every option with its probability of winning against given opponents;
* :func:`cubilete.win.chance.chance`: the one chance to win every surface shows (exact heads-up from the
  two-player table where built, else estimated), and :func:`~cubilete.win.chance.option_chances`.

Exact tables exist where states x scores fit (every Generala, General and Bozó preset). On
Yahtzee and Yatzy, :func:`distribution` takes a forward pass (:mod:`cubilete.win.forward`) and
:func:`target_options` a table of the one target asked (:mod:`cubilete.win.targets`); the win
functions raise :class:`~cubilete.solver.SolverUnsupportedError` there and :func:`chances` gives
an estimate (``WinChances.exact`` is False), as on rules the solver cannot solve. Heads-up there,
:mod:`cubilete.win.approx` plays to win approximately (normal from the solver's moments): the win
bot, the coach's "to win" advice and :mod:`cubilete.win.chance` use it, labelled approximate.
"""

from cubilete.win.distribution import Distribution, distribution, forward_distribution, option_distributions
from cubilete.win.odds import WinChances, chances
from cubilete.win.play import WinOption, game_win_options, reach_probability, target_options, win_options

__all__ = [
    "Distribution",
    "WinChances",
    "WinOption",
    "chances",
    "distribution",
    "forward_distribution",
    "game_win_options",
    "option_distributions",
    "reach_probability",
    "target_options",
    "win_options",
]
