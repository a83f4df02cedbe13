"""Bots: every computer player follows one :class:`Strategy` protocol.

A strategy looks at a game and returns one of its legal actions (``choose``); it never
changes the game. ``analyse`` returns the options it weighs, best first. Levels:

* ``random``: legal moves at random, but not absurdly;
* ``greedy``: points now, no plans;
* ``heuristic``: rules of thumb of a casual human;
* ``beginner``, ``casual``, ``strong``: the optimal bot with slips, defined by their
  measured loss in points per game against optimal play (docs/BOTS.md);
* ``optimal``: the best option of the solved table (an approximate one-turn search on
  rules too large to solve exactly, and its analysis says so);
* ``lookahead``: that approximate search on every rule set;
* ``win``: the best probability of winning against the opponents' positions (:mod:`cubilete.play.bots.win`).
* ``exact``: plays heads-up to win from the exact two-player table (:mod:`cubilete.duel`).
* ``target:T``: the best probability of a final score of at least T (:mod:`cubilete.play.bots.target`).

Every bot is reproducible from its seed.

>>> from cubilete.engine.game import Game
>>> from cubilete.engine.rules import find_rules
>>> game = Game(find_rules("generala"), ["bot"], seed=1)
>>> bot = make_bot("bot", seed="1")
>>> while not game.is_over:
...     game.apply(bot.choose(game))
>>> all(v is not None for v in game.state.seats[0].card) or game.state.reason.value == "instant-win"
True
"""

from __future__ import annotations

from collections.abc import Callable

from cubilete.engine.errors import UnknownBotError
from cubilete.play.bots.base import Analysis, Strategy, keep_positions
from cubilete.play.bots.exact import ExactBot
from cubilete.play.bots.greedy import GreedyBot
from cubilete.play.bots.heuristic import HeuristicBot
from cubilete.play.bots.levels import LEVEL_SLIPS, LevelBot, Slips
from cubilete.play.bots.optimal import LookaheadBot, OptimalBot, action_loss, is_exact, optimal_options, solution_for
from cubilete.play.bots.random_bot import RandomBot
from cubilete.play.bots.target import TargetBot, parse_target
from cubilete.play.bots.win import WinBot

BotFactory = Callable[[int | str | None], Strategy]


def _level(name: str) -> BotFactory:
    return lambda seed: LevelBot(name, LEVEL_SLIPS[name], seed)


BOT_LEVELS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "beginner": _level("beginner"),
    "casual": _level("casual"),
    "strong": _level("strong"),
    "optimal": OptimalBot,
    "lookahead": LookaheadBot,
    "win": WinBot,
    "exact": ExactBot,
}
DEFAULT_LEVEL = "random"
MAX_GUIDE_RULES = 200
FAMILIES = ("target:T", "guide:N")  # levels with a number: bot:target:200


def is_bot_spec(spec: str) -> bool:
    """True for ``bot`` and ``bot:LEVEL`` (any case), the way players ask for a computer player.

    >>> is_bot_spec("Bot"), is_bot_spec("bot:random"), is_bot_spec("Roberto")
    (True, True, False)
    """
    word = spec.strip().lower()
    return word == "bot" or word.startswith("bot:")


def bot_level(spec: str) -> str:
    """The level a bot spec asks for (``bot`` means the default level); unknown ones are refused.

    >>> bot_level("bot"), bot_level("BOT:Optimal")
    ('random', 'optimal')
    """
    word = spec.strip().lower()
    if not is_bot_spec(word):
        raise UnknownBotError(f"{spec!r} is not a bot; write bot or bot:LEVEL (levels: {', '.join(BOT_LEVELS)})")
    level = word.partition(":")[2].strip() or DEFAULT_LEVEL
    family, _, number = level.partition(":")
    if family.strip() == "target":
        return f"target:{parse_target(number)}"
    if family.strip() == "guide":
        return f"guide:{parse_guide(number)}"
    if level not in BOT_LEVELS:
        raise UnknownBotError(
            f"unknown bot level {level!r} in {spec!r}; levels: {', '.join([*BOT_LEVELS, *FAMILIES])}"
        )
    return level


def parse_guide(text: str) -> int:
    """The number of rules of a ``guide:N`` level (``guide`` alone: 10).

    >>> parse_guide(""), parse_guide("30")
    (10, 30)
    """
    word = text.strip() or "10"
    if not word.isdigit() or not 1 <= int(word) <= MAX_GUIDE_RULES:
        raise UnknownBotError(
            f"the guide bot needs a number of rules from 1 to {MAX_GUIDE_RULES}: "
            f"bot:guide:N (e.g. bot:guide:20), not guide:{text}"
        )
    return int(word)


def make_bot(spec: str, seed: int | str | None = None) -> Strategy:
    """The bot a spec names: ``bot`` (the random bot) or ``bot:LEVEL``.

    >>> make_bot("bot:optimal", seed=3).name
    'optimal'
    """
    level = bot_level(spec)
    if level.startswith("target:"):
        return TargetBot(int(level.partition(":")[2]), seed)
    if level.startswith("guide:"):
        from cubilete.play.guide.bot import DistilledGuideBot  # the guide builds on these bots

        return DistilledGuideBot(int(level.partition(":")[2]), seed)
    return BOT_LEVELS[level](seed)


__all__ = [
    "BOT_LEVELS",
    "DEFAULT_LEVEL",
    "LEVEL_SLIPS",
    "Analysis",
    "ExactBot",
    "GreedyBot",
    "HeuristicBot",
    "LevelBot",
    "LookaheadBot",
    "OptimalBot",
    "RandomBot",
    "Slips",
    "Strategy",
    "TargetBot",
    "UnknownBotError",
    "WinBot",
    "action_loss",
    "bot_level",
    "is_bot_spec",
    "is_exact",
    "keep_positions",
    "make_bot",
    "optimal_options",
    "solution_for",
]
