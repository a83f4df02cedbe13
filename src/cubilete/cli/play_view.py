"""What a person sees before each decision in line mode."""

from __future__ import annotations

from cubilete.engine.game import Game, tiebreak_value
from cubilete.engine.state import Phase
from cubilete.i18n import _, ngettext, servida_word
from cubilete.present.boxes import box_lines
from cubilete.present.render import box_table, dice_rows, servida_matters


def auto_first_throw(game: Game) -> bool:
    """True when the next action is a turn's first throw that needs no choice (no 'em baixo' call)."""
    return not game.is_over and game.state.turn.throws == 0 and not game.rules.face_down_call


def _throw_words(game: Game) -> str:
    turn, rules = game.state.turn, game.rules
    words = _("throw {throw} of {allowance}").format(throw=turn.throws, allowance=turn.allowance)
    if turn.allowance > rules.throws and game.state.phase is Phase.PLAY:
        extra = turn.allowance - rules.throws
        words += " " + ngettext("({count} carried over)", "({count} carried over)", extra).format(count=extra)
    if turn.first_throw and servida_matters(rules):
        words += ", " + servida_word(rules)
    return words


def decision_lines(game: Game) -> list[str]:
    """The dice, the throws left and what each usable box would get."""
    st, rules = game.state, game.rules
    turn, name = st.turn, game.current_player
    if turn.throws == 0:
        return [_("{name}: throw with r, or call em baixo with b (the faces on the table count)").format(name=name)]
    where = (
        _("tie-break round {round}").format(round=st.tiebreak_round)
        if st.phase is Phase.TIEBREAK
        else _("round {round} of {rounds}").format(round=st.seats[st.current].turns_taken + 1, rounds=rules.turns)
    )
    lines = [f"{name}, {where}, {_throw_words(game)}", *dice_rows(turn.dice, turn.held)]
    if st.phase is Phase.TIEBREAK:
        worth = tiebreak_value(rules, turn.dice, turn.first_throw)
        lines.append("  " + _("this hand is worth {points} in the tie-break").format(points=worth))
        shown = [f"{game.players[s]} {v}" for s, v in st.tiebreak_hands]
        if shown:
            lines.append("  " + _("hands so far: {hands}").format(hands=", ".join(shown)))
        todo = _("r or k 1 3 to throw again, stand to keep this hand")
    else:
        boxes = box_lines(rules, game.seat().card, turn.dice, turn.first_throw)
        lines += box_table(boxes, rules, show_unusable=False)
        blocked = [b for b in boxes if b.written is None and not b.usable]
        if blocked:
            lines.append(
                "  "
                + ngettext(
                    "({count} other open box cannot be used now: {reason})",
                    "({count} other open boxes cannot be used now: {reason})",
                    len(blocked),
                ).format(count=len(blocked), reason=blocked[0].reason)
            )
        todo = _("s BOX or s LINE to score, r / k 1 3 to throw again")
    if turn.throws >= turn.allowance:
        todo = _("no throws left: stand") if st.phase is Phase.TIEBREAK else _("no throws left: score a box (s LINE)")
    lines.append("  " + _("{todo}; ? for help").format(todo=todo))
    return lines
