"""What every bot shares: the :class:`Strategy` protocol, ranked options, and turning a
choice of faces into dice positions.

>>> keep_positions((5, 2, 5, 6, 5), (5, 5))
(0, 2)
>>> keep_positions((5, 2, 5, 6, 5), (5, 5), held=(4,))
(0, 4)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, overload

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.errors import IllegalActionError
from cubilete.engine.game import Game
from cubilete.engine.state import Phase
from cubilete.solver.advisor import Advice, Option


class Analysis(Sequence[Option]):
    """Ranked options, best first: a sequence of advisor :class:`~cubilete.solver.advisor.Option`
    (index it, iterate it, ``len`` it, compare it with a list).

    It wraps the options it is given without copying a sequence: the advisor's
    :class:`~cubilete.solver.advisor.Advice` builds an ``Option`` only when one is read, so a bot
    that plays the best option (:attr:`best`) builds one. ``exact`` is False when the values come
    from an approximation (rules too large to solve exactly); ``note`` says in plain words where the
    values come from.
    """

    __slots__ = ("_options", "exact", "note")

    def __init__(self, options: Iterable[Option] = (), exact: bool = True, note: str = "") -> None:
        # the advisor's options (or a tuple, another analysis) are kept; anything else is copied into a list,
        # as the former list subclass did (the caller's list may change)
        kept = type(options) is Advice or type(options) is tuple or type(options) is Analysis
        self._options: Sequence[Option] = options if kept else list(options)  # type: ignore[assignment]
        self.exact = exact
        self.note = note

    def __len__(self) -> int:
        return len(self._options)

    @overload
    def __getitem__(self, i: int) -> Option: ...
    @overload
    def __getitem__(self, i: slice) -> list[Option]: ...
    def __getitem__(self, i: int | slice) -> Option | list[Option]:
        if isinstance(i, slice):
            return list(self._options[i])
        return self._options[i]

    def __iter__(self) -> Iterator[Option]:
        return iter(self._options)

    @property
    def best(self) -> Option:
        """The best option (the first; IndexError if there is none)."""
        return self._options[0]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self._options) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so unhashable like them

    def __repr__(self) -> str:
        return f"Analysis({list(self._options)!r}, exact={self.exact!r}, note={self.note!r})"


class Strategy(Protocol):
    """A computer player: picks a legal action for the player whose turn it is, never changing the game."""

    name: str

    def choose(self, game: Game) -> Action:
        """One of ``game.legal_actions()``; must not change the game."""
        ...

    def analyse(self, game: Game) -> Analysis:
        """The options this bot weighs, best first (empty for bots that do not rank options)."""
        ...


def check_playable(game: Game) -> None:
    """Refuse to choose in a finished game."""
    if game.is_over:
        raise IllegalActionError("the game is over: there is nothing to choose")


def decision_rng(seed: str, game: Game) -> random.Random:
    """A random source that depends only on the bot's seed and the position in the game.

    Asking twice, or again after an undo, gives the same answer: nothing hidden advances.
    """
    st = game.state
    return random.Random(f"{seed}:{len(game.history)}:{st.throws_made}:{st.current}:{st.turn.dice}")


def bot_seed(seed: int | str | None) -> str:
    """The seed a bot keeps: the one given, or a fresh random one."""
    return str(seed) if seed is not None else f"{random.random()}"


def keep_positions(dice: Sequence[int], faces: Sequence[int], held: Sequence[int] = ()) -> tuple[int, ...]:
    """Dice positions showing ``faces`` (a multiset); positions in ``held`` are used first.

    With locked holds the held positions must stay kept: give them as ``held`` and make sure
    their faces are among ``faces`` (the advisor's options always contain them).
    """
    if not held:  # the common case: the first positions showing each face, in order (already sorted)
        left = list(faces)
        picked = []
        for p, face in enumerate(dice):
            if face in left:
                left.remove(face)
                picked.append(p)
        if left:
            raise IllegalActionError(f"cannot keep {sorted(faces)} from the dice {list(dice)}")
        return tuple(picked)
    want: dict[int, int] = {}
    for f in faces:
        want[f] = want.get(f, 0) + 1
    chosen: list[int] = []
    for p in (*held, *(q for q in range(len(dice)) if q not in held)):
        if want.get(dice[p], 0) > 0:
            want[dice[p]] -= 1
            chosen.append(p)
    if any(want.values()):
        raise IllegalActionError(f"cannot keep {sorted(faces)} from the dice {list(dice)}")
    if not set(held) <= set(chosen):
        raise IllegalActionError(f"keeping {sorted(faces)} would throw again a held die of {list(dice)}")
    return tuple(sorted(chosen))


def action_for(game: Game, option: Option) -> Action:
    """The game action that carries out an option (score a slot, keep faces and throw, stand)."""
    turn = game.state.turn
    if option.kind == "score" and option.slot is not None:
        return Score(option.slot)
    if option.kind == "stand":
        return Stand()
    if turn.throws == 0:
        return Roll()
    if game.rules.locked_holds:
        return Roll(keep_positions(turn.dice, option.keep, turn.held))
    keep = option.keep if type(option.keep) is tuple else tuple(option.keep)
    key = (turn.dice, keep)
    roll = _ROLLS.get(key)
    if roll is None:
        if len(_ROLLS) >= 4096:
            _ROLLS.clear()
        roll = _ROLLS[key] = Roll(keep_positions(turn.dice, keep))
    return roll


# the throw that keeps some faces of some dice (actions are immutable values: one object serves every game)
_ROLLS: dict[tuple[tuple[int, ...], tuple[int, ...]], Roll] = {}


def in_play(game: Game) -> bool:
    """True in the normal phase (not a tie-break round)."""
    return game.state.phase is Phase.PLAY


def held_faces(game: Game) -> tuple[int, ...]:
    """The faces that must stay kept (locked holds), sorted."""
    turn = game.state.turn
    if not game.rules.locked_holds or turn.throws == 0:
        return ()
    return tuple(sorted(turn.dice[p] for p in turn.held))
