"""Tournaments (docs/CLUBS.md): who sits with whom each round, and the standings.

Pure functions over *entrants*: numbers 0, 1, ... in the order people (or bots) joined. Three formats:

* ``round-robin``: heads-up, everyone meets everyone once (the circle method, one bye a round when the count is
  odd); at tables of 3-4, rounds until every two entrants have shared a table (greedy, at most ``n`` rounds).
* ``swiss``: a fixed number of rounds; the first from the draw, each next one seats entrants of equal standing
  together, avoiding those who have met while it can.
* ``knockout``: each table's winner goes on (a shared win: the better total, then the draw) until one is left.

Tables are as even as the count allows and never above the table size; a table of one is a *bye*: a win for
its entrant, with no score. Standings: points (a win 1, a win shared by k players 1/k, a bye 1), then total
score, then the tied entrants' games against each other (how many of them each finished ahead of), then the
draw; a knock-out ranks first how far each entrant went.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import ceil

FORMATS = ("round-robin", "swiss", "knockout")


@dataclass(frozen=True)
class TableResult:
    """A finished table: its entrants in seat order, their totals and who won (several: a shared win)."""

    round: int
    entrants: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # entrants


@dataclass(frozen=True)
class Standing:
    """One entrant's line: place (1 = first), points, wins, games, total score, byes, the round reached."""

    place: int
    entrant: int
    points: float
    wins: int
    games: int
    total: int
    byes: int
    reached: int


def table_sizes(n: int, size: int) -> list[int]:
    """How many sit at each table: as even as possible, none above ``size`` (a 1 is a bye)."""
    if n < 1 or size < 2:
        raise ValueError(f"cannot seat {n} entrant(s) at tables of {size}")
    tables = ceil(n / size)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def draw(n: int, seed: str) -> list[int]:
    """The draw: a shuffled order of the entrants, the same for the same seed."""
    order = list(range(n))
    random.Random(f"draw:{seed}").shuffle(order)
    return order


def _split(order: Sequence[int], sizes: Sequence[int]) -> list[tuple[int, ...]]:
    out, at = [], 0
    for k in sizes:
        out.append(tuple(order[at:at + k]))
        at += k
    return out


def round_robin(n: int, size: int, seed: str) -> list[list[tuple[int, ...]]]:
    """Every round of a round robin, fixed at the start."""
    order = draw(n, seed)
    if size == 2:
        ring: list[int | None] = list(order) + ([None] if n % 2 else [])
        rounds = []
        for _ in range(len(ring) - 1):
            half = len(ring) // 2
            pairs = [(ring[i], ring[-1 - i]) for i in range(half)]
            tables = [tuple(p for p in pair if p is not None) for pair in pairs]
            rounds.append(sorted(tables, key=len, reverse=True))  # the bye (a table of one) last
            ring = [ring[0], ring[-1], *ring[1:-1]]
        return rounds
    met: set[frozenset[int]] = set()
    every = {frozenset(p) for p in combinations(range(n), 2)}
    rounds = []
    while met != every and len(rounds) < n:
        tables = _greedy_tables(order, table_sizes(n, size), met)
        for table in tables:
            met.update(frozenset(p) for p in combinations(table, 2))
        rounds.append(tables)
        order = order[1:] + order[:1]
    return rounds


def _greedy_tables(order: Sequence[int], sizes: Sequence[int], met: set[frozenset[int]]) -> list[tuple[int, ...]]:
    """Fill tables in ``order``: each seat goes to the first waiting entrant who has met nobody at the table
    yet, else the first waiting one."""
    waiting = list(order)
    tables = []
    for k in sizes:
        table = [waiting.pop(0)]
        while len(table) < k:
            fresh = next((e for e in waiting if all(frozenset((e, t)) not in met for t in table)), waiting[0])
            waiting.remove(fresh)
            table.append(fresh)
        tables.append(tuple(table))
    return tables


def met_pairs(results: Sequence[TableResult]) -> set[frozenset[int]]:
    """Every two entrants who have shared a table."""
    return {frozenset(p) for r in results for p in combinations(r.entrants, 2)}


def swiss_round(n: int, size: int, seed: str, results: Sequence[TableResult]) -> list[tuple[int, ...]]:
    """The next Swiss round: the first from the draw; later ones in standing order, avoiding rematches. The bye
    (if the count needs one) goes to the lowest-standing entrant who has had none."""
    if not results:
        return _split(draw(n, seed), table_sizes(n, size))
    order = [s.entrant for s in standings(n, results, "swiss", seed)]
    sizes = table_sizes(n, size)
    bye = None
    if sizes[-1] == 1:
        had = {r.entrants[0] for r in results if len(r.entrants) == 1}
        bye = next((e for e in reversed(order) if e not in had), order[-1])
        order.remove(bye)
        sizes = sizes[:-1]
    tables = _greedy_tables(order, sizes, met_pairs(results))
    return [*tables, (bye,)] if bye is not None else tables


def knockout_round(n: int, size: int, seed: str, results: Sequence[TableResult]) -> list[tuple[int, ...]]:
    """The next knock-out round: those still in (all, then each table's winner), in draw order; [] once one
    is left (the champion)."""
    alive = still_in(n, seed, results)
    if len(alive) <= 1:
        return []
    return _split(alive, table_sizes(len(alive), size))


def still_in(n: int, seed: str, results: Sequence[TableResult]) -> list[int]:
    """The entrants a knock-out has not put out yet, in draw order."""
    rank = {e: i for i, e in enumerate(draw(n, seed))}
    alive = sorted(range(n), key=rank.__getitem__)
    if not results:
        return alive
    last = max(r.round for r in results)
    winners = [_advancing(r, rank) for r in results if r.round == last]
    return sorted(winners, key=rank.__getitem__)


def _advancing(result: TableResult, rank: dict[int, int]) -> int:
    """A table's one winner: the winner, or among a shared win the better total, then the better draw."""
    total = dict(zip(result.entrants, result.totals, strict=True))
    return min(result.winners or result.entrants, key=lambda e: (-total[e], rank[e]))


def standings(n: int, results: Sequence[TableResult], fmt: str, seed: str) -> list[Standing]:
    """Every entrant's line, best first (the module's docstring says how ties are broken)."""
    points = [0.0] * n
    wins, games, total, byes, reached = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    rank = {e: i for i, e in enumerate(draw(n, seed))}
    for r in results:
        for e in r.entrants:
            reached[e] = max(reached[e], r.round)
        if len(r.entrants) == 1:
            points[r.entrants[0]] += 1.0
            byes[r.entrants[0]] += 1
            continue
        for e, t in zip(r.entrants, r.totals, strict=True):
            games[e] += 1
            total[e] += t
        for w in r.winners:
            points[w] += 1.0 / len(r.winners)
            wins[w] += len(r.winners) == 1
    if fmt == "knockout" and results:  # the champion (and those out later) go above those out earlier
        last = max(r.round for r in results)
        for w in {_advancing(r, rank) for r in results if r.round == last}:
            reached[w] = last + 1
    first = sorted(range(n), key=lambda e: (-(reached[e] if fmt == "knockout" else 0), -points[e], -total[e]))
    order = _head_to_head(first, results, lambda e: (reached[e] if fmt == "knockout" else 0, points[e], total[e]),
                          rank)
    return [Standing(i + 1, e, round(points[e], 6), wins[e], games[e], total[e], byes[e], reached[e])
            for i, e in enumerate(order)]


def _head_to_head(order: list[int], results: Sequence[TableResult], key: object, rank: dict[int, int]) -> list[int]:
    """Within each group of equal keys, those who finished ahead of more of the group at shared tables first,
    then the draw."""
    assert callable(key)
    out: list[int] = []
    at = 0
    while at < len(order):
        group = [e for e in order[at:] if key(e) == key(order[at])]
        members = set(group)
        ahead = dict.fromkeys(group, 0)
        for r in results:
            here = [(e, t) for e, t in zip(r.entrants, r.totals, strict=True) if e in members]
            for (a, ta), (b, tb) in combinations(here, 2):
                if ta != tb:
                    ahead[a if ta > tb else b] += 1
        out.extend(sorted(group, key=lambda e: (-ahead[e], rank[e])))
        at += len(group)
    return out


def planned_rounds(fmt: str, n: int, size: int, swiss_rounds: int | None, seed: str) -> int | None:
    """How many rounds the tournament will have (a knock-out: None, it depends on who wins)."""
    if fmt == "round-robin":
        return len(round_robin(n, size, seed))
    if fmt == "swiss":
        return swiss_rounds
    return None


def next_round(fmt: str, n: int, size: int, seed: str, results: Sequence[TableResult],
               swiss_rounds: int | None) -> list[tuple[int, ...]]:
    """The tables of the round after ``results`` (their rounds all finished), or [] when the tournament is over."""
    done = max((r.round for r in results), default=0)
    if fmt == "round-robin":
        schedule = round_robin(n, size, seed)
        return schedule[done] if done < len(schedule) else []
    if fmt == "swiss":
        return swiss_round(n, size, seed, results) if done < (swiss_rounds or 0) else []
    if fmt == "knockout":
        return knockout_round(n, size, seed, results)
    raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
