"""The random bot: legal moves at random, but not absurdly."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.game import Game
from cubilete.play.bots.base import Analysis, bot_seed, check_playable, decision_rng


class RandomBot:
    """Plays legal moves at random, but not absurdly.

    It throws again (keeping a random set of dice) while it has throws, stopping with a
    chance that grows with each throw; it then scores a random usable box, preferring
    boxes that pay something over scratches. Each choice depends only on the seed and
    the game so far, so a seed replays the same moves, also after undo or a resume.
    """

    name = "random"

    def __init__(self, seed: int | str | None = None, face_down_chance: float = 0.2) -> None:
        self.seed = bot_seed(seed)
        self.face_down_chance = face_down_chance

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"

    def analyse(self, game: Game) -> Analysis:
        """The random bot ranks nothing."""
        check_playable(game)
        return Analysis(note="the random bot does not rank options")

    def choose(self, game: Game) -> Action:
        """A random legal action: throw again with probability 1 - throws/allowance, else score or stand."""
        check_playable(game)
        actions = game.legal_actions()
        rng = decision_rng(self.seed, game)
        turn = game.state.turn
        rolls = [a for a in actions if isinstance(a, Roll)]
        finals = [a for a in actions if isinstance(a, Score | Stand)]
        if rolls and (not finals or rng.random() >= turn.throws / turn.allowance):
            return self._pick_roll(rolls, rng)
        return self._pick_final(game, finals, rng)

    def _pick_roll(self, rolls: list[Roll], rng: random.Random) -> Roll:
        face_down = [r for r in rolls if r.face_down]
        plain = [r for r in rolls if not r.face_down]
        if face_down and (not plain or rng.random() < self.face_down_chance):
            return rng.choice(face_down)
        return rng.choice(plain)

    def _pick_final(self, game: Game, finals: Sequence[Action], rng: random.Random) -> Action:
        points = game.points_now()
        paying = [a for a in finals if isinstance(a, Score) and points.get(a.slot, 0) > 0]
        return rng.choice(paying or finals)
