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

    @classmethod
    def from_environment(cls, db_url: str | None = None, bot_delay: float | None = None) -> Settings:
        """Arguments first, then ``CUBILETE_DB_URL``, then the SQLite file in the user data folder."""
        url = db_url or os.environ.get("CUBILETE_DB_URL") or default_url()
        return cls(db_url=url) if bot_delay is None else cls(db_url=url, bot_delay=bot_delay)
