"""Errors raised by cubilete: every one is a ``ValueError`` with a precise message."""

from __future__ import annotations


class CubileteError(ValueError):
    """Base class of every error cubilete raises on bad input."""


class RulesError(CubileteError):
    """A rule set or a house-rule profile is invalid."""


class UnknownRulesError(RulesError):
    """No preset or alias has that name."""


class IllegalActionError(CubileteError):
    """An action is not legal in the current game state."""


class RecordError(CubileteError):
    """A game record is corrupt, foreign or does not replay."""


class NotationError(CubileteError):
    """A dice, box or scorecard string cannot be parsed."""


# --- errors of the layers above the engine, collected here (python-chess style) ---------------------


class SolverUnsupportedError(CubileteError):
    """The rules cannot be solved exactly here (too many states, or throws that carry over)."""


class DuelUnsupportedError(SolverUnsupportedError, CubileteError):
    """The two-player game of these rules cannot be solved exactly here."""


class ClusterError(SolverUnsupportedError):
    """The cluster can't be used: the extra is missing, the address is wrong or unreachable."""


class ForwardError(CubileteError):
    """The forward pass met a successor outside the window computed for it (a bug, never bad input)."""


class UnknownBotError(CubileteError):
    """No bot level has that name."""


class ScorekeeperError(CubileteError):
    """An entry the rules refuse; the message says why and nothing changes."""


class SimulationError(CubileteError):
    """The simulation was asked for something impossible (no bots, too many at one table, ...)."""


class StoreError(CubileteError):
    """The database refused or lost a write (the action was not accepted)."""


class StaleWrite(StoreError):
    """The table's version moved on under the write (another process committed first): nothing was written."""


class RematchTaken(StoreError):
    """The finished table has its rematch already (asked through another process, or a click before):
    nothing was written; the caller reads which table it is."""


class AlreadySeeking(StoreError):
    """A lobby seek refused: this browser seeks a game already, or the lobby is full (nothing was stored)."""


class StatsError(CubileteError):
    """The statistics database can't do what was asked."""


class StatsCorruptError(StatsError):
    """The statistics file is not SQLite or not this schema; it is left untouched."""


class EnvError(CubileteError):
    """An environment was asked for something it cannot do."""


class I18nError(CubileteError):
    """An unknown language, or a missing catalog."""
