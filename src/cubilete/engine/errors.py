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
