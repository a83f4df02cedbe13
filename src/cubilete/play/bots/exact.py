"""The ``exact`` bot: plays heads-up games to WIN, from the exact two-player table
(:mod:`cubilete.duel`). Every option's value is its probability of winning with optimal
play by both from there on.

Where there is no two-player table (not two players, or rules whose joint game is too large
to solve here) it plays as the optimal bot (expected points) and its analysis says so. Tie-break
rounds are played to win them too (the first player against the best answer, the second
against the hand it must beat).
"""

from __future__ import annotations

from cubilete.duel.solve import DuelSolution
from cubilete.engine.actions import Action
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.base import Analysis, action_for, bot_seed, check_playable, held_faces, in_play
from cubilete.play.bots.optimal import optimal_options
from cubilete.solver.advisor import Option

EXACT_DUEL_NOTE = "exact: probability of winning heads-up, both players playing optimally to win"
FALLBACK_NOTE = "no two-player table for {why}: playing for expected points (the optimal bot)"


_REFUSED: set[Rules] = set()


def duel_for(rules: Rules) -> DuelSolution | None:
    """The two-player table of the rules (loaded or solved once per process), or None if refused
    (a refusal is remembered: sizing a large joint space takes seconds)."""
    from cubilete.duel.cache import shared_duel

    if rules in _REFUSED:
        return None
    try:
        return shared_duel(rules)
    except SolverUnsupportedError:
        _REFUSED.add(rules)
        return None


def exact_options(game: Game) -> Analysis:
    """Every option now with its probability of winning (heads-up), best first."""
    check_playable(game)
    solution = duel_for(game.rules) if len(game.players) == 2 else None
    if solution is not None and not in_play(game):
        return _tiebreak(game, solution)
    if solution is None or not in_play(game):
        why = "this phase" if solution is not None else (
            f"{len(game.players)} players" if len(game.players) != 2 else game.rules.name
        )  # fmt: skip
        base = optimal_options(game)
        return Analysis(base, base.exact, FALLBACK_NOTE.format(why=why) + "; " + base.note)
    st = game.state
    me = st.current
    other = 1 - me
    first = st.order[0] == me
    rules = game.rules
    seat, rival = st.seats[me], st.seats[other]
    rival_left = rival.turns_taken < rules.turns and any(v is None for v in rival.card)
    if st.turn.throws == 0:
        lead = scoring.total(rules, seat.card, seat.extra_bonuses) - scoring.total(
            rules, rival.card, rival.extra_bonuses
        )
        from cubilete.duel.advisor import sheet_number

        s, o = sheet_number(solution, seat.card), sheet_number(solution, rival.card)
        value = solution.win_probability(first, s, o, lead)
        return Analysis([Option("keep", value, 0.0)], True, EXACT_DUEL_NOTE)
    from cubilete.duel.advisor import duel_advise

    options = duel_advise(
        solution,
        first,
        seat.card,
        rival.card,
        (seat.extra_bonuses, rival.extra_bonuses),
        st.turn.dice,
        st.turn.throws,
        rival_left,
        held_faces(game),
    )
    return Analysis(options, True, EXACT_DUEL_NOTE)


def _tiebreak(game: Game, solution: DuelSolution) -> Analysis:
    """A tie-break decision: P(winning the tie-break) of every option."""
    from cubilete.duel.advisor import tiebreak_inputs
    from cubilete.duel.tiebreak import tiebreak_choices

    st = game.state
    first, second = (st.seats[i].card for i in st.contenders)  # the first contender throws first
    w, first_wins, second_wins = tiebreak_inputs(solution, first, second)
    against = None if not st.tiebreak_hands else st.tiebreak_hands[0][1]
    turn = st.turn
    choices = tiebreak_choices(
        game.rules, solution.tables, w, against, turn.dice, turn.throws, held_faces(game), first_wins, second_wins
    )
    best = max(v for _, v, _ in choices)
    options = [Option(kind, v, best - v, keep=keep) for kind, v, keep in choices]
    options.sort(key=lambda o: -o.expected)
    return Analysis(options, True, EXACT_DUEL_NOTE + " (tie-break round)")


class ExactBot:
    """Maximises its probability of winning a heads-up game (exact where the joint game is solved)."""

    name = "exact"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def prepare(self, rules: Rules) -> None:
        """Load (or solve) the two-player table now rather than at the first move."""
        duel_for(rules)

    def analyse(self, game: Game) -> Analysis:
        """Every option, best first, with its probability of winning and the probability it gives away."""
        return exact_options(game)

    def choose(self, game: Game) -> Action:
        """The option most likely to win, as a game action."""
        return action_for(game, self.analyse(game)[0])
