"""Rules to and from plain data (JSON, TOML), with a precise error for every bad value.

The same field names serve game records (full data, so a house rule replays
anywhere), house-rule profiles (overrides) and the rules hash used by the solver.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from enum import StrEnum
from typing import Any

from cubilete.engine.errors import RulesError
from cubilete.engine.rules.model import Box, Order, Rules

_NOT_DATA = {"aliases"}  # registry facts, not rules
# Fields added after the first release, written only when set: older records and hashes stay as they were.
_LATER = {"order_by_start"}
LARGEST = 10**9  # no rules number (points, dice, rounds) comes near it; bigger ones overflow the solver's arrays


def _encode(value: object) -> object:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Box):
        return box_to_dict(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def box_to_dict(box: Box) -> dict[str, object]:
    """The box as plain data, leaving out fields at their default."""
    out: dict[str, object] = {"id": box.id, "name": box.name, "kind": box.kind.value}
    for f in dataclasses.fields(Box):
        value = getattr(box, f.name)
        if f.name in out or value == f.default:
            continue
        if f.name == "patterns":
            out[f.name] = ["".join(map(str, p)) for p in value]
        elif f.name == "face_values":
            out[f.name] = {str(face): v for face, v in value}
        else:
            out[f.name] = _encode(value)
    return out


def rules_to_dict(rules: Rules) -> dict[str, object]:
    """The rules as plain data (every field, boxes in sheet order; a later field only when set)."""
    out: dict[str, object] = {}
    for f in dataclasses.fields(Rules):
        if f.name in _NOT_DATA or (f.name in _LATER and getattr(rules, f.name) == f.default):
            continue
        out[f.name] = _encode(getattr(rules, f.name))
    return out


def rules_hash(rules: Rules) -> str:
    """SHA-256 of the rules' data, ignoring name, title and description."""
    data = rules_to_dict(rules)
    for k in ("name", "title", "description"):
        data.pop(k, None)
    for box in typing.cast(list[dict[str, object]], data["boxes"]):
        box.pop("name", None)
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


# --- decoding ---------------------------------------------------------------------


def _type_name(tp: object) -> str:
    if isinstance(tp, type) and issubclass(tp, StrEnum):
        return "one of " + ", ".join(repr(m.value) for m in tp)
    names: dict[object, str] = {int: "an integer", bool: "true or false", str: "a string"}
    return names.get(tp, str(tp))


def _decode(value: object, tp: Any, where: str) -> object:
    """Check and convert one plain value to the field type ``tp``."""
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None or value == "none":
            return None
        return _decode(value, args[0], where)
    if tp is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{where}: expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where}: expected an integer, got {value!r}")
        if abs(value) > LARGEST:
            raise RulesError(f"{where}: {value} is too large (at most {LARGEST:,})")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected a string, got {value!r}")
        return value
    if isinstance(tp, type) and issubclass(tp, StrEnum):
        try:
            return tp(str(value)) if isinstance(value, str) else tp(value)  # type: ignore[arg-type]
        except ValueError:
            raise RulesError(f"{where}: expected {_type_name(tp)}, got {value!r}") from None
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise RulesError(f"{where}: expected a list, got {value!r}")
        (item,) = typing.get_args(tp)[:1]
        return tuple(_decode(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    raise RulesError(f"{where}: unsupported field type {tp}")  # pragma: no cover - a bug


_BOX_HINTS = typing.get_type_hints(Box)
_RULES_HINTS = typing.get_type_hints(Rules)
BOX_FIELDS = tuple(f.name for f in dataclasses.fields(Box))
RULES_FIELDS = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in _NOT_DATA)


def _decode_patterns(value: object, where: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list | tuple):
        raise RulesError(f'{where}: expected a list of patterns such as ["12345", "23456"]')
    out = []
    for i, p in enumerate(value):
        if isinstance(p, str) and p.isdecimal():  # isdecimal: int() reads each one ('²' is a digit, not a decimal)
            faces = [int(c) for c in p]
        elif isinstance(p, list | tuple) and all(isinstance(x, int) and not isinstance(x, bool) for x in p):
            faces = list(p)
        else:
            raise RulesError(f'{where}[{i}]: a pattern is a string of faces such as "12345", got {p!r}')
        out.append(tuple(sorted(faces)))
    return tuple(out)


def _decode_face_values(value: object, where: str) -> tuple[tuple[int, int], ...]:
    items: list[tuple[object, object]]
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple) and all(isinstance(p, list | tuple) and len(p) == 2 for p in value):
        items = [(p[0], p[1]) for p in value]
    else:
        raise RulesError(f"{where}: expected a table of face = value, such as {{ 1 = 80 }}")
    out = []
    for face, pts in items:
        try:
            f = int(str(face))
        except ValueError:
            raise RulesError(f"{where}: face {face!r} is not a number 1-6") from None
        out.append((f, typing.cast(int, _decode(pts, int, f"{where}.{face}"))))
    return tuple(sorted(out))


def box_fields_from_dict(data: dict[str, object], where: str) -> dict[str, object]:
    """Checked keyword arguments for :class:`Box` from plain data (possibly partial)."""
    if not isinstance(data, dict):
        raise RulesError(f"{where}: expected a table of box fields, got {data!r}")
    out: dict[str, object] = {}
    for key, value in data.items():
        at = f"{where}.{key}"
        if key not in BOX_FIELDS:
            raise RulesError(f"{at}: unknown box field; allowed: {', '.join(BOX_FIELDS)}")
        if key == "patterns":
            out[key] = _decode_patterns(value, at)
        elif key == "face_values":
            out[key] = _decode_face_values(value, at)
        else:
            out[key] = _decode(value, _BOX_HINTS[key], at)
    return out


def box_from_dict(data: dict[str, object], where: str) -> Box:
    """A :class:`Box` from plain data; ``id``, ``name`` and ``kind`` are required."""
    fields = box_fields_from_dict(data, where)
    missing = [k for k in ("id", "name", "kind") if k not in fields]
    if missing:
        raise RulesError(f"{where}: a box needs {', '.join(missing)}")
    return Box(**fields)  # type: ignore[arg-type]


def rules_field(key: str, value: object, where: str) -> object:
    """One checked top-level rules field (not boxes)."""
    if key not in RULES_FIELDS or key == "boxes":
        allowed = ", ".join(k for k in RULES_FIELDS if k != "boxes")
        raise RulesError(f"{where}: unknown rules field {key!r}; allowed: {allowed}")
    if key == "columns":
        if isinstance(value, str):
            value = [value]
        return _decode(value, tuple[Order, ...], where)
    return _decode(value, _RULES_HINTS[key], where)


def rules_from_dict(data: object, where: str = "rules") -> Rules:
    """A complete :class:`Rules` from plain data, as written by :func:`rules_to_dict`."""
    if not isinstance(data, dict):
        raise RulesError(f"{where}: expected an object with the rules' fields")
    fields: dict[str, object] = {}
    for key, value in data.items():
        if key == "boxes":
            if not isinstance(value, list):
                raise RulesError(f"{where}.boxes: expected a list of boxes")
            fields["boxes"] = tuple(box_from_dict(b, f"{where}.boxes[{i}]") for i, b in enumerate(value))
        else:
            fields[key] = rules_field(key, value, f"{where}.{key}")
    for key in ("name", "title", "boxes"):
        if key not in fields:
            raise RulesError(f"{where}: missing {key!r}")
    try:
        return Rules(**fields)  # type: ignore[arg-type]
    except TypeError as exc:  # pragma: no cover - guarded by the field checks above
        raise RulesError(f"{where}: {exc}") from None
