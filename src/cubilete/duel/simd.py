"""Eight-lane f64 vector operations for the two-player kernels, as numba intrinsics.

Each call loads, combines and stores whole vectors of 8 consecutive doubles of one scratch array at
the given element offsets: no slices, bounds checks or alias checks, so the blocked widget can run
on blocks of a few vectors that stay in the core's caches. The arithmetic is exactly that of the
scalar loops it replaces (the same additions in the same order, one rounding each; a maximum is a
compare and select), so the tables are the same bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

LANES = 8
_VT = ir.VectorType(ir.DoubleType(), LANES)


def _ptr(context: Any, builder: Any, aryty: Any, ary: Any, idx: Any) -> Any:
    a = context.make_array(aryty)(context, builder, value=ary)
    p = builder.gep(a.data, [idx], inbounds=True)
    return builder.bitcast(p, _VT.as_pointer())


def _load(context: Any, builder: Any, aryty: Any, ary: Any, idx: Any) -> Any:
    return builder.load(_ptr(context, builder, aryty, ary, idx), align=8)


def _store(context: Any, builder: Any, aryty: Any, ary: Any, idx: Any, value: Any) -> None:
    builder.store(value, _ptr(context, builder, aryty, ary, idx), align=8)


def _splat(builder: Any, x: Any) -> Any:
    v = ir.Constant(_VT, ir.Undefined)
    for i in range(LANES):
        v = builder.insert_element(v, x, ir.Constant(ir.IntType(32), i))
    return v


def _max(builder: Any, acc: Any, v: Any) -> Any:
    """v if v > acc else acc, lane by lane (as the scalar loops)."""
    return builder.select(builder.fcmp_ordered(">", v, acc), v, acc)


def _intrinsic(n_offsets: int, body: Callable[..., Any], scalar: bool = False) -> Any:
    """An intrinsic f(arr, dst, o1, ..., on[, x]) storing body(loaded vectors[, x]) at dst."""

    def typer_body(arr: Any, rest: tuple[Any, ...]) -> Any:
        sig = types.void(arr, *rest)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aty = signature.args[0]
            vals = [_load(context, builder, aty, args[0], x) for x in args[2 : 2 + n_offsets]]
            extra = args[2 + n_offsets] if scalar else None
            _store(context, builder, aty, args[0], args[1], body(builder, vals, extra))
            return context.get_dummy_value()

        return sig, codegen

    # numba reads the typer's parameters: spell them out (no *args)
    names = ["dst"] + [f"o{i}" for i in range(n_offsets)] + (["x"] if scalar else [])
    params = ", ".join(names)
    scope: dict[str, Any] = {"typer_body": typer_body}
    exec(f"def typer(typingctx, arr, {params}):\n    return typer_body(arr, ({params},))", scope)
    return scope["typer"]


def _avg6(builder: Any, vals: list[Any], sixth: Any) -> Any:
    acc = vals[0]
    for v in vals[1:]:
        acc = builder.fadd(acc, v)
    return builder.fmul(acc, _splat(builder, sixth))


def _maxall(builder: Any, vals: list[Any], _: Any) -> Any:
    acc = vals[0]
    for v in vals[1:]:
        acc = _max(builder, acc, v)
    return acc


def _axpy(builder: Any, vals: list[Any], p: Any) -> Any:
    return builder.fadd(vals[0], builder.fmul(_splat(builder, p), vals[1]))


def _addc(builder: Any, vals: list[Any], p: Any) -> Any:
    return builder.fadd(vals[0], _splat(builder, p))


def _copy(builder: Any, vals: list[Any], _: Any) -> Any:
    return vals[0]


def _fill(builder: Any, vals: list[Any], x: Any) -> Any:
    return _splat(builder, x)


def _make(n: int, body: Callable[..., Any], scalar: bool = False) -> Any:
    typer = _intrinsic(n, body, scalar)
    return intrinsic(typer)


# a[dst] = ((((a[o0] + a[o1]) + a[o2]) + a[o3]) + a[o4]) + a[o5]) * sixth
vavg6 = _make(6, _avg6, scalar=True)
# a[dst] = the largest of a[o0..o(n-1)], n = 2..7
vmax2 = _make(2, _maxall)
vmax3 = _make(3, _maxall)
vmax4 = _make(4, _maxall)
vmax5 = _make(5, _maxall)
vmax6 = _make(6, _maxall)
vmax7 = _make(7, _maxall)
# a[dst] = a[o0] + p * a[o1]
vaxpy = _make(2, _axpy, scalar=True)
# a[dst] = a[o0] + p
vaddc = _make(1, _addc, scalar=True)
# a[dst] = a[o0]
vcopy = _make(1, _copy)
# a[dst] = x
vfill = _make(0, _fill, scalar=True)
