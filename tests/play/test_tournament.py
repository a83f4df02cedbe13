"""Tournament formats and standings (play/tournament.py), checked against what each format promises."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from cubilete.play.tournament import (
    TableResult,
    next_round,
    planned_rounds,
    round_robin,
    standings,
    still_in,
    swiss_round,
    table_sizes,
)


@pytest.mark.parametrize(("n", "size", "sizes"), [(4, 2, [2, 2]), (5, 2, [2, 2, 1]), (5, 4, [3, 2]),
                                                   (8, 4, [4, 4]), (9, 4, [3, 3, 3]), (3, 4, [3]), (2, 3, [2])])
def test_tables_are_as_even_as_the_count_allows(n: int, size: int, sizes: list[int]) -> None:
    assert table_sizes(n, size) == sizes


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_heads_up_round_robin_meets_everyone_once(n: int) -> None:
    rounds = round_robin(n, 2, "s")
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = Counter(frozenset(t) for tables in rounds for t in tables if len(t) == 2)
    assert set(pairs) == {frozenset(p) for p in combinations(range(n), 2)} and set(pairs.values()) == {1}
    for tables in rounds:  # everyone sits once a round
        assert sorted(e for t in tables for e in t) == list(range(n))
    byes = Counter(t[0] for tables in rounds for t in tables if len(t) == 1)
    assert byes == (Counter(range(n)) if n % 2 else Counter())


@pytest.mark.parametrize(("n", "size"), [(6, 3), (8, 4), (9, 3), (7, 4)])
def test_round_robin_at_bigger_tables_ends_when_all_have_met(n: int, size: int) -> None:
    rounds = round_robin(n, size, "s")
    met = {frozenset(p) for tables in rounds for t in tables for p in combinations(t, 2)}
    assert met == {frozenset(p) for p in combinations(range(n), 2)}
    assert all(max(len(t) for t in tables) <= size for tables in rounds)
    assert planned_rounds("round-robin", n, size, None, "s") == len(rounds) <= n


def _result(rnd: int, entrants: tuple[int, ...], totals: tuple[int, ...]) -> TableResult:
    top = max(totals)
    return TableResult(rnd, entrants, totals, tuple(e for e, t in zip(entrants, totals, strict=True) if t == top))


def test_swiss_seats_the_winners_together_without_a_rematch() -> None:
    first = swiss_round(4, 2, "s", [])
    assert sorted(e for t in first for e in t) == [0, 1, 2, 3] and all(len(t) == 2 for t in first)
    (a, b), (c, d) = first
    results = [_result(1, (a, b), (200, 150)), _result(1, (c, d), (120, 180))]
    second = swiss_round(4, 2, "s", results)
    assert {frozenset(t) for t in second} == {frozenset((a, d)), frozenset((b, c))}
    assert next_round("swiss", 4, 2, "s", [*results, *(_result(2, t, (100, 90)) for t in second)], 2) == []


def test_a_swiss_bye_goes_to_the_last_entrant_who_has_had_none() -> None:
    first = swiss_round(3, 2, "s", [])
    bye = next(t[0] for t in first if len(t) == 1)
    pair = next(t for t in first if len(t) == 2)
    results = [_result(1, pair, (10, 300)), TableResult(1, (bye,), (0,), (bye,))]
    loser = pair[0]
    second = swiss_round(3, 2, "s", results)
    assert (loser,) in second  # the loser is last, and has had no bye


def test_a_knockout_goes_on_with_each_tables_winner_until_one_is_left() -> None:
    results: list[TableResult] = []
    rnd = 0
    while tables := next_round("knockout", 5, 2, "k", results, None):
        rnd += 1
        for t in tables:
            # the higher entrant number wins every game: entrant 4 must be the champion
            results.append(TableResult(rnd, t, tuple(100 + e for e in t), (max(t),)))
    assert rnd == 3  # 5 -> 3 -> 2 -> 1
    assert still_in(5, "k", results) == [4]
    table = standings(5, results, "knockout", "k")
    assert table[0].entrant == 4 and table[0].reached == 4
    assert [s.place for s in table] == [1, 2, 3, 4, 5]


def test_standings_break_ties_by_score_then_by_games_between_the_tied() -> None:
    results = [
        _result(1, (0, 1), (200, 100)),  # 0 beats 1
        _result(1, (2, 3), (150, 100)),  # 2 beats 3
        _result(2, (0, 2), (100, 180)),  # 2 beats 0
        _result(2, (1, 3), (200, 100)),  # 1 beats 3
        TableResult(3, (0, 1, 2), (100, 100, 50), (0, 1)),  # 0 and 1 share a win: half a point each
    ]
    table = standings(4, results, "swiss", "t")
    assert [s.entrant for s in table] == [2, 0, 1, 3]
    assert [s.points for s in table] == [2.0, 1.5, 1.5, 0.0]
    # 0 and 1: equal points and equal totals (400 each): 0 finished ahead of 1 in round 1, so 0 is above
    assert table[1].total == table[2].total == 400
    assert table[0].wins == 2 and table[1].wins == 1
