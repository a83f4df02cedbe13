"""cubilete.engine.fairness without the web: the whole commitment is compared, a record's seed, commitment
and replay are all checked, and a report cannot be altered once made."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from cubilete import Game, RecordError, find_rules
from cubilete.engine.fairness import FairnessReport, commitment, verify_record, verify_throws
from cubilete.engine.record import to_record

SEED = "semilla-de-prueba"
# FIPS 180-2's test vector, SHA-256("abc"): the commitment scheme is SHA-256 of the seed's UTF-8, in hex
ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def _other_hex(c: str) -> str:
    return "0" if c != "0" else "1"


def _finished_record(seed: str = SEED) -> dict[str, Any]:
    game = Game(find_rules("generala-sin-gana"), ["Ana", "Bea"], seed=seed)
    rnd = random.Random(7)
    while not game.is_over:
        game.apply(rnd.choice(game.legal_actions()))
    record = to_record(game)
    record["commitment"] = commitment(seed)
    return record


def test_the_published_commitment_is_the_sha256_hex_of_the_seed() -> None:
    assert commitment("abc") == ABC
    assert verify_throws("abc", [], ABC).ok


@pytest.mark.parametrize("position", [0, 15, 16, 40, 63])
def test_a_commitment_wrong_in_any_one_hex_digit_is_refused(position: int) -> None:
    forged = ABC[:position] + _other_hex(ABC[position]) + ABC[position + 1 :]
    report = verify_throws("abc", [], forged)
    assert not report.ok and report.commitment_checked
    assert len(report.problems) == 1 and forged in report.problems[0]


def test_a_commitment_cut_short_or_padded_is_refused() -> None:
    assert not verify_throws("abc", [], ABC[:16]).ok
    assert not verify_throws("abc", [], ABC + "0").ok


def test_a_commitment_is_read_without_case_or_surrounding_space() -> None:
    assert verify_throws("abc", [], f"  {ABC.upper()}\n").ok


def test_a_finished_records_seed_commitment_and_replay_verify() -> None:
    record = _finished_record()
    report = verify_record(record)
    assert report.ok and report.commitment_checked and report.throws == len(record["throws"]) > 0
    without = {k: v for k, v in record.items() if k != "commitment"}
    plain = verify_record(without)
    assert plain.ok and not plain.commitment_checked


def test_a_record_whose_actions_no_longer_replay_is_not_fair_even_with_the_right_dice() -> None:
    record = _finished_record()
    record["totals"] = [t + 1 for t in record["totals"]]  # the dice and commitment still match the seed
    report = verify_record(record)
    assert not report.ok
    assert report.problems == (report.problems[-1],) and "totals" in report.problems[-1]


@pytest.mark.parametrize("bad", [12345, ["ab"], {"sha": ABC}])
def test_a_commitment_that_is_not_text_is_a_record_error(bad: object) -> None:
    with pytest.raises(RecordError, match="commitment must be a hex string"):
        verify_record({**_finished_record(), "commitment": bad})


def test_a_report_cannot_be_altered_once_made() -> None:
    report = verify_throws("abc", [], ABC[::-1])
    assert not report.ok
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.problems = ()  # type: ignore[misc]
    assert FairnessReport(0, False).ok and not FairnessReport(0, False, ("x",)).ok
