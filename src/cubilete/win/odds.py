"""Win chances of every seat of a game, from each player's final-score distribution.

Assumptions (stated in :attr:`WinChances.note`): every player plays for expected points
from here on (the solver's policy), the players' dice are independent, ties are split
evenly (a tie-break round is a fair lottery between the tied players; a shared win counts
1/k to each), and an instant win (a servida Generala whose box is not scratched) ends the
game with its per-turn probability, independent of the points.

>>> from cubilete.engine.game import Game
>>> from cubilete.engine.rules import find_rules
>>> c = chances(Game(find_rules("generala"), ["Ana", "Beto"], seed=1))
>>> round(sum(c.probabilities), 12), c.exact
(1.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cubilete.engine.dice import Hand
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.solver.combinatorics import FloatArray, dice_tables
from cubilete.win.distribution import Distribution, distribution, done, option_distributions
from cubilete.win.tables import tables_fit

EXACT_NOTE = (
    "final-score distributions exact under expected-score play; players independent; "
    "ties split evenly; instant wins by their per-turn chance"
)
ESTIMATED_NOTE = (
    "estimated: the rules are too large for exact distributions, so each player's final score "
    "is taken as normal around the expected score; players independent; ties split evenly"
)


@dataclass(frozen=True)
class WinChances:
    """Each seat's probability of winning (seat order, summing to 1) and where it comes from."""

    probabilities: tuple[float, ...]
    exact: bool
    note: str
    instant: tuple[float, ...] = ()  # the part of each probability that comes from instant wins

    def __getitem__(self, seat: int) -> float:
        return self.probabilities[seat]


def win_utility(opponents: Sequence[Distribution], start: int, stop: int) -> FloatArray:
    """u[x - start] = share of the win for a player finishing on x (x = start .. stop - 1) against
    independent opponents (ties split evenly)."""
    xs = np.arange(start, stop)
    coeffs = np.ones((1, xs.size))
    for d in opponents:
        idx = xs - d.offset
        cdf = np.concatenate(([0.0], np.cumsum(d.pmf)))  # cdf[i] = P(opponent < offset + i)
        below = cdf[np.clip(idx, 0, d.pmf.size)]
        equal = np.where((idx >= 0) & (idx < d.pmf.size), d.pmf[np.clip(idx, 0, d.pmf.size - 1)], 0.0)
        nxt = np.zeros((coeffs.shape[0] + 1, xs.size))
        nxt[:-1] += coeffs * below
        nxt[1:] += coeffs * equal
        coeffs = nxt
    shares = 1.0 / np.arange(1, coeffs.shape[0] + 1)
    out: FloatArray = shares @ coeffs
    return out


def points_win(dists: Sequence[Distribution]) -> list[float]:
    """P(win on points) of each of independent final scores, ties split evenly."""
    lo = min(d.offset for d in dists)
    hi = max(d.offset + d.pmf.size for d in dists)
    result = []
    for i, d in enumerate(dists):
        u = win_utility([o for k, o in enumerate(dists) if k != i], lo, hi)
        own = np.zeros(hi - lo)
        own[d.offset - lo : d.offset - lo + d.pmf.size] = d.pmf
        result.append(float(own @ u))
    total = sum(result)
    return [r / total for r in result] if total > 0 else [1.0 / len(dists)] * len(dists)


def instant_chance(rules: Rules, card: Sequence[int | None]) -> float:
    """Probability that the first throw of a turn wins at once with this sheet."""
    if not any(b.instant_win for b in rules.boxes):
        return 0.0
    return _instant_chance(rules, tuple(card))


@lru_cache(maxsize=4096)
def _instant_chance(rules: Rules, card: tuple[int | None, ...]) -> float:
    tables = dice_tables(rules.dice)
    hands: list[Hand] = [tuple(int(f) for f in h) for h in tables.keeps[: tables.n_hands]]
    return float(sum(p for p, h in zip(tables.first_roll, hands, strict=True) if scoring.instant_win(rules, card, h)))


def _turns_left(game: Game, seat: int) -> int:
    s = game.state.seats[seat]
    if done(game.rules, s.card, s.turns_taken):
        return 0
    return min(game.rules.turns - s.turns_taken, sum(v is None for v in s.card))


def instant_split(
    rules: Rules, cards: Sequence[Sequence[int | None]], turns_left: Sequence[int]
) -> tuple[list[float], float]:
    """Players in the order their next turns come (cyclic), each with its turns left: (P(instant win)
    of each, P(nobody wins instantly))."""
    q = [instant_chance(rules, c) for c in cards]
    left = list(turns_left)
    won = [0.0] * len(cards)
    alive = 1.0
    at = 0
    while any(x > 0 for x in left) and alive > 1e-15:
        i = at % len(cards)
        at += 1
        if left[i] <= 0:
            continue
        left[i] -= 1
        won[i] += alive * q[i]
        alive *= 1.0 - q[i]
    return won, alive


def instant_of_game(game: Game) -> tuple[list[float], float]:
    """(P(seat wins instantly) per seat, P(no instant win before the end)) from the game's position."""
    st = game.state
    n = len(st.seats)
    left = [_turns_left(game, i) for i in range(n)]
    at = st.order.index(st.current)
    if st.turn.throws > 0:  # the current player's servida chance is gone this turn
        left[st.current] -= 1
        at += 1
    seq = [st.order[(at + k) % n] for k in range(n)]
    won, alive = instant_split(game.rules, [st.seats[i].card for i in seq], [left[i] for i in seq])
    out = [0.0] * n
    for k, i in enumerate(seq):
        out[i] = won[k]
    return out, alive


def _normal(rules: Rules, mean: float, sd: float) -> Distribution:
    lo = max(0, math.floor(mean - 6 * sd))
    hi = math.ceil(mean + 6 * sd) + 1
    if sd < 1e-9:
        return Distribution(rules.name, round(mean), np.ones(1))
    x = np.arange(lo, hi)
    cdf = np.array([0.5 * (1 + math.erf((v + 0.5 - mean) / (sd * math.sqrt(2)))) for v in x])
    pmf = np.diff(np.concatenate(([0.0], cdf)))
    return Distribution(rules.name, lo, pmf / pmf.sum())


def _estimated(game: Game, seat: int) -> Distribution:
    """A normal approximation: the solver's mean and spread where it solves, else a rough guess."""
    from cubilete.solver.approx.estimate import approx_future, slot_estimates

    rules, s = game.rules, game.state.seats[seat]
    now = scoring.total(rules, s.card, s.extra_bonuses)
    left = _turns_left(game, seat)
    if left == 0:
        return Distribution(rules.name, now, np.ones(1))
    try:
        from cubilete.solver.advisor import sheet_state
        from cubilete.solver.cache import shared_solution

        sol = shared_solution(rules)
        mask, fl, up = sheet_state(sol, s.card)
        mean = float(sol.values[mask, fl, up])
        second = sol.second_moments
        if second is not None:
            sd = math.sqrt(max(0.0, float(second[mask, fl, up]) - mean * mean))
        else:
            sd = 0.5 * math.sqrt(sum(e * e for e, v in zip(slot_estimates(rules), s.card, strict=True) if v is None))
    except SolverUnsupportedError:
        mean = approx_future(rules, s.card, left)
        sd = 0.5 * math.sqrt(sum(e * e for e, v in zip(slot_estimates(rules), s.card, strict=True) if v is None))
    return _normal(rules, now + mean, sd)


def held_faces(game: Game) -> tuple[int, ...]:
    """The faces that must stay kept this turn (locked holds), sorted."""
    turn = game.state.turn
    if not game.rules.locked_holds or turn.throws == 0:
        return ()
    return tuple(sorted(turn.dice[p] for p in turn.held))


def seat_distribution(game: Game, seat: int) -> Distribution:
    """A seat's final-score distribution from the game's position (exact where the tables exist)."""
    rules, st = game.rules, game.state
    s = st.seats[seat]
    if not tables_fit(rules):  # the forward pass takes seconds: too slow for chances asked at every move
        raise SolverUnsupportedError(f"{rules.name}: no win tables (too large)")
    if done(rules, s.card, s.turns_taken):
        return Distribution(rules.name, scoring.total(rules, s.card, s.extra_bonuses), np.ones(1))
    if seat == st.current and st.turn.throws > 0:
        options = option_distributions(rules, s.card, st.turn.dice, st.turn.throws, s.extra_bonuses, held_faces(game))
        return options[0][1]
    return distribution(rules, s.card, s.extra_bonuses)


def chances(game: Game) -> WinChances:
    """Every seat's probability of winning from the game's position (see the module's assumptions)."""
    st = game.state
    n = len(st.seats)
    if st.phase is Phase.OVER:
        share = 1.0 / len(st.winners)
        return WinChances(tuple(share if i in st.winners else 0.0 for i in range(n)), True, "the game is over")
    if st.phase is Phase.TIEBREAK:
        share = 1.0 / len(st.contenders)
        probs = tuple(share if i in st.contenders else 0.0 for i in range(n))
        return WinChances(probs, False, "tie-break round: taken as even between the tied players")
    exact = True
    try:
        dists = [seat_distribution(game, i) for i in range(n)]
    except SolverUnsupportedError:
        exact = False
        dists = [_estimated(game, i) for i in range(n)]
    won, alive = instant_of_game(game)
    points = points_win(dists)
    probs = tuple(w + alive * p for w, p in zip(won, points, strict=True))
    return WinChances(probs, exact, EXACT_NOTE if exact else ESTIMATED_NOTE, tuple(won))
