"""The optimal bot: the advisor's best option on the solved table of the rules.

Tables are loaded (or solved and cached) once per rule set and process, and shared by
every bot. Maxi Yatzy without saved throws reads the layered solver's table on disk once it
has been solved (``cubilete solve --rules maxi-yatzy-no-saved``; never solved by a bot), and
Maxi Yatzy WITH saved throws reads the exact saved-throws table once it is finished
(``cubilete solve --rules maxi-yatzy --cap 38 --bound lower``; :mod:`cubilete.solver.maxi.saved_advice`).
Rules the solver refuses (the 4-column sheet, an unsolved Maxi) are played by the approximate
one-turn search of :mod:`cubilete.play.bots.approx`, and the analysis says so (``Analysis.exact`` is False).

The objective is the expected final score of one player: instant wins are not modelled
(a servida Generala is scored like any servida Generala and play goes on in the model).
"""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.play.bots.approx import approx_note, approx_options, tiebreak_options, turn_start_value
from cubilete.play.bots.base import Analysis, action_for, bot_seed, check_playable, in_play
from cubilete.solver import Solution, check_solvable
from cubilete.solver.advisor import Advice, Option, advise, sheet_state
from cubilete.solver.cache import cache_dir, shared_solution
from cubilete.solver.maxi.layered import LayeredSolution, layered_options, load_layered, needs_layered
from cubilete.solver.maxi.layered import turn_start_value as layered_turn_start
from cubilete.solver.maxi.saved import SavedSolution
from cubilete.solver.maxi.saved_advice import exact_saved, saved_options, saved_turn_start

EXACT_NOTE = "exact: expected final score under optimal play (one player; instant wins not modelled)"
SAVED_NOTE = "exact: expected final score under optimal play, with saved throws (read from {folder})"


def solution_for(rules: Rules) -> Solution | None:
    """The solved table of the rules (loaded or solved once per process), or None if too large to solve."""
    try:
        return shared_solution(rules)
    except SolverUnsupportedError:
        return None


_LAYERED: dict[Rules, LayeredSolution] = {}


def layered_for(rules: Rules) -> LayeredSolution | None:
    """The finished layered table of rules too large for the in-memory solver (Maxi Yatzy without saved
    throws), memory-mapped once per process; None if it has not been solved on this machine (bots then
    use the approximate search: ``cubilete solve --rules maxi-yatzy-no-saved`` builds it)."""
    found = _LAYERED.get(rules)
    if found is None and needs_layered(rules):
        found = load_layered(rules)
        if found is not None:
            _LAYERED[rules] = found
    return found


_SAVED: dict[tuple[Rules, str], SavedSolution] = {}


def saved_for(rules: Rules) -> SavedSolution | None:
    """The finished exact table of rules WITH saved throws (Maxi Yatzy) in the solver's cache folder,
    memory-mapped once per process and folder; None if it is not there (bots then use the approximate
    search: ``cubilete solve --rules maxi-yatzy --cap 38 --bound lower`` builds it)."""
    if not rules.carry_over_throws:
        return None
    key = (rules, str(cache_dir()))
    found = _SAVED.get(key)
    if found is None:
        found = exact_saved(rules)
        if found is not None:
            _SAVED[key] = found
    return found


def is_exact(rules: Rules) -> bool:
    """True if the rules can be solved exactly (the optimal bot is then truly optimal)."""
    try:
        check_solvable(rules)
    except SolverUnsupportedError:
        return False
    return True


_OPTIONS: dict[tuple[object, ...], tuple[Rules, Advice]] = {}


def exact_options(
    rules: Rules,
    card: tuple[int | None, ...],
    hand: tuple[int, ...],
    throw: int,
    extras: int,
    held: tuple[int, ...],
    solution: Solution | None = None,
) -> Advice:
    """The advisor's options for one situation (cached: bots and the loss judge ask the same questions).

    The cache knows a rule set by identity (a game keeps the same object): hashing a :class:`Rules`
    costs more than the query itself. The options are built as they are read (:class:`Advice`).
    ``solution`` is the rules' table if the caller has it already.
    """
    key = (id(rules), card, hand, throw, extras, held)
    hit = _OPTIONS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if solution is None:
        solution = solution_for(rules)
    assert solution is not None
    options = advise(solution, card, hand, throw, extras, held)
    if len(_OPTIONS) >= 4096:
        _OPTIONS.clear()
    _OPTIONS[key] = (rules, options)
    return options


def _situation(game: Game) -> tuple[Rules, tuple[int | None, ...], tuple[int, ...], int, int, tuple[int, ...]]:
    st = game.state
    seat, turn, rules = st.seats[st.current], st.turn, game.rules
    held = tuple(sorted(turn.dice[p] for p in turn.held)) if rules.locked_holds and turn.throws else ()
    return rules, seat.card, tuple(sorted(turn.dice)), turn.throws, seat.extra_bonuses, held


def optimal_options(game: Game, exact: bool = True) -> Analysis:
    """Every option now, best first: exact from the solved table, else the approximate search."""
    check_playable(game)
    if not in_play(game):
        return tiebreak_options(game) if game.state.turn.throws else Analysis([Option("keep", 0.0, 0.0)])
    rules, seat, turn = game.rules, game.seat(), game.state.turn
    solution = solution_for(rules) if exact else None
    layered = layered_for(rules) if exact and solution is None else None
    saved = saved_for(rules) if exact and solution is None else None
    if saved is not None:
        return saved_analysis(saved, game)
    if layered is not None:
        return layered_analysis(layered, game)
    if turn.throws == 0:
        if solution is not None:
            mask, flags, upper = sheet_state(solution, seat.card)
            value = scoring.total(rules, seat.card, seat.extra_bonuses) + float(solution.values[mask, flags, upper])
            return Analysis([Option("keep", value, 0.0)], True, EXACT_NOTE)
        return Analysis([Option("keep", turn_start_value(game), 0.0)], False, approx_note(rules))
    if solution is None:
        return approx_options(game)
    return Analysis(exact_options(*_situation(game), solution), True, EXACT_NOTE)


def layered_analysis(layered: LayeredSolution, game: Game) -> Analysis:
    """:func:`optimal_options` read from a layered table (a game in play on a sheet of its rules)."""
    seat, turn = game.seat(), game.state.turn
    if turn.throws == 0:
        return Analysis([Option("keep", layered_turn_start(layered, seat.card), 0.0)], True, EXACT_NOTE)
    return Analysis(layered_options(layered, seat.card, turn.dice, turn.throws), True, EXACT_NOTE)


def saved_analysis(saved: SavedSolution, game: Game) -> Analysis:
    """:func:`optimal_options` read from the exact saved-throws table (a game in play on a sheet of its rules)."""
    seat, turn = game.seat(), game.state.turn
    bank = turn.allowance - game.rules.throws  # the throws this turn started with beyond the rules' own
    note = SAVED_NOTE.format(folder=saved.directory)
    if turn.throws == 0:
        return Analysis([Option("keep", saved_turn_start(saved, seat.card, bank), 0.0)], True, note)
    return Analysis(saved_options(saved, seat.card, turn.dice, turn.throws, bank), True, note)


class OptimalBot:
    """Plays the best option of :func:`optimal_options`: optimal on every rule set the solver solves."""

    name = "optimal"
    exact = True

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def prepare(self, rules: Rules) -> None:
        """Load (or solve) the table now rather than at the first move."""
        if self.exact and solution_for(rules) is None:
            saved_for(rules)

    def analyse(self, game: Game) -> Analysis:
        """Every option, best first, with its expected final score and its loss against the best."""
        return optimal_options(game, self.exact)

    def choose(self, game: Game) -> Action:
        """The best option, as a game action (the first throw of a turn keeps nothing)."""
        st = game.state
        if self.exact and st.phase is Phase.PLAY and st.turn.throws:  # not over, not a tie-break, dice thrown
            solution = solution_for(game.rules)
            if solution is not None:  # the fast path: only the best option is built
                return action_for(game, exact_options(*_situation(game), solution).best)
        return action_for(game, self.analyse(game)[0])


class LookaheadBot(OptimalBot):
    """The approximate one-turn search on every rule set (what the optimal bot falls back to)."""

    name = "lookahead"
    exact = False


def action_loss(game: Game, action: Action) -> float | None:
    """Expected points the action loses against optimal play, judged on the solved table.

    None where it cannot be judged: rules too large to solve, tie-break rounds, the first
    throw of a turn (there is nothing to choose).
    """
    if game.is_over or not in_play(game) or game.state.turn.throws == 0:
        return None
    if solution_for(game.rules) is not None:
        options: Sequence[Option] = exact_options(*_situation(game))
    elif (layered := layered_for(game.rules)) is not None:
        options = layered_options(layered, game.seat().card, game.state.turn.dice, game.state.turn.throws)
    elif (saved := saved_for(game.rules)) is not None:
        options = saved_analysis(saved, game)
    else:
        return None
    turn = game.state.turn
    for option in options:
        if isinstance(action, Score) and option.kind == "score" and option.slot == action.slot:
            return option.loss
        if isinstance(action, Roll) and option.kind == "keep":
            faces = tuple(sorted(turn.dice[p] for p in action.keep))
            if option.keep == faces:
                return option.loss
    return None
