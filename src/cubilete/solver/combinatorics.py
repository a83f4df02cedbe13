"""Dice combinatorics for the turn "widget": every sorted multiset of 0..n dice ("keeps"),
with one-die links between them.

Keeps are numbered by size, largest first, so the first ``n_hands`` keeps are the
full hands (252 for five dice, 462 for six). ``add[k, f]`` is the keep with one more
die showing ``f + 1``; ``remove[k, f]`` the keep with one such die less. The value of
a keep is then the mean of its six one-die extensions (the one-die recursion), and
the best sub-keep of a hand is a downward closure along ``remove``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from math import factorial

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class DiceTables:
    """Keeps of ``n`` dice and the links between them."""

    n: int
    keeps: tuple[tuple[int, ...], ...]
    sizes: IntArray
    add: IntArray  # (K, 6): keep + one die of face f+1, -1 for full hands
    remove: IntArray  # (K, 6): keep - one die of face f+1, -1 if absent
    first_roll: FloatArray  # (H,): probability of each hand on a throw of all n dice
    all_equal_face: IntArray  # (H,): the face of a hand whose dice are all equal, else 0

    @property
    def n_hands(self) -> int:
        """How many distinct hands of n dice there are."""
        return int((self.sizes == self.n).sum())

    @property
    def n_keeps(self) -> int:
        """How many keeps (multisets of 0..n dice) there are."""
        return len(self.keeps)

    def index(self, keep: tuple[int, ...]) -> int:
        """The number of a keep given as faces (any order)."""
        return _index(self)[tuple(sorted(keep))]

    def roll_probabilities(self, keep: int) -> dict[int, float]:
        """The hands that throwing the other dice of ``keep`` can give, with their probabilities."""
        out: dict[int, float] = {}
        base = self.keeps[keep]
        m = self.n - len(base)
        for roll in itertools.product(range(1, 7), repeat=m):
            h = self.index(base + roll)
            out[h] = out.get(h, 0.0) + 6.0**-m
        return out


@lru_cache(maxsize=8)
def _index(tables: DiceTables) -> dict[tuple[int, ...], int]:
    return {k: i for i, k in enumerate(tables.keeps)}


def _multinomial(hand: tuple[int, ...]) -> float:
    ways = factorial(len(hand))
    for f in set(hand):
        ways //= factorial(hand.count(f))
    return ways / 6.0 ** len(hand)


@lru_cache(maxsize=8)
def dice_tables(n: int) -> DiceTables:
    """The tables for ``n`` dice (cached)."""
    keeps = tuple(k for size in range(n, -1, -1) for k in itertools.combinations_with_replacement(range(1, 7), size))
    index = {k: i for i, k in enumerate(keeps)}
    size = np.array([len(k) for k in keeps], dtype=np.int64)
    add = np.full((len(keeps), 6), -1, dtype=np.int64)
    remove = np.full((len(keeps), 6), -1, dtype=np.int64)
    for i, k in enumerate(keeps):
        for f in range(1, 7):
            if len(k) < n:
                add[i, f - 1] = index[tuple(sorted((*k, f)))]
            if f in k:
                rest = list(k)
                rest.remove(f)
                remove[i, f - 1] = index[tuple(rest)]
    hands = [k for k in keeps if len(k) == n]
    first = np.array([_multinomial(h) for h in hands])
    equal = np.array([h[0] if n and len(set(h)) == 1 else 0 for h in hands], dtype=np.int64)
    return DiceTables(n, keeps, size, add, remove, first, equal)


@dataclass(frozen=True, eq=False)
class LockedTables:
    """Throw edges for locked holds: keep k -> hand h with probability, and the keeps
    between them (k <= k2 < h) that a player who must keep k may keep next."""

    edge_ptr: IntArray  # (K + 1,): edges of keep k are edge_ptr[k]:edge_ptr[k + 1]
    edge_hand: IntArray  # (E,)
    edge_prob: FloatArray  # (E,)
    between_ptr: IntArray  # (E + 1,)
    between: IntArray  # keeps k2 with k <= k2 < hand, per edge


def _sub_multisets(faces: tuple[int, ...]) -> set[tuple[int, ...]]:
    out: set[tuple[int, ...]] = set()
    for size in range(len(faces) + 1):
        out.update(itertools.combinations(faces, size))
    return out


@lru_cache(maxsize=8)
def locked_tables(n: int) -> LockedTables:
    """The edge tables for locked holds with ``n`` dice (cached)."""
    t = dice_tables(n)
    ptr, hands, probs, bptr, between = [0], [], [], [0], []
    for keep in t.keeps:
        m = n - len(keep)
        if m > 0:
            for rest in itertools.combinations_with_replacement(range(1, 7), m):
                hand = tuple(sorted(keep + rest))
                hands.append(t.index(hand))
                probs.append(_multinomial(rest))
                for extra in sorted(_sub_multisets(rest)):
                    if len(extra) < m:
                        between.append(t.index(keep + extra))
                bptr.append(len(between))
        ptr.append(len(hands))
    return LockedTables(
        np.array(ptr, dtype=np.int64),
        np.array(hands, dtype=np.int64),
        np.array(probs),
        np.array(bptr, dtype=np.int64),
        np.array(between, dtype=np.int64),
    )
