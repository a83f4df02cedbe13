"""House rules: a TOML profile that starts from a preset and overrides any parameter.

Example (``mesa.toml``)::

    base = "generala"          # the preset to start from
    name = "mesa-del-club"
    title = "Club table"
    locked_holds = true        # any Rules field, e.g. throws, dice, columns
    remove = ["doble"]         # boxes to drop
    [box.generala]             # change a box
    value = 60
    [box.chance]               # a box the preset lacks: give name and kind
    name = "Chance"
    kind = "chance"
    points = "sum"

Errors name the line and the key, and say what is allowed.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from cubilete.engine.errors import RulesError
from cubilete.engine.rules.codec import RULES_FIELDS, box_fields_from_dict, rules_field
from cubilete.engine.rules.model import Box, Kind, Rules
from cubilete.engine.rules.presets import find_rules

PROFILE_KEYS = ("base", "remove", "order", "box")
NAME_MAX = 40
SLUG = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")


def check_slug(name: str) -> str:
    """``name`` if it is a rule-set slug (what profiles, records and links may call a rule set), else a
    :class:`RulesError` saying what is allowed. Names come from untrusted profiles: a slug can never be a path."""
    if len(name) > NAME_MAX or not SLUG.match(name):
        raise RulesError(
            f"name must be a slug: lowercase letters a-z, digits, and single '-' or '_' between them, "
            f"at most {NAME_MAX} characters; got {name[:NAME_MAX + 10]!r}"
        )
    return name


def slugify(text: str, fallback: str = "house-rules") -> str:
    """A slug made from any text (a profile's file name), or ``fallback`` if nothing of it is left."""
    words = re.findall(r"[a-z0-9]+(?:_[a-z0-9]+)*", text.lower())
    slug = "-".join(words)[:NAME_MAX].strip("-_")
    return slug or fallback


def _line_of(text: str, table: str | None, key: str | None) -> int | None:
    """The 1-based line where ``key`` is set inside ``[table]`` (or at top level)."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    if table is not None:
        parts = (rf"[\"']?{re.escape(part)}[\"']?" for part in table.split(".", 1))
        header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(parts) + r"\s*\]")
        starts = [i for i, line in enumerate(lines) if header.match(line)]
        if not starts:
            return None
        start = starts[0]
        if key is None:
            return start + 1
        start += 1
        nxt = [i for i in range(start, len(lines)) if lines[i].lstrip().startswith("[")]
        end = nxt[0] if nxt else len(lines)
    elif key is not None:
        nxt = [i for i, line in enumerate(lines) if line.lstrip().startswith("[")]
        end = nxt[0] if nxt else len(lines)
    if key is None:
        return None
    pat = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
    for i in range(start, end):
        if pat.match(lines[i]):
            return i + 1
    return None


def _fail(text: str, source: str, table: str | None, key: str | None, message: str) -> RulesError:
    line = _line_of(text, table, key)
    where = f"{source}:{line}" if line else source
    return RulesError(f"{where}: {message}")


def rules_from_toml(text: str, source: str = "<profile>") -> Rules:
    """Build :class:`Rules` from the text of a house-rule profile."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:  # arrays or tables nested thousands deep: no profile needs that
        raise RulesError(f"{source}: not valid TOML: values nested too deeply") from None
    base_name = data.get("base", "generala")
    if not isinstance(base_name, str):
        raise _fail(text, source, None, "base", f"base must be a preset name, got {base_name!r}")
    try:
        base = find_rules(base_name)
    except RulesError as exc:
        raise _fail(text, source, None, "base", str(exc)) from None

    changes: dict[str, object] = {"aliases": ()}
    for key, value in data.items():
        if key in PROFILE_KEYS:
            continue
        if key == "boxes":
            raise _fail(text, source, None, key, "use [box.ID] tables to change boxes, not 'boxes'")
        try:
            changes[key] = rules_field(key, value, key)
        except RulesError as exc:
            also = f"; profile keys also: {', '.join(PROFILE_KEYS)}" if key not in RULES_FIELDS else ""
            raise _fail(text, source, None, key, f"{exc}{also}") from None
        if key in ("name", "title") and not str(changes[key]).strip():
            raise _fail(text, source, None, key, f"{key} must not be empty")
        if key == "name":
            try:
                check_slug(str(changes[key]))
            except RulesError as exc:
                raise _fail(text, source, None, key, str(exc)) from None
    changes.setdefault("name", slugify(Path(source).stem) if source != "<profile>" else "house-rules")
    changes.setdefault("title", f"{base.title} (house rules)")

    boxes = list(base.boxes)
    remove = data.get("remove", [])
    if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
        raise _fail(text, source, None, "remove", "remove must be a list of box ids")
    for box_id in remove:
        if box_id not in base.box_ids:
            raise _fail(text, source, None, "remove", f"cannot remove {box_id!r}: boxes are {', '.join(base.box_ids)}")
        boxes = [b for b in boxes if b.id != box_id]

    box_tables = data.get("box", {})
    if not isinstance(box_tables, dict):
        raise _fail(text, source, None, "box", "use [box.ID] tables to change boxes")
    for box_id, table in box_tables.items():
        where = f"box.{box_id}"
        try:
            fields = box_fields_from_dict(table, where)
        except RulesError as exc:
            bad = str(exc).split(":", 1)[0].removeprefix(where + ".").split("[")[0]
            raise _fail(text, source, where, bad if bad != where else None, str(exc)) from None
        fields.pop("id", None)
        existing = [i for i, b in enumerate(boxes) if b.id == box_id]
        try:
            if existing:
                boxes[existing[0]] = boxes[existing[0]].replace(**fields)
            else:
                missing = [k for k in ("name", "kind") if k not in fields]
                if missing:
                    kinds = ", ".join(k.value for k in Kind)
                    lacking = ", ".join(missing)
                    raise RulesError(f"{where}: a new box needs name and kind; missing {lacking} (kinds: {kinds})")
                boxes.append(Box(id=box_id, **fields))  # type: ignore[arg-type]
        except RulesError as exc:
            raise _fail(text, source, where, None, str(exc)) from None

    order = data.get("order")
    if order is not None:
        ids = [b.id for b in boxes]
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(ids):
            raise _fail(text, source, None, "order", f"order must list every box once: {', '.join(ids)}")
        boxes = sorted(boxes, key=lambda b: order.index(b.id))
    changes["boxes"] = tuple(boxes)
    try:
        return base.replace(**changes)
    except RulesError as exc:
        raise _locate(text, source, data, str(exc)) from None


def _locate(text: str, source: str, data: dict[str, object], message: str) -> RulesError:
    """A consistency error of the finished rules, placed at the profile line that caused it."""
    found = re.match(r"rules '.*?'(?:, box '(?P<box>[^']*)')?: (?P<what>.*)$", message, re.S)
    what = found.group("what") if found else message
    box_id = found.group("box") if found else None
    tables = data.get("box")
    if box_id is not None and isinstance(tables, dict) and box_id in tables:
        table = tables[box_id] if isinstance(tables[box_id], dict) else {}
        keys = [k for k in table if re.search(rf"\b{re.escape(k.rstrip('s'))}", what)]
        return _fail(text, source, f"box.{box_id}", keys[0] if keys else None, message)
    for key, value in data.items():
        quoted = [f"'{v}'" for v in value if isinstance(v, str)] if isinstance(value, list) else []
        if key != "box" and (re.search(rf"\b{re.escape(key)}\b", what) or any(q in what for q in quoted)):
            return _fail(text, source, None, key, message)
    return RulesError(f"{source}: {message}")


def load_profile(path: str | Path) -> Rules:
    """Read a house-rule profile file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise RulesError(f"{p} is a folder, not a .toml profile") from None
    except OSError as exc:
        raise RulesError(f"{p}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{p}: not a UTF-8 text file") from None
    return rules_from_toml(text, str(p))


def load_rules(name_or_path: str) -> Rules:
    """A preset by name or alias, or a profile file (a path ending in ``.toml``, or any other file
    whose name is not a preset's: a file called ``yatzy`` does not hide the preset)."""
    if name_or_path.endswith(".toml"):
        return load_profile(name_or_path)
    try:
        return find_rules(name_or_path)
    except RulesError:
        path = Path(name_or_path)
        if path.is_file():
            return load_profile(path)
        if name_or_path.strip() and path.is_dir():
            raise RulesError(f"{name_or_path} is a folder, not a preset name or a .toml profile") from None
        raise
