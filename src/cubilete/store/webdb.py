"""The web game's database: tables, seats and every accepted action (SQLite or PostgreSQL).

SQLAlchemy Core, synchronous: each call is one short transaction. An action is committed
(its row and the table's new version together) before the server acknowledges it, so a
crash never loses an acknowledged move. The schema is owned by Alembic
(``cubilete/store/migrations``); :meth:`WebStore.migrate` brings a database up to date.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from cubilete.engine.errors import RematchTaken, StaleWrite, StoreError
from cubilete.store.stats import data_dir
from cubilete.store.writer import GroupWriter

metadata = sa.MetaData()

tables = sa.Table(
    "web_tables",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("rules_json", sa.Text, nullable=False),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("timer", sa.Integer, nullable=True),
    sa.Column("coach", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # waiting, playing, finished, expired (migration 0003)
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("ended", sa.String(16), nullable=True),  # abandoned (no person left), else null
    sa.Column("creator_net", sa.String(64), nullable=True),  # the network that made it (waiting tables per network)
    sa.Column("touched_at", sa.Float, nullable=True),  # made or a seat taken: a waiting table expires from then
    sa.Column("rematch", sa.String(16), nullable=True),  # the finished table's rematch, set once (migration 0005)
    sa.Column("undos", sa.Integer, nullable=False, server_default="0"),  # undos taken (never ranked if any)
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),  # in the lobby (migration 0006)
    sa.Column("dice", sa.String(16), nullable=True),  # "duplicate": faces follow each die's place (0007)
    sa.Column("daily", sa.String(80), nullable=True),  # "<date>/<preset>": a daily challenge game (0007)
    sa.Column("match_of", sa.String(16), nullable=True),  # a duplicate match's first game (this is the second)
    sa.Column("tournament", sa.String(16), nullable=True),  # the tournament this table is part of (0009)
    sa.Column("turn_hours", sa.Float, nullable=True),  # a turn-based game's time per turn, in hours (0009)
    sa.Column("club", sa.String(16), nullable=True),  # the club whose game this is (0009)
)

seats = sa.Table(
    "web_seats",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # human, bot
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("pid", sa.String(16), nullable=True),
    sa.Column("total", sa.Integer, nullable=True),
    sa.Column("winner", sa.Boolean, nullable=True),
    sa.Column("held_until", sa.Float, nullable=True),  # a rematch seat kept for token_hash until then
    sa.Column("held_name", sa.String(64), nullable=True),  # ... and the name nobody else may take there
)

actions = sa.Table(
    "web_actions",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action_json", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("by", sa.String(8), nullable=True),  # a person's move made for them: away (stand-in) or timer
)

# which process of a site has a connection for which seat (web/presence.py), renewed every lease round
presence = sa.Table(
    "web_presence",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("process", sa.String(32), primary_key=True),
    sa.Column("seen_at", sa.Float, nullable=False),  # the database's clock (epoch seconds)
)

# people seeking a game through the lobby (web/lobby.py, store/lobby.py)
seeks = sa.Table(
    "web_seeks",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("pid", sa.String(16), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("process", sa.String(32), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),  # renewed by the seeker's process; stale rows are dropped
    sa.Column("table_id", sa.String(16), nullable=True),  # the match, once made
    sa.Column("seat", sa.Integer, nullable=True),
)

# the daily duplicate challenge (web/daily.py, store/daily.py)
daily_days = sa.Table(
    "web_daily_days",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("preset", sa.String(64), primary_key=True),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
)
daily_games = sa.Table(
    "web_daily",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("preset", sa.String(64), primary_key=True),
    sa.Column("pid", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("table_id", sa.String(16), nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("score", sa.Integer, nullable=True),
    sa.Column("loss", sa.Float, nullable=True),  # exact points lost per decision (None: no exact tables)
    sa.Column("decisions", sa.Integer, nullable=True),
    sa.Column("first_diff", sa.Text, nullable=True),  # JSON: where the game first left optimal play
)

# clubs (web/clubs.py, store/clubs.py): a name, the organiser's secret key (hashed), house rules, members
clubs = sa.Table(
    "web_clubs",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False),  # the organiser's secret link's key, hashed
    sa.Column("profiles", sa.Text, nullable=False),  # JSON: [{"name", "toml"}], the club's house rules
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("creator_net", sa.String(64), nullable=True),
)
club_members = sa.Table(
    "web_club_members",
    metadata,
    sa.Column("club", sa.String(16), sa.ForeignKey("web_clubs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("pid", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
)

# score sheets for real dice (web/sheets.py, store/sheets.py): every step typed, replayed on the scorekeeper
sheets = sa.Table(
    "web_sheets",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("rules_json", sa.Text, nullable=False),
    sa.Column("players", sa.Text, nullable=False),  # JSON list of names, in seat order
    sa.Column("steps", sa.Text, nullable=False),  # JSON list of steps (start throws, entries, hands)
    sa.Column("version", sa.Integer, nullable=False),  # compare-and-set: two phones never both write a step
    sa.Column("status", sa.String(16), nullable=False),  # playing, finished
    sa.Column("creator_net", sa.String(64), nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
)

# "your turn" e-mails of turn-based games (web/turnbased.py, store/turns.py)
notices = sa.Table(
    "web_notices",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("email", sa.String(254), nullable=False),
    sa.Column("sent_version", sa.Integer, nullable=True),  # the table's version of the last notice sent
)

# tournaments (web/tournaments.py, store/tournaments.py; docs/CLUBS.md)
tournaments = sa.Table(
    "web_tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("rules_json", sa.Text, nullable=False),
    sa.Column("format", sa.String(16), nullable=False),  # round-robin, swiss, knockout
    sa.Column("swiss_rounds", sa.Integer, nullable=True),
    sa.Column("table_size", sa.Integer, nullable=False),
    sa.Column("same_dice", sa.Boolean, nullable=False),
    sa.Column("timer", sa.Integer, nullable=True),
    sa.Column("coach", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # open, playing, finished
    sa.Column("round", sa.Integer, nullable=False),  # the round in play (0 before the start)
    sa.Column("organiser_hash", sa.String(64), nullable=False),
    sa.Column("seed", sa.String(64), nullable=False),  # the draw, and each round's dice with same_dice
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("starts_at", sa.Float, nullable=True),  # started then by the server (else by the organiser)
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("version", sa.Integer, nullable=False),  # compare-and-set: one process makes each round
    sa.Column("creator_net", sa.String(64), nullable=True),
    sa.Column("club", sa.String(16), nullable=True),  # the club whose tournament this is
)
sa.Index("ix_web_tournaments_status", tournaments.c.status, tournaments.c.created_at)
tournament_entrants = sa.Table(
    "web_tournament_entrants",
    metadata,
    sa.Column("tournament", sa.String(16), sa.ForeignKey("web_tournaments.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("entrant", sa.Integer, primary_key=True),  # 0, 1, ... in the order they joined
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),  # human, bot
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("pid", sa.String(16), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("joined_at", sa.Float, nullable=False),
)
sa.Index("ux_web_tournament_entrants_pid", tournament_entrants.c.tournament, tournament_entrants.c.pid, unique=True)
tournament_tables = sa.Table(
    "web_tournament_tables",
    metadata,
    sa.Column("tournament", sa.String(16), sa.ForeignKey("web_tournaments.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("table_no", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.String(16), nullable=True),  # null: a bye
    sa.Column("entrants", sa.Text, nullable=False),  # JSON list of entrant numbers, in seat order
)

# two ratings per official preset (web/ratings.py, store/ratings.py; docs/RATINGS.md)
ratings = sa.Table(
    "web_ratings",
    metadata,
    sa.Column("preset", sa.String(64), primary_key=True),
    sa.Column("pid", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
rating_games = sa.Table(
    "web_rating_games",
    metadata,
    sa.Column("preset", sa.String(64), primary_key=True),
    sa.Column("pid", sa.String(16), primary_key=True),
    sa.Column("table_id", sa.String(16), primary_key=True),
    sa.Column("finished_at", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("loss_sum", sa.Float, nullable=True),
    sa.Column("loss_sq", sa.Float, nullable=True),
    sa.Column("decisions", sa.Integer, nullable=False),
    sa.Column("agreed", sa.Integer, nullable=True),  # decisions that were the optimal choice (fair play)
    sa.Column("win_loss", sa.Float, nullable=True),  # chance to win given up (exact two-player table; else null)
    sa.Column("win_decisions", sa.Integer, nullable=False, server_default="0"),
)
sa.Index("ix_web_rating_games_recent", rating_games.c.preset, rating_games.c.pid, rating_games.c.finished_at)

sa.Index("ix_web_tables_status", tables.c.status)
sa.Index("ix_web_tables_listed_status", tables.c.listed, tables.c.status)
sa.Index("ix_web_seeks_rules", seeks.c.rules, seeks.c.players, seeks.c.created_at)
sa.Index("ix_web_tables_preset_finished", tables.c.preset, tables.c.finished_at)
sa.Index("ix_web_seats_pid", seats.c.pid)
sa.Index("ix_web_tables_status_creator", tables.c.status, tables.c.creator_net)
sa.Index("ix_web_sheets_status_finished", sheets.c.status, sheets.c.finished_at)  # the games list
OVER = ("finished", "expired")  # statuses of tables nobody plays again


# The statements of every move, built once with bound parameters: building them per call cost
# more than SQLite's own work (benchmarks/ws_load.py).
_BUMP = (
    tables.update()
    .where(tables.c.id == sa.bindparam("b_id"), tables.c.version == sa.bindparam("b_from"))
    .values(version=sa.bindparam("b_to"))
)
_APPEND = actions.insert().values(
    table_id=sa.bindparam("a_table"), seq=sa.bindparam("a_seq"), seat=sa.bindparam("a_seat"),
    action_json=sa.bindparam("a_json"), created_at=sa.bindparam("a_at"), by=sa.bindparam("a_by"),
)


_NOTIFY = sa.text("SELECT pg_notify(:n_channel, :n_payload)")


@dataclass(frozen=True)
class SeatRow:
    """One seat as stored."""

    idx: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None
    pid: str | None
    total: int | None = None
    winner: bool | None = None
    held_until: float | None = None  # a rematch seat kept for ``token_hash`` (epoch seconds): see Hub.create
    held_name: str | None = None  # the absent player's name: nobody else takes it at this table


@dataclass(frozen=True)
class TableRow:
    """One table as stored, with its seats and its accepted actions in order."""

    id: str
    created_at: float
    preset: str
    rules_json: str
    seed: str
    commitment: str
    timer: int | None
    coach: bool
    status: str
    version: int
    finished_at: float | None
    seats: tuple[SeatRow, ...]
    actions: tuple[tuple[int, str], ...] = ()  # (seat, action JSON), in order
    ended: str | None = None  # "abandoned": no person was left (status finished, the game unfinished)
    creator_net: str | None = None  # the network that made the table (web.guard.network_key)
    rematch: str | None = None  # the id of this finished table's rematch, once someone asked
    undos: int = 0  # undos taken at this table
    listed: bool = False  # open to anyone: shown in the lobby (web/lobby.py)
    dice: str | None = None  # "duplicate": engine/dice.py DuplicateDice; None: by throw index
    daily: str | None = None  # "<date>/<preset>" for a daily challenge game (web/daily.py)
    match_of: str | None = None  # the first game of a duplicate head-to-head match (this is the second)
    tournament: str | None = None  # the tournament this table is part of (web/tournaments.py)
    turn_hours: float | None = None  # a turn-based game: hours per turn (web/turnbased.py)
    club: str | None = None  # the club whose game this is (web/clubs.py)


@dataclass(frozen=True)
class PlayerResult:
    """One person's result in one finished game."""

    pid: str
    name: str
    preset: str  # the rules' name (a preset's, or a house-rule profile's)
    total: int
    winner: bool
    rules_json: str
    seats: int  # seats at the table
    people: int  # different browsers seated at it
    undos: int = 0  # undos taken at the table (web/undo.py): such a game is no measure of skill
    coach: bool = False  # the table offered the coach's hints: practice, never a ranking


def utc_today() -> str:
    """Today's date (UTC) as the daily challenge names days: ``YYYY-MM-DD``."""
    return datetime.now(UTC).date().isoformat()


def default_url() -> str:
    """The embedded default: a SQLite file in the user data folder."""
    return f"sqlite:///{data_dir() / 'web.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses nothing committed
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints (the only fsyncs) run apart: WebStore.checkpoint
    cursor.execute("PRAGMA journal_size_limit=4194304")  # a log that wraps around is cut back to 4 MB
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for the URL; SQLite files get their folder created and WAL mode."""
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise StoreError(
            f"not a database URL: {url!r} (e.g. sqlite:///games.sqlite3 or postgresql+psycopg://...)"
        ) from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            folder = Path(parsed.database).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot make the folder {str(folder)!r} for the database: {exc.strerror}") from None
        engine = sa.create_engine(parsed, connect_args={"check_same_thread": False})
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.get_backend_name() == "postgresql":
        return sa.create_engine(parsed, pool_size=5, max_overflow=5, pool_pre_ping=True)
    raise StoreError(f"unsupported database {parsed.get_backend_name()!r}: use sqlite or postgresql")


class WebStore:
    """Every query of the web game."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.local = self.engine.dialect.name == "sqlite"  # a file on this machine: commits take microseconds
        self._batch = threading.local()  # the writer thread's shared transaction (store/writer.py)
        self._writer: GroupWriter | None = None
        # a process of a site (web/site.py) sends each action it commits to the others with the commit
        # (NOTIFY on ``notify_channel``), so they apply it without reading the database
        self.notify_channel: str | None = None

    @property
    def writer(self) -> GroupWriter:
        """The group-commit writer (store/writer.py) the server sends a database server's writes to."""
        if self._writer is None:
            self._writer = GroupWriter(self, threads=1 if self.local else 2)  # SQLite has one writer at a time
        return self._writer

    def close(self) -> None:
        """Finish the queued writes, release the connections."""
        if self._writer is not None:
            self._writer.close()
        self.engine.dispose()

    def check_integrity(self) -> None:
        """SQLite: ``PRAGMA quick_check`` before anything is served; a damaged file is refused in one line
        (never served with errors, never replaced). A database server checks its own pages."""
        if not self.local:
            return
        try:
            with self.engine.connect() as conn:
                found = [str(r[0]) for r in conn.exec_driver_sql("PRAGMA quick_check(5)")]
        except sa.exc.DBAPIError as exc:  # "database disk image is malformed", "file is not a database"
            found = [str(exc.orig).strip()]
        if found != ["ok"]:
            raise StoreError(f"the database {self.shown_url} is damaged (PRAGMA quick_check: {found[0][:200]}); "
                             "it was not opened: restore a backup, or move the file away to start afresh")

    def migrate(self) -> None:
        """Check the database (:meth:`check_integrity`), then create or upgrade the schema to the newest
        Alembic revision."""
        from cubilete.store.migrate import upgrade

        self.check_integrity()
        try:
            upgrade(self.engine)
        except sa.exc.DBAPIError as exc:  # unreachable server, refused login, a file that is not a database
            raise StoreError(f"cannot open the database {self.shown_url}: {str(exc.orig).strip()}") from None

    @property
    def shown_url(self) -> str:
        """The database URL as it may be printed (no password)."""
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def batch(self, conn: Connection) -> Iterator[None]:
        """One transaction on ``conn`` (the group writer's own connection) for every write method this
        thread calls inside the block: committed at the end, rolled back entirely if any of them raises.
        On PostgreSQL the statements and the commit go in psycopg's pipeline mode: sent without waiting
        for each answer, so a batch costs one round trip however many writes it holds. A version check
        that fails (:meth:`_bump`) is then an error inside the database, which aborts the transaction."""
        self._batch.conn = conn
        try:
            if self.engine.dialect.name == "postgresql":
                import psycopg  # a database server's driver: only where one is used

                raw: Any = conn.connection.driver_connection
                self._batch.raw = raw.cursor()  # the moves' statements in plain SQL: no SQLAlchemy per statement
                with raw.pipeline() as pipeline:
                    try:
                        yield
                        raw.commit()  # in the pipeline: the statements and the commit in one round trip
                    except Exception:  # a refused statement (plain or through SQLAlchemy) aborted the pipeline:
                        with contextlib.suppress(psycopg.Error):  # end the aborted part here (its errors repeat
                            pipeline.sync()  # the first), so leaving it is clean, not a logged "error ignored"
                        raise
            else:
                yield
            conn.commit()  # SQLite's commit; after the pipeline's, only SQLAlchemy's own bookkeeping
        except BaseException:
            with contextlib.suppress(Exception):
                conn.rollback()
            raise
        finally:
            self._batch.conn = self._batch.raw = None

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        shared: Connection | None = getattr(self._batch, "conn", None)
        if shared is not None:  # inside batch(): its transaction commits (or rolls back) all the writes
            yield shared
            return
        try:
            with self.engine.begin() as conn:
                yield conn
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"the database refused the write: {exc.__class__.__name__}") from exc

    def checkpoint(self, truncate_above: int | None = None) -> None:
        """Copy the SQLite write-ahead log into the database file (a worker thread calls this now and
        then, so the fsync it needs never stalls the event loop). With ``truncate_above``, a log file
        larger than that many bytes is also cut back to zero (a TRUNCATE checkpoint briefly holds off
        writers, so it runs only when the file grew). Nothing to do on other databases."""
        if not self.local:
            return
        mode = "PASSIVE"
        if truncate_above is not None:
            name = self.engine.url.database
            wal = Path(f"{name}-wal") if name and name != ":memory:" else None
            if wal is not None and wal.exists() and wal.stat().st_size > truncate_above:
                mode = "TRUNCATE"
        with self.engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")

    # --- writes ----------------------------------------------------------------------
    def create_rematch(self, row: TableRow, of: str, replacing: str | None = None) -> None:
        """Store the rematch of finished table ``of`` and mark it there, in one transaction, only if ``of``
        has none yet, or still ``replacing`` (a rematch that expired with nobody seated): two processes or
        two clicks at once make one table; the other gets :class:`RematchTaken` and nothing is stored.
        Every process of a site hears of it (web/site.py tells its players)."""
        free = tables.c.rematch.is_(None) if replacing is None else sa.or_(
            tables.c.rematch.is_(None), tables.c.rematch == replacing)
        with self._write() as conn:
            marked = conn.execute(tables.update().where(tables.c.id == of, free).values(rematch=row.id))
            if marked.rowcount != 1:
                raise RematchTaken(f"table {of} has its rematch already")
            if self.notify_channel is not None:
                conn.execute(_NOTIFY, {"n_channel": self.notify_channel, "n_payload": f"{of} 0 rematch {row.id}"})
            self._insert(conn, row)

    create_rematch.alone = True  # type: ignore[attr-defined]  # expected to be refused now and then

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the table's rematch, if someone asked for one (through any process)."""
        with self.engine.connect() as conn:
            found: str | None = conn.execute(sa.select(tables.c.rematch).where(tables.c.id == table_id)).scalar()
            return found

    def create_table(self, row: TableRow) -> None:
        """Store a new table and its seats."""
        with self._write() as conn:
            self._insert(conn, row)

    def _insert(self, conn: Connection, row: TableRow) -> None:
        conn.execute(
            tables.insert().values(
                id=row.id,
                created_at=row.created_at,
                preset=row.preset,
                rules_json=row.rules_json,
                seed=row.seed,
                commitment=row.commitment,
                timer=row.timer,
                coach=row.coach,
                status=row.status,
                version=row.version,
                creator_net=row.creator_net,
                touched_at=row.created_at,
                listed=row.listed,
                dice=row.dice,
                daily=row.daily,
                match_of=row.match_of,
                tournament=row.tournament,
                turn_hours=row.turn_hours,
                club=row.club,
            )
        )
        conn.execute(
            seats.insert(),
            [
                {"table_id": row.id, "idx": s.idx, "kind": s.kind, "level": s.level, "name": s.name,
                 "token_hash": s.token_hash, "pid": s.pid, "held_until": s.held_until,
                 "held_name": s.held_name}
                for s in row.seats
            ],
        )

    def _bump(self, conn: Connection, table_id: str, version: int, **changes: object) -> None:
        """Move the table from version-1 to version; anything else means a second writer: refuse."""
        raw = getattr(self._batch, "raw", None)  # the batch's psycopg cursor
        if raw is not None:  # a pipelined batch (see batch()): no row count to read, so a missed version is
            # a division by zero inside the database, which aborts the batch (each write is then retried alone)
            sets = "".join(f", {tables.c[name].name} = %s" for name in changes)  # our column names, never input
            raw.execute(
                f"WITH b AS (UPDATE web_tables SET version = %s{sets} WHERE id = %s AND version = %s RETURNING 1) "
                "SELECT 1 / count(*) FROM b", (version, *changes.values(), table_id, version - 1))
            return
        if changes:
            done = conn.execute(
                tables.update()
                .where(tables.c.id == table_id, tables.c.version == version - 1)
                .values(version=version, **changes)
            )
        else:
            done = conn.execute(_BUMP, {"b_id": table_id, "b_from": version - 1, "b_to": version})
        if done.rowcount != 1:
            raise StaleWrite(f"table {table_id} is not at version {version - 1}: the write was refused")

    def sit(self, table_id: str, version: int, seat: SeatRow, status: str) -> None:
        """A player takes a seat (and the table may start)."""
        with self._write() as conn:
            self._bump(conn, table_id, version, status=status, touched_at=time.time())
            conn.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.idx == seat.idx)
                .values(name=seat.name, token_hash=seat.token_hash, pid=seat.pid)
            )

    # two people sitting at one table through two processes of a site at once: one of the two writes is
    # refused (and tried again, web/room.py); alone, it takes no other table's moves down with it
    sit.alone = True  # type: ignore[attr-defined]

    def append_action(
        self, table_id: str, version: int, seq: int, seat: int, action_json: str,
        result: tuple[list[int], list[int]] | None = None, by: str | None = None,
    ) -> None:
        """Commit an accepted action; ``result`` (totals, winners) when it ends the game; ``by`` when it was
        made for a person (``away``: their stand-in; ``timer``: their turn timer ran out)."""
        now = time.time()
        with self._write() as conn:
            changes: dict[str, object] = {}
            if result is not None:
                changes = {"status": "finished", "finished_at": now}
            raw = getattr(self._batch, "raw", None)
            if self.notify_channel is not None:  # first: it reaches the others before the trigger's own
                payload = f"{table_id} {version} {seq} {seat} {action_json}"
                if raw is not None:
                    raw.execute("SELECT pg_notify(%s, %s)", (self.notify_channel, payload))
                else:
                    conn.execute(_NOTIFY, {"n_channel": self.notify_channel, "n_payload": payload})
            self._bump(conn, table_id, version, **changes)
            if raw is not None:  # a pipelined batch: the cursor at hand, no SQLAlchemy statement
                raw.execute("INSERT INTO web_actions (table_id, seq, seat, action_json, created_at, by) "
                            "VALUES (%s, %s, %s, %s, %s, %s)", (table_id, seq, seat, action_json, now, by))
            else:
                conn.execute(_APPEND, {"a_table": table_id, "a_seq": seq, "a_seat": seat, "a_json": action_json,
                                       "a_at": now, "a_by": by})
            if result is not None:
                totals, winners = result
                for idx, total in enumerate(totals):
                    conn.execute(
                        seats.update()
                        .where(seats.c.table_id == table_id, seats.c.idx == idx)
                        .values(total=total, winner=idx in winners)
                    )

    def announce(self, channel: str, payload: str) -> None:
        """NOTIFY ``channel`` with ``payload`` when the transaction commits (PostgreSQL only)."""
        with self._write() as conn:
            raw = getattr(self._batch, "raw", None)
            if raw is not None:
                raw.execute("SELECT pg_notify(%s, %s)", (channel, payload))
            else:
                conn.execute(_NOTIFY, {"n_channel": channel, "n_payload": payload})

    def undo_actions(self, table_id: str, version: int, keep: int, undos: int) -> None:
        """Take back actions: only the first ``keep`` stay, the table moves to ``version`` and has taken
        ``undos`` undos, in one transaction (a restart replays exactly what the players were shown)."""
        with self._write() as conn:
            self._bump(conn, table_id, version, undos=undos)
            conn.execute(actions.delete().where(actions.c.table_id == table_id, actions.c.seq > keep))

    def abandon(self, table_id: str, version: int) -> None:
        """End a table that no person is left at: finished, ``ended`` abandoned, no totals nor winners."""
        with self._write() as conn:
            self._bump(conn, table_id, version, status="finished", finished_at=time.time(), ended="abandoned")

    # --- reads -----------------------------------------------------------------------
    def made_for(self, table_id: str) -> list[tuple[int, int, str]]:
        """The moves made for a person (seq, seat, ``away`` or ``timer``), in order."""
        query = (sa.select(actions.c.seq, actions.c.seat, actions.c.by)
                 .where(actions.c.table_id == table_id, actions.c.by.is_not(None)).order_by(actions.c.seq))
        with self.engine.connect() as conn:
            return [(r.seq, r.seat, r.by) for r in conn.execute(query)]

    def _seats(self, conn: Connection, table_id: str) -> tuple[SeatRow, ...]:
        rows = conn.execute(seats.select().where(seats.c.table_id == table_id).order_by(seats.c.idx))
        return tuple(
            SeatRow(r.idx, r.kind, r.level, r.name, r.token_hash, r.pid, r.total, r.winner, r.held_until, r.held_name)
            for r in rows
        )

    def _table(self, conn: Connection, r: Any, with_actions: bool) -> TableRow:
        moves: tuple[tuple[int, str], ...] = ()
        if with_actions:
            rows = conn.execute(
                sa.select(actions.c.seat, actions.c.action_json)
                .where(actions.c.table_id == r.id)
                .order_by(actions.c.seq)
            )
            moves = tuple((a.seat, a.action_json) for a in rows)
        return TableRow(
            r.id, r.created_at, r.preset, r.rules_json, r.seed, r.commitment, r.timer, bool(r.coach), r.status,
            r.version, r.finished_at, self._seats(conn, r.id), moves, r.ended, r.creator_net, r.rematch, r.undos,
            bool(r.listed), r.dice, r.daily, r.match_of, r.tournament, r.turn_hours, r.club,
        )

    def load_table(self, table_id: str) -> TableRow | None:
        """A table with its seats and actions, or None: one snapshot, so the version read matches the
        actions read (PostgreSQL reads each statement afresh by default, and another process may commit
        a move between them)."""
        with self.engine.connect() as conn:
            if not self.local:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            r = conn.execute(tables.select().where(tables.c.id == table_id)).first()
            return self._table(conn, r, True) if r is not None else None

    def load_since(self, table_id: str, seq: int) -> tuple[int, str, tuple[tuple[int, int, str], ...]] | None:
        """The table's version and status and its actions after the first ``seq`` ones: (seq, seat, action
        JSON) in order; None if there is no such table. One statement, so one snapshot on any database:
        the version read matches the actions read. (A catch-up reads only what it has not seen; whether
        that extends its game, the version count tells: see :meth:`Room.extend`.)"""
        query = (
            sa.select(tables.c.version, tables.c.status, actions.c.seq, actions.c.seat, actions.c.action_json)
            .select_from(tables.outerjoin(actions, sa.and_(actions.c.table_id == tables.c.id, actions.c.seq > seq)))
            .where(tables.c.id == table_id)
            .order_by(actions.c.seq)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        if not rows:
            return None
        moves = tuple((r.seq, r.seat, r.action_json) for r in rows if r.seq is not None)
        return rows[0].version, rows[0].status, moves

    def unfinished_ids(self) -> list[str]:
        """The tables still waiting or being played (to resume after a restart)."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(tables.c.id).where(tables.c.status.not_in(OVER)))
            return [r.id for r in rows]

    # --- waiting tables expire (docs/WEB.md, "Limits"): the database decides, for every process ---------
    def expire_waiting(self, before: float, now: float | None = None) -> int:
        """Mark expired the waiting tables (open seats, no move) untouched since ``before`` (a turn-based game's:
        for one turn's time until ``now``); their version moves on, so a seat taken meanwhile through another
        process is refused (stale). Returns how many."""
        touched = sa.func.coalesce(tables.c.touched_at, tables.c.created_at)
        idle = sa.or_(sa.and_(tables.c.turn_hours.is_(None), touched < before),
                      sa.and_(tables.c.turn_hours.is_not(None), touched + tables.c.turn_hours * 3600.0 < (
                          now if now is not None else before)))
        no_move = ~sa.exists().where(actions.c.table_id == tables.c.id)
        with self._write() as conn:
            done = conn.execute(tables.update().where(tables.c.status == "waiting", idle, no_move)
                                .values(status="expired", version=tables.c.version + 1))
            return int(done.rowcount or 0)

    def expired_among(self, table_ids: list[str]) -> list[str]:
        """Which of ``table_ids`` have expired (to drop them from a process's memory)."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(tables.c.id).where(tables.c.id.in_(table_ids),
                                                             tables.c.status == "expired"))
            return [r.id for r in rows]

    def count_status(self, status: str, creator_net: str | None = None) -> int:
        """How many tables have ``status`` (only those made by ``creator_net`` when given)."""
        query = sa.select(sa.func.count()).select_from(tables).where(tables.c.status == status)
        if creator_net is not None:
            query = query.where(tables.c.creator_net == creator_net)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def finished_games(self, preset: str | None = None, limit: int = 50, pid: str | None = None) -> list[TableRow]:
        """Finished tables, newest first (optionally one preset, or the games of one player)."""
        query = tables.select().where(tables.c.status == "finished", sa.or_(
            tables.c.daily.is_(None), tables.c.daily < f"{utc_today()}/"))  # a day's games: private until it ends
        if preset:
            query = query.where(tables.c.preset == preset)
        if pid:
            mine = sa.select(seats.c.table_id).where(seats.c.pid == pid)
            query = query.where(tables.c.id.in_(mine))
        query = query.order_by(tables.c.finished_at.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [self._table(conn, r, False) for r in conn.execute(query).all()]

    def player_results(self, preset: str | None = None, pid: str | None = None) -> list[PlayerResult]:
        """Every human seat in finished games, with its table's rules and how many seats and people it had
        (so the rankings can count only official rules and games between people)."""
        human_pid = sa.case((seats.c.kind == "human", seats.c.pid), else_=None)
        per_table = (
            sa.select(seats.c.table_id.label("t_id"), sa.func.count().label("n_seats"),
                      sa.func.count(sa.distinct(human_pid)).label("n_people"))
            .group_by(seats.c.table_id)
            .subquery()
        )
        query = (
            sa.select(seats.c.pid, seats.c.name, tables.c.preset, seats.c.total, seats.c.winner, tables.c.rules_json,
                      per_table.c.n_seats, per_table.c.n_people, tables.c.undos, tables.c.coach)
            .join(tables, tables.c.id == seats.c.table_id)
            .join(per_table, per_table.c.t_id == seats.c.table_id)
            .where(tables.c.status == "finished", tables.c.ended.is_(None), seats.c.kind == "human",
                   seats.c.pid.is_not(None))  # an abandoned table never counts
        )
        if preset:
            query = query.where(tables.c.preset == preset)
        if pid:
            query = query.where(seats.c.pid == pid)
        with self.engine.connect() as conn:
            return [PlayerResult(r.pid, r.name, r.preset, r.total or 0, bool(r.winner), r.rules_json, r.n_seats,
                                 r.n_people, r.undos or 0, bool(r.coach)) for r in conn.execute(query)]
