"""JSON views of a live table for its clients (docs/WEB.md: table info and state).

Everything a client sees is public: dice, cards, totals. The seed appears only once the
game is over; tokens never appear (a player is shown by name and public id).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cubilete.engine.actions import Action, action_to_json
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules, find_rules
from cubilete.engine.state import Phase
from cubilete.play.sheet import slot_states
from cubilete.present.render import servida_matters
from cubilete.web.words import house_words, rules_words


@dataclass
class SeatInfo:
    """A seat of a table: a human (once someone sits) or a bot."""

    idx: int
    kind: str  # human, bot
    level: str | None
    name: str | None
    token_hash: str | None
    pid: str | None
    held_until: float | None = None  # a rematch seat kept for ``token_hash`` until then (epoch seconds)
    held_name: str | None = None  # the absent player's name, which nobody else takes at this table

    def held_for_other(self, token_hash: str | None, now: float) -> bool:
        """True if this open seat is still kept for someone else (a rematch's absent player)."""
        return self.name is None and self.held_until is not None and now < self.held_until and (
            token_hash != self.token_hash)


def preset_of(rules: Rules) -> str | None:
    """The preset name these rules are exactly (a rematch can ask for it by name), else None (house rules)."""
    try:
        return rules.name if find_rules(rules.name) == rules else None
    except CubileteError:
        return None


def table_info(table_id: str, rules: Rules, commitment: str, timer: int | None, coach: bool,
               seats: Sequence[SeatInfo]) -> dict[str, Any]:
    """What never changes at a table: rules, labels, commitment, seats' kinds."""
    words = rules_words(rules)
    preset = preset_of(rules)
    return {
        "id": table_id,
        "commitment": commitment,
        "timer": timer,
        "coach": coach,
        "rules": {
            "name": rules.name,
            "title": words["title"],
            "dice": rules.dice,
            "throws": rules.throws,
            "columns": len(rules.columns),
            "locked_holds": rules.locked_holds,
            "face_down_call": rules.face_down_call,
            "slots": words["slots"],
            "preset": preset,
            "house": None if preset is not None else house_words(rules),
            "servida": words["servida"],
            "servida_matters": servida_matters(rules),
        },
        "seats": [{"index": s.idx, "kind": s.kind, "level": s.level} for s in seats],
    }


def _sheet(game: Game) -> list[dict[str, Any]]:
    st = game.state
    card = st.seats[st.current].card
    hand = st.turn.dice if st.phase is Phase.PLAY and st.turn.throws else None
    return [
        {"slot": slot, "state": state.value, "points": points, "written": written}
        for slot, state, points, written in slot_states(game.rules, card, hand, st.turn.first_throw)
    ]


def state_view(
    version: int,
    status: str,
    rules: Rules,
    seats: Sequence[SeatInfo],
    connected: set[int],
    game: Game | None,
    last: tuple[int, Action] | None,
    deadline: float | None,
    win: tuple[Sequence[float], bool] | None = None,
    can_undo: bool = False,
) -> dict[str, Any]:
    """The whole visible state of a table (the ``state`` frame without its type).

    ``win``: every seat's chance to win and whether it is exact, once computed for this version
    (``seats[i].win_chance`` and ``win_chance_exact``; absent until then). ``can_undo``: the table's one
    person may take back their last decision now (a table against bots only)."""
    view: dict[str, Any] = {
        "version": version,
        "status": status,
        "seats": [
            {"index": s.idx, "name": s.name, "kind": s.kind, "level": s.level, "pid": s.pid,
             "connected": s.kind == "bot" or s.idx in connected, "card": [None] * len(rules.slots), "total": 0}
            for s in seats
        ],
        "current": None, "phase": None, "round": 0, "rounds": rules.turns,
        "turn": {"dice": [], "throws": 0, "allowance": rules.throws, "held": [], "first_throw": False},
        "sheet": [], "can_roll": False, "can_stand": False, "last": None,
        "deadline": deadline, "result": None, "seed": None, "throws": 0, "undo": False,
    }
    if game is None:
        return view
    st = game.state
    totals = game.totals()
    for seat, played, total in zip(view["seats"], st.seats, totals, strict=True):
        seat["card"] = list(played.card)
        seat["total"] = total
    view.update(
        current=st.current,
        phase=st.phase.value,
        round=min(st.seats[st.current].turns_taken + 1, rules.turns),
        turn={"dice": list(st.turn.dice), "throws": st.turn.throws, "allowance": st.turn.allowance,
              "held": list(st.turn.held), "first_throw": st.turn.first_throw},
        sheet=_sheet(game) if st.phase is not Phase.OVER else [],
        can_roll=st.turn.throws < st.turn.allowance and not game.is_over,
        can_stand=st.phase is Phase.TIEBREAK and st.turn.throws > 0,
        throws=len(game.throws),
        undo=can_undo and not game.is_over,
    )
    if win is not None:
        for seat, chance in zip(view["seats"], win[0], strict=True):
            seat["win_chance"] = round(chance, 6)
        view["win_chance_exact"] = win[1]
    if last is not None:
        view["last"] = {"seat": last[0], "action": action_to_json(last[1])}
    if game.is_over:
        view["result"] = {"winners": list(st.winners), "reason": st.reason.value if st.reason else None,
                          "totals": totals}
        view["seed"] = game.seed
        view["deadline"] = None
    return view
