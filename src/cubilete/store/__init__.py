"""Local storage: the statistics of finished games (SQLite in the user data folder)."""

from cubilete.engine.errors import StatsCorruptError, StatsError
from cubilete.store.stats import GameRow, PlayerStats, StatsDB, data_dir, default_path

__all__ = ["GameRow", "PlayerStats", "StatsCorruptError", "StatsDB", "StatsError", "data_dir", "default_path"]
