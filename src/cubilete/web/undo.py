"""What the web's undo may take back: a decision no die has been shown after.

The dice of a throw come from the table's seed and the throw's index (engine/fairness.py), so a throw
taken back and thrown again shows the same faces: an undo after a throw would show the future. So undo is
for the table's only person (everyone else is a bot, or they play alone) and takes back only the last
action, and only when it is that person's box (or tie-break stand) with no throw after it, anyone's: a
throw is never taken back, and once the next throw appears (a bot's, or the person's own next turn) the
box is written for good. After a person's box the bots wait ``Settings.undo_window`` seconds before
throwing (instead of ``bot_delay``), so a wrong tap can be taken back. Each undo is counted at the table
and in its record (``"undos"``); a game with undo never counts in rankings or in a player's statistics.
"""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.actions import Action, Roll


def lone_person(kinds: Sequence[str]) -> int | None:
    """The seat of the table's only person when every other seat is a bot (or there is no other), else None."""
    people = [i for i, kind in enumerate(kinds) if kind == "human"]
    return people[0] if len(people) == 1 else None


def can_take_back(history: Sequence[Action], acted: Sequence[int], person: int | None) -> bool:
    """True when the last action is the person's box or stand and no die has been shown since."""
    if person is None or not history or not acted:
        return False
    return not isinstance(history[-1], Roll) and acted[-1] == person
