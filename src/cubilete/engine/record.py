"""Game records: JSON that holds the rules, players, seed, every throw and every action,
and replays to the identical state. A corrupt or foreign record is refused clearly.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cubilete.engine.actions import Action, action_from_json, action_to_json
from cubilete.engine.dice import DuplicateDice, ScriptedDice, SeededDice
from cubilete.engine.errors import CubileteError, RecordError
from cubilete.engine.game import Game
from cubilete.engine.rules.codec import rules_from_dict, rules_to_dict
from cubilete.engine.state import GameState

FORMAT = "cubilete-game"
VERSION = 1
DUPLICATE = "duplicate"  # record["dice"]: duplicate dice (engine/dice.py: DuplicateDice); absent: by throw index


def to_record(game: Game) -> dict[str, Any]:
    """The game as a JSON-ready record."""
    st = game.state
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_dict(game.rules),
        "players": list(game.players),
        "seed": game.seed,
        "throws": [list(t) for t in game.throws],
        "actions": [action_to_json(a) for a in game.history],
        "finished": game.is_over,
        "totals": game.totals(),
    }
    if isinstance(game.dice, DuplicateDice):  # a die's face follows its place, not the throw count
        record["dice"] = DUPLICATE
    if game.is_over:
        record["winners"] = [game.players[i] for i in st.winners]
        record["reason"] = st.reason.value if st.reason else None
    return record


def dumps(game: Game) -> str:
    """The record as JSON text."""
    return json.dumps(to_record(game), ensure_ascii=False, indent=1)


def check_header(data: object) -> dict[str, Any]:
    """The record as a dict once its header and field types are right; else a :class:`RecordError`."""
    if not isinstance(data, dict):
        raise RecordError("not a cubilete game record (expected a JSON object)")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a cubilete game record (format is {data.get('format')!r}, expected {FORMAT!r})")
    if isinstance(data.get("version"), bool) or data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported (this cubilete reads {VERSION})")
    for key, kind in (("rules", dict), ("players", list), ("seed", str), ("throws", list), ("actions", list)):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
    if not all(isinstance(p, str) for p in data["players"]):
        raise RecordError("record players must be names")
    if "dice" in data and data["dice"] != DUPLICATE:
        raise RecordError(f"record dice {data['dice']!r} is unknown (only {DUPLICATE!r}, or no field)")
    for i, t in enumerate(data["throws"]):
        if not isinstance(t, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in t
        ):
            raise RecordError(f"record throw {i + 1} is not a list of faces 1-6: {t!r}")
    return data


def _new_game(data: dict[str, Any]) -> Game:
    try:
        rules = rules_from_dict(data["rules"], "record rules")
        return Game(rules, data["players"], data["seed"], ScriptedDice(data["throws"]))
    except CubileteError as exc:
        raise RecordError(f"record cannot be replayed: {exc}") from None


def steps(data: object) -> Iterator[tuple[Game, Action, GameState]]:
    """Replay a record one action at a time: (game after the action, action, state before)."""
    record = check_header(data)
    game = _new_game(record)
    for number, raw in enumerate(record["actions"], 1):
        try:
            action = action_from_json(raw)
            before = game.state
            game.apply(action)
        except CubileteError as exc:
            raise RecordError(f"record action {number} ({raw!r}) does not replay: {exc}") from None
        yield game, action, before
    if len(game.throws) != len(record["throws"]):
        raise RecordError(f"record holds {len(record['throws'])} throws but its actions use {len(game.throws)}")
    _check_summary(record, game)


def from_record(data: object) -> Game:
    """Rebuild a game from its record; refuses anything that does not replay exactly.

    Throws after the recorded ones come from the seed again, as they would have.
    """
    record = check_header(data)
    game = _new_game(record)
    for replayed, _, _ in steps(record):
        game = replayed
    game.dice = DuplicateDice(game.seed) if record.get("dice") == DUPLICATE else SeededDice(game.seed)
    return game


def _check_summary(record: dict[str, Any], game: Game) -> None:
    """Refuse a record whose written result (finished, totals, winners, reason) differs from its replay."""
    summary = to_record(game)
    for key in ("finished", "totals", "winners", "reason"):
        if key in record and not _same(record[key], summary.get(key)):
            raise RecordError(f"record {key} is {record[key]!r} but its actions give {summary.get(key)!r}")


def _same(written: object, replayed: object) -> bool:
    """Equal as JSON values: ``false`` is not ``0`` and ``true`` is not ``1`` (they are in Python)."""
    if isinstance(written, bool) or isinstance(replayed, bool):
        return type(written) is type(replayed) and written == replayed
    if isinstance(written, list | tuple) and isinstance(replayed, list | tuple):
        return len(written) == len(replayed) and all(map(_same, written, replayed))
    return written == replayed


def parse(text: str) -> object:
    """The JSON data of a record's text (not yet checked); bad JSON is a :class:`RecordError`."""
    if not text.strip():
        raise RecordError("not a cubilete game record: it is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a cubilete game record: invalid JSON at line {exc.lineno} ({exc.msg})") from None
    except RecursionError:
        raise RecordError("not a cubilete game record: JSON nested too deeply") from None
    except ValueError:  # json.loads refuses integers of more than 4300 digits
        raise RecordError("not a cubilete game record: it holds a number too long to read") from None


def loads(text: str) -> Game:
    """A game from the JSON text of its record."""
    return from_record(parse(text))


def load(path: str | Path) -> Game:
    """A game from a record file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{p}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{p}: not a UTF-8 text file") from None
    try:
        return loads(text)
    except RecordError as exc:
        raise RecordError(f"{p}: {exc}") from None


def save(game: Game, path: str | Path) -> None:
    """Write the record atomically (a crash never leaves half a file)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(dumps(game))
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(p)
    except UnicodeEncodeError as exc:
        tmp.unlink(missing_ok=True)
        raise RecordError(f"{p}: cannot be written as UTF-8 ({exc.reason}); nothing was saved") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
