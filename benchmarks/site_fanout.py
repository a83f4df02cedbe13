"""Fan-out between the processes of a site (docs/WEB.md, "Several processes").

Two ``cubilete serve`` processes on one throw-away PostgreSQL (Debian's ``postgresql``, as the tests
start it). Two players play through the real WebSocket protocol; the time measured is from a player's
``act`` to the *other* player's state frame of the new version. Peer: the other player connected to
the same process (no fan-out); measured: the other player connected to the second process (the
NOTIFY that carries the move, applied there without reading the database, broadcast). Rounds alternate,
so load from elsewhere falls on both alike.

    PYTHONPATH=src:. python benchmarks/site_fanout.py [--moves 80] [--rounds 2]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.web.pg import TempPostgres
from tests.web.servers import start_server
from tests.web.test_crash import Match, choose


def _moves(match: Match, n: int) -> list[float]:
    lat = []
    for _ in range(n):
        if match.state["status"] == "finished":
            break
        mover = match.mover()
        other = next(p for p in match.players if p is not mover)
        action = choose(match.state)
        t0 = time.perf_counter()
        version = mover.send_act(action)
        other.wait_version(version + 1)
        lat.append((time.perf_counter() - t0) * 1000)
        mover.wait_version(version + 1)
    return lat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with TempPostgres() as pg:
        url = pg.fresh_database()
        a, b = start_server(url), start_server(url)
        results: dict[str, list[float]] = {"same process (peer)": [], "other process": []}
        try:
            for _ in range(args.rounds):
                for label, second in (("same process (peer)", a), ("other process", b)):
                    match = Match(a)
                    match.players[1].server = second
                    match.sit()
                    results[label] += _moves(match, args.moves)
                    match.drop()
        finally:
            a.stop()
            b.stop()
    for label, lat in results.items():
        lat.sort()
        print(f"{label:20s} n={len(lat):4d}  median {statistics.median(lat):6.1f} ms  "
              f"p90 {lat[int(0.9 * len(lat))]:6.1f} ms  p99 {lat[int(0.99 * len(lat))]:6.1f} ms")
    peer, site = (statistics.median(v) for v in results.values())
    print(f"ratio of medians (other / same): {site / peer:.2f}")


if __name__ == "__main__":
    main()
