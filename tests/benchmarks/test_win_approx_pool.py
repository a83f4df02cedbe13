"""The arithmetic of ``benchmarks/win_approx.py --prior`` and ``--save`` (the study itself takes an hour)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "win_approx.py"


@pytest.fixture(scope="module")
def win_approx() -> ModuleType:
    spec = importlib.util.spec_from_file_location("win_approx_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_pooling_two_parts_gives_the_whole_runs_mean_and_interval(win_approx: ModuleType) -> None:
    rng = np.random.default_rng(7)
    whole = rng.choice([0.0, 0.5, 1.0], size=30_001, p=[0.48, 0.03, 0.49])
    first, rest = whole[:11_000], whole[11_000:]
    mean, half = win_approx.rate(first)
    prior = {"deals": first.size, "win": [mean, half]}
    pooled_mean, pooled_half, n = win_approx.pooled(prior, "win", rest)
    assert n == whole.size
    assert pooled_mean == pytest.approx(whole.mean(), abs=1e-12)
    assert pooled_half == pytest.approx(1.96 * whole.std(ddof=1) / math.sqrt(whole.size), rel=1e-9)


def test_a_saved_run_continues_and_another_run_is_refused(win_approx: ModuleType, tmp_path: Path) -> None:
    args = argparse.Namespace(save=str(tmp_path / "s-"), seed="x", first=100, tail=3, deals=6)
    scores = np.arange(16, dtype=np.int64).reshape(4, 4)
    win_approx.save("yatzy", scores, args)
    assert json.loads((tmp_path / "s-yatzy.json").read_text())["first"] == 100
    out, done = win_approx.resume("yatzy", args)
    assert done == 4 and (out[:4] == scores).all() and (out[4:] == 0).all() and out.shape == (6, 4)
    other = argparse.Namespace(**{**vars(args), "first": 0})
    with pytest.raises(SystemExit, match="holds another run"):
        win_approx.resume("yatzy", other)
