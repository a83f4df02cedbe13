"""Exact distributions of the final score, from the start or from any position.

Under expected-score-optimal play (the solver's policy) the ``follow`` table gives, for every
turn-start state, the survival function of the points still to come; mid-turn, every option
of the decision gets its own vector from one pass of the turn kernel. Points so far are
added, so a distribution is always of the FINAL score.

>>> from cubilete.engine.rules import find_rules
>>> d = distribution(find_rules("generala"))
>>> round(d.mean, 3), round(sum(p for _, p in d.pairs()), 12)
(162.469, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cubilete.engine.errors import IllegalActionError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.solver.advisor import Option, advise, sheet_state
from cubilete.solver.combinatorics import FloatArray
from cubilete.win import kernels
from cubilete.win.tables import VectorTable, tables_fit, vector_table

QUANTILES = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)


def pmf_of(survival: FloatArray) -> FloatArray:
    """Probabilities of exactly t more points from P(at least t), t = 0, 1, ..."""
    s = np.asarray(survival, dtype=np.float64)
    pmf: FloatArray = np.clip(s - np.append(s[1:], 0.0), 0.0, None)
    return pmf


@dataclass(frozen=True, eq=False)
class Distribution:
    """The distribution of a final score: ``pmf[i]`` = P(final score = offset + i)."""

    rules: str
    offset: int
    pmf: FloatArray

    @property
    def mean(self) -> float:
        """Expected final score."""
        return self.offset + float(np.dot(self.pmf, np.arange(self.pmf.size)))

    @property
    def sd(self) -> float:
        """Standard deviation of the final score."""
        x = np.arange(self.pmf.size, dtype=np.float64)
        m = float(np.dot(self.pmf, x))
        return math.sqrt(max(0.0, float(np.dot(self.pmf, x * x)) - m * m))

    def quantile(self, q: float) -> int:
        """The smallest score s with P(final <= s) >= q."""
        if not 0.0 < q <= 1.0:
            raise ValueError(f"a quantile is in (0, 1], not {q}")
        cdf = np.cumsum(self.pmf)
        i = int(np.searchsorted(cdf, q - 1e-12))
        return self.offset + min(i, self.pmf.size - 1)

    def at_least(self, score: int) -> float:
        """P(final score >= score)."""
        i = score - self.offset
        if i <= 0:
            return float(self.pmf.sum())
        return float(self.pmf[i:].sum()) if i < self.pmf.size else 0.0

    def pairs(self) -> list[tuple[int, float]]:
        """(score, probability) for every score with a positive probability."""
        return [(self.offset + i, float(p)) for i, p in enumerate(self.pmf) if p > 0.0]

    def to_json(self) -> dict[str, object]:
        """The ``--json`` form: rules, mean, sd, pmf pairs and quantiles."""
        return {
            "rules": self.rules,
            "mean": self.mean,
            "sd": self.sd,
            "pmf": [[s, p] for s, p in self.pairs()],
            "quantiles": {f"{q:g}": self.quantile(q) for q in QUANTILES},
        }


def _trim(offset: int, pmf: FloatArray, rules: str) -> Distribution:
    nz = np.flatnonzero(pmf > 0.0)
    if nz.size == 0:
        return Distribution(rules, offset, np.ones(1))
    return Distribution(rules, offset + int(nz[0]), pmf[nz[0] : nz[-1] + 1].copy())


def done(rules: Rules, card: Sequence[int | None], turns_taken: int | None = None) -> bool:
    """True if the sheet has no turn left."""
    filled = sum(v is not None for v in card)
    return filled >= rules.turns or (turns_taken is not None and turns_taken >= rules.turns)


def survival_from(vt: VectorTable, card: Sequence[int | None]) -> FloatArray:
    """P(points still to come >= t) from the start of a turn with this sheet (t = 0 .. width - 1)."""
    if done(vt.space.rules, card):
        out = np.zeros(vt.width)
        out[0] = 1.0
        return out
    mask, flags, upper = sheet_state(vt.solution, card)
    return np.asarray(vt.table[mask, flags, upper])


def _sheet(rules: Rules, card: Sequence[int | None] | None) -> tuple[int | None, ...]:
    sheet = tuple(card) if card is not None else (None,) * len(rules.slots)
    if len(sheet) != len(rules.slots):
        raise IllegalActionError(f"a {rules.name} card has {len(rules.slots)} slots, not {len(sheet)}")
    return sheet


def distribution(rules: Rules, card: Sequence[int | None] | None = None, extra_bonuses: int = 0) -> Distribution:
    """The final score's distribution under expected-score-optimal play, from the start of a turn
    with ``card`` (the empty sheet by default): read from the ``follow`` table where the tables fit,
    else by the forward pass (:func:`forward_distribution`); raises SolverUnsupportedError where
    the rules cannot be solved exactly."""
    sheet = _sheet(rules, card)
    if not tables_fit(rules):
        return forward_distribution(rules, sheet, extra_bonuses)
    vt = vector_table(rules, "follow")
    so_far = scoring.total(rules, sheet, extra_bonuses)
    return _trim(so_far, pmf_of(survival_from(vt, sheet)), rules.name)


def forward_distribution(
    rules: Rules, card: Sequence[int | None] | None = None, extra_bonuses: int = 0
) -> Distribution:
    """:func:`distribution` by the forward pass over the states reachable from ``card``
    (:mod:`cubilete.win.forward`: no table; Yatzy from the empty sheet in about 30 s of CPU)."""
    from cubilete.solver.cache import shared_solution
    from cubilete.win.forward import points_to_come

    sheet = _sheet(rules, card)
    so_far = scoring.total(rules, sheet, extra_bonuses)
    if done(rules, sheet):
        return Distribution(rules.name, so_far, np.ones(1))
    solution = shared_solution(rules)
    mask, flags, upper = sheet_state(solution, sheet)
    return _trim(so_far, points_to_come(solution, mask, flags, upper), rules.name)


def option_vectors(
    vt: VectorTable,
    card: Sequence[int | None],
    hand: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> list[tuple[Option, FloatArray]]:
    """Every advisor option of a decision (best expected score first) with its vector of
    P(points to come from now >= t) under the table's policy (``follow`` or ``target``)."""
    solution = vt.solution
    space = vt.space
    rules = space.rules
    options = advise(solution, card, hand, throw, extra_bonuses, held)
    so_far = scoring.total(rules, card, extra_bonuses)
    L = vt.width
    follow = vt.kind == "follow"
    keep_rows: FloatArray | None = None
    if any(o.kind == "keep" for o in options):
        mask, flags, upper = sheet_state(solution, card)
        d = space.dice
        w = L + 1 if follow else L
        S1, S23, E = (np.empty((d.n_hands, w)) for _ in range(3))
        Ks = np.zeros((rules.throws + 1, d.n_keeps, w))
        M, out = np.empty((d.n_keeps, w)), np.empty(w)
        kernels.vec_turn(
            solution.tables, mask, flags, upper, vt.table, solution.values, follow, 0, S1, S23, E, Ks, M, out
        )
        keep_rows = Ks[throw + 1, :, :L]
    result: list[tuple[Option, FloatArray]] = []
    for option in options:
        if option.kind == "keep":
            assert keep_rows is not None
            vec = keep_rows[space.dice.index(option.keep)].copy()
        else:
            j = rules.slot_index(option.slot or "")
            after = scoring.write(rules, card, j, option.points)
            bonus = int(scoring.extra_bonus_due(rules, card, j, tuple(sorted(hand)))) * rules.extra_bonus
            gained = scoring.total(rules, after, extra_bonuses) + bonus - so_far
            rest = survival_from(vt, after)
            vec = np.zeros(L)
            vec[: min(L, gained + 1)] = 1.0
            if gained < L:
                vec[gained:] = rest[: L - gained]
        result.append((option, vec))
    return result


def option_distributions(
    rules: Rules,
    card: Sequence[int | None],
    hand: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> list[tuple[Option, Distribution]]:
    """The final score's distribution after each option of a decision, playing for points afterwards."""
    vt = vector_table(rules, "follow")
    so_far = scoring.total(rules, card, extra_bonuses)
    return [
        (o, _trim(so_far, pmf_of(v), rules.name)) for o, v in option_vectors(vt, card, hand, throw, extra_bonuses, held)
    ]
