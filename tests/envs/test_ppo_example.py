"""The masked PPO example trains a few thousand steps with regret shaping and is evaluated."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl" / "ppo_yahtzee.py"


@pytest.mark.slow
def test_ppo_trains_and_evaluates(bots_solver_cache: object) -> None:
    spec = importlib.util.spec_from_file_location("ppo_yahtzee_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ppo_yahtzee_example"] = module
    spec.loader.exec_module(module)
    module._MODEL = module.train("generala", steps=1024, shaping=1.0, n_envs=2, seed=0)
    from cubilete.envs.evaluate import evaluate

    r = evaluate("ppo_yahtzee_example:policy", "generala", games=5, seed=1)
    assert r.games == 5 and r.optimum is not None
    assert r.mean_regret is not None and r.mean_regret >= 0.0
    assert 0.0 <= r.mean <= 400.0
