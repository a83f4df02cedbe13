"""Dice: hands as tuples of faces, and the sources of randomness a game is given.

A source answers "throw number ``index`` of this game, ``count`` dice". Because
each throw depends only on the seed and its index, a seed replays a game exactly,
undoing a throw and throwing again gives the same dice, and anyone holding the
seed can recheck every throw.

>>> SeededDice("7").throw(0, 5) == SeededDice("7").throw(0, 5)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

from cubilete.engine.errors import NotationError, RecordError

Hand = tuple[int, ...]


class DiceSource(Protocol):
    """Where a game's dice come from."""

    def throw(self, index: int, count: int) -> Hand:
        """The faces of the game's throw number ``index`` (0-based) of ``count`` dice."""
        ...


class SeededDice:
    """Dice derived from SHA-256 of the seed and the throw index (reproducible, verifiable)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"

    def throw(self, index: int, count: int) -> Hand:
        """Unbiased faces: bytes of the digest below 252 taken modulo 6."""
        faces: list[int] = []
        block = 0
        while len(faces) < count:
            digest = hashlib.sha256(f"{self.seed}:{index}:{block}".encode()).digest()
            faces.extend(b % 6 + 1 for b in digest if b < 252)
            block += 1
        return tuple(faces[:count])


class DuplicateDice:
    """Duplicate dice: each die's face depends only on the seed and its place (which turn of the player,
    which throw of the turn, which die), never on how many throws came before. Two players who keep the
    same dice see the same faces, and every turn's first throw is the same for everyone: only decisions
    differ (the daily challenge, duplicate head to head). Reproducible and checkable like :class:`SeededDice`.

    >>> d = DuplicateDice("7")
    >>> d.throw_at("play:0:0", [0, 1, 2, 3, 4])[2] == d.throw_at("play:0:0", [2])[0]
    True
    """

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"DuplicateDice({self.seed!r})"

    def throw_at(self, place: str, positions: Sequence[int]) -> Hand:
        """The faces of the dice at ``positions`` thrown at ``place`` (unbiased: digest bytes below 252)."""
        return tuple(self._face(place, p) for p in positions)

    def _face(self, place: str, position: int) -> int:
        block = 0
        while True:
            digest = hashlib.sha256(f"{self.seed}:dup:{place}:{position}:{block}".encode()).digest()
            for b in digest:
                if b < 252:
                    return b % 6 + 1
            block += 1

    def throw(self, index: int, count: int) -> Hand:
        """Not by index: a duplicate game throws by place (:meth:`throw_at`)."""
        raise RecordError("duplicate dice are thrown by place (turn, throw, die), not by index")


class ScriptedDice:
    """Dice read from a list, in order: replays of records, tests, real dice typed in."""

    def __init__(self, throws: Sequence[Sequence[int]]) -> None:
        self.throws = [tuple(t) for t in throws]

    def __repr__(self) -> str:
        return f"ScriptedDice({self.throws!r})"

    def throw(self, index: int, count: int) -> Hand:
        """The recorded throw; a missing or mismatched one is a :class:`RecordError`."""
        if index >= len(self.throws):
            raise RecordError(f"throw {index + 1} is missing from the recorded throws")
        faces = self.throws[index]
        if len(faces) != count:
            raise RecordError(f"throw {index + 1} has {len(faces)} dice; the game threw {count}")
        return faces


def parse_dice(text: str | Sequence[str], count: int | None = None) -> Hand:
    """Faces from ``"3 4 5 6 1"``, ``"34561"`` or ``["3", "4", ...]``.

    >>> parse_dice("3 4 5 6 1")
    (3, 4, 5, 6, 1)
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if len(parts) == 1 and parts[0].isdecimal():
        parts = list(parts[0])
    faces: list[int] = []
    for p in parts:
        if not (p.isdecimal() and 1 <= int(p) <= 6):
            raise NotationError(f"{p!r} is not a die face (1 to 6)")
        faces.append(int(p))
    if not faces:
        raise NotationError("no dice given")
    if count is not None and len(faces) != count:
        raise NotationError(f"these rules use {count} dice; got {len(faces)}")
    return tuple(faces)
