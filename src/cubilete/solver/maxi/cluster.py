"""The capped Maxi Yatzy solve (:mod:`cubilete.solver.maxi.saved`) with each layer's blocks of sheets
split over the workers of a Dask cluster (extra ``[dask]``): ``cubilete solve ... --cap K --dask ADDRESS``.

The table stays ONE file, ``values.npy``, that the client and every worker open by the same path, so
the folder must be on a filesystem they all see with coherent caches (one machine's disk; across
machines a POSIX-coherent cluster filesystem: Lustre, GPFS, CephFS; NFS only mounted with ``noac``).
A worker maps the file copy-on-write, computes its sheets from the finished layers (the kernel writes
into private pages), then writes just its sheets' rows into the file with ``pwrite`` and ``fsync``:
never a whole page, so two workers never overwrite each other's rows. The client waits for a block's
pieces, then checkpoints it in ``progress.json`` as the single-process solve does, in block order;
a stopped run resumes with or without ``--dask``. Every sheet is computed by the same kernel from
the same inputs, so the table is byte-identical to the single-process one (same SHA-256).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cubilete.engine.errors import ClusterError
from cubilete.engine.rules.model import Rules

TASK = 256  # sheets per piece of work at most (a block of 8,192 makes 32 pieces)
PIECES_PER_THREAD = 4  # a layer is cut in at least this many pieces per worker thread, for balance
NEEDS = "--dask needs the dask extra: pip install 'cubilete[dask]'"
UNSHARED = "--dask: a worker cannot use the table in {folder} ({reason}); every worker must see that folder"


@dataclass(frozen=True)
class Job:
    """What a worker needs to solve pieces of one bound's table (sent with every piece: small)."""

    rules: Rules
    cap: int
    bound: str
    folder: str  # the same path on the client and on every worker
    prices: tuple[float, ...]
    iterations: int
    threads: int | None = None  # numba threads per worker process (None: the worker's default)


_TABLES: dict[Rules, tuple[Any, npt.NDArray[np.int64]]] = {}  # per worker process: built once per rule set


def solve_piece(job: Job, masks: npt.NDArray[np.int64]) -> float:
    """On a worker: solve the sheets ``masks`` (one layer) into the shared file; returns the CPU seconds."""
    from cubilete.solver.maxi.saved_block import saved_tables, solve_saved_masks

    if job.threads is not None:
        import numba

        numba.set_num_threads(max(1, min(job.threads, numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    cpu_start = time.process_time()
    if job.rules not in _TABLES:
        _TABLES[job.rules] = saved_tables(job.rules)
    t, maxpts = _TABLES[job.rules]
    folder = Path(job.folder)
    # copy-on-write maps: the kernel reads the finished layers through them and writes private pages
    values = np.load(folder / "values.npy", mmap_mode="c")
    priced = np.load(folder / "priced.npy", mmap_mode="c") if job.prices else None
    lams = np.array(job.prices, dtype=np.float64)
    priced_in = np.asarray(priced) if priced is not None else np.zeros((0, values.shape[0], 1, values.shape[2]),
                                                                        dtype=values.dtype)  # fmt: skip
    solve_saved_masks(t, maxpts, masks, np.asarray(values), job.cap, job.bound, priced_in, lams,  # type: ignore[arg-type]
                 job.iterations)  # fmt: skip
    _write_rows(folder / "values.npy", values, masks, banks_written(t.rules, job.cap, masks))
    if priced is not None:
        _write_rows(folder / "priced.npy", priced, masks, np.ones(masks.size, dtype=np.int64))
    return time.process_time() - cpu_start


def banks_written(rules: Rules, cap: int, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """How many leading banks of each sheet's row the kernel fills (as ``solve_block_saved``): banks
    0 .. min(cap, (throws - 1) x boxes closed), none on a finished sheet. The rest of a row is never
    written, so it stays a hole in the file, as in the single-process solve."""
    closed = np.zeros(masks.size, dtype=np.int64)
    for j in range(len(rules.slots)):
        closed += (masks >> j) & 1
    banks = np.minimum(cap, (rules.throws - 1) * closed) + 1
    return np.where(closed >= rules.turns, 0, banks)


def _write_rows(path: Path, table: Any, masks: npt.NDArray[np.int64], banks: npt.NDArray[np.int64]) -> None:
    """Write the first ``banks`` banks of the rows of ``masks`` from a copy-on-write map back into its
    file (axis 0 = sheets for the values, axis 1 for the priced games), and wait for the disk."""
    values_layout = table.ndim == 3
    planes = 1 if values_layout else table.shape[0]
    n_masks = table.shape[0] if values_layout else table.shape[1]
    bank_bytes = table.itemsize * table.shape[-1]  # one bank: every upper total
    row = table.itemsize * (table[0].size if values_layout else table[0, 0].size)
    flat = np.asarray(table).reshape(planes, n_masks, -1)
    fd = os.open(path, os.O_WRONLY)
    try:
        for plane in range(planes):
            for mask, n in zip(masks.tolist(), banks.tolist(), strict=True):
                if n:
                    offset = int(table.offset) + (plane * n_masks + mask) * row
                    os.pwrite(fd, flat[plane, mask].tobytes()[: n * bank_bytes], offset)
        os.fsync(fd)
    finally:
        os.close(fd)


def _pieces(masks: npt.NDArray[np.int64], first: int, last: int, block: int, slots: int) -> list[tuple[int, Any]]:
    """(block index, sheets) pieces of blocks ``first`` to ``last - 1``, never across a block."""
    sheets = max(0, min(masks.size, last * block) - first * block)
    size = max(1, min(TASK, math.ceil(sheets / max(1, slots * PIECES_PER_THREAD))))
    out = []
    for bi in range(first, last):
        part = masks[bi * block : (bi + 1) * block]
        out += [(bi, part[a : a + size]) for a in range(0, part.size, size)]
    return out


@dataclass(frozen=True)
class Cluster:
    """A connected cluster: its client, and the numba threads each worker process should use."""

    client: Any  # distributed.Client
    threads: int | None  # None: the workers' own default (NUMBA_NUM_THREADS, else their cores)


def dask_runner(dask: Any, job: Job) -> Any:
    """A layer runner (:data:`cubilete.solver.maxi.saved.LayerRunner`) solving on the workers of ``dask``
    (a :class:`Cluster` or a ``distributed.Client``)."""
    from distributed import as_completed

    client = dask.client if isinstance(dask, Cluster) else dask
    if isinstance(dask, Cluster):
        job = dataclasses.replace(job, threads=dask.threads)
    slots = max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))

    def run(masks: npt.NDArray[np.int64], first: int, last: int, block: int, checkpoint: Any) -> None:
        pieces = _pieces(masks, first, last, block, slots)
        left = {bi: 0 for bi in range(first, last)}
        sheets = dict.fromkeys(left, 0)
        cpu = dict.fromkeys(left, 0.0)
        futures = {}
        for bi, part in pieces:
            futures[client.submit(solve_piece, job, part, pure=False)] = (bi, int(part.size))
            left[bi] += 1
        following = first
        try:
            for future in as_completed(list(futures)):  # type: ignore[no-untyped-call]
                bi, n = futures[future]
                try:
                    cpu[bi] += float(future.result())
                except OSError as exc:  # the usual cause: the folder is not shared at the same path
                    raise ClusterError(UNSHARED.format(folder=job.folder, reason=exc)) from None
                sheets[bi] += n
                left[bi] -= 1
                while following < last and left[following] == 0:  # checkpoint in block order
                    checkpoint(following, sheets[following], cpu[following])
                    following += 1
        except BaseException:
            client.cancel(list(futures))
            raise

    return run


def threads_for(n_workers: int) -> int:
    """numba threads for each of ``n_workers`` local processes: the machine's cores shared out."""
    return max(1, (os.cpu_count() or 1) // n_workers)


@contextlib.contextmanager
def cluster(address: str) -> Iterator[Cluster]:
    """The :class:`Cluster` of ``local:N`` (a LocalCluster of N processes, one thread
    each) or a scheduler address such as ``tcp://host:8786`` (its workers keep their own threads)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(NEEDS) from None
    if address.startswith("local:"):
        try:
            n = int(address.removeprefix("local:"))
        except ValueError:
            n = 0
        if n < 1:
            raise ClusterError(f"--dask {address}: local:N needs a number of worker processes N >= 1")
        with (
            LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None, memory_limit=0
            ) as local,
            Client(local) as client,  # type: ignore[no-untyped-call]
        ):
            yield Cluster(client, threads_for(n))
        return
    if "://" not in address:
        raise ClusterError(f"--dask {address}: give a scheduler address tcp://HOST:PORT or local:N")
    try:
        client = Client(address, timeout=20)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        reason = str(exc) or type(exc).__name__
        raise ClusterError(f"--dask {address}: no Dask scheduler answers there ({reason})") from None
    try:
        yield Cluster(client, None)
    finally:
        client.close()  # type: ignore[no-untyped-call]
