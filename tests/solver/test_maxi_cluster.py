"""The capped Maxi Yatzy solve on a Dask cluster (cubilete.solver.maxi.cluster): two worker processes
write the same table, byte for byte, as one process, and runs stopped on either side resume on the other."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.solver.test_maxi_saved import THREE, TWO_THROWS

from cubilete.engine.errors import ClusterError
from cubilete.engine.rules.model import Rules
from cubilete.solver.maxi.cluster import NEEDS, TASK, Cluster, _pieces, cluster
from cubilete.solver.maxi.layered import layers
from cubilete.solver.maxi.saved import load_saved, partial_saved, solve_saved

distributed = pytest.importorskip("distributed")
PRICES = (1.0, 4.0)


@pytest.fixture(scope="module")
def local2() -> Iterator[Cluster]:
    with cluster("local:2") as c:  # two processes, one thread each
        yield c


def file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("rules", "bound", "prices", "dtype"),
    [
        (THREE, "lower", (), np.float32),
        (THREE, "upper", PRICES, np.float32),  # the priced games' rows are written by the workers too
        (TWO_THROWS, "upper", (), np.float64),
    ],
)
def test_two_workers_write_the_same_table_as_one_process(
    local2: Cluster, tmp_path: Path, rules: Rules, bound: str, prices: tuple[float, ...], dtype: type
) -> None:
    cap = 2
    one = solve_saved(rules, cap, bound, tmp_path / "one", dtype=dtype, block=1, prices=prices)  # type: ignore[arg-type]
    two = solve_saved(rules, cap, bound, tmp_path / "two", dtype=dtype, block=1, prices=prices, dask=local2)  # type: ignore[arg-type]
    assert one is not None and two is not None
    assert float(np.abs(one.values).max()) > 0  # a real table, not two empty files
    assert two.sha256 == one.sha256
    assert file_sha(tmp_path / "two" / "values.npy") == file_sha(tmp_path / "one" / "values.npy")
    assert file_sha(tmp_path / "two" / "priced.npy") == file_sha(tmp_path / "one" / "priced.npy")
    assert two.expected_score == one.expected_score


def test_a_stopped_run_resumes_on_the_cluster_and_off_it(local2: Cluster, tmp_path: Path) -> None:
    whole = solve_saved(THREE, 2, "upper", tmp_path / "whole", block=1, prices=PRICES)
    assert whole is not None
    # one process stops after 3 blocks (the full sheet and 2 sheets of the next layer); the cluster goes on
    assert solve_saved(THREE, 2, "upper", tmp_path / "a", block=1, stop_after=3, prices=PRICES) is None
    again = solve_saved(THREE, 2, "upper", tmp_path / "a", block=1, prices=PRICES, dask=local2)
    assert again is not None and again.sha256 == whole.sha256
    # the cluster stops after 5 blocks, checkpointed like one process; the cluster, then one process, go on
    assert solve_saved(THREE, 2, "upper", tmp_path / "b", block=1, stop_after=5, prices=PRICES, dask=local2) is None
    assert partial_saved(THREE, 2, "upper", tmp_path / "b", prices=PRICES) == pytest.approx(5 / 8)
    assert load_saved(THREE, 2, "upper", tmp_path / "b", prices=PRICES) is None
    assert solve_saved(THREE, 2, "upper", tmp_path / "b", block=1, stop_after=1, prices=PRICES, dask=local2) is None
    assert partial_saved(THREE, 2, "upper", tmp_path / "b", prices=PRICES) == pytest.approx(6 / 8)
    last = solve_saved(THREE, 2, "upper", tmp_path / "b", block=1, prices=PRICES)
    assert last is not None and last.sha256 == whole.sha256
    assert file_sha(tmp_path / "b" / "values.npy") == file_sha(tmp_path / "whole" / "values.npy")


def test_pieces_split_blocks_and_never_cross_them() -> None:
    masks = layers(10)[5]  # 252 sheets with 5 boxes closed
    block = 100
    pieces = _pieces(masks, 1, 3, block, slots=2)  # blocks 1 and 2: sheets 100 to 251
    assert [bi for bi, _ in pieces] == sorted(bi for bi, _ in pieces)
    assert len(pieces) >= 2 * 4  # at least 4 pieces per worker thread, for balance
    for bi, part in pieces:
        assert 1 <= part.size <= TASK
        assert set(part.tolist()) <= set(masks[bi * block : (bi + 1) * block].tolist())
    assert np.array_equal(np.concatenate([p for _, p in pieces]), masks[100:])


@pytest.mark.parametrize(
    ("address", "message"),
    [("local:0", "N >= 1"), ("local:two", "N >= 1"), ("somewhere", "tcp://HOST:PORT or local:N")],
)
def test_bad_addresses_are_refused(address: str, message: str) -> None:
    with pytest.raises(ClusterError, match=message), cluster(address):
        pass


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    with pytest.raises(ClusterError) as err, cluster("local:2"):
        pass
    assert str(err.value) == NEEDS and "cubilete[dask]" in NEEDS


def test_a_folder_the_workers_cannot_see_is_one_clear_error(local2: Cluster, tmp_path: Path) -> None:
    from cubilete.solver.maxi.cluster import Job, dask_runner

    run = dask_runner(local2, Job(THREE, 2, "lower", str(tmp_path / "nowhere"), (), 1))
    with pytest.raises(ClusterError, match="every worker must see that folder"):
        run(layers(3)[1], 0, 1, 8, lambda *_: None)
