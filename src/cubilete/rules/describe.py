"""Rules in plain words, for ``cubilete rules show`` and the apps."""

from __future__ import annotations

from cubilete.i18n import N_, _
from cubilete.rules.model import Box, Direction, Joker, Kind, Order, Points, Rules, Start, TieBreak

_ORDER_WORDS = {
    Order.FREE: N_("any order"),
    Order.DOWN: N_("top to bottom"),
    Order.UP: N_("bottom to top"),
    Order.FIRST_THROW: N_("any order, points only with the first throw"),
}

_SETTING_WORDS = {
    Start.HIGHEST_DIE: N_("highest die"),
    Start.LOWEST_SUM: N_("lowest sum"),
    Start.SEAT_ORDER: N_("seat order"),
    Direction.CLOCKWISE: N_("clockwise"),
    Direction.COUNTER_CLOCKWISE: N_("counter-clockwise"),
    TieBreak.EXTRA_ROUND: N_("extra round"),
    TieBreak.SHARED: N_("shared"),
    Joker.FORCED: N_("forced"),
    Joker.FREE: N_("free"),
    Joker.ORIGINAL: N_("original"),
}


def _setting(value: Start | Direction | TieBreak | Joker) -> str:
    word = _SETTING_WORDS.get(value)
    return _(word) if word is not None else str(value.value)


def _faces(p: tuple[int, ...]) -> str:
    return "-".join(map(str, p))


def _groups(box: Box) -> str:
    sizes = box.groups
    if len(sizes) == 1:
        what = _("{count} equal dice").format(count=sizes[0]) + (_(" (exactly)") if box.exact else "")
    elif sizes == (3, 2):
        what = _("three equal dice and two equal dice")
    elif all(s == 2 for s in sizes):
        what = _("{count} pairs").format(count=len(sizes))
    else:
        what = " + ".join(_("{count} equal").format(count=s) for s in sizes)
    if len(sizes) > 1:
        what += _(" of different faces") if box.distinct else _(" (the same face allowed)")
    return what


def box_rule(box: Box) -> str:
    """What the box needs and pays, in one line of plain words (in the current language)."""
    if box.kind is Kind.UPPER:
        return _("sum of the dice showing {face}").format(face=box.face)
    if box.kind is Kind.CHANCE:
        need = _("any dice")
    elif box.kind is Kind.STRAIGHT:
        need = _("one of {patterns}").format(patterns=", ".join(_faces(p) for p in box.patterns))
    else:
        need = _groups(box)
    if box.points is Points.SUM:
        pays = _("sum of all the dice")
    elif box.points is Points.PATTERN:
        pays = _("sum of those dice") if box.kind is not Kind.CHANCE else _("sum of all the dice")
    else:
        pays = str(box.value)
        for face, value in box.face_values:
            pays += " " + _("({value} with {face}s)").format(value=value, face=face)
    parts = [f"{need}: {pays}"]
    if box.first_throw_value is not None:
        parts.append(_("{points} servida (first throw)").format(points=box.first_throw_value))
    if box.first_throw_bonus:
        parts.append(_("{points} servida (first throw)").format(points=f"+{box.first_throw_bonus}"))
    if box.instant_win:
        parts.append(_("servida wins the game at once unless this box was scratched"))
    if box.requires:
        parts.append(_("points only once {box} holds points").format(box=box.requires))
        if box.closed_by_scratch:
            parts.append(_("closes when {box} is scratched").format(box=box.requires))
    if box.joker:
        parts.append(_("takes a joker at full value"))
    return "; ".join(parts)


def rules_summary(rules: Rules) -> list[str]:
    """The game-wide parameters, one plain line each."""
    lines = [
        _("{dice} dice, {throws} throws a turn").format(dice=rules.dice, throws=rules.throws)
        + (_(", unused throws carry over") if rules.carry_over_throws else ""),
        _("held dice stay held for the turn") if rules.locked_holds else _("held dice may be thrown again"),
        _("{turns} turns a player, {boxes} boxes").format(turns=rules.turns, boxes=len(rules.slots))
        + (_(" in {columns} columns").format(columns=len(rules.columns)) if len(rules.columns) > 1 else ""),
        _("columns: {columns}").format(
            columns=", ".join(f"{i + 1} {_(_ORDER_WORDS[o])}" for i, o in enumerate(rules.columns))
        ),
    ]
    if rules.upper_bonus:
        bonus, threshold = rules.upper_bonus, rules.upper_bonus_threshold
        lines.append(_("upper bonus {bonus} at {threshold}").format(bonus=bonus, threshold=threshold))
    if rules.extra_bonus_box:
        extra = _("+{bonus} per extra {box} while it holds points")
        lines.append(extra.format(bonus=rules.extra_bonus, box=rules.extra_bonus_box))
    if rules.joker is not Joker.NONE:
        lines.append(_("joker rule: {joker}").format(joker=_setting(rules.joker)))
    if rules.face_down_call:
        lines.append(_("a player may call 'em baixo': the faces on the table count"))
    lines.append(
        _("start: {start}; direction: {direction}; ties: {ties}").format(
            start=_setting(rules.start), direction=_setting(rules.direction), ties=_setting(rules.tie_break)
        )
    )
    lines.append(_("players: {low} to {high}").format(low=rules.min_players, high=rules.max_players))
    return lines
