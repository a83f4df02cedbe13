"""Statistics of finished games in an SQLite database (standard library ``sqlite3``).

The file lives in the user data folder (:func:`data_dir`). It uses a WAL journal and
writes each finished game in one transaction, together with its JSON record, so a crash
(even a ``kill -9``) never loses a finished game nor leaves half of one. A file that is not
SQLite, or not this schema, raises :class:`StatsCorruptError` naming the file; it is never
deleted, replaced or written to.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder, StatsDB(pathlib.Path(folder) / "stats.sqlite3") as db:
...     db.games()
[]
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from cubilete.engine.errors import StatsCorruptError, StatsError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.i18n import _

SQLITE_HEADER = b"SQLite format 3\x00"
RECENT = 10  # the trend compares the mean of the last RECENT games with the overall mean
BEST = 3  # best games listed per player and preset

# MIGRATIONS[n] takes the schema from version n to n + 1; the last index + 1 is the current version.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            finished_at TEXT NOT NULL,
            rules TEXT NOT NULL,
            rules_hash TEXT NOT NULL,
            seats INTEGER NOT NULL,
            reason TEXT,
            digest TEXT NOT NULL UNIQUE,
            record TEXT NOT NULL
        )""",
        """CREATE TABLE results (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            player TEXT NOT NULL,
            human INTEGER NOT NULL,
            total INTEGER NOT NULL,
            upper_bonus INTEGER NOT NULL,
            extra_bonuses INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX results_player ON results(player)",
        """CREATE TABLE boxes (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            slot TEXT NOT NULL,
            points INTEGER,
            PRIMARY KEY (game_id, seat, slot)
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
COLUMNS = {
    "schema_version": ("version",),
    "games": ("id", "finished_at", "rules", "rules_hash", "seats", "reason", "digest", "record"),
    "results": ("game_id", "seat", "player", "human", "total", "upper_bonus", "extra_bonuses", "winner"),
    "boxes": ("game_id", "seat", "slot", "points"),
}


def data_dir() -> Path:
    """The user data folder: ``$CUBILETE_DATA_DIR``, else ``$XDG_DATA_HOME/cubilete``, else ~/.local/share/cubilete."""
    if os.environ.get("CUBILETE_DATA_DIR"):
        return Path(os.environ["CUBILETE_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cubilete"


def default_path() -> Path:
    """Where the statistics database lives by default."""
    return data_dir() / "stats.sqlite3"


@dataclass(frozen=True)
class GameRow:
    """One finished game as stored."""

    id: int
    finished_at: str  # ISO 8601, UTC
    rules: str
    players: tuple[str, ...]  # seat order
    totals: tuple[int, ...]  # seat order
    winners: tuple[str, ...]
    reason: str | None
    humans: tuple[str, ...] = ()  # the seats played by people


@dataclass(frozen=True)
class PlayerStats:
    """One player's results under one rule set."""

    player: str
    rules: str
    games: int
    wins: int
    mean: float
    recent_mean: float  # mean of the last RECENT games
    trend: float  # recent_mean - mean: positive when the player is improving
    best: list[GameRow]  # best games first (up to BEST)
    boxes_made: dict[str, float]  # slot -> share of games where it holds points (sheet order)
    scores: list[int] = field(default_factory=list)  # every total, oldest first


def _corrupt(path: Path, why: str) -> StatsCorruptError:
    return StatsCorruptError(
        _("{path}: {why}; the file was left untouched (move it away to start new statistics)").format(
            path=path, why=why
        )
    )


class StatsDB:
    """The statistics database; a context manager that closes the connection."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._lock = threading.Lock()
        self._check_header()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StatsError(_("{path}: cannot open: {error}").format(path=self.path, error=exc)) from None
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise _corrupt(self.path, _("not a readable SQLite database ({error})").format(error=exc)) from None
        except BaseException:
            self._db.close()
            raise

    def __repr__(self) -> str:
        return f"StatsDB({str(self.path)!r})"

    def __enter__(self) -> StatsDB:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    # --- opening: check, migrate --------------------------------------------------------
    def _check_header(self) -> None:
        """Refuse a file that is not SQLite before SQLite touches it."""
        try:
            with self.path.open("rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StatsError(_("{path}: cannot read: {error}").format(path=self.path, error=exc.strerror)) from None
        if head and head != SQLITE_HEADER:
            raise _corrupt(self.path, _("not an SQLite database"))

    def _open(self) -> None:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        check = self._db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise _corrupt(self.path, _("the database is damaged ({error})").format(error=check and check[0]))
        if tables and "schema_version" not in tables:
            raise _corrupt(
                self.path,
                _("not a cubilete statistics database (tables: {tables})").format(tables=", ".join(sorted(tables))),
            )
        version = 0
        if tables:
            found = self._db.execute("SELECT max(version) FROM schema_version").fetchone()[0]
            version = 0 if found is None else found if isinstance(found, int) else -1
            if not 0 <= version <= SCHEMA_VERSION:
                raise _corrupt(
                    self.path,
                    _("unknown schema version {version} (this cubilete reads up to {known})").format(
                        version=found, known=SCHEMA_VERSION
                    ),
                )
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")
        self._migrate(version)
        self._check_columns()

    def _migrate(self, version: int) -> None:
        """Bring the schema from ``version`` to :data:`SCHEMA_VERSION`, one version per transaction."""
        for step in range(version, SCHEMA_VERSION):
            with self._transaction():
                if step == 0:
                    self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                for statement in MIGRATIONS[step]:
                    self._db.execute(statement)
                self._db.execute("DELETE FROM schema_version")
                self._db.execute("INSERT INTO schema_version (version) VALUES (?)", (step + 1,))

    def _check_columns(self) -> None:
        for table, expected in COLUMNS.items():
            found = tuple(row[1] for row in self._db.execute(f"PRAGMA table_info({table})"))
            if found != expected:
                raise _corrupt(
                    self.path,
                    _("table {table} has columns ({found}), expected ({expected})").format(
                        table=table, found=", ".join(found), expected=", ".join(expected)
                    ),
                )

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # --- writing ------------------------------------------------------------------------
    def record_game(self, game: Game, humans: Collection[str] = ()) -> int:
        """Store a finished game in one transaction; returns its id (the same id if it was stored before).

        ``humans`` names the seats played by people; when empty, every seat whose name isn't a bot's.
        """
        if not game.is_over:
            raise StatsError(_("only finished games are recorded"))
        from cubilete.engine.record import to_record
        from cubilete.engine.rules.codec import rules_hash
        from cubilete.play.coach import is_bot_name

        record = to_record(game)
        text = json.dumps(record, ensure_ascii=False, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        people = set(humans) if humans else {p for p in game.players if not is_bot_name(p)}
        finished = datetime.now(UTC).isoformat(timespec="seconds")
        st = game.state
        with self._transaction() as db:
            found = db.execute("SELECT id FROM games WHERE digest = ?", (digest,)).fetchone()
            if found is not None:
                return int(found[0])
            cursor = db.execute(
                "INSERT INTO games (finished_at, rules, rules_hash, seats, reason, digest, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (finished, game.rules.name, rules_hash(game.rules), len(game.players),
                 st.reason.value if st.reason else None, digest, text),
            )  # fmt: skip
            game_id = cursor.lastrowid
            assert game_id is not None
            self._insert_results(db, game_id, game, people)
            self._insert_boxes(db, game_id, game)
        return game_id

    def _insert_results(self, db: sqlite3.Connection, game_id: int, game: Game, humans: set[str]) -> None:
        rules, st = game.rules, game.state
        rows = [
            (game_id, i, seat.name, int(seat.name in humans), scoring.total(rules, seat.card, seat.extra_bonuses),
             scoring.upper_bonus(rules, seat.card), seat.extra_bonuses, int(i in st.winners))
            for i, seat in enumerate(st.seats)
        ]  # fmt: skip
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _insert_boxes(self, db: sqlite3.Connection, game_id: int, game: Game) -> None:
        rows = [
            (game_id, i, slot, points)
            for i, seat in enumerate(game.state.seats)
            for slot, points in zip(game.rules.slots, seat.card, strict=True)
        ]
        db.executemany("INSERT INTO boxes VALUES (?, ?, ?, ?)", rows)

    # --- reading ------------------------------------------------------------------------
    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def games(self, player: str | None = None, rules: str | None = None) -> list[GameRow]:
        """The finished games, oldest first; only those ``player`` sat in, and of ``rules``, if given."""
        where, params = ["1"], []
        if rules is not None:
            where.append("g.rules = ?")
            params.append(rules)
        if player is not None:
            where.append("g.id IN (SELECT game_id FROM results WHERE player = ?)")
            params.append(player)
        rows = self._query(
            "SELECT g.id, g.finished_at, g.rules, g.reason, r.seat, r.player, r.total, r.winner, r.human "
            f"FROM games g JOIN results r ON r.game_id = g.id WHERE {' AND '.join(where)} ORDER BY g.id, r.seat",
            tuple(params),
        )
        return _game_rows(rows)

    def record(self, game_id: int) -> dict[str, Any]:
        """The JSON record of a stored game (``cubilete.engine.record.from_record`` replays it)."""
        rows = self._query("SELECT record FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StatsError(_("no game {id} in {path}").format(id=game_id, path=self.path))
        data: dict[str, Any] = json.loads(rows[0][0])
        return data

    def summary(self, player: str | None = None, rules: str | None = None) -> list[PlayerStats]:
        """Per player and rule set: games, wins, mean and trend, best games, how often each box is made."""
        games = {g.id: g for g in self.games(player, rules)}
        per: dict[tuple[str, str], list[tuple[GameRow, int]]] = {}
        for g in games.values():
            for seat, name in enumerate(g.players):
                if player is None or name == player:
                    per.setdefault((name, g.rules), []).append((g, seat))
        made: dict[tuple[str, str], dict[str, int]] = {}
        for game_id, seat, slot, points in self._query("SELECT game_id, seat, slot, points FROM boxes ORDER BY rowid"):
            row = games.get(game_id)
            if row is None or (player is not None and row.players[seat] != player):
                continue
            counts = made.setdefault((row.players[seat], row.rules), {})
            counts[slot] = counts.get(slot, 0) + int(bool(points))
        return [_stats(name, preset, played, made.get((name, preset), {})) for (name, preset), played in
                sorted(per.items())]  # fmt: skip


def _game_rows(rows: list[tuple[Any, ...]]) -> list[GameRow]:
    grouped: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        grouped.setdefault(row[0], []).append(row)
    out = []
    for game_id, seats in grouped.items():
        first = seats[0]
        out.append(
            GameRow(
                id=game_id,
                finished_at=first[1],
                rules=first[2],
                players=tuple(r[5] for r in seats),
                totals=tuple(r[6] for r in seats),
                winners=tuple(r[5] for r in seats if r[7]),
                reason=first[3],
                humans=tuple(r[5] for r in seats if r[8]),
            )
        )
    return out


def _stats(player: str, rules: str, played: list[tuple[GameRow, int]], made: dict[str, int]) -> PlayerStats:
    scores = [g.totals[seat] for g, seat in played]
    n = len(scores)
    mean = sum(scores) / n
    recent = scores[-RECENT:]
    recent_mean = sum(recent) / len(recent)
    best = sorted(played, key=lambda p: (-p[0].totals[p[1]], p[0].id))[:BEST]
    return PlayerStats(
        player=player,
        rules=rules,
        games=n,
        wins=sum(player in g.winners for g, _seat in played),
        mean=mean,
        recent_mean=recent_mean,
        trend=recent_mean - mean,
        best=[g for g, _seat in best],
        boxes_made={slot: count / n for slot, count in made.items()},
        scores=scores,
    )
