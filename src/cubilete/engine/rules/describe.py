"""Rules in plain words, for ``cubilete rules show`` and the apps, in the current language
(:mod:`cubilete.i18n`; English is the source text)."""

from __future__ import annotations

from cubilete.engine.rules.model import Box, Direction, Joker, Kind, Order, Points, Rules, Start, TieBreak
from cubilete.engine.rules.presets import all_presets
from cubilete.i18n import N_, _, box_name, ngettext

_ORDER_WORDS = {
    Order.FREE: N_("any order"),
    Order.DOWN: N_("top to bottom"),
    Order.UP: N_("bottom to top"),
    Order.FIRST_THROW: N_("any order, points only with the first throw"),
}
_START_WORDS = {
    Start.HIGHEST_DIE: N_("each throws one die, the highest starts"),
    Start.LOWEST_SUM: N_("each throws all the dice, the lowest sum starts"),
    Start.SEAT_ORDER: N_("the first seat starts"),
}
_DIRECTION_WORDS = {
    Direction.CLOCKWISE: N_("turns pass in seat order"),
    Direction.COUNTER_CLOCKWISE: N_("turns pass in reverse seat order"),
}
_TIE_WORDS = {
    TieBreak.EXTRA_ROUND: N_("a tie for first is settled by one more hand each, repeated while tied"),
    TieBreak.SHARED: N_("a tie for first shares the win"),
}
_JOKER_WORDS = {
    Joker.FORCED: N_("forced"),
    Joker.FREE: N_("free choice"),
    Joker.ORIGINAL: N_("original"),
}


def _faces(p: tuple[int, ...]) -> str:
    return "-".join(map(str, p))


def _groups(box: Box) -> str:
    sizes = box.groups
    if len(sizes) == 1:
        what = (_("exactly {n} equal dice") if box.exact else _("{n} equal dice")).format(n=sizes[0])
    elif sizes == (3, 2):
        what = _("three equal dice and two equal dice")
    elif all(s == 2 for s in sizes):
        what = _("{n} pairs").format(n=len(sizes))
    else:
        what = " + ".join(_("{n} equal").format(n=s) for s in sizes)
    if len(sizes) > 1:
        what += " " + (_("of different faces") if box.distinct else _("(the same face allowed)"))
    return what


def box_rule(box: Box) -> str:
    """What the box needs and pays, in one line of plain words."""
    if box.kind is Kind.UPPER:
        return _("sum of the dice showing {face}").format(face=box.face)
    if box.kind is Kind.CHANCE:
        need = _("any dice")
    elif box.kind is Kind.STRAIGHT:
        need = _("one of {patterns}").format(patterns=", ".join(_faces(p) for p in box.patterns))
    else:
        need = _groups(box)
    if box.points is Points.SUM or (box.points is Points.PATTERN and box.kind is Kind.CHANCE):
        pays = _("sum of all the dice")
    elif box.points is Points.PATTERN:
        pays = _("sum of those dice")
    else:
        pays = str(box.value)
        for face, value in box.face_values:
            pays += " " + _("({value} with {face}s)").format(value=value, face=face)
    parts = [f"{need}: {pays}"]
    if box.first_throw_value is not None:
        parts.append(_("{points} servida (first throw)").format(points=box.first_throw_value))
    if box.first_throw_bonus:
        parts.append(_("+{points} servida (first throw)").format(points=box.first_throw_bonus))
    if box.instant_win and box.win_after_scratch:
        parts.append(_("servida wins the game at once, even after this box was scratched"))
    elif box.instant_win:
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
    throws = ngettext("{dice} dice, {n} throw a turn", "{dice} dice, {n} throws a turn", rules.throws)
    boxes = _("{turns} turns a player, {boxes} boxes").format(turns=rules.turns, boxes=len(rules.slots))
    lines = [
        throws.format(dice=rules.dice, n=rules.throws)
        + (", " + _("unused throws carry over") if rules.carry_over_throws else ""),
        _("held dice stay held for the turn") if rules.locked_holds else _("held dice may be thrown again"),
        boxes + (" " + _("in {n} columns").format(n=len(rules.columns)) if len(rules.columns) > 1 else ""),
        _("columns: {columns}").format(
            columns=", ".join(f"{i + 1} {_(_ORDER_WORDS[o])}" for i, o in enumerate(rules.columns))
        ),
    ]
    if rules.upper_bonus:
        lines.append(
            _("upper bonus {points} at {threshold}").format(
                points=rules.upper_bonus, threshold=rules.upper_bonus_threshold
            )
        )
    if rules.extra_bonus_box:
        lines.append(
            _("+{points} per extra {box} while it holds points").format(
                points=rules.extra_bonus, box=rules.extra_bonus_box
            )
        )
    if rules.joker is not Joker.NONE:
        lines.append(_("joker rule: {joker}").format(joker=_(_JOKER_WORDS[rules.joker])))
    if rules.face_down_call:
        lines.append(_("a player may call 'em baixo': the faces on the table count"))
    order = (
        _("turns follow the start throw: the first, then the second, and so on")
        if rules.order_by_start
        else _(_DIRECTION_WORDS[rules.direction])
    )
    lines.append(f"{_(_START_WORDS[rules.start])}; {order}")
    lines.append(_(_TIE_WORDS[rules.tie_break]))
    lines.append(_("players: {low} to {high}").format(low=rules.min_players, high=rules.max_players))
    return lines


def closest_preset(rules: Rules) -> Rules:
    """The official preset these rules differ least from (house rules keep no record of their base)."""
    def distance(base: Rules) -> tuple[bool, int, int]:
        kept = {b.id: b for b in base.boxes}
        boxes = sum(1 for b in rules.boxes if kept.get(b.id) != b) + len(kept.keys() - set(rules.box_ids))
        game = len(set(rules_summary(rules)) ^ set(rules_summary(base)))
        # a profile keeps its base's description unless it writes its own: the base it was made from first
        return base.description != rules.description, boxes + game, abs(len(rules.boxes) - len(base.boxes))

    return min(all_presets(), key=distance)


def differences(rules: Rules, base: Rules | None = None) -> list[str]:
    """What these rules change from ``base`` (default: the closest preset), one plain line each, in the
    current language: the table page lists them under house rules' title."""
    base = base if base is not None else closest_preset(rules)
    was = set(rules_summary(base))
    lines = [line for line in rules_summary(rules) if line not in was]
    before = {b.id: b for b in base.boxes}
    for box in rules.boxes:
        old = before.get(box.id)
        if old is None:
            lines.append(_("new box {box}: {rule}").format(box=box.name, rule=box_rule(box)))
        elif old != box:
            lines.append(_("{box}: {rule}").format(box=_box_name(base, box), rule=box_rule(box)))
            if old.instant_win and not box.instant_win:  # said outright: the missing words are easy to miss
                lines.append(_("{box}: a servida no longer wins the game at once").format(box=_box_name(base, box)))
    lines += [_("no {box}").format(box=_box_name(base, b)) for b in base.boxes if b.id not in rules.box_ids]
    return lines


def _box_name(rules: Rules, box: Box) -> str:
    return box_name(rules, box.id)
