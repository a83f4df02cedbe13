"""The chances' worker (web/winpool.py): it keeps a game per table and brings it forward, replays after an
undo, computes in a separate process what the engine computes here, and takes each table's position only
when a worker is free (so it never works through a queue of old versions)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from tests.web.loops import run_alone

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.web import winpool
from cubilete.web.winpool import WinJob, WinPool, game_for, job_of
from cubilete.win import chances

RULES = find_rules("general-4-columns")  # too large for exact tables: estimated chances, no solve needed


def random_actions(n: int, seed: int, rules_seed: str = "s") -> list[Action]:
    """``n`` legal actions of a 2-player game, chosen at random."""
    game = Game(RULES, ["P1", "P2"], rules_seed)
    rng = random.Random(seed)
    for _ in range(n):
        game.apply(rng.choice(game.legal_actions()))
    return list(game.history)


def replayed(actions: list[Action], seed: str = "s") -> Game:
    game = Game(RULES, ["P1", "P2"], seed)
    for action in actions:
        game.apply(action)
    return game


def job(actions: list[Action], key: str = "t1", version: int = 0, seed: str = "s") -> WinJob:
    return job_of(key, version, RULES, seed, 2, actions)


@pytest.fixture(autouse=True)
def _empty_worker_memory() -> None:
    winpool._games.clear()


def test_the_worker_brings_its_game_forward_and_replays_after_an_undo() -> None:
    actions = random_actions(12, seed=3)
    first = game_for(job(actions[:5]))
    assert first.state == replayed(actions[:5]).state
    later = game_for(job(actions[:12]))
    assert later is first  # brought forward, not replayed
    assert later.state == replayed(actions).state
    undone = game_for(job(actions[:7]))  # an undo: fewer actions than the worker has seen
    assert undone is not first
    assert undone.state == replayed(actions[:7]).state and len(undone.history) == 7


def test_a_different_history_or_another_table_is_never_taken_for_the_kept_game() -> None:
    actions = random_actions(8, seed=1)
    kept = game_for(job(actions))
    other = random_actions(8, seed=2)
    assert other[:1] != actions[:1] or other != actions
    again = game_for(job(other))  # same table, a history that is not a continuation: replayed
    assert again is not kept and again.state == replayed(other).state
    elsewhere = game_for(job(actions[:3], key="t2", seed="other seed"))
    assert elsewhere.state == replayed(actions[:3], seed="other seed").state


def test_the_worker_keeps_a_bounded_number_of_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winpool, "GAMES_KEPT", 3)
    for i in range(5):
        game_for(job([], key=f"t{i}"))
    assert list(winpool._games) == ["t2", "t3", "t4"]  # least recently used out


def test_a_worker_process_computes_what_the_engine_computes_here() -> None:
    actions = random_actions(9, seed=5)
    expected = chances(replayed(actions))

    async def run() -> winpool.WinResult | None:
        pool = WinPool(workers=1)
        try:
            return await pool.compute(lambda: job(actions, version=17))
        finally:
            pool.close()

    got = run_alone(run)
    assert got is not None and got.version == 17
    assert got.probabilities == pytest.approx(expected.probabilities, abs=1e-12)
    assert got.exact == expected.exact


def test_each_table_is_read_only_when_a_worker_is_free() -> None:
    """With one worker, the second table's position is taken after the first's chances came back; a table
    with nothing left to compute (snapshot None) costs no work."""
    log: list[str] = []
    actions = random_actions(4, seed=7)

    async def run() -> list[winpool.WinResult | None]:
        pool = WinPool(workers=1)

        def snapshot(name: str, actions: list[Action] | None) -> WinJob | None:
            log.append(f"read {name}")
            return None if actions is None else job(actions, key=name)

        async def one(name: str, actions: list[Action] | None) -> winpool.WinResult | None:
            result = await pool.compute(lambda: snapshot(name, actions))
            log.append(f"done {name}")
            return result

        try:
            return list(await asyncio.gather(one("a", actions), one("b", actions[:2]), one("c", None)))
        finally:
            pool.close()

    a, b, c = run_alone(run)
    assert log == ["read a", "done a", "read b", "done b", "read c", "done c"]
    assert a is not None and b is not None and c is None
    assert sum(a.probabilities) == pytest.approx(1.0) and sum(b.probabilities) == pytest.approx(1.0)


def test_the_server_warms_the_chances_worker_before_any_game(tmp_path: Path) -> None:
    """A new server's first game waited a minute for its chances while the worker imported and compiled
    (issue 25): the worker now computes one position at start, before any table exists."""
    from tests.web.inproc import running_app

    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", win_chances=True) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        end = time.monotonic() + 300  # a bound for a cold, loaded machine; never a speed check
        while not hub.chances.warmed.is_set():
            assert time.monotonic() < end, "the chances' worker never warmed up"
            time.sleep(0.05)
        assert not hub.rooms  # before any game
        warm = hub.chances.warm_result
        assert warm is not None and len(warm.probabilities) == 2 and abs(sum(warm.probabilities) - 1) < 1e-9
