"""Provably fair dice: a published commitment to a secret seed, and the recheck of every throw.

Before the first throw the server publishes ``commitment(seed)``; each throw ``i`` of ``n``
dice is ``SeededDice(seed).throw(i, n)``; once the game ends the seed is revealed and anyone
can recheck that it matches the commitment and gives exactly the recorded throws.

>>> seed = "s3cret"
>>> commitment(seed) == commitment(seed) != commitment("other")
True
>>> report = verify_throws(seed, [SeededDice(seed).throw(0, 5)], commitment(seed))
>>> report.ok, report.throws
(True, 1)
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cubilete.engine.dice import DuplicateDice, SeededDice
from cubilete.engine.errors import CubileteError, RecordError


def new_seed() -> str:
    """A fresh secret seed (256 random bits, hex)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The published hash of a seed: SHA-256 of its UTF-8 text, hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class FairnessReport:
    """What a recheck found: ``ok`` when the commitment and every throw match."""

    throws: int
    commitment_checked: bool
    problems: tuple[str, ...] = field(default=())
    published_checked: bool = False  # checked against a commitment given from outside the record
    signature_checked: bool = False  # the site's signature was checked (cubilete.engine.signature)

    @property
    def ok(self) -> bool:
        """True when nothing was found wrong."""
        return not self.problems


def verify_throws(seed: str, throws: Sequence[Sequence[int]], committed: str | None = None) -> FairnessReport:
    """Recheck the commitment (when given) and re-derive every throw from the seed."""
    problems: list[str] = []
    if committed is not None and commitment(seed) != committed.strip().lower():
        problems.append(f"the seed does not match the commitment {committed!r} (its hash is {commitment(seed)})")
    dice = SeededDice(seed)
    for index, faces in enumerate(throws):
        expected = dice.throw(index, len(faces))
        if tuple(faces) != expected:
            shown = " ".join(map(str, faces))
            derived = " ".join(map(str, expected))
            problems.append(f"throw {index + 1} is recorded as {shown} but the seed gives {derived}")
    return FairnessReport(len(throws), committed is not None, tuple(problems))


def verify_duplicate(record: Mapping[str, Any], committed: str | None = None) -> FairnessReport:
    """Recheck a duplicate game's throws: the actions replayed on the seed's duplicate dice must throw exactly
    the recorded faces (the place of each die is known only by playing the game)."""
    from cubilete.engine.game import Game  # the game imports this module's dice
    from cubilete.engine.record import steps
    from cubilete.engine.rules.codec import rules_from_dict

    problems: list[str] = []
    seed = record["seed"]
    if committed is not None and commitment(seed) != committed.strip().lower():
        problems.append(f"the seed does not match the commitment {committed!r} (its hash is {commitment(seed)})")
    try:
        fresh = Game(rules_from_dict(record["rules"], "record rules"), record["players"], seed, DuplicateDice(seed))
        for _, action, _ in steps(record):
            fresh.apply(action)
    except CubileteError as exc:
        problems.append(f"the game does not replay on its seed's dice: {exc}")
        return FairnessReport(len(record["throws"]), committed is not None, tuple(problems))
    for index, (faces, expected) in enumerate(zip(record["throws"], fresh.throws, strict=False)):
        if tuple(faces) != tuple(expected):
            shown, derived = " ".join(map(str, faces)), " ".join(map(str, expected))
            problems.append(f"throw {index + 1} is recorded as {shown} but the seed gives {derived}")
    return FairnessReport(len(record["throws"]), committed is not None, tuple(problems))


def verify_record(data: object, published: str | None = None, table: str | None = None,
                  site_keys: Mapping[str, bytes] | None = None) -> FairnessReport:
    """Recheck a game record: its seed must give its throws, match its commitment, and the game must replay.

    ``site_keys`` (public keys by id, :func:`cubilete.engine.signature.public_keys`): the record must carry the
    site's signature over all of it, made with one of them; this is what catches a coherent forgery that
    keeps the real seed, commitment and table but replays other decisions.

    ``published`` is the commitment the player saw before the game (not the one written in the record,
    which a forger writes too): the record's seed must hash to it. ``table`` is the table the player sat
    at: the record must be that table's. Something that is not a game record at all raises :class:`RecordError`.
    """
    from cubilete.engine.record import check_header, from_record  # the record module imports the game: keep this light

    record = check_header(data)
    committed = record.get("commitment")
    if committed is not None and not isinstance(committed, str):
        raise RecordError(f"record commitment must be a hex string, got {committed!r}")
    if not record["seed"]:
        raise RecordError("the record holds no seed: the game is not over, or its seed was never revealed")
    extra: list[str] = []
    if site_keys is not None:
        from cubilete.engine.signature import signature_problems  # imports cryptography: only when asked

        extra.extend(signature_problems(record, site_keys))
    if record.get("dice") == "duplicate":  # faces follow each die's place: re-derived by replaying the actions
        report = verify_duplicate(record, committed)
    else:
        report = verify_throws(record["seed"], record["throws"], committed)
    if published is not None:
        seen = published.strip().lower()
        if commitment(record["seed"]) != seen:
            extra.append(f"the record's seed does not match the commitment you were shown ({seen}); "
                         f"its hash is {commitment(record['seed'])}")
    if table is not None and record.get("table") != table:
        extra.append(f"the record is of table {record.get('table')!r}, not {table!r}")
    try:
        from_record(record)
    except RecordError as exc:
        extra.append(str(exc))
    return FairnessReport(report.throws, report.commitment_checked, (*report.problems, *extra), published is not None,
                          site_keys is not None)
