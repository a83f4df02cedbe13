"""Two-player tables on disk, named by the rules' hash only (beside the solitaire tables of
:mod:`cubilete.solver.cache`): solve once, load in a moment. A stale or unreadable file is
solved again and replaced."""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import zipfile
from pathlib import Path

import numpy as np

from cubilete.duel.solve import DuelSolution, Progress, solve_joint
from cubilete.duel.space import build_joint
from cubilete.rules.codec import rules_hash
from cubilete.rules.model import Rules
from cubilete.solver.cache import cache_dir

FORMAT = 1  # bump when the meaning or layout of the two-player tables changes


def duel_key(rules: Rules) -> str:
    """The cache key: the rules' hash and the table format."""
    return hashlib.sha256(f"duel{FORMAT}:{rules_hash(rules)}".encode()).hexdigest()[:20]


def duel_path(rules: Rules) -> Path:
    """Where the two-player table of ``rules`` is stored."""
    return cache_dir() / f"duel-{duel_key(rules)}.npz"


def save(solution: DuelSolution, path: Path | None = None) -> Path:
    """Write the table atomically."""
    target = path or duel_path(solution.rules)
    target.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT,
        "key": duel_key(solution.rules),
        "seconds": solution.seconds,
        "tiebreak": solution.tiebreak,
    }
    tmp = target.with_name(target.name + ".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), values=solution.values)
    tmp.replace(target)
    return target


def load(rules: Rules, path: Path | None = None) -> DuelSolution | None:
    """The cached table of ``rules``, or None if absent, stale or unreadable."""
    source = path or duel_path(rules)
    if not source.is_file():
        return None
    try:
        with np.load(source, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT or meta.get("key") != duel_key(rules):
                return None
            values = data["values"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError):
        return None
    joint = build_joint(rules)
    if values.shape != (joint.n_cells,):
        return None
    return DuelSolution(joint, values, float(meta["tiebreak"]), float(meta.get("seconds", 0.0)))


def load_or_solve(rules: Rules, progress: Progress | None = None, use_cache: bool = True) -> tuple[DuelSolution, bool]:
    """The table from the cache (True) or solved now and saved (False)."""
    if use_cache:
        cached = load(rules)
        if cached is not None:
            return cached, True
    solution = solve_joint(build_joint(rules), progress)
    with contextlib.suppress(OSError):  # a read-only cache folder only costs a new solve next time
        save(solution)
    return solution, False


_SHARED: dict[Rules, DuelSolution] = {}
_LOCK = threading.Lock()


def shared_duel(rules: Rules) -> DuelSolution:
    """The two-player table of ``rules``, loaded (or solved) once per process for every caller."""
    with _LOCK:
        solution = _SHARED.get(rules)
        if solution is None:
            solution = load_or_solve(rules)[0]
            _SHARED[rules] = solution
        return solution
