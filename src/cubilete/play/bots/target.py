"""The ``target`` bot (``bot:target:T``): plays to finish with at least T points.

At every decision it takes the option with the highest probability of a final score of at least
``T``, playing the same way afterwards (the policy that maximises exactly that; among options that
reach T equally often, a target already made or out of reach, it plays for points). The values
come from :mod:`cubilete.win`: the full ``target`` table (state x points still needed) where it
fits (the Generala family), else one table for this target rooted at the empty sheet
(:mod:`cubilete.win.targets`, built once per rule set and target: minutes for Yahtzee and Yatzy),
which serves every position of a game. It ignores the opponents (a solitaire goal); tie-break
rounds, and rules the solver does not solve, are played as the optimal bot plays them, and its
analysis says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cubilete.engine.actions import Action
from cubilete.engine.errors import SolverUnsupportedError, UnknownBotError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.base import Analysis, action_for, bot_seed, check_playable, held_faces, in_play
from cubilete.play.bots.optimal import optimal_options
from cubilete.solver.advisor import Option, advise, sheet_state
from cubilete.solver.tablestore import TableStore

if TYPE_CHECKING:  # the win tables' modules (numba kernels) load at the first move, not with the bots
    from cubilete.win.play import WinOption
    from cubilete.win.targets import TargetTable

TARGET_NOTE = "target {target}: values are P(final score >= {target}), playing on to maximise it ({source})"
FALLBACK_NOTE = "target {target}: {why}; playing the optimal bot's move (values are expected final scores)"
MAX_TARGET = 100_000

Card = Sequence[int | None]


def parse_target(text: str) -> int:
    """The score of a ``target:T`` level (a whole number of points, 1 or more).

    >>> parse_target("200")
    200
    """
    word = text.strip()
    if not word.isdigit() or not 1 <= int(word) <= MAX_TARGET:
        raise UnknownBotError(
            f"the target bot needs a final score to reach, a whole number from 1 to {MAX_TARGET:,}: "
            f"bot:target:T (e.g. bot:target:200), not target:{text}"
        )
    return int(word)


KEEP = 2  # rooted tables kept (Yatzy's for T = 250 holds about 0.9 GB)
_ROOTED: TableStore[tuple[Rules, int], TargetTable] = TableStore("rooted target tables", max_items=KEEP)


def rooted_table(rules: Rules, target: int) -> TargetTable:
    """The table of ``target`` rooted at the empty sheet (built once per process and kept)."""
    from cubilete.solver.cache import shared_solution
    from cubilete.win.targets import build_target_table


    def make() -> TargetTable:
        solution = shared_solution(rules)
        root = sheet_state(solution, [None] * len(rules.slots))
        return build_target_table(solution, target, root, 0)

    return _ROOTED.get_or_make((rules, target), make)


def uses_rooted(rules: Rules) -> bool:
    """True where the full target table does not fit (Yahtzee, Yatzy): the rooted table serves instead.
    Raises :class:`SolverUnsupportedError` where the rules are not solved exactly."""
    from cubilete.win.tables import tables_fit

    return not tables_fit(rules)


def _finished(rules: Rules, card: Card) -> bool:
    from cubilete.win.distribution import done

    return done(rules, card)


def reach_now(rules: Rules, card: Card, target: int, extra_bonuses: int = 0, rooted: bool | None = None) -> float:
    """Best P(final score >= target) from the start of a turn with this sheet."""
    from cubilete.win.play import reach_probability

    if rooted is None:
        rooted = uses_rooted(rules)
    if not rooted:
        return reach_probability(rules, card, target, extra_bonuses)
    need = target - scoring.total(rules, card, extra_bonuses)
    if need <= 0:
        return 1.0
    if _finished(rules, card):
        return 0.0
    tt = rooted_table(rules, target)
    return tt.value(*sheet_state(tt.solution, card), need)


def target_choices(
    rules: Rules,
    card: Card,
    dice: Sequence[int],
    throw: int,
    target: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
    rooted: bool | None = None,
) -> list[WinOption]:
    """Every option after throw ``throw`` with P(final score >= target), best first (ties: more points first).

    ``rooted``: read the table of this target rooted at the empty sheet (True), the full target table
    (False), or whichever the rules allow (None: the full table where it fits)."""
    from cubilete.win.play import ranked_by_chance, target_options

    if rooted is None:
        rooted = uses_rooted(rules)
    if not rooted:
        return target_options(rules, card, dice, throw, target, extra_bonuses, held)
    tt = rooted_table(rules, target)
    solution = tt.solution
    space = solution.space
    options = advise(solution, card, dice, throw, extra_bonuses, held)
    so_far = scoring.total(rules, card, extra_bonuses)
    need = target - so_far
    if need <= 0:
        return ranked_by_chance([(o, 1.0) for o in options])
    state = sheet_state(solution, card)
    keep_value: dict[tuple[int, ...], float] = {}
    if any(o.kind == "keep" for o in options):
        from cubilete.win.targets import rag_turn

        d = space.dice
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Ks = np.zeros((rules.throws + 1, d.n_keeps, 1))
        M, out = np.empty((d.n_keeps, 1)), np.empty(1)
        rag_turn(solution.tables, *state, tt.nlo, tt.nhi, tt.off, tt.pool, tt.pop, need, S1, S23, E, Ks, M, out)
        for o in options:
            if o.kind == "keep":
                keep_value[o.keep] = float(Ks[throw + 1, d.index(o.keep), 0])
    hand = tuple(sorted(dice))
    pairs: list[tuple[Option, float]] = []
    for o in options:
        if o.kind == "keep":
            pairs.append((o, keep_value[o.keep]))
            continue
        j = rules.slot_index(o.slot or "")
        after = scoring.write(rules, card, j, o.points)
        bonus = int(scoring.extra_bonus_due(rules, card, j, hand)) * rules.extra_bonus
        rest = need - (scoring.total(rules, after, extra_bonuses) + bonus - so_far)
        if rest <= 0:
            pairs.append((o, 1.0))
        elif _finished(rules, after):
            pairs.append((o, 0.0))
        else:
            pairs.append((o, tt.value(*sheet_state(solution, after), rest)))
    return ranked_by_chance(pairs)


class TargetBot:
    """Maximises P(final score >= target) (see the module)."""

    def __init__(self, target: int, seed: int | str | None = None) -> None:
        if not 1 <= target <= MAX_TARGET:
            raise UnknownBotError(f"the target bot's score must be 1 to {MAX_TARGET:,}, not {target}")
        self.target = target
        self.name = f"target:{target}"
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.target!r}, seed={self.seed!r})"

    def prepare(self, rules: Rules) -> None:
        """Load (or build) the tables now rather than at the first move."""
        try:
            if uses_rooted(rules):
                rooted_table(rules, self.target)
            else:
                from cubilete.win.tables import vector_table

                vector_table(rules, "target")
        except SolverUnsupportedError:
            pass

    def _fallback(self, game: Game, why: str) -> Analysis:
        base = optimal_options(game)
        return Analysis(base, base.exact, FALLBACK_NOTE.format(target=self.target, why=why))

    def analyse(self, game: Game) -> Analysis:
        """Every option with P(final score >= target) (in ``expected``; ``loss``: what it gives up), best first."""
        check_playable(game)
        if not in_play(game):
            return self._fallback(game, "tie-break round")
        rules = game.rules
        st = game.state
        seat = st.seats[st.current]
        try:
            rooted = uses_rooted(rules)
            source = "one table of this target from the empty sheet" if rooted else "the full target table"
            note = TARGET_NOTE.format(target=self.target, source=source)
            if st.turn.throws == 0:
                p = reach_now(rules, seat.card, self.target, seat.extra_bonuses, rooted)
                return Analysis([Option("keep", p, 0.0)], True, note)
            ranked = target_choices(
                rules, seat.card, st.turn.dice, st.turn.throws, self.target, seat.extra_bonuses, held_faces(game),
                rooted,
            )  # fmt: skip
        except SolverUnsupportedError as exc:
            return self._fallback(game, f"no exact tables ({exc})")
        options = [Option(w.option.kind, w.win, w.loss, w.option.slot, w.option.points, w.option.keep) for w in ranked]
        return Analysis(options, True, note)

    def choose(self, game: Game) -> Action:
        """The option most likely to reach the target, as a game action."""
        return action_for(game, self.analyse(game)[0])
