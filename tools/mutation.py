"""Mutation testing of the core: small changes to the code, one at a time; a test must fail for each.

    python tools/mutation.py                      # every mutant of the core modules (long on 2 cores)
    python tools/mutation.py --sample 300         # a reproducible random sample of the mutants
    python tools/mutation.py src/cubilete/engine/fairness.py --list   # show the mutants, run nothing
    nice python tools/mutation.py --sample 150 --shard 1/2 > m1.log &   # two processes side by side,
    nice python tools/mutation.py --sample 150 --shard 2/2 > m2.log &   # then the figures of both:
    python tools/mutation.py --sample 150 --resume m1.log --resume m2.log

Run from the repository root of a clone with the test extra installed (``pip install -e '.[test]'``).
Nothing is written inside ``src/``: each mutant is a copy of the package in a temporary directory, put
first on the path of a forked pytest run limited to the test files that guard that module (``TESTS``).
A mutant is *killed* when the run fails or errs, or when it outlasts the time limit (an endless loop);
the rest *survive* and are listed with file, line and what was changed. Linux/macOS only (``os.fork``).

Mutation operators (AST): comparison (``<`` to ``<=``, ``==`` to ``!=``, ``in`` to ``not in`` ...),
arithmetic and augmented assignment (``+`` to ``-``, ``*`` to ``/`` ...), ``and``/``or``, a ``not``
or unary minus dropped, an integer constant plus one, ``True``/``False`` swapped, ``min``/``max`` and
``any``/``all`` swapped, a condition negated, ``break``/``continue`` swapped, a returned value replaced
by ``None``, a call statement or a ``raise`` replaced by ``pass``. Docstrings, strings, annotations and
``__all__`` are left alone.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# The test files that guard each module, the fastest first (a run stops at the first failure).
_RULES = [
    "tests/engine/test_rules_model.py",
    "tests/engine/test_edges.py",
    "tests/engine/test_game_rules.py",
    "tests/engine/test_profile.py",
    "tests/engine/test_game.py",
    "tests/engine/test_record.py",
    "tests/engine/test_golden.py",
    "tests/engine/test_properties.py",
    "tests/cli/test_rules.py",
    "tests/engine/test_i18n.py",
]
TESTS: dict[str, list[str]] = {
    "src/cubilete/engine/rules/scoring.py": [
        "tests/engine/test_edges.py",
        "tests/engine/test_game_rules.py",
        "tests/engine/test_rules_model.py",
        "tests/engine/test_game.py",
        "tests/engine/test_golden.py",
        "tests/engine/test_properties.py",
        "tests/play/test_scorekeeper.py",
        "tests/engine/test_notation.py",
    ],
    "src/cubilete/engine/rules/model.py": _RULES,
    "src/cubilete/engine/rules/presets.py": _RULES,
    "src/cubilete/engine/rules/codec.py": _RULES,
    "src/cubilete/engine/rules/profile.py": [
        "tests/engine/test_profile.py", "tests/engine/test_edges.py", "tests/engine/test_rules_model.py"
    ],
    "src/cubilete/engine/rules/describe.py": [
        "tests/engine/test_edges.py",
        "tests/cli/test_rules.py",
        "tests/engine/test_rules_model.py",
        "tests/engine/test_i18n.py",
    ],
    "src/cubilete/engine/game.py": [
        "tests/engine/test_game.py",
        "tests/engine/test_edges.py",
        "tests/engine/test_game_rules.py",
        "tests/engine/test_record.py",
        "tests/engine/test_golden.py",
        "tests/engine/test_properties.py",
    ],
    "src/cubilete/engine/record.py": [
        "tests/engine/test_record.py",
        "tests/engine/test_edges.py",
        "tests/cli/test_replay.py",
        "tests/engine/test_fairness.py",
    ],
    "src/cubilete/engine/fairness.py": ["tests/engine/test_fairness.py", "tests/web/test_verify_cmd.py"],
}

_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_ARITH: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}
_NAMES = {"min": "max", "max": "min", "any": "all", "all": "any"}


@dataclass(frozen=True)
class Mutant:
    """One change: its module, its number among that module's changes, where and what."""

    module: str
    index: int
    line: int
    what: str


@dataclass
class Result:
    """What the tests made of a mutant."""

    mutant: Mutant
    outcome: str  # "killed", "timeout" (counted as killed) or "survived"
    seconds: float


Site = tuple[ast.AST, str, Callable[[], None]]


def _skipped(tree: ast.Module) -> set[int]:
    """Ids of the nodes never mutated: docstrings, annotations, ``__all__`` and ``TYPE_CHECKING`` blocks."""
    skip: set[int] = set()

    def whole(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            first = body[0].value
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                whole(body[0])
        if isinstance(node, ast.arg | ast.AnnAssign):
            whole(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            whole(node.returns)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            whole(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            whole(node)
        if isinstance(node, ast.JoinedStr):
            whole(node)
    return skip


def _sites(tree: ast.Module) -> Iterator[Site]:
    """Every place a mutation can go, in a fixed order, with a function that makes the change in place."""
    skip = _skipped(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        yield from _node_sites(node)


def _node_sites(node: ast.AST) -> Iterator[Site]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            new = _COMPARE.get(type(op))
            if new is not None:

                def swap(node: ast.Compare = node, i: int = i, new: type[ast.cmpop] = new) -> None:
                    node.ops[i] = new()

                yield node, f"{type(op).__name__} -> {new.__name__}", swap
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        arith = _ARITH.get(type(node.op))
        if arith is not None:

            def swap_op(node: ast.BinOp | ast.AugAssign = node, new: type[ast.operator] = arith) -> None:
                node.op = new()

            yield node, f"{type(node.op).__name__} -> {arith.__name__}", swap_op
    elif isinstance(node, ast.BoolOp):
        other = ast.Or if isinstance(node.op, ast.And) else ast.And

        def swap_bool(node: ast.BoolOp = node, new: type[ast.boolop] = other) -> None:
            node.op = new()

        yield node, f"{type(node.op).__name__} -> {other.__name__}", swap_bool
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):

        def drop(node: ast.UnaryOp = node) -> None:
            if isinstance(node.op, ast.USub):
                node.op = ast.UAdd()  # "-x" -> "+x"
            else:  # "not x" -> "not not x": the truth of x, as if the "not" were dropped
                node.operand = ast.UnaryOp(op=ast.Not(), operand=node.operand)

        yield node, f"{type(node.op).__name__} dropped", drop
    elif isinstance(node, ast.Constant) and type(node.value) in (bool, int):
        if isinstance(node.value, bool):

            def flip(node: ast.Constant = node) -> None:
                node.value = not node.value

            yield node, f"{node.value} -> {not node.value}", flip
        else:

            def bump(node: ast.Constant = node) -> None:
                node.value = node.value + 1

            yield node, f"{node.value} -> {node.value + 1}", bump
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NAMES:
        name = node.func

        def rename(name: ast.Name = name) -> None:
            name.id = _NAMES[name.id]

        yield node, f"{name.id} -> {_NAMES[name.id]}", rename
    elif isinstance(node, ast.If | ast.While | ast.IfExp) and not isinstance(node.test, ast.Compare):

        def negate(node: ast.If | ast.While | ast.IfExp = node) -> None:
            node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)

        yield node, "condition negated", negate
    elif isinstance(node, ast.Return) and node.value is not None and not _is_none(node.value):

        def to_none(node: ast.Return = node) -> None:
            node.value = ast.Constant(value=None)

        yield node, "return None", to_none
    yield from _block_sites(node)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _block_sites(node: ast.AST) -> Iterator[Site]:
    """Statement-level changes, made through the block that holds the statement."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if not isinstance(block, list):
            continue
        for i, stmt in enumerate(block):
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                what = "call statement -> pass"
            elif isinstance(stmt, ast.Raise):
                what = "raise -> pass"
            elif isinstance(stmt, ast.Break | ast.Continue):
                what = f"{type(stmt).__name__.lower()} -> {'continue' if isinstance(stmt, ast.Break) else 'break'}"
            else:
                continue

            def replace(block: list[ast.stmt] = block, i: int = i) -> None:
                old = block[i]
                if isinstance(old, ast.Break):
                    new: ast.stmt = ast.Continue()
                elif isinstance(old, ast.Continue):
                    new = ast.Break()
                else:
                    new = ast.Pass()
                block[i] = ast.copy_location(new, old)

            yield stmt, what, replace


_SOURCES: dict[str, str] = {}


def _source(module: str) -> str:
    """A module's text, read once: edits made to the checkout while a run goes on do not leak into it."""
    if module not in _SOURCES:
        _SOURCES[module] = (ROOT / module).read_text(encoding="utf-8")
    return _SOURCES[module]


def mutants_of(module: str) -> list[Mutant]:
    """Every mutant of a module (its path from the repository root)."""
    tree = ast.parse(_source(module))
    return [Mutant(module, i, getattr(node, "lineno", 0), what) for i, (node, what, _) in enumerate(_sites(tree))]


def mutated_source(mutant: Mutant) -> str:
    """The module's source with that one change made."""
    tree = ast.parse(_source(mutant.module))
    for index, (_, _, change) in enumerate(_sites(tree)):
        if index == mutant.index:
            change()
            return ast.unparse(ast.fix_missing_locations(tree))
    raise IndexError(mutant)


# Imported once in the parent, so that each forked child starts warm (never cubilete itself: the child
# must import the mutant). Under load these imports take longer than most test runs.
_WARM = (
    "pytest", "hypothesis", "numpy", "numba", "sqlalchemy", "fastapi", "fastapi.testclient", "pydantic",
    "anyio", "httpx", "textual.app", "rich", "babel", "pytest_timeout", "pytest_textual_snapshot", "syrupy",
    "_hypothesis_pytestplugin", "anyio.pytest_plugin", "platformdirs",
)  # fmt: skip


def _warm() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in _WARM:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)


def _run_forked(src: Path, tests: list[str], limit: float) -> str:
    """Run pytest on ``tests`` in a forked child with ``src`` first on the path: killed, timeout or survived."""
    import pytest

    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.setsid()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            sys.path.insert(0, str(src))
            os.environ["PYTHONPATH"] = os.pathsep.join([str(src), str(ROOT)])
            os.chdir(ROOT)
            code = pytest.main(
                [
                    "-x",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "-m",
                    "not slow",
                    "--hypothesis-seed=0",
                    "-o",
                    "timeout=0",
                    *tests,
                ]
            )
            os._exit(int(code))
        except BaseException:
            os._exit(99)
    deadline = time.monotonic() + limit
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
            if time.monotonic() > deadline:
                _kill(pid)
                return "timeout"
            time.sleep(0.02)
    except BaseException:
        _kill(pid)
        raise


def _kill(pid: int) -> None:
    """Kill a child run (its own session: pytest and whatever it started) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _copy_package(into: Path, modules: set[str]) -> Path:
    """The package copied into a temporary folder, the mutated modules as first read (:func:`_source`)."""
    src = into / "src"
    shutil.copytree(SRC / "cubilete", src / "cubilete", ignore=shutil.ignore_patterns("__pycache__"))
    for module in modules:
        _write(src / Path(module).relative_to("src"), _source(module))
    return src


def _write(path: Path, text: str) -> None:
    """Write a module and drop its bytecode: a .pyc is trusted on its source's size and mtime in whole
    seconds, which two quick mutants of the same size could share."""
    path.write_text(text, encoding="utf-8")
    with contextlib.suppress(FileNotFoundError):
        Path(importlib.util.cache_from_source(str(path))).unlink()


def run(mutants: list[Mutant], limit_factor: float, progress: Callable[[Result], None]) -> list[Result]:
    """Run the tests against each mutant, one module's pristine baseline first (it must pass)."""
    results: list[Result] = []
    _warm()
    with tempfile.TemporaryDirectory(prefix="cubilete-mutation-") as tmp:
        src = _copy_package(Path(tmp), {m.module for m in mutants})
        baselines: dict[str, float] = {}
        for mutant in mutants:
            tests = [t for t in TESTS[mutant.module] if (ROOT / t).exists()]
            if mutant.module not in baselines:
                start = time.monotonic()
                if _run_forked(src, tests, 1800) != "survived":
                    raise SystemExit(f"the tests of {mutant.module} fail on the unchanged code: fix them first")
                baselines[mutant.module] = time.monotonic() - start
            target = src / Path(mutant.module).relative_to("src")
            pristine = _source(mutant.module)
            _write(target, mutated_source(mutant))
            start = time.monotonic()
            try:
                outcome = _run_forked(src, tests, limit_factor * baselines[mutant.module] + 10)
            except KeyboardInterrupt:
                print("stopped: the figures below are for the mutants run so far", flush=True)
                break
            finally:
                _write(target, pristine)
            result = Result(mutant, outcome, round(time.monotonic() - start, 2))
            results.append(result)
            progress(result)
    return results


def _read_log(path: Path) -> dict[tuple[str, int], str]:
    """Outcomes from an earlier progress log (lines ``. module:line #index what``)."""
    marks = {".": "killed", "T": "timeout", "S": "survived"}
    out: dict[tuple[str, int], str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split(" ", 3)
        if len(parts) >= 3 and parts[0] in marks and parts[2].startswith("#"):
            out[(parts[1].rpartition(":")[0], int(parts[2][1:]))] = marks[parts[0]]
    return out


def summary(results: list[Result]) -> dict[str, object]:
    """Kill rate per module and overall, and the survivors."""
    per: dict[str, list[int]] = {}
    for r in results:
        killed, total = per.setdefault(r.mutant.module, [0, 0])
        per[r.mutant.module] = [killed + (r.outcome != "survived"), total + 1]
    killed = sum(k for k, _ in per.values())
    total = sum(t for _, t in per.values())
    return {
        "killed": killed,
        "total": total,
        "rate": round(100 * killed / total, 1) if total else None,
        "modules": {m: {"killed": k, "total": t, "rate": round(100 * k / t, 1)} for m, (k, t) in sorted(per.items())},
        "survivors": [asdict(r.mutant) for r in results if r.outcome == "survived"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=list(TESTS), help="module paths (default: the core)")
    parser.add_argument("--sample", type=int, help="run a random sample of this many mutants")
    parser.add_argument("--seed", type=int, default=15, help="seed of the sample (default 15)")
    parser.add_argument("--list", action="store_true", help="list the mutants and run nothing")
    parser.add_argument("--limit", type=float, default=5.0, help="time limit: this many times the baseline run")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--only", help="run only these mutants: MODULE:INDEX,MODULE:INDEX,...")
    parser.add_argument(
        "--resume", type=Path, action="append", help="take the outcomes already in this progress log, run the rest"
    )
    parser.add_argument("--shard", help="K/N: run every N-th mutant from the K-th (N processes side by side)")
    args = parser.parse_args(argv)
    for module in args.modules:
        if module not in TESTS:
            parser.error(f"{module}: no tests are listed for it in TESTS (known: {', '.join(TESTS)})")
    mutants = [m for module in args.modules for m in mutants_of(module)]
    if args.sample is not None and args.sample < len(mutants):
        # in random order: a run stopped early (Ctrl-C) still leaves a fair sample
        mutants = random.Random(args.seed).sample(mutants, args.sample)
    if args.only:
        wanted = {(m, int(i)) for m, _, i in (x.rpartition(":") for x in args.only.split(","))}
        mutants = [m for m in mutants if (m.module, m.index) in wanted]
    if args.shard:
        k, n = (int(x) for x in args.shard.split("/"))
        mutants = mutants[k - 1 :: n]
    earlier: dict[tuple[str, int], str] = {}
    for log in args.resume or []:
        earlier.update(_read_log(log))
    if args.list:
        for m in mutants:
            print(f"{m.module}:{m.line}: #{m.index} {m.what}")
        print(f"{len(mutants)} mutants")
        return 0
    print(f"{len(mutants)} mutants", flush=True)
    # stop cleanly on Ctrl-C or kill (a background job ignores SIGINT unless told otherwise)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    def progress(r: Result) -> None:
        mark = {"killed": ".", "timeout": "T", "survived": "S"}[r.outcome]
        line = f"{mark} {r.mutant.module}:{r.mutant.line} #{r.mutant.index} {r.mutant.what} ({r.seconds}s)"
        print(line, flush=True)

    done = [Result(m, earlier[(m.module, m.index)], 0.0) for m in mutants if (m.module, m.index) in earlier]
    for r in done:
        progress(r)
    results = done + run([m for m in mutants if (m.module, m.index) not in earlier], args.limit, progress)
    report = summary(results)
    for module, s in report["modules"].items():  # type: ignore[attr-defined]
        print(f"{module}: {s['killed']}/{s['total']} killed ({s['rate']}%)")
    print(f"total: {report['killed']}/{report['total']} killed ({report['rate']}%)")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
