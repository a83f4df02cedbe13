"""Presence across a site (PostgreSQL): which seats have a connection on some process.

Each process keeps, in ``web_presence``, one row per (table, seat) it holds a connection for, stamped with
the database's clock (so the machines' clocks need not agree). It rewrites its rows when a connection
comes or goes and renews them every lease round; a row not renewed for ``FRESH_ROUNDS`` rounds (a process
that died) no longer counts. Whoever drives a table reads the other processes' rows for its seats, so a
player connected through another process is not absent (web/absence.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

FRESH_ROUNDS = 3  # lease rounds a row stays good without being renewed
NOW = "extract(epoch from clock_timestamp())"

_KEEP = f"""
INSERT INTO web_presence (table_id, seat, process, seen_at)
SELECT t, s, %(me)s, {NOW} FROM unnest(%(tables)s::text[], %(seats)s::int[]) AS u(t, s)
WHERE EXISTS (SELECT 1 FROM web_tables WHERE id = u.t)
ON CONFLICT (table_id, seat, process) DO UPDATE SET seen_at = EXCLUDED.seen_at
"""
_DROP = """
DELETE FROM web_presence WHERE process = %(me)s
AND (table_id, seat) NOT IN (SELECT * FROM unnest(%(tables)s::text[], %(seats)s::int[]))
"""
_SWEEP = f"DELETE FROM web_presence WHERE seen_at < {NOW} - %(old)s"
_ELSEWHERE = f"""
SELECT table_id, seat FROM web_presence
WHERE process <> %(me)s AND seen_at > {NOW} - %(fresh)s AND table_id = ANY(%(tables)s)
"""


def sync(engine: sa.Engine, me: str, here: Iterable[tuple[str, int]], poll: float) -> None:
    """Make this process's rows exactly ``here`` (table id, seat), all stamped now; drop long-dead rows."""
    pairs = sorted(set(here))
    params = {"me": me, "tables": [t for t, _ in pairs], "seats": [s for _, s in pairs],
              "old": 10 * FRESH_ROUNDS * poll}
    with engine.begin() as conn:
        conn.exec_driver_sql(_DROP, params)
        if pairs:
            conn.exec_driver_sql(_KEEP, params)
        conn.exec_driver_sql(_SWEEP, params)


def elsewhere(engine: sa.Engine, me: str, table_ids: Iterable[str], poll: float) -> dict[str, set[int]]:
    """The seats of these tables that another process holds a fresh connection for."""
    out: dict[str, set[int]] = {}
    ids = sorted(set(table_ids))
    if not ids:
        return out
    with engine.connect() as conn:
        for table_id, seat in conn.exec_driver_sql(_ELSEWHERE, {"me": me, "tables": ids,
                                                               "fresh": FRESH_ROUNDS * poll}):
            out.setdefault(str(table_id), set()).add(int(seat))
    return out
