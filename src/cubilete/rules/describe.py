"""Rules in plain words, for ``cubilete rules show`` and the apps."""

from __future__ import annotations

from cubilete.rules.model import Box, Joker, Kind, Order, Points, Rules

_ORDER_WORDS = {
    Order.FREE: "any order",
    Order.DOWN: "top to bottom",
    Order.UP: "bottom to top",
    Order.FIRST_THROW: "any order, points only with the first throw",
}


def _faces(p: tuple[int, ...]) -> str:
    return "-".join(map(str, p))


def _groups(box: Box) -> str:
    sizes = box.groups
    if len(sizes) == 1:
        what = f"{sizes[0]} equal dice" + (" (exactly)" if box.exact else "")
    elif sizes == (3, 2):
        what = "three equal dice and two equal dice"
    elif all(s == 2 for s in sizes):
        what = f"{len(sizes)} pairs"
    else:
        what = " + ".join(f"{s} equal" for s in sizes)
    if len(sizes) > 1:
        what += " of different faces" if box.distinct else " (the same face allowed)"
    return what


def box_rule(box: Box) -> str:
    """What the box needs and pays, in one line of plain English."""
    if box.kind is Kind.UPPER:
        return f"sum of the dice showing {box.face}"
    if box.kind is Kind.CHANCE:
        need = "any dice"
    elif box.kind is Kind.STRAIGHT:
        need = "one of " + ", ".join(_faces(p) for p in box.patterns)
    else:
        need = _groups(box)
    if box.points is Points.SUM:
        pays = "sum of all the dice"
    elif box.points is Points.PATTERN:
        pays = "sum of those dice" if box.kind is not Kind.CHANCE else "sum of all the dice"
    else:
        pays = str(box.value)
        for face, value in box.face_values:
            pays += f" ({value} with {face}s)"
    parts = [f"{need}: {pays}"]
    if box.first_throw_value is not None:
        parts.append(f"{box.first_throw_value} servida (first throw)")
    if box.first_throw_bonus:
        parts.append(f"+{box.first_throw_bonus} servida (first throw)")
    if box.instant_win and box.win_after_scratch:
        parts.append("servida wins the game at once, even after this box was scratched")
    elif box.instant_win:
        parts.append("servida wins the game at once unless this box was scratched")
    if box.requires:
        parts.append(f"points only once {box.requires} holds points")
        if box.closed_by_scratch:
            parts.append(f"closes when {box.requires} is scratched")
    if box.joker:
        parts.append("takes a joker at full value")
    return "; ".join(parts)


def rules_summary(rules: Rules) -> list[str]:
    """The game-wide parameters, one plain line each."""
    lines = [
        f"{rules.dice} dice, {rules.throws} throws a turn"
        + (", unused throws carry over" if rules.carry_over_throws else ""),
        "held dice stay held for the turn" if rules.locked_holds else "held dice may be thrown again",
        f"{rules.turns} turns a player, {len(rules.slots)} boxes"
        + (f" in {len(rules.columns)} columns" if len(rules.columns) > 1 else ""),
        "columns: " + ", ".join(f"{i + 1} {_ORDER_WORDS[o]}" for i, o in enumerate(rules.columns)),
    ]
    if rules.upper_bonus:
        lines.append(f"upper bonus {rules.upper_bonus} at {rules.upper_bonus_threshold}")
    if rules.extra_bonus_box:
        lines.append(f"+{rules.extra_bonus} per extra {rules.extra_bonus_box} while it holds points")
    if rules.joker is not Joker.NONE:
        lines.append(f"joker rule: {rules.joker.value}")
    if rules.face_down_call:
        lines.append("a player may call 'em baixo': the faces on the table count")
    if rules.order_by_start:
        lines.append(
            f"start: {rules.start.value}; turns in the order of the start throw (first, second, ...); "
            f"ties: {rules.tie_break.value}"
        )
    else:
        lines.append(f"start: {rules.start.value}; direction: {rules.direction.value}; ties: {rules.tie_break.value}")
    lines.append(f"players: {rules.min_players} to {rules.max_players}")
    return lines
