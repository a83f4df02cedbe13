"""Immutable values that make up a game's state; the :class:`~cubilete.engine.game.Game` swaps them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    """Where the game stands."""

    PLAY = "play"
    TIEBREAK = "tiebreak"
    OVER = "over"


class EndReason(StrEnum):
    """Why the game ended."""

    POINTS = "points"
    INSTANT_WIN = "instant-win"
    TIE_BREAK = "tie-break"
    SHARED = "shared"


@dataclass(frozen=True)
class Turn:
    """The dice of the player whose turn it is."""

    dice: tuple[int, ...] = ()  # by position, as on the table; empty before the first throw
    throws: int = 0  # throws made this turn
    allowance: int = 3  # throws allowed this turn (more when throws carry over)
    held: tuple[int, ...] = ()  # positions kept at the last throw (for locked holds)

    @property
    def first_throw(self) -> bool:
        """True while the dice on the table are those of the turn's first throw (servida)."""
        return self.throws == 1


@dataclass(frozen=True)
class Seat:
    """One player's sheet and counters."""

    name: str
    card: tuple[int | None, ...]
    extra_bonuses: int = 0
    banked: int = 0  # throws carried over to later turns
    turns_taken: int = 0


@dataclass(frozen=True)
class GameState:
    """Everything needed to continue the game."""

    seats: tuple[Seat, ...]
    order: tuple[int, ...]  # seat indices in playing order, starter first
    current: int  # seat index
    turn: Turn
    throws_made: int = 0  # game-wide throw counter: the index of the next throw
    phase: Phase = Phase.PLAY
    contenders: tuple[int, ...] = ()  # tie-break: seats still tied
    tiebreak_hands: tuple[tuple[int, int], ...] = ()  # tie-break: (seat, hand value) this round
    tiebreak_round: int = 0
    winners: tuple[int, ...] = ()
    reason: EndReason | None = None
