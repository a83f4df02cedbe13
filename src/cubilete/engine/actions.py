"""The three things a player can do: throw (keeping some dice), score a box, stand.

>>> Roll(keep=(0, 2))
Roll(keep=(0, 2))
>>> action_from_json({"score": "full"})
Score(slot='full')
"""

from __future__ import annotations

from dataclasses import dataclass

from cubilete.engine.errors import NotationError


@dataclass(frozen=True)
class Roll:
    """Throw every die not kept; ``keep`` lists dice positions (0-based) left on the table."""

    keep: tuple[int, ...] = ()
    face_down: bool = False  # Bozó "em baixo": the faces on the table count

    def __post_init__(self) -> None:
        # positions in any order mean the same throw; a repeated position is kept (and refused by the game)
        object.__setattr__(self, "keep", tuple(sorted(self.keep)))

    def __repr__(self) -> str:
        parts = [f"keep={self.keep!r}"] if self.keep else []
        if self.face_down:
            parts.append("face_down=True")
        return f"Roll({', '.join(parts)})"

    def __str__(self) -> str:
        kept = " ".join(str(p + 1) for p in self.keep)
        return ("roll em-baixo" if self.face_down else "roll") + (f" keep {kept}" if kept else "")


@dataclass(frozen=True)
class Score:
    """Write the hand in a slot (a box id, or ``box@column``); 0 points is a scratch."""

    slot: str

    def __str__(self) -> str:
        return f"score {self.slot}"


@dataclass(frozen=True)
class Stand:
    """In a tie-break round: stop throwing and show this hand."""

    def __str__(self) -> str:
        return "stand"


Action = Roll | Score | Stand


def action_to_json(action: Action) -> dict[str, object]:
    """The action as a small JSON object."""
    if isinstance(action, Roll):
        out: dict[str, object] = {"roll": list(action.keep)}
        if action.face_down:
            out["face_down"] = True
        return out
    if isinstance(action, Score):
        return {"score": action.slot}
    return {"stand": True}


def action_from_json(data: object) -> Action:
    """An action from its JSON object; anything else is a :class:`NotationError`."""
    if not isinstance(data, dict):
        raise NotationError(f'an action is an object such as {{"roll": [0, 2]}}, got {data!r}')
    if "roll" in data and set(data) <= {"roll", "face_down"}:
        keep = data["roll"]
        if not isinstance(keep, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in keep):
            raise NotationError(f"roll needs a list of dice positions, got {keep!r}")
        face_down = data.get("face_down", False)
        if not isinstance(face_down, bool):
            raise NotationError(f"face_down must be true or false, got {face_down!r}")
        return Roll(tuple(keep), face_down)  # a repeated position is refused by the game, never merged
    if set(data) == {"score"} and isinstance(data["score"], str):
        return Score(data["score"])
    if data == {"stand": True}:
        return Stand()
    raise NotationError(f"unknown action {data!r}; expected roll, score or stand")
