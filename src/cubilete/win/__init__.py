"""Playing to win: exact score distributions, target play, win chances and the win bot's values.

Built on :mod:`cubilete.solver` and :mod:`cubilete.rules.scoring`; imported by the bots, the
coach and the apps, never importing them.

* :func:`distribution`: the final score's distribution under expected-score-optimal play;
* :func:`target_options`: P(final score >= T) per option under the play that maximises it;
* :func:`chances`: every seat's probability of winning a game from its position (< 50 ms);
* :func:`win_options`: every option with its probability of winning against given opponents.

Exact tables exist where states x scores fit (every Generala, General and Bozó preset);
elsewhere the functions raise :class:`~cubilete.solver.SolverUnsupportedError` and
:func:`chances` gives an estimate (``WinChances.exact`` is False).
"""

from cubilete.win.distribution import Distribution, distribution, option_distributions
from cubilete.win.odds import WinChances, chances
from cubilete.win.play import WinOption, game_win_options, reach_probability, target_options, win_options

__all__ = [
    "Distribution",
    "WinChances",
    "WinOption",
    "chances",
    "distribution",
    "game_win_options",
    "option_distributions",
    "reach_probability",
    "target_options",
    "win_options",
]
