"""The throws of one turn, written once: from the best box per hand to each keep's value and each first-throw
hand's value, for every family of kernels (the solver's values, the win chances of a duel, the win and
target vectors).

A family computes the best box per hand on the first throw (S1) and on a later one (S23) in its own terms;
:func:`rethrows` then does the rest the same way for all: the keep values by the one-die recursion (the
mean over the next die, ``acc * (1.0 / 6.0)`` summed face by face), the best sub-keep by a downward
closure over ``remove``, the rethrow, and the locked holds' edges. What differs is how two options
compare, chosen by a literal ``mode`` so that numba compiles one specialised copy per mode and its
on-disk cache still hits in a new process (a function passed as an argument would miss it):

* :data:`EACH`: entry by entry, each its own best (expected points over upper totals, win chances over
  leads, P(reach t) over targets);
* :data:`BY_LAST`: whole rows, the one whose last entry (the expected points) is larger; the other
  entries follow that choice (the win tables' ``follow`` mode);
* :data:`PAIRS`: rows of two halves, the means then the second moments: entry by entry, the option of
  larger mean (the earliest on ties) brings its second moment (:mod:`cubilete.solver.moments`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt
from numba import njit

F = npt.NDArray[np.float64]
I = npt.NDArray[np.int64]  # noqa: E741 - the project's name for an int array

EACH = 0
BY_LAST = 1
PAIRS = 2


class TurnTables(Protocol):
    """What the throws read of :class:`cubilete.solver.tables.KernelTables` (which the kernels pass)."""

    @property
    def throws(self) -> int: ...
    @property
    def locked(self) -> bool: ...
    @property
    def add(self) -> I: ...
    @property
    def remove(self) -> I: ...
    @property
    def edge_ptr(self) -> I: ...
    @property
    def edge_hand(self) -> I: ...
    @property
    def edge_prob(self) -> F: ...
    @property
    def between_ptr(self) -> I: ...
    @property
    def between(self) -> I: ...


@njit(cache=True)
def keep_means(E: F, add: I, K: F) -> None:
    """K[k]: E's mean over the throw of the dice not in keep k (hands first, as E; then smaller keeps)."""
    n_hands, width = E.shape
    n_keeps = K.shape[0]
    K[:n_hands] = E
    sixth = 1.0 / 6.0
    for k in range(n_hands, n_keeps):  # one pass per keep; the sum in the same order as six row additions
        row = K[k]
        c0, c1, c2 = K[add[k, 0]], K[add[k, 1]], K[add[k, 2]]
        c3, c4, c5 = K[add[k, 3]], K[add[k, 4]], K[add[k, 5]]
        for u in range(width):
            acc = 0.0 + c0[u]
            acc += c1[u]
            acc += c2[u]
            acc += c3[u]
            acc += c4[u]
            acc += c5[u]
            row[u] = acc * sixth


@njit(cache=True, inline="always")
def max_of(out: F, base: F, a: F, b: F, c: F) -> None:
    """out = max(base, a, b, c), element by element, in one pass (out may be base)."""
    for u in range(out.shape[0]):
        m = base[u]
        x = a[u]
        m = x if x > m else m
        x = b[u]
        m = x if x > m else m
        x = c[u]
        m = x if x > m else m
        out[u] = m


@njit(cache=True, inline="always")
def subs_of(remove: I, k: int) -> tuple[int, int, int, int, int, int, int]:
    """(n, s0 .. s5): the n sub-keeps of k with one die less, the unused ones repeating the first (or -1)."""
    s0 = s1 = s2 = s3 = s4 = s5 = -1
    n = 0
    for f in range(6):
        r = remove[k, f]
        if r >= 0:
            if n == 0:
                s0 = r
            elif n == 1:
                s1 = r
            elif n == 2:
                s2 = r
            elif n == 3:
                s3 = r
            elif n == 4:
                s4 = r
            else:
                s5 = r
            n += 1
    s1 = s1 if n > 1 else s0
    s2 = s2 if n > 2 else s0
    s4 = s4 if n > 4 else s3
    s5 = s5 if n > 5 else s3
    return n, s0, s1, s2, s3, s4, s5


@njit(cache=True, inline="always")
def max_over_subs(out: F, base: F, remove: I, k: int, M: F) -> None:
    """out = max(base, M[r] for each sub-keep r of k with one die less), three rows a pass."""
    n, s0, s1, s2, s3, s4, s5 = subs_of(remove, k)
    if n == 0:
        out[:] = base
        return
    max_of(out, base, M[s0], M[s1], M[s2])
    if n > 3:
        max_of(out, out, M[s3], M[s4], M[s5])


@njit(cache=True, inline="always")
def by_last_over_subs(out: F, base: F, remove: I, k: int, M: F) -> None:
    """out = the row of base and the M[r] of the sub-keeps of k whose last entry is largest (the first on ties)."""
    out[:] = base
    for f in range(6):
        r = remove[k, f]
        if r >= 0 and M[r, -1] > out[-1]:
            out[:] = M[r]


@njit(cache=True, inline="always")
def take3(row: F, base: F, a: F, b: F, c: F) -> None:
    """row = the option of highest mean among base, a, b, c (earliest on ties), both moments, in one pass."""
    width = row.shape[0] // 2
    for u in range(width):
        m = base[u]
        m2 = base[width + u]
        x, x2 = a[u], a[width + u]  # loads outside the selects (a conditional load stays scalar)
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = b[u], b[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = c[u], c[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        row[u] = m
        row[width + u] = m2


@njit(cache=True, inline="always")
def take6(row: F, base: F, a: F, b: F, c: F, d: F, e: F, f: F) -> None:
    """:func:`take3` over six options (a second pass of three would read ``row`` while writing it: LLVM's
    run-time alias check then fails and the loop runs scalar)."""
    width = row.shape[0] // 2
    for u in range(width):
        m = base[u]
        m2 = base[width + u]
        x, x2 = a[u], a[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = b[u], b[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = c[u], c[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = d[u], d[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = e[u], e[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = f[u], f[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        row[u] = m
        row[width + u] = m2


@njit(cache=True, inline="always")
def take_subs(row: F, base: F, remove: I, k: int, M: F) -> None:
    """row = the best of base and the sub-keeps of k with one die less (pairs), in one pass (the same
    choice on ties as :func:`max_over_subs`'s two passes of three: the earliest option)."""
    n, s0, s1, s2, s3, s4, s5 = subs_of(remove, k)
    if n == 0:
        row[:] = base
    elif n <= 3:
        take3(row, base, M[s0], M[s1], M[s2])
    else:
        take6(row, base, M[s0], M[s1], M[s2], M[s3], M[s4], M[s5])


@njit(cache=True, inline="always")
def better_over_subs(mode: int, out: F, base: F, remove: I, k: int, M: F) -> None:
    """out = the best of base and the sub-keeps of k with one die less, compared as ``mode`` says."""
    if mode == EACH:
        max_over_subs(out, base, remove, k, M)
    elif mode == BY_LAST:
        by_last_over_subs(out, base, remove, k, M)
    else:
        take_subs(out, base, remove, k, M)


@njit(cache=True)
def closure(mode: int, K: F, remove: I, n_hands: int, M: F) -> None:
    """M[k] = best K over the sub-keeps of k (keeps smaller than a hand)."""
    for k in range(K.shape[0] - 1, n_hands - 1, -1):
        better_over_subs(mode, M[k], K[k], remove, k, M)


@njit(cache=True)
def improve(mode: int, S: F, M: F, remove: I, E: F) -> None:
    """E[h] = the better of scoring now and throwing a proper sub-keep again."""
    for h in range(E.shape[0]):
        better_over_subs(mode, E[h], S[h], remove, h, M)


@njit(cache=True)
def locked_keeps(mode: int, T: TurnTables, S23: F, K: F, Knew: F) -> None:
    """Knew[k]: value of keep k one throw earlier when held dice stay held (the next keep must contain k)."""
    n_keeps, width = K.shape
    half = width // 2
    n_hands = S23.shape[0]
    best = np.empty(width)
    for k in range(n_hands, n_keeps):
        row = Knew[k]
        row[:] = 0.0
        for e in range(T.edge_ptr[k], T.edge_ptr[k + 1]):
            best[:] = S23[T.edge_hand[e]]
            for b in range(T.between_ptr[e], T.between_ptr[e + 1]):
                sub = K[T.between[b]]
                if mode == EACH:
                    for u in range(width):
                        cur = best[u]
                        best[u] = sub[u] if sub[u] > cur else cur
                elif mode == BY_LAST:
                    if sub[-1] > best[-1]:
                        best[:] = sub
                else:
                    for u in range(half):
                        x, x2, cur, cur2 = sub[u], sub[half + u], best[u], best[half + u]
                        better = x > cur
                        best[half + u] = x2 if better else cur2
                        best[u] = x if better else cur
            p = T.edge_prob[e]
            for u in range(width):
                row[u] += p * best[u]


@njit(cache=True)
def _rethrows(mode: int, T: TurnTables, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    n_hands = S1.shape[0]
    throws = T.throws
    if throws == 1:
        E[:] = S1
    elif T.locked:
        keep_means(S23, T.add, Ks[throws])
        for t in range(throws - 1, 1, -1):  # earlier throws: the next keep must contain this one
            locked_keeps(mode, T, S23, Ks[t + 1], Ks[t])
            Ks[t, :n_hands] = S23
        closure(mode, Ks[2], T.remove, n_hands, M)
        improve(mode, S1, M, T.remove, E)
    else:
        E[:] = S23
        for t in range(throws, 1, -1):  # E holds the values after throw t
            keep_means(E, T.add, Ks[t])
            closure(mode, Ks[t], T.remove, n_hands, M)
            improve(mode, S1 if t == 2 else S23, M, T.remove, E)


@njit(cache=True)
def rethrows(T: TurnTables, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    """E[h]: each first-throw hand's value, rethrowing as the rules allow, from the best box per hand
    (S1 on the first throw, S23 later); Ks[t]: each keep thrown for throw t (t = 2 .. throws); M scratch.
    Entry by entry (:data:`EACH`); the buffers' rows are as wide as the values compared."""
    _rethrows(0, T, S1, S23, E, Ks, M)


@njit(cache=True)
def rethrows_by_last(T: TurnTables, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    """:func:`rethrows` choosing whole rows by their last entry (:data:`BY_LAST`)."""
    _rethrows(1, T, S1, S23, E, Ks, M)


@njit(cache=True)
def rethrows_pairs(T: TurnTables, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    """:func:`rethrows` on rows of (means | second moments), deciding by the means (:data:`PAIRS`)."""
    _rethrows(2, T, S1, S23, E, Ks, M)
