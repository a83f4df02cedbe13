"""The greedy bot: points now, no plans.

After each throw it scores the box that pays most right now when that box pays at least
half of the most it could ever pay, or when the throws are out (if nothing pays, it
scratches the box that could pay least). Otherwise it keeps the dice that serve the
best-paying pattern (a box's maximum on this sheet times the share of its pattern already
on the table)
and throws the rest. Tie-break hands are played like the optimal bot plays them.
"""

from __future__ import annotations

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.play.bots.approx import forced_move
from cubilete.play.bots.base import Analysis, bot_seed, check_playable
from cubilete.play.bots.patterns import slot_maxima, target, usable_maxima

SCORE_SHARE = 0.5  # score at once when the best box pays this share of its maximum


class GreedyBot:
    """Best immediate points; simple and fast."""

    name = "greedy"

    def __init__(self, seed: int | str | None = None, share: float = SCORE_SHARE) -> None:
        self.seed = bot_seed(seed)
        self.share = share

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r})"

    def analyse(self, game: Game) -> Analysis:
        """The greedy bot ranks nothing beyond its one rule."""
        check_playable(game)
        return Analysis(note="the greedy bot does not rank options")

    def choose(self, game: Game) -> Action:
        """Score when the best box pays enough or the throws are out; else keep for the best pattern."""
        forced = forced_move(game)
        if forced is not None:
            return forced
        turn = game.state.turn
        rules, card = game.rules, game.seat().card
        usable = scoring.usable_slots(rules, card, turn.dice, turn.first_throw)
        maxima = usable_maxima(rules, card)
        points = {j: scoring.slot_points(rules, card, j, turn.dice, turn.first_throw) for j in usable}
        best = max(usable, key=lambda j: (points[j], -maxima[j]))
        if points[best] == 0:
            best = min(usable, key=lambda j: slot_maxima(rules)[j])
        if turn.throws >= turn.allowance or (points[best] > 0 and points[best] >= self.share * maxima[best]):
            return Score(rules.slots[best])
        keep: tuple[int, ...] = ()
        promise = -1.0
        for j in usable:
            positions, progress = target(rules.slot_box(j), turn.dice)
            if maxima[j] * progress > promise:
                keep, promise = positions, maxima[j] * progress
        if rules.locked_holds:
            keep = tuple(sorted(set(keep) | set(turn.held)))
        if len(keep) >= rules.dice:
            return Score(rules.slots[best])
        return Roll(keep)
