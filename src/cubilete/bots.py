"""Bots: one protocol for every computer player, and the simplest of them, :class:`RandomBot`.

A strategy looks at a game and returns one of its legal actions; it never changes
the game. Later bots (greedy, heuristic, optimal) follow the same protocol.

>>> from cubilete.game import Game
>>> from cubilete.rules import find_rules
>>> game = Game(find_rules("generala"), ["bot"], seed=1)
>>> bot = make_bot("bot", seed="1")
>>> while not game.is_over:
...     game.apply(bot.choose(game))
>>> all(v is not None for v in game.state.seats[0].card) or game.state.reason.value == "instant-win"
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from cubilete.actions import Action, Roll, Score, Stand
from cubilete.errors import CubileteError, IllegalActionError
from cubilete.game import Game


class UnknownBotError(CubileteError):
    """No bot level has that name."""


class Strategy(Protocol):
    """A computer player: picks a legal action for the player whose turn it is."""

    name: str

    def choose(self, game: Game) -> Action:
        """One of ``game.legal_actions()``; must not change the game."""
        ...


class RandomBot:
    """Plays legal moves at random, but not absurdly.

    It throws again (keeping a random set of dice) while it has throws, stopping with a
    chance that grows with each throw; it then scores a random usable box, preferring
    boxes that pay something over scratches. Each choice depends only on the seed and
    the game so far, so a seed replays the same moves, also after undo or a resume.
    """

    name = "random"

    def __init__(self, seed: int | str | None = None, face_down_chance: float = 0.2) -> None:
        self.seed = str(seed) if seed is not None else f"{random.random()}"
        self.face_down_chance = face_down_chance

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"

    def _rng(self, game: Game) -> random.Random:
        st = game.state
        return random.Random(f"{self.seed}:{len(game.history)}:{st.throws_made}:{st.current}:{st.turn.dice}")

    def choose(self, game: Game) -> Action:
        """A random legal action: throw again with probability 1 - throws/allowance, else score or stand."""
        actions = game.legal_actions()
        if not actions:
            raise IllegalActionError("the game is over: there is nothing to choose")
        rng = self._rng(game)
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


BOT_LEVELS: dict[str, Callable[[int | str | None], Strategy]] = {
    "random": RandomBot,
}
DEFAULT_LEVEL = "random"


def is_bot_spec(spec: str) -> bool:
    """True for ``bot`` and ``bot:LEVEL`` (any case), the way players ask for a computer player.

    >>> is_bot_spec("Bot"), is_bot_spec("bot:random"), is_bot_spec("Roberto")
    (True, True, False)
    """
    word = spec.strip().lower()
    return word == "bot" or word.startswith("bot:")


def bot_level(spec: str) -> str:
    """The level a bot spec asks for (``bot`` means the default level); unknown ones are refused.

    >>> bot_level("bot"), bot_level("BOT:Random")
    ('random', 'random')
    """
    word = spec.strip().lower()
    if not is_bot_spec(word):
        raise UnknownBotError(f"{spec!r} is not a bot; write bot or bot:LEVEL (levels: {', '.join(BOT_LEVELS)})")
    level = word.partition(":")[2].strip() or DEFAULT_LEVEL
    if level not in BOT_LEVELS:
        raise UnknownBotError(f"unknown bot level {level!r} in {spec!r}; levels: {', '.join(BOT_LEVELS)}")
    return level


def make_bot(spec: str, seed: int | str | None = None) -> Strategy:
    """The bot a spec names: ``bot`` or ``bot:random`` (more levels later).

    >>> make_bot("bot:random", seed=3).name
    'random'
    """
    return BOT_LEVELS[bot_level(spec)](seed)
