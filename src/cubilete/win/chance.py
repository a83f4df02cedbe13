"""One chance to win per seat, the same number on every surface (panels, hints, replay chart, review).

* Heads-up, where the two-player table of :mod:`cubilete.duel` is built (or small enough to solve
  here): the exact probability of winning with both players playing to win, instant wins and
  tie-breaks included (``exact`` is True).
* Elsewhere, with win tables (:mod:`cubilete.win.play`): the player to move is valued playing this
  turn to win (at a decision: the best option's chance of :func:`option_chances`, so the hint and the
  panel agree), the others from :func:`cubilete.win.odds.chances` scaled to the rest; estimated.
* Heads-up without win tables (Yahtzee, Yatzy): the approximate model of :mod:`cubilete.win.approx`
  (the player to move plays this turn for a normal estimate from the solver's moments); approximate.
* Else :func:`cubilete.win.odds.chances`' normal estimate.

At a decision the position's chance IS the best option's chance: :func:`chance` takes it from
:func:`option_chances`, which the coach's hint and the review use too.
"""

from __future__ import annotations

from dataclasses import dataclass

from cubilete.duel.solve import DuelSolution
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.win.odds import chances, held_faces
from cubilete.win.play import WinOption, game_win_options, ranked_by_chance, turn_start_win
from cubilete.win.tables import tables_fit

DUEL_NOTE = "exact: heads-up, both players playing to win (instant wins and tie-breaks included)"
WIN_NOTE = (
    "estimated: the player to move plays this turn to win (later turns each at their best chance of every "
    "target), the others from their final-score distributions under expected-score play; instant wins by "
    "their per-turn chance; ties split evenly"
)
POINTS_NOTE = "estimated: {why}"
APPROX_NOTE = (
    "approximate: heads-up, the player to move plays this turn to win; each final score taken as normal from "
    "the solver's mean and variance under expected-score play; ties split evenly"
)


@dataclass(frozen=True)
class Chance:
    """Each seat's probability of winning (seat order, summing to 1), whether it is exact, and its model."""

    probabilities: tuple[float, ...]
    exact: bool
    note: str

    def __getitem__(self, seat: int) -> float:
        return self.probabilities[seat]


_REFUSED: set[Rules] = set()


def duel_table(rules: Rules) -> DuelSolution | None:
    """The two-player table of the rules if it is built (or small enough to solve here), else None.

    Inside :func:`cubilete.solver.cache.tables_only` only a table already on disk is used. A refusal
    (rules too large or not heads-up solvable) is remembered: sizing the joint game takes seconds."""
    from cubilete.duel.cache import duel_path, shared_duel
    from cubilete.solver.cache import solving_here

    if rules in _REFUSED:
        return None
    if not solving_here() and not duel_path(rules).is_file():
        return None
    try:
        return shared_duel(rules)
    except SolverUnsupportedError:
        _REFUSED.add(rules)
        return None


def _heads_up(game: Game) -> DuelSolution | None:
    return duel_table(game.rules) if len(game.state.seats) == 2 else None


def _duel_options(game: Game, solution: DuelSolution) -> list[WinOption]:
    """The decision's options with their exact heads-up chance, each carrying its expected final score."""
    from cubilete.duel.advisor import duel_advise
    from cubilete.solver.advisor import advise
    from cubilete.solver.cache import shared_solution

    rules, st = game.rules, game.state
    me, rival = st.seats[st.current], st.seats[1 - st.current]
    rival_left = rival.turns_taken < rules.turns and any(v is None for v in rival.card)
    held = held_faces(game)
    exact = duel_advise(
        solution, st.order[0] == st.current, me.card, rival.card, (me.extra_bonuses, rival.extra_bonuses),
        st.turn.dice, st.turn.throws, rival_left, held,
    )  # fmt: skip
    points = advise(shared_solution(rules), me.card, st.turn.dice, st.turn.throws, me.extra_bonuses, held)
    by_key = {(o.kind, o.slot, tuple(sorted(o.keep))): o for o in points}
    pairs = []
    for o in exact:
        match = by_key.get((o.kind, o.slot, tuple(sorted(o.keep))))
        if match is not None:
            pairs.append((match, o.expected))
    return ranked_by_chance(pairs)


def option_chances(game: Game) -> tuple[list[WinOption], bool]:
    """Every option of the decision at hand (dice thrown, normal play, two or more seats) with its chance
    to win, best first, and whether the chances are exact. Raises SolverUnsupportedError where the rules
    have neither a two-player table (heads-up) nor win tables."""
    solution = _heads_up(game)
    if solution is not None:
        return _duel_options(game, solution), True
    if not tables_fit(game.rules) and len(game.state.seats) == 2:
        from cubilete.win.approx import game_approx_win_options

        return game_approx_win_options(game), False
    return game_win_options(game), False


def _over(game: Game) -> Chance:
    st = game.state
    share = 1.0 / len(st.winners)
    probs = tuple(share if i in st.winners else 0.0 for i in range(len(st.seats)))
    return Chance(probs, True, "the game is over")


def _duel_chance(game: Game, solution: DuelSolution) -> Chance:
    """The exact heads-up chance of the player to move (the other has the rest)."""
    from cubilete.duel.advisor import sheet_number, tiebreak_inputs
    from cubilete.duel.tiebreak import tiebreak_choices

    rules, st = game.rules, game.state
    me = st.current
    if st.phase is Phase.TIEBREAK:
        against = None if not st.tiebreak_hands else st.tiebreak_hands[0][1]
        first, second = (st.seats[i].card for i in st.contenders)
        w, first_wins, second_wins = tiebreak_inputs(solution, first, second)
        choices = tiebreak_choices(
            rules, solution.tables, w, against, st.turn.dice, st.turn.throws, held_faces(game), first_wins, second_wins
        )
        p = max(v for _, v, _ in choices)
    elif st.turn.throws == 0:
        seat, rival = st.seats[me], st.seats[1 - me]
        lead = scoring.total(rules, seat.card, seat.extra_bonuses) - scoring.total(
            rules, rival.card, rival.extra_bonuses
        )
        s, o = sheet_number(solution, seat.card), sheet_number(solution, rival.card)
        p = solution.win_probability(st.order[0] == me, s, o, lead)
    else:
        p = _duel_options(game, solution)[0].win
    probs = [0.0, 0.0]
    probs[me], probs[1 - me] = p, 1.0 - p
    return Chance(tuple(probs), True, DUEL_NOTE)


def _win_model(game: Game) -> Chance:
    """The player to move playing this turn to win; the others' points-model chances scaled to the rest."""
    st = game.state
    base = chances(game)
    me = st.current
    try:
        if st.phase is Phase.PLAY and not tables_fit(game.rules) and len(st.seats) == 2:
            return _approx_model(game)
        if st.phase is not Phase.PLAY or not tables_fit(game.rules):
            return Chance(base.probabilities, False, POINTS_NOTE.format(why=base.note))
        p = game_win_options(game)[0].win if st.turn.throws > 0 else turn_start_win(game)
    except SolverUnsupportedError:  # rules too large, or win tables not built here (a server that only loads)
        return Chance(base.probabilities, False, POINTS_NOTE.format(why=base.note))
    rest = sum(q for i, q in enumerate(base.probabilities) if i != me)
    n = len(st.seats)
    probs = tuple(
        p if i == me else ((1.0 - p) * q / rest if rest > 0 else (1.0 - p) / (n - 1))
        for i, q in enumerate(base.probabilities)
    )  # fmt: skip
    return Chance(probs, False, WIN_NOTE)


def _approx_model(game: Game) -> Chance:
    """Heads-up without win tables: the player to move's approximate chance (the other has the rest)."""
    from cubilete.win.approx import approx_turn_start_win, game_approx_win_options

    st = game.state
    me = st.current
    p = game_approx_win_options(game)[0].win if st.turn.throws > 0 else approx_turn_start_win(game)
    probs = [0.0, 0.0]
    probs[me], probs[1 - me] = p, 1.0 - p
    return Chance(tuple(probs), False, APPROX_NOTE)


def chance(game: Game) -> Chance:
    """Every seat's chance to win from the game's position: exact from the two-player table heads-up
    where it is built, else estimated (the module says how)."""
    st = game.state
    if st.phase is Phase.OVER:
        return _over(game)
    if len(st.seats) == 1:
        return Chance((1.0,), True, "alone at the table")
    solution = _heads_up(game)
    if solution is not None:
        return _duel_chance(game, solution)
    return _win_model(game)
