"""A game as the terminal app plays it: the engine, the bots at the table, undo to a person's
decision, saving, and recording the result. No Textual here, so it is easy to test.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from cubilete.engine import record
from cubilete.engine.actions import Action
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.engine.notation import numbered
from cubilete.engine.rules import Rules
from cubilete.play import bots
from cubilete.present.flow import undo_to_decision
from cubilete.present.players import bot_name, bot_spec_of
from cubilete.store.stats import StatsDB


def bot_levels() -> tuple[str, ...]:
    """The bot levels on offer (whatever :mod:`cubilete.play.bots` provides)."""
    levels = getattr(bots, "LEVELS", None)
    if levels:
        return tuple(str(level) for level in levels)
    table = getattr(bots, "BOT_LEVELS", None)
    return tuple(str(level) for level in table) if table else ("random",)


def seat_names(specs: Sequence[str]) -> list[str]:
    """Player names from seat specs: people keep their names, ``bot``/``bot:LEVEL`` become bot names.

    >>> seat_names(["Ana", "bot", "bot"])
    ['Ana', 'bot', 'bot-2']
    """
    names = [bot_name(s) if bots.is_bot_spec(s) else s.strip() for s in specs]
    return numbered(names)


def seat_bots(game: Game) -> dict[int, bots.Strategy]:
    """A bot for every bot seat, seeded from the game's seed and the seat (as line mode does)."""
    table: dict[int, bots.Strategy] = {}
    for seat, name in enumerate(game.players):
        spec = bot_spec_of(name)
        if spec is not None:
            table[seat] = bots.make_bot(spec, f"{game.seed}:seat{seat}")
    return table


def snapshot(game: Game) -> Game:
    """An independent copy of a game (replayed from its record), for work done in another thread."""
    return record.from_record(record.to_record(game))


class Session:
    """One game at the table: who is a bot, what a person may undo, where it is saved."""

    def __init__(self, game: Game, save_path: Path | None = None) -> None:
        self.game = game
        self.bots = seat_bots(game)
        self.save_path = save_path
        self.recorded = False

    @classmethod
    def new(cls, rules: Rules, specs: Sequence[str], seed: str | int | None = None) -> Session:
        """A new game from seat specs (names, ``bot``, ``bot:LEVEL``)."""
        return cls(Game(rules, seat_names(specs), seed=seed))

    @property
    def humans(self) -> list[str]:
        """The names of the people at the table."""
        return [n for i, n in enumerate(self.game.players) if i not in self.bots]

    def is_decision(self, game: Game | None = None) -> bool:
        """True when a person must choose the next action."""
        g = game or self.game
        return not g.is_over and g.state.current not in self.bots

    def bot_to_move(self) -> bots.Strategy | None:
        """The bot whose turn it is, if any."""
        if self.game.is_over:
            return None
        return self.bots.get(self.game.state.current)

    def apply(self, action: Action) -> None:
        """Play an action (illegal ones raise and change nothing), then save if a file is set."""
        self.game.apply(action)
        self.autosave()

    def undo(self) -> bool:
        """Take back actions, bots' included, until a person's decision is next; False if there is none."""
        if not self.humans or not undo_to_decision(self.game, self.is_decision):
            return False
        self.autosave()
        return True

    def autosave(self) -> None:
        """Write the record to the save file, if there is one (errors reach the caller)."""
        if self.save_path is not None:
            record.save(self.game, self.save_path)

    def save_to(self, path: Path) -> None:
        """Write the record to ``path`` (its folder made if needed) and keep saving there."""
        path.parent.mkdir(parents=True, exist_ok=True)
        record.save(self.game, path)
        self.save_path = path

    def record_result(self, folder: Path | None = None) -> str | None:
        """Add the finished game to the statistics once; returns a problem to show, or None.

        ``folder`` is the user data folder (None: the statistics module's default).
        """
        if self.recorded or not self.game.is_over:
            return None
        self.recorded = True
        try:
            with StatsDB(folder / "stats.sqlite3" if folder is not None else None) as db:
                db.record_game(self.game, self.humans)
        except (CubileteError, OSError, sqlite3.Error) as exc:  # StatsCorruptError is a CubileteError
            return str(exc)
        return None
