"""What a game's record says of the moves made for people: by their stand-in while they were away, or
when their turn timer ran out (docs/WEB.md, "Players who leave")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cubilete.engine.dice import DuplicateDice
from cubilete.engine.game import Game

if TYPE_CHECKING:
    from cubilete.web.room import Room

REASONS = ("away", "timer")  # web_actions.by: who made a move in a person's seat


def with_stand_ins(room: Room, record: dict[str, Any], made_for: Sequence[tuple[int, int, str]]) -> dict[str, Any]:
    """The table's record with ``"stand_in"`` (:func:`stand_in_summary`) and, for a table that ended without
    its game's end, ``"ended": "abandoned"``."""
    assert room.game is not None
    people = [s.idx for s in room.seats if s.kind == "human"]
    record["stand_in"] = stand_in_summary(room.game, people, room.acted, made_for, room.settings.stand_in_mark)
    if room.ended is not None:
        record["ended"] = room.ended
    return record


def stand_in_summary(game: Game, people: Sequence[int], acted: Sequence[int], made_for: Sequence[tuple[int, int, str]],
                     mark: float) -> dict[str, Any]:
    """``{"moves": [{"move", "seat", "turn", "by"}], "made_for", "of", "marked"}``: each move made for a person
    (its 1-based place in the game, the seat, that seat's turn number, ``away`` or ``timer``), how many of the
    people's moves were made for them (``made_for`` of ``of``: integers, since a signed record must read the
    same in Python and in the page's JavaScript, which write floats differently), and whether that share is
    over ``mark`` (such a game is marked)."""
    turns = _turn_numbers(game)
    moves = [{"move": seq, "seat": seat, "turn": turns[seq - 1] if seq <= len(turns) else None, "by": by}
             for seq, seat, by in made_for if by in REASONS]
    theirs = sum(1 for seat in acted if seat in people)
    return {"moves": moves, "made_for": len(moves), "of": theirs, "marked": theirs > 0 and len(moves) > mark * theirs}


def _turn_numbers(game: Game) -> list[int]:
    """For each move of the game, the turn (1-based) of the seat that made it."""
    replay = Game(game.rules, list(game.players), game.seed,
                  DuplicateDice(game.seed) if isinstance(game.dice, DuplicateDice) else None)  # the same dice
    out = []
    for action in game.history:
        st = replay.state
        out.append(st.seats[st.current].turns_taken + 1)
        replay.apply(action)
    return out
