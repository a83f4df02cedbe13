"""``simulate`` on a Dask cluster gives the same results as a local run with the same seed."""

from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from cubilete import find_rules  # noqa: E402
from cubilete.simulate.pool import simulate  # noqa: E402


def test_simulate_on_a_local_cluster_matches_a_local_run() -> None:
    rules = find_rules("generala")
    local = simulate(rules, ["random", "greedy"], games=12, seed="dask", workers=1, loss=False).to_dict()
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as c,
        distributed.Client(c) as client,
    ):
        remote = simulate(rules, ["random", "greedy"], games=12, seed="dask", workers=1, loss=False, dask=client)
        by_address = simulate(
            rules, ["random", "greedy"], games=12, seed="dask", workers=3, loss=False, dask=c.scheduler_address
        )
    for other in (remote.to_dict(), by_address.to_dict()):
        for key in ("seconds", "workers"):
            other.pop(key), local.pop(key, None)
        assert other == local
