"""Tie-break rounds between two players, solved exactly (P17, ``TieBreak.EXTRA_ROUND``).

After a tie both play one more hand, the first player first; a hand is worth the most any
box would pay for it on an empty sheet (:func:`cubilete.engine.game.tiebreak_value`); the higher
hand wins, and equal hands play another round. The second player chooses knowing the first
player's hand. As in the engine (``Game._roll``, seed 000: "en cualquier tiro se gana la partida"), a
first throw that makes an instant-win box wins the game at once in a tie-break hand too, unless that
player scratched the box (and it does not win after a scratch): each player's instant-win hands
(``first_wins``/``second_wins``, None: none) are given by their final sheets.

With ``W`` = P(first player wins the tie-break), a round is worth
``f(W) = max_first E[min_second ...]``, a contraction (factor: the chance of another tie),
iterated to its fixed point. (The engine calls a tie after 100 rounds shared; the chance of
reaching it is below 1e-60 and not modelled.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from cubilete.engine.game import tiebreak_value
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.solver.combinatorics import FloatArray
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows

BoolArray = npt.NDArray[np.bool_]


def _turn(T: KernelTables, S1: FloatArray, S23: FloatArray) -> FloatArray:
    """Best expected value of a turn, per column, given each hand's worth after the first / a later throw."""
    n_keeps, width = T.add.shape[0], S1.shape[1]
    E = np.empty_like(S1)
    Ks = np.empty((T.throws + 1, n_keeps, width))
    M = np.empty((n_keeps, width))
    rethrows(T, np.ascontiguousarray(S1), np.ascontiguousarray(S23), E, Ks, M)
    return np.asarray(T.first_roll @ E)


def _answer(hand_values: FloatArray, values: FloatArray, w: float, wins: BoolArray | None = None) -> FloatArray:
    """P(second player wins) standing on each hand (rows) against each first player's value (columns);
    ``wins``: the hands that win at once (pass them for the first throw only)."""
    beats = (hand_values[:, None] > values[None, :]).astype(float)
    ties = (hand_values[:, None] == values[None, :]).astype(float)
    out: FloatArray = beats + ties * (1.0 - w)
    if wins is not None:
        out[wins] = 1.0
    return out


def _first_worth(worth: dict[float, float], v: FloatArray, wins: BoolArray | None) -> FloatArray:
    """The first player's P(win) standing on each hand (one column); ``wins`` as in :func:`_answer`."""
    out = np.array([[worth[float(x)]] for x in v])
    if wins is not None:
        out[wins] = 1.0
    return out


def instant_hands(rules: Rules, card: Sequence[int | None]) -> BoolArray:
    """The hands (sorted, the solver's order) whose first throw wins at once for a player with this
    final sheet in a tie-break hand: the engine's own test (:func:`cubilete.engine.rules.scoring.instant_win`)."""
    from cubilete.solver.combinatorics import dice_tables

    d = dice_tables(rules.dice)
    return np.array([scoring.instant_win(rules, card, h) for h in d.keeps[: d.n_hands]], dtype=bool)


def first_player_tiebreak(
    rules: Rules, T: KernelTables, tol: float = 1e-16,
    first_wins: BoolArray | None = None, second_wins: BoolArray | None = None,
) -> float:  # fmt: skip
    """P(the first player wins the tie-break rounds) under optimal play by both (each player's
    instant-win hands: ``first_wins``, ``second_wins``)."""
    from cubilete.solver.combinatorics import dice_tables

    d = dice_tables(rules.dice)
    hands = d.keeps[: d.n_hands]
    v1 = np.array([tiebreak_value(rules, h, True) for h in hands])
    v23 = np.array([tiebreak_value(rules, h, False) for h in hands])
    values = np.unique(np.concatenate([v1, v23]))
    w = 0.5
    for _ in range(10_000):
        # the second player's chance against each value the first player may stand on
        b = _turn(T, _answer(v1, values, w, second_wins), _answer(v23, values, w))
        worth = {float(v): 1.0 - float(p) for v, p in zip(values, b, strict=True)}
        a1 = _first_worth(worth, v1, first_wins)
        a23 = _first_worth(worth, v23, None)
        new = float(_turn(T, a1, a23)[0])
        if abs(new - w) <= tol:
            return new
        w = new
    return w  # pragma: no cover - the iteration contracts long before


def round_worth(
    rules: Rules, T: KernelTables, w: float, against: int | None,
    first_wins: BoolArray | None = None, second_wins: BoolArray | None = None,
) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """P(the player to throw wins the tie-break) standing on each hand after the first / a later throw.

    ``against`` is None for the first player (the second answers each value optimally), else the
    value of the first player's hand; ``w`` is P(first player wins the tie-break rounds); each
    player's instant-win hands as in :func:`first_player_tiebreak`.
    """
    from cubilete.solver.combinatorics import dice_tables

    d = dice_tables(rules.dice)
    hands = d.keeps[: d.n_hands]
    v1 = np.array([tiebreak_value(rules, h, True) for h in hands])
    v23 = np.array([tiebreak_value(rules, h, False) for h in hands])
    if against is not None:
        target = np.array([float(against)])
        return _answer(v1, target, w, second_wins), _answer(v23, target, w)
    values = np.unique(np.concatenate([v1, v23]))
    b = _turn(T, _answer(v1, values, w, second_wins), _answer(v23, values, w))
    worth = {float(v): 1.0 - float(p) for v, p in zip(values, b, strict=True)}
    return _first_worth(worth, v1, first_wins), _first_worth(worth, v23, None)


def tiebreak_choices(
    rules: Rules, T: KernelTables, w: float, against: int | None, dice: tuple[int, ...], throw: int,
    held: tuple[int, ...], first_wins: BoolArray | None = None, second_wins: BoolArray | None = None,
) -> list[tuple[str, float, tuple[int, ...]]]:  # fmt: skip
    """(kind, P(win), keep) of every option of a tie-break hand after throw ``throw`` (0: before the first);
    each player's instant-win hands as in :func:`first_player_tiebreak`."""
    from cubilete.solver.advisor import keeps_holding
    from cubilete.solver.combinatorics import dice_tables

    d = dice_tables(rules.dice)
    S1, S23 = round_worth(rules, T, w, against, first_wins, second_wins)
    E = np.empty_like(S1)
    Ks = np.zeros((T.throws + 1, d.n_keeps, 1))
    M = np.empty((d.n_keeps, 1))
    rethrows(T, np.ascontiguousarray(S1), np.ascontiguousarray(S23), E, Ks, M)
    if throw == 0:
        return [("keep", float(T.first_roll @ E[:, 0]), ())]
    hand = tuple(sorted(dice))
    h = d.index(hand)
    out: list[tuple[str, float, tuple[int, ...]]] = [("stand", float((S1 if throw == 1 else S23)[h, 0]), ())]
    if throw < rules.throws:
        must = held if rules.locked_holds else ()
        out += [("keep", float(Ks[throw + 1, d.index(k), 0]), k) for k in keeps_holding(hand, must)]
    return out
