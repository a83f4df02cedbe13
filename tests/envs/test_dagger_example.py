"""The DAgger example: the shipped weights load and play only legal actions (numpy only), and one tiny round
of training writes weights that load and play through ``cubilete evaluate``."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("cubilete.envs")

from cubilete.envs.vector import SolitaireVectorEnv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rl"


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch, bots_solver_cache: object) -> ModuleType:
    monkeypatch.syspath_prepend(str(EXAMPLES))  # as `cubilete evaluate --policy dagger_yahtzee:act` finds it
    monkeypatch.delenv("CUBILETE_DAGGER_WEIGHTS", raising=False)
    spec = importlib.util.spec_from_file_location("dagger_yahtzee", EXAMPLES / "dagger_yahtzee.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "dagger_yahtzee", module)
    spec.loader.exec_module(module)
    return module


def legal_states_check(module: ModuleType, path: Path | None, steps: int = 200, envs: int = 8) -> int:
    """The agent's action in every state the vector env reaches (the agent and random play mixed) is legal."""
    model = module.load(path)
    env = SolitaireVectorEnv(envs, model["rules"], regret=False)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(steps):
        mask = info["action_mask"]
        live = mask.any(axis=1)
        chosen = module.choose(model, obs[live], mask[live])
        assert mask[live][np.arange(len(chosen)), chosen].all()
        checked += len(chosen)
        if path is None and live.any():  # the evaluate policy (one observation) agrees with the batch
            one = int(np.flatnonzero(live)[0])
            assert module.act(obs[one], mask[one], rng) == chosen[0]
        actions = np.zeros(envs, dtype=np.int64)
        actions[live] = chosen
        wander = live & (rng.random(envs) < 0.3)  # random moves reach states the agent would avoid
        actions[wander] = [rng.choice(np.flatnonzero(m)) for m in mask[wander]]
        obs, _, _, _, info = env.step(actions)
    return checked


def test_shipped_weights_load_and_play_legally(example: ModuleType) -> None:
    assert example.WEIGHTS.stat().st_size < 3_000_000
    assert legal_states_check(example, None) > 1000


def test_shipped_weights_are_the_documented_ones(example: ModuleType) -> None:
    research = (EXAMPLES.parents[1] / "docs" / "RESEARCH.md").read_text(encoding="utf-8")
    assert hashlib.sha256(example.WEIGHTS.read_bytes()).hexdigest() in research


def test_one_tiny_round_trains_and_evaluates(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "tiny.npz"
    info = example.train(
        "yahtzee", minutes=5, seed=3, envs=16, steps=4, updates=2, batch=64, buffer=1000, out=out, max_rounds=1
    )
    assert info["rounds"] == 1 and info["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    assert legal_states_check(example, out, steps=40) > 100
    monkeypatch.setenv("CUBILETE_DAGGER_WEIGHTS", str(out))
    from cubilete.envs.evaluate import evaluate

    r = evaluate("dagger_yahtzee:act", "yahtzee", games=2, seed=1)
    assert r.games == 2 and r.mean_regret is not None and r.mean_regret >= 0.0
