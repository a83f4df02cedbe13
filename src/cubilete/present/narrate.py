"""One line (or two) per action, the same for people, bots and replays."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.actions import Action, Roll, Score
from cubilete.engine.game import Game, tiebreak_value
from cubilete.engine.notation import format_dice
from cubilete.engine.state import EndReason, GameState
from cubilete.i18n import _, box_name, servida_word
from cubilete.present.render import instant_win_box, servida_matters


def describe_roll(game: Game, action: Roll, before: GameState, names: Sequence[str] | None = None) -> str:
    """``Ana keeps 4 4 (dice 1 3), throw 2 of 3: 4 2 4 6 1``."""
    st = game.state
    words = {
        "name": (names or game.players)[before.current],
        "throw": st.turn.throws,
        "allowance": st.turn.allowance,
        "dice": format_dice(st.turn.dice),
    }
    if not action.keep:
        if action.face_down:
            line = _("{name} throws em baixo, throw {throw} of {allowance}: {dice}").format(**words)
        else:
            line = _("{name} throws, throw {throw} of {allowance}: {dice}").format(**words)
        if st.turn.first_throw and servida_matters(game.rules):
            line += f" ({servida_word(game.rules)})"
        return line
    words["kept"] = format_dice([before.turn.dice[p] for p in action.keep])
    words["positions"] = " ".join(str(p + 1) for p in action.keep)
    if action.face_down:
        return _(
            "{name} keeps {kept} (dice {positions}) and throws em baixo, throw {throw} of {allowance}: {dice}"
        ).format(**words)
    return _("{name} keeps {kept} (dice {positions}) and throws, throw {throw} of {allowance}: {dice}").format(**words)


def describe_score(game: Game, action: Score, before: GameState, ids: bool = True,
                   names: Sequence[str] | None = None) -> str:
    """``Ana scores 20 in Escalera (escalera)``, with scratches, closed boxes and bonuses (``ids`` False: without
    the box's id, where nobody types it: ``Ana scores 20 in Escalera``)."""
    rules = game.rules
    seat_before = before.seats[before.current]
    seat_after = game.state.seats[before.current]
    slot = rules.slot_index(action.slot)
    points = seat_after.card[slot]
    name = (names or game.players)[before.current]
    box = box_name(rules, action.slot)
    if not ids:
        if points == 0:
            dice = format_dice(before.turn.dice)
            line = _("{name} scratches {box} with {dice}").format(name=name, box=box, dice=dice)
        else:
            line = _("{name} scores {points} in {box}").format(name=name, points=points, box=box)
    elif points == 0:
        line = _("{name} scratches {box} ({slot}) with {dice}").format(
            name=name, box=box, slot=action.slot, dice=format_dice(before.turn.dice)
        )
    else:
        line = _("{name} scores {points} in {box} ({slot})").format(name=name, points=points, box=box, slot=action.slot)
    also = [
        rules.slots[i]
        for i, (old, new) in enumerate(zip(seat_before.card, seat_after.card, strict=True))
        if i != slot and old is None and new is not None
    ]
    if also:
        line += "; " + _("{boxes} closes too").format(boxes=", ".join(also))
    extra = seat_after.extra_bonuses - seat_before.extra_bonuses
    if extra:
        line += "; " + _("+{points} bonus for an extra {box}").format(
            points=extra * rules.extra_bonus, box=rules.extra_bonus_box
        )
    return line


def describe_step(game: Game, action: Action, before: GameState, ids: bool = True,
                  names: Sequence[str] | None = None) -> list[str]:
    """What an action did, just after ``game.apply(action)`` from state ``before`` (``ids`` False: boxes by
    name only, for a screen where boxes are chosen by their letter; ``names``: the seats as shown there)."""
    if isinstance(action, Roll):
        lines = [describe_roll(game, action, before, names)]
        if game.is_over and game.state.reason is EndReason.INSTANT_WIN:
            box = instant_win_box(game.rules, game.state.turn.dice)
            name = (names or game.players)[before.current]
            said = _("{name} made {box} {servida} and wins at once!")
            lines.append(said.format(name=name, box=box, servida=servida_word(game.rules)))
        return lines
    if isinstance(action, Score):
        return [describe_score(game, action, before, ids, names)]
    worth = tiebreak_value(game.rules, before.turn.dice, before.turn.first_throw)
    name = (names or game.players)[before.current]
    dice = format_dice(before.turn.dice)
    return [_("{name} stands with {dice}, worth {points}").format(name=name, dice=dice, points=worth)]
