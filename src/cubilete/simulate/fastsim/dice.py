"""The compiled simulation's dice, in plain Python: a :class:`~cubilete.engine.dice.DiceSource` for the engine.

Die ``j`` of throw ``index`` of deal ``d`` is a SplitMix64 hash of (key, d, index, j) taken modulo 6,
the key being the first 8 bytes of SHA-256 of the simulation's seed. These are not the engine's
SHA-256 dice (:class:`~cubilete.engine.dice.SeededDice`): a compiled simulation and an engine simulation
with the same seed play different games, each reproducible. :class:`CounterDice` lets the engine
replay a compiled deal throw for throw (the tests do).

>>> CounterDice(seed_key("7"), 0).throw(0, 5) == CounterDice(seed_key("7"), 0).throw(0, 5)
True
"""

from __future__ import annotations

import hashlib

from cubilete.engine.dice import Hand

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
DEAL_MUL = 0xD1B54A32D192ED03
INDEX_MUL = 0xABC98388FB8FAC03


def seed_key(seed: str | int) -> int:
    """The 64-bit key of a seed (any text)."""
    return int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:8], "little")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def die(key: int, deal: int, index: int, j: int) -> int:
    """Face of die ``j`` of throw ``index`` of deal ``deal`` (as the numba kernel computes it)."""
    s = _mix((key + deal * DEAL_MUL + GOLDEN) & MASK)
    s = _mix(s ^ ((index * INDEX_MUL + j * GOLDEN) & MASK))
    return s % 6 + 1


class CounterDice:
    """The dice of one compiled deal, throw by throw (every run of the deal reads the same throws)."""

    def __init__(self, key: int, deal: int) -> None:
        self.key = key
        self.deal = deal

    def __repr__(self) -> str:
        return f"CounterDice({self.key!r}, {self.deal!r})"

    def throw(self, index: int, count: int) -> Hand:
        """The faces of throw ``index`` of ``count`` dice."""
        return tuple(die(self.key, self.deal, index, j) for j in range(count))
