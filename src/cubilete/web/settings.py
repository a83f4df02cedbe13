"""The server's settings: embedded defaults, the environment, then the command line."""

from __future__ import annotations

import os
from dataclasses import dataclass

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

    @classmethod
    def from_environment(cls, db_url: str | None = None, bot_delay: float | None = None) -> Settings:
        """Arguments first, then ``CUBILETE_DB_URL``, then the SQLite file in the user data folder."""
        url = db_url or os.environ.get("CUBILETE_DB_URL") or default_url()
        return cls(db_url=url) if bot_delay is None else cls(db_url=url, bot_delay=bot_delay)
