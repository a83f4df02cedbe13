"""The 8-lane vector intrinsics do exactly the scalar arithmetic (same sums in the same order, no fused
multiply-add), so the blocked kernel's tables are the reference kernel's bit for bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from cubilete.duel import simd


@njit(cache=False)
def _run(a: np.ndarray, p: float) -> None:
    # rows of 8: 0..6 inputs, 7.. outputs
    simd.vavg6(a, 7 * 8, 0, 8, 16, 24, 32, 40, 1.0 / 6.0)
    simd.vmax7(a, 8 * 8, 0, 8, 16, 24, 32, 40, 48)
    simd.vmax4(a, 9 * 8, 48, 40, 0, 8)
    simd.vaxpy(a, 10 * 8, 0, 8, p)
    simd.vaddc(a, 11 * 8, 16, p)
    simd.vcopy(a, 12 * 8, 24)
    simd.vfill(a, 13 * 8, p)
    simd.vcopy(a, 14 * 8 + 3, 3)  # any element offset, not only whole rows


def test_vectors_are_the_scalar_arithmetic() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = np.zeros(16 * 8)
        a[: 7 * 8] = rng.random(7 * 8) * 10.0 ** rng.integers(-8, 8, 7 * 8)
        p = float(rng.random())
        _run(a, p)
        r = a.reshape(16, 8)
        want = (((((r[0] + r[1]) + r[2]) + r[3]) + r[4]) + r[5]) * (1.0 / 6.0)
        assert np.array_equal(r[7], want)
        assert np.array_equal(r[8], r[:7].max(axis=0))
        assert np.array_equal(r[9], r[[6, 5, 0, 1]].max(axis=0))
        assert np.array_equal(r[10], r[0] + p * r[1])  # two roundings, as numpy: no fused multiply-add
        assert np.array_equal(r[11], r[2] + p)
        assert np.array_equal(r[12], r[3])
        assert np.array_equal(r[13], np.full(8, p))
        assert np.array_equal(a[14 * 8 + 3 : 15 * 8 + 3], a[3:11])
