"""Distilling a guide from the exact solution: greedily add the rule that cuts the most expected points
lost against optimal play on positions the guide bot itself reaches (sampled one-player games).

The candidate rules carry searched parameters (the points a box must pay, how many dice must serve
it), so the distillation picks the thresholds as well as the rules.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Kind, Rules
from cubilete.play.bots.base import in_play
from cubilete.play.bots.optimal import action_loss, exact_options, solution_for
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.rules import (
    BONUS_STAGES,
    DEFAULT,
    KEEPS,
    PATTERNS,
    Do,
    Rule,
    When,
    act,
    has_paced_bonus,
    holds,
    view,
)
from cubilete.solver.combinatorics import dice_tables

Progress = Callable[[int, int], None]
THRESHOLDS = 6  # most "pays at least" values tried per box


@dataclass(frozen=True)
class Step:
    """A rule the distillation added and the mean points per game it saved on that round's sample."""

    rule: Rule
    saved: float


def paid_values(rules: Rules, j: int) -> list[int]:
    """Every score above zero the slot's box can pay on a hand, ascending."""
    tables = dice_tables(rules.dice)
    box = rules.slot_box(j)
    return sorted({scoring.base_points(box, hand) for hand in tables.keeps[: tables.n_hands]} - {0})


def pay_thresholds(rules: Rules, j: int) -> list[int]:
    """The "pays at least" values worth trying for a slot: up to THRESHOLDS of the points it can pay."""
    box = rules.slot_box(j)
    paid = paid_values(rules, j)
    if box.kind is Kind.UPPER:
        paid = [p for p in paid if p >= 2 * box.face]  # one die of the face is never worth a rule
    if len(paid) <= THRESHOLDS:
        return paid
    step = (len(paid) - 1) / (THRESHOLDS - 1)
    return sorted({paid[round(i * step)] for i in range(THRESHOLDS)})


def stage_counts(rules: Rules) -> list[int]:
    """The "at least / at most n boxes open" values tried: a quarter, half and three quarters of the sheet."""
    slots = len(rules.slots)
    return sorted({n for n in (slots // 4, slots // 2, 3 * slots // 4) if 1 <= n < slots})


def stages(rules: Rules) -> list[tuple[When, int]]:
    """The conditions on the game's stage: the upper bonus's pace (where its words fit) and boxes left."""
    found = [(when, 0) for when in BONUS_STAGES] if has_paced_bonus(rules) else []
    for n in stage_counts(rules):
        found += [(When.OPEN_AT_LEAST, n), (When.OPEN_AT_MOST, n)]
    return found


def candidates(rules: Rules) -> list[Rule]:
    """Every rule the distillation may pick: per box and parameter, and the box-free keeps.

    Conditions that are the same on every hand are offered once, the simpler words first: "pays at
    least half its best" only where some hand pays between half and all of it, "pays at least n" only
    where it differs from both ("Yatzy pays its best" = "pays half its best" = "pays at least 50").
    """
    box_free = (Do.KEEP_MOST, Do.KEEP_MOST_OPEN, Do.KEEP_RUN, Do.KEEP_PAIRS)
    found = [Rule(When.LAST_ROLL, Do.SCORE_BEST)]
    for when in (When.ALWAYS, When.FIRST_ROLL, *PATTERNS):
        found += [Rule(when, do) for do in box_free]
    for when, n in stages(rules):
        found += [Rule(when, do, None, n) for do in (*box_free, Do.SCORE_BEST)]
    for j, slot in enumerate(rules.slots):
        paid = paid_values(rules, j)
        top = max(paid, default=0)
        half = [p for p in paid if 2 * p >= top]
        found += [Rule(When.PAYS_FULL, Do.SCORE_BOX, slot)]
        if len(half) > 1:
            found += [Rule(When.PAYS_HALF, Do.SCORE_BOX, slot)]
        found += [Rule(When.OPEN, Do.KEEP_FOR, slot)]
        for n in pay_thresholds(rules, j):
            if n != top and n != min(half, default=0):
                found += [Rule(When.PAYS_AT_LEAST, Do.SCORE_BOX, slot, n)]
        found += [Rule(When.SERVE, Do.KEEP_FOR, slot, n) for n in range(2, rules.dice)]
        found += [Rule(when, do, slot) for when in PATTERNS for do in (Do.KEEP_FOR, Do.SCORE_BOX)]
        found += [Rule(when, do, slot, n) for when, n in stages(rules) for do in (Do.KEEP_FOR, Do.SCORE_BOX)]
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


def sample(rules: Rules, guide: tuple[Rule, ...], games: int, seed: str,
           progress: Progress | None = None) -> list[Position]:
    """The positions the guide bot reaches in ``games`` one-player games (after the first throw)."""
    bot = GuideBot(guide)
    found: list[Position] = []
    for index in range(games):
        if progress is not None:
            progress(index, games)
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
    polish: int | None = None,
    moves: int = 4,
) -> list[Step]:
    """Up to ``count`` rules: each round adds the rule, at the place in the list, that cuts the loss most,
    then searches around the list on the same sample: drop a rule, or take one out and put the best rule
    (itself or another) back at the best place; that moves and replaces rules.

    Each round re-samples the positions with the guide so far; a rule comes in only when it saves points,
    a rule goes when dropping it saves points (or, the list full, loses nothing: it decides nothing), and a
    move is made only when it saves at least ``MIN_GAIN`` points per game (at most ``moves`` a round).
    After the list is full, ``polish`` more rounds (default: count // 2) only search around it.
    The guide is returned in its final order; ``saved`` is what each rule saved in the round it came in.
    ``rounds``, if given, receives the guide after each round.
    ``costs``, if given, receives what each rule of the final guide (and the default) loses per game
    against optimal play, on a fresh sample played by that guide.
    """
    if count <= 0:
        raise ValueError("count must be positive")
    guide: list[Rule] = []
    saved_by: dict[Rule, float] = {}
    pool = candidates(rules)
    extra = count // 2 if polish is None else polish
    full_rounds = 0
    for round_ in range(3 * count + extra):
        positions = sample(rules, tuple(guide), games, f"{seed}-{round_}")
        table = LossTable(positions, [*pool, *guide])
        search = Search(table, guide, count, MIN_GAIN * games)
        search.run(moves)
        guide = search.guide
        saved_by.update({rule: gain / games for rule, gain in search.saved.items()})
        if rounds is not None:
            rounds.append(tuple(guide))
        if progress is not None:
            progress(round_ + 1, count)
        full_rounds += len(guide) >= count
        if full_rounds > extra or not guide or (not search.changed and len(guide) < count):
            break
    if costs is not None:
        costs.update(rule_costs(sample(rules, tuple(guide), games, f"{seed}-cost"), tuple(guide), games))
    return [Step(rule, saved_by.get(rule, 0.0)) for rule in prune(tuple(guide))]


MIN_GAIN = 0.02  # points per game a move or a replacement must save on its sample


class Features:
    """What the conditions look at, for every sampled position at once (so a rule's matches are a few
    array operations; :func:`holds` says the same for one position)."""

    def __init__(self, positions: list[Position]) -> None:
        seen = [p.seen for p in positions]
        slots = len(positions[0].game.rules.slots) if positions else 0
        self.slots = positions[0].game.rules.slots if positions else ()
        self.can_keep = np.array([v.can_keep for v in seen], dtype=bool)
        self.first = np.array([v.throws == 1 for v in seen], dtype=bool)
        self.shape = {w: np.array([w in v.shapes for v in seen], dtype=bool) for w in PATTERNS}
        self.stage = {w: np.array([v.stage is w for v in seen], dtype=bool) for w in BONUS_STAGES}
        self.open = np.array([v.open_boxes for v in seen], dtype=np.int64)
        self.usable = np.array([[j in v.usable for j in range(slots)] for v in seen], dtype=bool).reshape(-1, slots).T
        self.points = np.array([[v.points.get(j, 0) for j in range(slots)] for v in seen]).reshape(-1, slots).T
        self.best = np.array([[v.best[j] for j in range(slots)] for v in seen]).reshape(-1, slots).T
        self._serving: dict[int, np.ndarray] = {}
        self._seen = seen

    def serving(self, j: int) -> np.ndarray:
        if j not in self._serving:
            self._serving[j] = np.array([v.serving(j) if j in v.usable else 0 for v in self._seen], dtype=np.int64)
        return self._serving[j]

    def holds(self, rule: Rule) -> np.ndarray:
        """Where the rule's condition holds (one bool per position), as :func:`holds` decides it."""
        yes: np.ndarray = ~self.can_keep if rule.when is When.LAST_ROLL else np.ones(len(self.can_keep), dtype=bool)
        if rule.do in KEEPS:
            yes = yes & self.can_keep
        if rule.when is When.FIRST_ROLL:
            yes = yes & self.first
        if rule.when is When.OPEN_AT_LEAST:
            yes = yes & (self.open >= rule.n)
        elif rule.when is When.OPEN_AT_MOST:
            yes = yes & (self.open <= rule.n)
        elif rule.when in self.stage:
            yes = yes & self.stage[rule.when]
        if rule.when in PATTERNS:
            yes = yes & self.shape[rule.when]
        if rule.box is None:
            return yes
        j = self.slots.index(rule.box)
        yes = yes & self.usable[j]
        points: np.ndarray = self.points[j]
        pays: np.ndarray = points > 0
        if rule.when is When.SERVE:
            yes = yes & (self.serving(j) >= rule.n)
        elif rule.when is When.PAYS_AT_LEAST:
            yes = yes & pays & (points >= rule.n)
        elif rule.when is When.PAYS_FULL:
            yes = yes & pays & (points >= self.best[j])
        elif rule.when is When.PAYS_HALF:
            yes = yes & pays & (2 * points >= self.best[j])
        return yes


class LossTable:
    """For each rule (rows) and sampled position (columns): whether it holds and the loss of its move."""

    def __init__(self, positions: list[Position], rules: list[Rule]) -> None:
        self.rules = list(dict.fromkeys([*rules, DEFAULT]))
        self.row = {rule: i for i, rule in enumerate(self.rules)}
        features = Features(positions)
        self.holds = np.array([features.holds(rule) for rule in self.rules], dtype=bool).reshape(
            len(self.rules), len(positions)
        )
        needed: dict[tuple[Do, str | None], tuple[Rule, np.ndarray]] = {}
        for rule, row in zip(self.rules, self.holds, strict=True):  # a move depends on its action and box only
            key = (rule.do, rule.box)
            needed[key] = (rule, needed[key][1] | row) if key in needed else (rule, row)
        moves = {
            key: np.array([p.rule_loss(rule) if there else 0.0 for p, there in zip(positions, mask, strict=True)])
            for key, (rule, mask) in needed.items()
        }
        loss = np.array([moves[(r.do, r.box)] for r in self.rules]).reshape(self.holds.shape)
        self.loss = np.where(self.holds, loss, 0.0)
        self.default = self.row[DEFAULT]
        self.unique = self._unique_rows()

    def _unique_rows(self) -> np.ndarray:
        """One row per behaviour on the sample (the first in the pool's order: the simpler words)."""
        seen: dict[bytes, int] = {}
        for i in range(len(self.rules)):
            if i != self.default:
                seen.setdefault(self.holds[i].tobytes() + self.loss[i].tobytes(), i)
        return np.array(sorted(seen.values()), dtype=np.int64)

    def decided(self, order: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """(the place of the deciding rule, its loss) per position; the default's place is len(order)."""
        rows = [*order, self.default]
        place = self.holds[rows].argmax(axis=0)
        return place, self.loss[rows][place, np.arange(self.holds.shape[1])]

    def total(self, order: list[int]) -> float:
        return float(self.decided(order)[1].sum())

    def best_insertion(self, order: list[int]) -> tuple[float, int, int] | None:
        """(points saved, row, place) of the best rule to insert into the list, or None if none saves any."""
        place, now = self.decided(order)
        rows = np.array([i for i in self.unique if i not in set(order)], dtype=np.int64)
        if not len(rows):
            return None
        gain = np.where(self.holds[rows], now - self.loss[rows], 0.0)
        at = np.zeros((len(place), len(order) + 1))
        at[np.arange(len(place)), place] = 1.0
        suffix = np.cumsum((gain @ at)[:, ::-1], axis=1)[:, ::-1]  # inserted at i: positions decided at i or below
        best = np.unravel_index(int(np.argmax(suffix)), suffix.shape)
        saved = float(suffix[best])
        return (saved, int(rows[best[0]]), int(best[1])) if saved > 1e-9 else None


class Search:
    """The list's local search on one round's sample (the rules as rows of a :class:`LossTable`)."""

    def __init__(self, table: LossTable, guide: list[Rule], count: int, min_gain: float) -> None:
        self.table, self.count, self.min_gain = table, count, min_gain
        self.order = [table.row[rule] for rule in guide]
        self.saved: dict[Rule, float] = {}
        self.changed = False

    @property
    def guide(self) -> list[Rule]:
        return [self.table.rules[i] for i in self.order]

    def run(self, moves: int) -> None:
        self.drop_idle()
        if len(self.order) < self.count:
            best = self.table.best_insertion(self.order)
            if best is not None:
                self.put(self.order, best)
        for _ in range(moves):
            if not self.improve():
                break
            self.drop_idle()

    def put(self, order: list[int], best: tuple[float, int, int]) -> None:
        saved, row, place = best
        self.order = [*order[:place], row, *order[place:]]
        self.saved[self.table.rules[row]] = saved
        self.changed = True

    def drop_idle(self) -> None:
        """Drop the rules whose removal saves points on the sample (they decide only badly) and, once the list
        is full, those whose removal loses nothing (they decide nothing here): the slot goes to a rule that
        saves points. A short list keeps its idle rules (a rare position may need them)."""
        now = self.table.total(self.order)
        for i in range(len(self.order) - 1, -1, -1):
            shorter = self.order[:i] + self.order[i + 1 :]
            slack = 1e-9 if len(self.order) >= self.count else -1e-9
            if self.table.total(shorter) <= now + slack:
                self.order, now, self.changed = shorter, self.table.total(shorter), True

    def improve(self) -> bool:
        """Take out the rule whose removal and best re-insertion (itself elsewhere, or another) saves most."""
        now = self.table.total(self.order)
        best: tuple[float, list[int], tuple[float, int, int]] | None = None
        for i in range(len(self.order)):
            shorter = self.order[:i] + self.order[i + 1 :]
            back = self.table.best_insertion(shorter)
            if back is None:
                continue
            gain = now - (self.table.total(shorter) - back[0])
            if gain > self.min_gain and (best is None or gain > best[0]):
                best = (gain, shorter, back)
        if best is None:
            return False
        self.put(best[1], best[2])
        return True


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
