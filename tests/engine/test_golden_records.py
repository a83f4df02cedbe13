"""Golden game records (tests/golden/records.json): hand-written throws and actions with the result worked
out by hand from the rules; each replays through :func:`cubilete.engine.record.from_record`, which refuses a record
whose written result (finished, totals, winners, reason) differs from its replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cubilete.engine.record import FORMAT, VERSION, from_record, to_record
from cubilete.engine.rules import find_rules, rules_from_dict, rules_to_dict

SPECS: list[dict[str, Any]] = json.loads((Path(__file__).parents[1] / "golden" / "records.json").read_text("utf-8"))


def record_of(spec: dict[str, Any]) -> dict[str, Any]:
    """The game record a spec describes; its rules go through the codec like a stored record's."""
    rules = rules_from_dict({**rules_to_dict(find_rules(spec["rules"])), **spec["changes"]})
    record = {"format": FORMAT, "version": VERSION, "rules": rules_to_dict(rules), "players": spec["players"],
              "seed": spec["name"], "throws": spec["throws"], "actions": spec["actions"]}  # fmt: skip
    for key in ("finished", "winners", "reason", "totals"):
        if key in spec:
            record[key] = spec[key]
    return record


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_golden_record_replays_to_its_result(spec: dict[str, Any]) -> None:
    game = from_record(record_of(spec))
    assert game.is_over == spec["finished"]
    again = to_record(game)
    assert again["totals"] == spec["totals"]
    assert again.get("winners") == spec.get("winners") and again.get("reason") == spec.get("reason")
    assert again["throws"] == spec["throws"] and again["actions"] == spec["actions"]
    assert from_record(again).state == game.state


def test_a_changed_result_is_refused() -> None:
    """The check has teeth: the same record with another winner does not replay."""
    from cubilete.engine.errors import RecordError

    record = record_of(SPECS[0])
    record["winners"] = ["Beto"]
    with pytest.raises(RecordError, match="record winners"):
        from_record(record)
