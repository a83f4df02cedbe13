"""Evaluation: the random policy's score plus regret averages the optimum; the CLI; Dask gives the
same numbers as a local run."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("gymnasium")

from cubilete.cli import main
from cubilete.engine.errors import EnvError
from cubilete.envs.evaluate import evaluate

RANDOM = "cubilete.envs.evaluate:random_policy"


@pytest.fixture(autouse=True)
def _private_solver_cache(bots_solver_cache: object) -> None:
    """Solved tables go to the session's shared test cache."""


class TestEvaluate:
    def test_random_policy_regret_plus_score_is_the_optimum(self) -> None:
        r = evaluate(RANDOM, "generala", games=100, seed=5)
        assert r.optimum == pytest.approx(162.4695, abs=1e-3)
        assert r.estimate_ci is not None and r.estimate_ci[0] <= r.optimum <= r.estimate_ci[1]
        assert r.mean_ci[0] < r.mean < r.mean_ci[1] < r.optimum  # a random policy is far below
        # every box is written once per game, but Doble closes by itself when Generala is scratched (P9)
        assert {box: c["decisions"] for box, c in r.by_box.items() if box != "doble"} == dict.fromkeys(
            ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "generala"], 100
        )
        assert 0 < r.by_box["doble"]["decisions"] < 100
        assert set(r.by_kind) <= {f"{k} after throw {t}" for k in ("keep", "score") for t in (1, 2, 3)}

    def test_same_seed_same_numbers(self) -> None:
        a = evaluate(RANDOM, "generala", games=8, seed=9).to_dict()
        b = evaluate(RANDOM, "generala", games=8, seed=9).to_dict()
        a.pop("seconds"), b.pop("seconds")
        assert a == b

    def test_median_is_the_middle_game(self) -> None:
        from cubilete.envs._common import resolve_rules
        from cubilete.envs.evaluate import run_chunk

        scores = run_chunk(RANDOM, resolve_rules("generala"), 9, 0, 5, False).scores
        assert evaluate(RANDOM, "generala", games=5, seed=9, regret=False).median == sorted(scores)[2]

    def test_bad_policies(self) -> None:
        with pytest.raises(EnvError, match="module:function"):
            evaluate("no_colon", "generala", games=1)
        with pytest.raises(EnvError, match="no function"):
            evaluate("cubilete.envs.evaluate:nothing_here", "generala", games=1)
        with pytest.raises(EnvError, match="not legal"):
            evaluate("tests.envs.test_evaluate:illegal_policy", "generala", games=1)


def illegal_policy(observation: object, action_mask: object, rng: object) -> int:
    return 31  # keep all five: never legal


class TestCli:
    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["evaluate", "--policy", RANDOM, "--rules", "generala", "--games", "20", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["games"] == 20 and data["optimum"] == pytest.approx(162.4695, abs=1e-3)

    def test_text_and_errors(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["evaluate", "--policy", RANDOM, "--rules", "generala", "--games", "5"]) == 0
        out = capsys.readouterr().out
        assert "score + regret" in out and "by box written" in out
        # the median is printed as the JSON has it (the same 5 games, the same seed)
        median = evaluate(RANDOM, "generala", games=5, seed=0, regret=False).median
        assert f"median {median:.1f}" in out
        assert main(["evaluate", "--policy", "nope:x", "--games", "5"]) == 2
        assert "cannot import nope" in capsys.readouterr().err
        assert main(["evaluate", "--policy", RANDOM, "--games", "0"]) == 2


class TestDask:
    def test_local_cluster_gives_the_local_numbers(self) -> None:
        distributed = pytest.importorskip("distributed")
        local = evaluate(RANDOM, "generala", games=24, seed=4).to_dict()
        with (
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as c,
            distributed.Client(c) as client,
        ):
            remote = evaluate(RANDOM, "generala", games=24, seed=4, dask=client).to_dict()
            by_address = evaluate(RANDOM, "generala", games=8, seed=4, dask=c.scheduler_address).to_dict()
        local.pop("seconds"), remote.pop("seconds"), by_address.pop("seconds")
        assert remote == local
        assert by_address["games"] == 8
