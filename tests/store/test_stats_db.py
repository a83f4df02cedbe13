"""The statistics database: finished games, the summary, crashes and corrupt files."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from cubilete import Game, Roll, Score, ScriptedDice, find_rules
from cubilete.engine.errors import StatsCorruptError, StatsError
from cubilete.engine.record import from_record
from cubilete.engine.rules import Rules, Start, TieBreak
from cubilete.store import StatsDB, data_dir, default_path
from cubilete.store.stats import SCHEMA_VERSION

GENERALA = find_rules("generala")
# boxes 1 and 2 only, first seat starts, a tie is shared: short games with totals worked out by hand
TINY = GENERALA.replace(name="tiny", boxes=GENERALA.boxes[:2], start=Start.SEAT_ORDER, tie_break=TieBreak.SHARED)
SIXES = GENERALA.replace(name="sixes", boxes=GENERALA.boxes[5:6], start=Start.SEAT_ORDER)


def scripted(rules: Rules, players: Sequence[str], turns: Sequence[tuple[tuple[int, ...], str]], seed: str) -> Game:
    """A finished game: each turn one throw showing ``hand``, scored in ``slot``, in seat order."""
    game = Game(rules, list(players), seed=seed, dice=ScriptedDice([hand for hand, _ in turns]))
    for _hand, slot in turns:
        game.apply(Roll())
        game.apply(Score(slot))
    assert game.is_over
    return game


def three_games() -> list[Game]:
    """Ana and Beto, three games of TINY (totals: 7-9, 10-2, 1-1 shared)."""
    return [
        scripted(TINY, ["Ana", "Beto"], [((1, 1, 1, 2, 3), "1"), ((1, 2, 2, 3, 4), "1"),
                                         ((2, 2, 3, 4, 5), "2"), ((2, 2, 2, 2, 3), "2")], "g1"),
        scripted(TINY, ["Ana", "Beto"], [((1, 1, 1, 1, 2), "1"), ((3, 3, 3, 4, 5), "1"),
                                         ((2, 2, 2, 3, 3), "2"), ((2, 3, 4, 5, 6), "2")], "g2"),
        scripted(TINY, ["Ana", "Beto"], [((1, 2, 3, 4, 5), "1"), ((1, 3, 4, 5, 6), "1"),
                                         ((3, 3, 4, 5, 6), "2"), ((3, 4, 4, 5, 6), "2")], "g3"),
    ]  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> StatsDB:
    return StatsDB(tmp_path / "stats.sqlite3")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class TestRecord:
    def test_games_are_stored_with_their_results(self, db: StatsDB) -> None:
        ids = [db.record_game(g) for g in three_games()]
        assert ids == [1, 2, 3]
        rows = db.games()
        assert [r.totals for r in rows] == [(7, 9), (10, 2), (1, 1)]
        assert [r.winners for r in rows] == [("Beto",), ("Ana",), ("Ana", "Beto")]
        assert [r.reason for r in rows] == ["points", "points", "shared"]
        assert all(r.rules == "tiny" and r.players == ("Ana", "Beto") for r in rows)

    def test_the_record_replays(self, db: StatsDB) -> None:
        game = three_games()[1]
        replayed = from_record(db.record(db.record_game(game)))
        assert replayed.totals() == [10, 2] and replayed.is_over
        with pytest.raises(StatsError, match="no game 99"):
            db.record(99)

    def test_the_same_game_is_stored_once(self, db: StatsDB) -> None:
        game = three_games()[0]
        assert db.record_game(game) == db.record_game(game)
        assert len(db.games()) == 1

    def test_only_finished_games(self, db: StatsDB) -> None:
        game = Game(TINY, ["Ana"], seed=1)
        with pytest.raises(StatsError, match="finished"):
            db.record_game(game)
        assert db.games() == []

    def test_humans(self, db: StatsDB) -> None:
        turns = [((1, 1, 1, 2, 3), "1"), ((1, 2, 2, 3, 4), "1"), ((2, 2, 3, 4, 5), "2"), ((2, 2, 2, 2, 3), "2")]
        db.record_game(scripted(TINY, ["Ana", "bot:optimal"], turns, "h1"))  # by default: every seat not a bot
        db.record_game(scripted(TINY, ["Ana", "Beto"], turns, "h2"), humans=["Beto"])
        assert [r.humans for r in db.games()] == [("Ana",), ("Beto",)]

    def test_filters(self, db: StatsDB) -> None:
        for g in three_games():
            db.record_game(g)
        db.record_game(scripted(SIXES, ["Carla"], [((6, 6, 1, 2, 3), "6")], "c"))
        assert [r.id for r in db.games(player="Carla")] == [4]
        assert [r.id for r in db.games(rules="tiny")] == [1, 2, 3]
        assert db.games(player="Carla", rules="tiny") == []


class TestSummary:
    def test_per_player_and_rules(self, db: StatsDB) -> None:
        for g in three_games():
            db.record_game(g)
        ana, beto = db.summary()
        assert (ana.player, ana.rules, ana.games, ana.wins) == ("Ana", "tiny", 3, 2)  # a shared win counts
        assert ana.mean == pytest.approx((7 + 10 + 1) / 3) and ana.scores == [7, 10, 1]
        assert [g.id for g in ana.best] == [2, 1, 3]
        assert ana.boxes_made == {"1": 1.0, "2": pytest.approx(2 / 3)}
        assert (beto.games, beto.wins, beto.mean) == (3, 2, pytest.approx(4.0))
        assert beto.boxes_made == {"1": pytest.approx(2 / 3), "2": pytest.approx(2 / 3)}
        assert db.summary(player="Beto") == [beto]

    def test_trend_compares_the_last_ten_games_with_all(self, db: StatsDB) -> None:
        hands = [(1, 2, 3, 4, 5)] * 2 + [(6, 6, 6, 6, 6)] * 10  # 0, 0, then ten times 30
        for i, hand in enumerate(hands):
            db.record_game(scripted(SIXES, ["Ana"], [(hand, "6")], f"t{i}"))
        (ana,) = db.summary()
        assert ana.games == 12 and ana.mean == pytest.approx(25)
        assert ana.recent_mean == pytest.approx(30) and ana.trend == pytest.approx(5)
        assert ana.boxes_made == {"6": pytest.approx(10 / 12)}
        assert [g.totals for g in ana.best] == [(30,)] * 3

    def test_empty(self, db: StatsDB) -> None:
        assert db.summary() == [] and db.games() == []


class TestFile:
    def test_wal_and_schema_version(self, db: StatsDB) -> None:
        with sqlite3.connect(db.path) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert raw.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]

    def test_reopening_keeps_the_games(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        with StatsDB(path) as first:
            first.record_game(three_games()[0])
        with StatsDB(path) as again:
            assert len(again.games()) == 1

    def test_not_sqlite_is_reported_and_left_alone(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        path.write_bytes(b"these are my notes, not a database\n" * 100)
        before = sha(path)
        with pytest.raises(StatsCorruptError, match=f"{path}.*not an SQLite database.*left untouched"):
            StatsDB(path)
        assert sha(path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["stats.sqlite3"]

    def test_another_schema_is_reported_and_left_alone(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        with sqlite3.connect(path) as raw:
            raw.execute("CREATE TABLE recipes (name TEXT)")
        before = sha(path)
        with pytest.raises(StatsCorruptError, match=r"not a cubilete statistics database.*recipes"):
            StatsDB(path)
        assert sha(path) == before

    def test_a_newer_schema_is_reported(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        StatsDB(path).close()
        with sqlite3.connect(path) as raw:
            raw.execute("UPDATE schema_version SET version = 99")
        with pytest.raises(StatsCorruptError, match="unknown schema version 99"):
            StatsDB(path)

    def test_a_missing_column_is_reported(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        StatsDB(path).close()
        with sqlite3.connect(path) as raw:
            raw.execute("ALTER TABLE games DROP COLUMN reason")
        with pytest.raises(StatsCorruptError, match="table games has columns"):
            StatsDB(path)

    def test_damaged_pages_are_reported_and_left_alone(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        with StatsDB(path) as good:
            for g in three_games():
                good.record_game(g)
        data = bytearray(path.read_bytes())
        assert len(data) > 8192
        data[4096:] = b"\xa5" * (len(data) - 4096)  # every page after the first is garbage
        path.write_bytes(bytes(data))
        before = sha(path)
        with pytest.raises(StatsCorruptError, match=str(path)):
            StatsDB(path)
        assert sha(path) == before


class TestDataDir:
    def test_environment(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path / "here"))
        assert data_dir() == tmp_path / "here" and default_path() == tmp_path / "here" / "stats.sqlite3"
        with StatsDB() as db:
            assert db.path == tmp_path / "here" / "stats.sqlite3" and db.path.exists()
        monkeypatch.delenv("CUBILETE_DATA_DIR")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        assert data_dir() == tmp_path / "xdg" / "cubilete"
        monkeypatch.delenv("XDG_DATA_HOME")
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        assert data_dir() == tmp_path / "home" / ".local" / "share" / "cubilete"


CRASHING_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from cubilete import Game, Roll, Score, find_rules
    from cubilete.engine.rules import Start, TieBreak
    from cubilete.store.stats import StatsDB

    generala = find_rules("generala")
    tiny = generala.replace(name="tiny", boxes=generala.boxes[:2], start=Start.SEAT_ORDER, tie_break=TieBreak.SHARED)

    def finished(i):
        game = Game(tiny, ["Ana", "Beto"], seed=f"crash-{i}")
        while not game.is_over:
            game.apply(Roll() if not game.state.turn.throws else
                       next(a for a in game.legal_actions() if isinstance(a, Score)))
        return game

    db = StatsDB(Path(sys.argv[1]))
    mode = sys.argv[2]
    if mode == "mid-transaction":
        for i in range(3):
            print("recorded", db.record_game(finished(i)), flush=True)
        write_boxes = StatsDB._insert_boxes

        def stall(self, cur, game_id, game):
            write_boxes(self, cur, game_id, game)  # the game's rows are written, not committed
            print("mid-transaction", flush=True)
            time.sleep(60)

        StatsDB._insert_boxes = stall
        db.record_game(finished(3))
    else:
        i = 0
        while True:
            print("recorded", db.record_game(finished(i)), flush=True)
            i += 1
    """
)


def crash(path: Path, mode: str, lines_before_kill: int) -> list[str]:
    """Run the writer, SIGKILL it after it printed so many lines; the lines it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASHING_WRITER, str(path), mode],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CUBILETE_DATA_DIR": str(path.parent)},
    )
    assert proc.stdout is not None
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line.strip())
            if len(seen) >= lines_before_kill:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert len(seen) == lines_before_kill, f"the writer stopped early: {seen}"
    return seen


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as raw:
        return str(raw.execute("PRAGMA integrity_check").fetchone()[0])


class TestCrash:
    def test_killed_mid_transaction(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        seen = crash(path, "mid-transaction", 4)
        assert seen == ["recorded 1", "recorded 2", "recorded 3", "mid-transaction"]
        with StatsDB(path) as db:
            rows = db.games()
            assert [r.id for r in rows] == [1, 2, 3]  # the half-written fourth game left no trace
            assert all(len(r.players) == 2 for r in rows)
            assert len(db.summary()) == 2
            assert db.record_game(three_games()[0]) == 4  # and the file takes new games
        assert integrity(path) == "ok"

    def test_killed_while_writing_game_after_game(self, tmp_path: Path) -> None:
        path = tmp_path / "stats.sqlite3"
        seen = crash(path, "loop", 25)
        with StatsDB(path) as db:
            ids = [r.id for r in db.games()]
        # every game reported as recorded is there; at most the one being written when killed is extra
        assert ids[:25] == list(range(1, 26)) and len(ids) <= 26
        assert seen == [f"recorded {i}" for i in range(1, 26)]
        assert integrity(path) == "ok"
