"""One line (or two) per action, the same for people, bots and replays."""

from __future__ import annotations

from cubilete.actions import Action, Roll, Score
from cubilete.cli.render import instant_win_box, servida_matters
from cubilete.game import Game, tiebreak_value
from cubilete.notation import format_dice
from cubilete.state import EndReason, GameState


def describe_roll(game: Game, action: Roll, before: GameState) -> str:
    """``Ana keeps 4 4 (dice 1 3), throw 2 of 3: 4 2 4 6 1``."""
    st = game.state
    name = game.players[before.current]
    call = " em baixo" if action.face_down else ""
    of = f"throw {st.turn.throws} of {st.turn.allowance}"
    servida = " (servida)" if st.turn.first_throw and servida_matters(game.rules) else ""
    if not action.keep:
        return f"{name} throws{call}, {of}: {format_dice(st.turn.dice)}{servida}"
    kept = format_dice([before.turn.dice[p] for p in action.keep])
    positions = " ".join(str(p + 1) for p in action.keep)
    return f"{name} keeps {kept} (dice {positions}) and throws{call}, {of}: {format_dice(st.turn.dice)}"


def describe_score(game: Game, action: Score, before: GameState) -> str:
    """``Ana scores 20 in Escalera (escalera)``, with scratches, closed boxes and bonuses."""
    rules = game.rules
    seat_before = before.seats[before.current]
    seat_after = game.state.seats[before.current]
    slot = rules.slot_index(action.slot)
    points = seat_after.card[slot]
    name = game.players[before.current]
    box = rules.slot_box(slot)
    line = f"{name} scores {points} in {box.name} ({action.slot})"
    if points == 0:
        line = f"{name} scratches {box.name} ({action.slot}) with {format_dice(before.turn.dice)}"
    also = [
        rules.slots[i]
        for i, (old, new) in enumerate(zip(seat_before.card, seat_after.card, strict=True))
        if i != slot and old is None and new is not None
    ]
    if also:
        line += f"; {', '.join(also)} closes too"
    extra = seat_after.extra_bonuses - seat_before.extra_bonuses
    if extra:
        line += f"; +{extra * rules.extra_bonus} bonus for an extra {rules.extra_bonus_box}"
    return line


def describe_step(game: Game, action: Action, before: GameState) -> list[str]:
    """What an action did, just after ``game.apply(action)`` from state ``before``."""
    if isinstance(action, Roll):
        lines = [describe_roll(game, action, before)]
        if game.is_over and game.state.reason is EndReason.INSTANT_WIN:
            box = instant_win_box(game.rules, game.state.turn.dice)
            lines.append(f"{game.players[before.current]} made {box} servida and wins at once!")
        return lines
    if isinstance(action, Score):
        return [describe_score(game, action, before)]
    worth = tiebreak_value(game.rules, before.turn.dice, before.turn.first_throw)
    return [f"{game.players[before.current]} stands with {format_dice(before.turn.dice)}, worth {worth}"]
