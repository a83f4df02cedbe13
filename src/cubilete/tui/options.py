"""Settings every screen of one app run shares."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class AppOptions:
    """How this run of the app behaves (from ``make_app``'s arguments)."""

    bot_delay: float = 0.6  # seconds between two bot actions, so people can follow them
    data_dir: Path | None = None  # user data folder (remembered setup, statistics); None: the default one
    coach_threshold: float = 1.0  # coach mode warns when a decision loses more than this many points
    coach_mode: bool = False  # coach mode on from the start
