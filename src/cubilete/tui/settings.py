"""The last setup a player chose, kept as JSON in the user data folder (``tui.json``).

A missing, unreadable or foreign file only means "no remembered choice": the setup
screen then starts from the defaults.

>>> SetupChoice.from_json({"rules": "yahtzee", "seats": [{"kind": "bot", "level": "random"}]}).rules
'yahtzee'
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cubilete.store.stats import data_dir

SETTINGS_FILE = "tui.json"
HUMAN = "human"
BOT = "bot"


@dataclass
class SeatChoice:
    """One seat at the table: a person with a name, or a bot with its level."""

    kind: str = HUMAN
    name: str = ""
    level: str = "random"

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.kind == BOT

    @property
    def spec(self) -> str:
        """What the game's player list holds: the name, or ``bot:LEVEL``."""
        return f"bot:{self.level}" if self.is_bot else self.name.strip()


def _default_seats() -> list[SeatChoice]:
    return [SeatChoice(HUMAN, ""), SeatChoice(BOT, level="casual")]  # a named level, not the random bot


@dataclass
class SetupChoice:
    """Everything the setup screen asks."""

    rules: str = "generala"  # a preset name
    profile: str = ""  # a house-rule profile path; used when not empty
    use_profile: bool = False
    seats: list[SeatChoice] = field(default_factory=_default_seats)
    lang: str | None = None  # only a language picked on the setup screen: else LANG and friends decide
    scorekeeper: bool = False
    seed: str = ""

    @classmethod
    def from_json(cls, data: object) -> SetupChoice:
        """A choice from its JSON object; anything unexpected falls back to the default."""
        choice = cls()
        if not isinstance(data, dict):
            return choice
        for key in ("rules", "profile", "seed"):
            if isinstance(data.get(key), str):
                setattr(choice, key, data[key])
        for key in ("use_profile", "scorekeeper"):
            if isinstance(data.get(key), bool):
                setattr(choice, key, data[key])
        # files before "lang_chosen" saved whatever language the game ran in, so an English first run
        # beat LANG=es_AR ever after: only a language the player picked is remembered
        if isinstance(data.get("lang"), str) and data.get("lang_chosen") is True:
            choice.lang = data["lang"]
        seats = data.get("seats")
        if isinstance(seats, list) and 1 <= len(seats) <= 8:
            parsed = [_seat(s) for s in seats]
            if all(s is not None for s in parsed):
                choice.seats = [s for s in parsed if s is not None]
        return choice

    def to_json(self) -> dict[str, object]:
        """The choice as a JSON object."""
        return {**asdict(self), "lang_chosen": self.lang is not None}


def _seat(data: object) -> SeatChoice | None:
    if not isinstance(data, dict) or data.get("kind") not in (HUMAN, BOT):
        return None
    name, level = data.get("name", ""), data.get("level", "random")
    if not isinstance(name, str) or not isinstance(level, str):
        return None
    return SeatChoice(str(data["kind"]), name, level)


def settings_path(folder: Path | None = None) -> Path:
    """Where the last choice is kept."""
    return (folder or data_dir()) / SETTINGS_FILE


def load_choice(folder: Path | None = None) -> SetupChoice:
    """The remembered choice, or the defaults."""
    try:
        data = json.loads(settings_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return SetupChoice()
    return SetupChoice.from_json(data)


def save_choice(choice: SetupChoice, folder: Path | None = None) -> bool:
    """Remember a choice; returns False if the folder cannot be written (the game goes on anyway)."""
    path = settings_path(folder)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(choice.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
        return True
    return False
