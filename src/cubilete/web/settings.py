"""The server's settings: embedded defaults, the environment, then the command line.

Every limit of the server lives here, in one frozen object the app reads. Each field can be
set from the environment as ``CUBILETE_<FIELD NAME IN CAPITALS>`` (e.g. ``CUBILETE_MAX_BODY=32768``,
``CUBILETE_ALLOWED_ORIGINS=https://a.example,https://b.example``); docs/WEB.md ("Limits") lists them.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any

from cubilete.engine.errors import CubileteError
from cubilete.store.webdb import default_url


@dataclass(frozen=True)
class Settings:
    """What one server process needs to know."""

    db_url: str
    bot_delay: float = 0.6  # seconds before each bot move, so people can follow
    timeout_level: str = "heuristic"  # who plays a turn whose timer ran out (fast, no solver)
    rate: float = 20.0  # frames per second per connection
    burst: float = 40.0

    # --- house rules from the network are untrusted: what one rule set may cost (docs/WEB.md) -------
    max_columns: int = 6  # columns of a house-rule sheet (the presets have at most 4)
    max_dice: int = 6  # dice of a house-rule game (the presets have 5 or 6): each bot decision grows ~3x a die
    max_slots: int = 64  # boxes x columns of a house-rule sheet (the presets have at most 52)
    max_solve_states: int = 1 << 22  # states the solver takes on for optimal bots and the coach (yatzy: 2^21)
    solve_workers: int = 1  # processes solving new rule sets at once (never the event loop)
    solve_queue: int = 4  # rule sets waiting for a worker; more are refused (503)
    solve_cpu_seconds: int = 300  # CPU time one solve may use (RLIMIT_CPU in the worker)
    solve_wall_seconds: int = 600  # wall time after which a solving process is killed
    solve_memory_mb: int = 2048  # address space of one solving process (RLIMIT_AS in the worker)
    # --- end of the house-rules block ---------------------------------------------------------------
    # --- HTTP and WebSocket limits (issue 10, part B) ----------------------------------------
    max_body: int = 64 * 1024  # bytes of a request body, counted while it streams in (413 beyond)
    allowed_origins: tuple[str, ...] = ()  # origins besides the server's own that may post and connect
    trusted_proxies: tuple[str, ...] = ()  # peers whose X-Forwarded-For names the client (e.g. 127.0.0.1)
    tables_per_address: str = "20/minute;200/day"  # table creations per client address (``limits`` syntax)
    max_live_tables: int = 2000  # unfinished tables on the site; creation answers 503 beyond
    connects_per_address: str = "60/minute"  # WebSocket connections opened per client address
    sockets_per_address: int = 32  # WebSockets open at once per client address
    # --- site limits (issue 26): "per address" means per network, waiting tables expire -----------
    v4_prefix: int = 32  # an IPv4 client is counted by this many leading bits of its address
    v6_prefix: int = 64  # an IPv6 client by this many (a /64 is one household or one server)
    profile_checks_per_address: str = "120/minute;2000/day"  # POST /api/profiles/check per network
    waiting_expiry: float = 900.0  # seconds a table with open seats and no move stays live (then expired)
    waiting_per_address: int = 5  # waiting tables one network may have open at once (429 beyond)
    allowed_hosts: tuple[str, ...] = ()  # Host headers a public site answers (empty: any); others get 400
    # --- end of site limits --------------------------------------------------------------------
    spectators_per_table: int = 50  # connections without a seat at one table
    hello_timeout: float = 10.0  # seconds a new WebSocket has to send its hello frame
    # uvicorn (cubilete serve): connections, keep-alive and header limits
    limit_concurrency: int = 4000  # open connections + tasks; beyond, new requests get 503
    timeout_keep_alive: int = 5  # seconds an idle keep-alive connection stays open
    header_timeout: float = 10.0  # seconds a new connection has to send its complete request head
    max_header_bytes: int = 16 * 1024  # bytes of a request head (h11_max_incomplete_event_size)
    # memory that comes back
    idle_unload: float = 300.0  # seconds a table with nobody connected and nothing to do stays in memory
    review_cache_bytes: int = 8 * 1024 * 1024  # coach reviews kept (JSON bytes, least recently used out)
    wal_truncate_every: float = 60.0  # seconds between checks of the SQLite log file's size
    wal_keep_bytes: int = 4 * 1024 * 1024  # a log file larger than this is truncated to 0 at the check
    # --- end of part B limits ----------------------------------------------------------------
    win_chances: bool = True  # each seat's chance to win, sent in a second state frame of each version
    # several processes on one PostgreSQL (web/site.py; docs/WEB.md, "Several processes")
    site: bool = True  # PostgreSQL: take part in a site (leases, LISTEN/NOTIFY); false for a lone process
    site_poll: float = 1.0  # seconds between lease rounds (how soon a dead process's tables are taken over)
    win_workers: int = 1  # niced processes computing the chances (web/winpool.py)
    win_nice: int = 10  # their niceness (Linux: and CPU time nobody else wants); 0: the normal priority
    site_key_file: str = ""  # the signing key of records (web/signing.py); empty: beside the SQLite file or data dir
    # players who leave (web/absence.py; docs/WEB.md, "Players who leave")
    away_grace: float = 60.0  # seconds a seated person has no connection before a stand-in plays their turns
    abandon_after: float = 600.0  # seconds a playing table has no person connected before it ends as abandoned
    stand_in_mark: float = 0.25  # a game with a larger share of people's moves made for them is marked
    # rematch and undo (web/rematch.py, web/undo.py; docs/WEB.md, "Rematch" and "Undo")
    rematch_hold: float = 300.0  # seconds a rematch keeps the seat of a player who was not on the page
    undo_window: float = 2.0  # seconds after a person's box before a bot throws, while that box may be undone
    # the lobby and quick match (web/lobby.py; docs/WEB.md, "Lobby and quick match")
    lobby_refresh: float = 1.0  # seconds between the lobby's rounds (its list pushed when it changed, seeks kept)
    seek_fresh: float = 30.0  # seconds a seek lives without its process renewing it (a process that died)
    seek_bot_after: float = 30.0  # seconds of seeking before the page offers a bot instead
    max_seeks: int = 1000  # people seeking at once on the site; more are refused
    quick_timer: int = 120  # the turn timer of a table made by quick match (seconds)
    lobby_list: int = 50  # tables of each kind (open, live) the lobby lists
    daily_presets: tuple[str, ...] = ("generala", "yahtzee", "yatzy")  # the daily challenge's games (web/daily.py)
    # tournaments (web/tournaments.py; docs/CLUBS.md)
    tournament_poll: float = 5.0  # seconds between rounds of looking for tournaments to start or move on
    max_entrants: int = 64  # entrants of one tournament
    max_tournaments: int = 200  # tournaments not finished on the site; creation answers 503 beyond
    tournaments_per_network: int = 5  # tournaments not finished made from one network (429 beyond)
    # turn-based games (web/turnbased.py): hours per turn, and "your turn" e-mails when an operator sets SMTP
    turn_poll: float = 60.0  # seconds between looks for turns whose time has run out
    max_turn_hours: float = 336.0  # the longest turn a table may give (two weeks)
    smtp_host: str = ""  # the mail server for "your turn" notices ("" : no notices)
    smtp_port: int = 25
    smtp_from: str = "cubilete@localhost"
    site_url: str = ""  # the site's public address, for the links in the notices ("" : no notices)

    @classmethod
    def from_environment(cls, db_url: str | None = None, bot_delay: float | None = None) -> Settings:
        """Arguments first, then ``CUBILETE_DB_URL``, then the SQLite file in the user data folder;
        any other field from ``CUBILETE_<FIELD>`` when set."""
        url = db_url or os.environ.get("CUBILETE_DB_URL") or default_url()
        values: dict[str, Any] = {"db_url": url}
        for f in dataclasses.fields(cls):
            raw = os.environ.get(f"CUBILETE_{f.name.upper()}")
            if f.name == "db_url" or raw is None:
                continue
            values[f.name] = _parse(f.name, f.default, raw)
        if bot_delay is not None:
            values["bot_delay"] = bot_delay
        return cls(**values)


def _parse(name: str, default: object, raw: str) -> object:
    """The environment's text for a field, as the field's type (that of its default)."""
    where = f"CUBILETE_{name.upper()}={raw!r}"
    if isinstance(default, tuple):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    if isinstance(default, bool):
        if raw.lower() not in ("1", "0", "true", "false", "yes", "no"):
            raise CubileteError(f"{where}: expected true or false")
        return raw.lower() in ("1", "true", "yes")
    try:
        if isinstance(default, int):
            value: object = int(raw)
        elif isinstance(default, float):
            value = float(raw)
        else:
            return raw
    except ValueError:
        raise CubileteError(f"{where}: expected a number") from None
    if isinstance(value, int | float) and value < 0:
        raise CubileteError(f"{where}: expected a number of at least 0")
    return value
