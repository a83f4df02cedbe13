"""Distilling a guide from the exact solution: greedily add the rule that cuts the most expected points
lost against optimal play on positions the guide bot itself reaches (sampled one-player games).

The candidate rules carry searched parameters (the points a box must pay, how many dice must serve
it), so the distillation picks the thresholds as well as the rules.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Kind, Rules
from cubilete.play.bots.base import in_play
from cubilete.play.bots.optimal import action_loss, exact_options, solution_for
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.rules import DEFAULT, KEEPS, PATTERNS, Do, Rule, When, act, holds, view
from cubilete.solver.combinatorics import dice_tables

Progress = Callable[[int, int], None]
THRESHOLDS = 6  # most "pays at least" values tried per box


@dataclass(frozen=True)
class Step:
    """A rule the distillation added and the mean points per game it saved on that round's sample."""

    rule: Rule
    saved: float


def pay_thresholds(rules: Rules, j: int) -> list[int]:
    """The "pays at least" values worth trying for a slot: up to THRESHOLDS of the points it can pay."""
    tables = dice_tables(rules.dice)
    box = rules.slot_box(j)
    paid = sorted({scoring.base_points(box, hand) for hand in tables.keeps[: tables.n_hands]} - {0})
    if box.kind is Kind.UPPER:
        paid = [p for p in paid if p >= 2 * box.face]  # one die of the face is never worth a rule
    if len(paid) <= THRESHOLDS:
        return paid
    step = (len(paid) - 1) / (THRESHOLDS - 1)
    return sorted({paid[round(i * step)] for i in range(THRESHOLDS)})


def candidates(rules: Rules) -> list[Rule]:
    """Every rule the distillation may pick: per box and parameter, and the box-free keeps."""
    found = [Rule(When.LAST_ROLL, Do.SCORE_BEST)]
    for when in (When.ALWAYS, When.FIRST_ROLL, *PATTERNS):
        found += [Rule(when, do) for do in (Do.KEEP_MOST, Do.KEEP_MOST_OPEN, Do.KEEP_RUN, Do.KEEP_PAIRS)]
    for j, slot in enumerate(rules.slots):
        found += [
            Rule(When.PAYS_FULL, Do.SCORE_BOX, slot),
            Rule(When.PAYS_HALF, Do.SCORE_BOX, slot),
            Rule(When.OPEN, Do.KEEP_FOR, slot),
        ]
        found += [Rule(When.PAYS_AT_LEAST, Do.SCORE_BOX, slot, n) for n in pay_thresholds(rules, j)]
        found += [Rule(When.SERVE, Do.KEEP_FOR, slot, n) for n in range(2, rules.dice)]
        found += [Rule(when, do, slot) for when in PATTERNS for do in (Do.KEEP_FOR, Do.SCORE_BOX)]
    return found


class Position:
    """A sampled decision with the loss of every move read once from the exact table."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen = view(game)
        self._loss: dict[Action, float] = {}
        self._table = _loss_table(game)
        self._by_action: dict[tuple[Do, str | None], float] = {}  # a rule's move depends on these only

    def rule_loss(self, rule: Rule) -> float:
        """The loss of the rule's move here (whether or not its condition holds)."""
        key = (rule.do, rule.box)
        if key not in self._by_action:
            self._by_action[key] = self.loss(act(rule, self.game))
        return self._by_action[key]

    def loss(self, action: Action) -> float:
        if action not in self._loss:
            self._loss[action] = self._judge(action)
        return self._loss[action]

    def _judge(self, action: Action) -> float:
        if self._table is None:
            return action_loss(self.game, action) or 0.0
        if isinstance(action, Score):
            return self._table.get(("score", action.slot), 0.0)
        assert isinstance(action, Roll)
        faces = tuple(sorted(self.game.state.turn.dice[p] for p in action.keep))
        return self._table.get(("keep", faces), 0.0)

    def guide_loss(self, guide: tuple[Rule, ...]) -> float:
        return self.rule_loss(first_match(guide, self.game))


def _loss_table(game: Game) -> dict[tuple[str, object], float] | None:
    """("score", slot) or ("keep", faces) -> loss, from the solved table (None without one)."""
    rules, st = game.rules, game.state
    solution = solution_for(rules)
    if solution is None or rules.locked_holds:
        return None
    seat, turn = st.seats[st.current], st.turn
    options = exact_options(rules, seat.card, tuple(sorted(turn.dice)), turn.throws, seat.extra_bonuses, (), solution)
    return {(o.kind, o.slot if o.kind == "score" else o.keep): o.loss for o in options}


def sample(rules: Rules, guide: tuple[Rule, ...], games: int, seed: str) -> list[Position]:
    """The positions the guide bot reaches in ``games`` one-player games (after the first throw)."""
    bot = GuideBot(guide)
    found: list[Position] = []
    for index in range(games):
        game = Game(rules, ["guide"], seed=f"{seed}-{index}")
        while not game.is_over:
            if game.state.turn.throws > 0 and in_play(game):
                found.append(Position(snapshot(game)))
            game.apply(bot.choose(game))
    return found


def snapshot(game: Game) -> Game:
    """The game frozen at this decision, cheaply: states are immutable, so only the list is new."""
    frozen = copy.copy(game)
    frozen._states = [game.state]  # a deep copy of the whole history costs 10 times the sampling
    frozen.history, frozen.throws = [], []
    return frozen


def total_loss(positions: list[Position], guide: tuple[Rule, ...]) -> float:
    """Expected points lost against optimal play, summed over the positions."""
    return sum(p.guide_loss(guide) for p in positions)


def distil(
    rules: Rules,
    count: int,
    games: int = 200,
    seed: str = "guide",
    progress: Progress | None = None,
    rounds: list[tuple[Rule, ...]] | None = None,
    costs: dict[Rule, float] | None = None,
) -> list[Step]:
    """Up to ``count`` rules: each round adds the rule, at the place in the list, that cuts the loss most.

    Each round re-samples the positions with the guide so far; a rule is added only when it saves points.
    The guide is returned in its final order; ``saved`` is what each rule saved in the round it came in.
    ``rounds``, if given, receives the guide after each round (the guide of 1, 2, ... rules).
    ``costs``, if given, receives what each rule of the final guide (and the default) loses per game
    against optimal play, on a fresh sample played by that guide.
    """
    if count <= 0:
        raise ValueError("count must be positive")
    guide: list[Rule] = []
    saved_by: dict[Rule, float] = {}
    pool = candidates(rules)
    for round_ in range(count):
        positions = sample(rules, tuple(guide), games, f"{seed}-{round_}")
        best = best_insertion(positions, guide, pool)
        if progress is not None:
            progress(round_ + 1, count)
        if best is None:
            break
        saved, rule, place = best
        guide.insert(place, rule)
        if rounds is not None:
            rounds.append(tuple(guide))
        saved_by[rule] = saved / games
    if costs is not None:
        costs.update(rule_costs(sample(rules, tuple(guide), games, f"{seed}-cost"), tuple(guide), games))
    return [Step(rule, saved_by[rule]) for rule in prune(tuple(guide))]


def prune(guide: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The guide without the lines that can never decide: a keep rule below "if you can still throw: keep ..."
    (every keep needs a throw left, and that rule holds whenever one is). The moves are the same."""
    always_keep = next((i for i, r in enumerate(guide) if r.when is When.ALWAYS and r.do in KEEPS), len(guide))
    return tuple(r for i, r in enumerate(guide) if i <= always_keep or r.do not in KEEPS)


def rule_costs(positions: list[Position], guide: tuple[Rule, ...], games: int) -> dict[Rule, float]:
    """Per rule (the default included): points per game lost against optimal play where it decides."""
    lost = dict.fromkeys([*guide, DEFAULT], 0.0)
    for p in positions:
        rule = first_match(guide, p.game)
        lost[rule] += p.rule_loss(rule)
    return {rule: points / games for rule, points in lost.items()}


def best_insertion(positions: list[Position], guide: list[Rule], pool: list[Rule]) -> tuple[float, Rule, int] | None:
    """(points saved, rule, place) of the best rule to insert, or None when no rule saves anything.

    A rule put at place i decides the positions it matches whose deciding rule was at i or later.
    """
    slots = positions[0].game.rules.slots if positions else ()
    slot_of = {rule: slots.index(rule.box) if rule.box is not None else None for rule in [*guide, *pool]}
    decided = [
        (next((i for i, r in enumerate(guide) if holds(r, p.seen, slot_of[r])), len(guide)), p) for p in positions
    ]
    now = [p.guide_loss(tuple(guide)) for _, p in decided]
    best: tuple[float, Rule, int] | None = None
    for rule in pool:
        if rule in guide:
            continue
        gain_at = [0.0] * (len(guide) + 1)  # gain from positions decided at each place
        slot = slot_of[rule]
        for (place, p), loss in zip(decided, now, strict=True):
            if holds(rule, p.seen, slot):
                gain_at[place] += loss - p.rule_loss(rule)
        suffix = 0.0
        for place in range(len(guide), -1, -1):
            suffix += gain_at[place]
            if suffix > 1e-9 and (best is None or suffix > best[0] + 1e-9):
                best = (suffix, rule, place)
    return best
