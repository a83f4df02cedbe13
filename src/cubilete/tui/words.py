"""Short texts of the terminal game, in the player's language."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.game import Game, tiebreak_value
from cubilete.engine.rules import Rules
from cubilete.engine.state import Phase
from cubilete.i18n import _, ngettext, servida_word
from cubilete.present import players
from cubilete.present.render import servida_matters

level_label = players.level_label  # one word list for the line mode, simulate and the terminal game


def rules_facts(rules: Rules) -> str:
    """``5 dice, 3 throws, 11 boxes``."""
    return _("{dice} dice, {throws} throws, {boxes} boxes").format(
        dice=rules.dice, throws=rules.throws, boxes=len(rules.slots)
    )


def round_words(game: Game) -> str:
    """``Round 3 of 11`` or ``Tie-break round 1``."""
    st = game.state
    if st.phase is Phase.TIEBREAK:
        return _("Tie-break round {number}").format(number=st.tiebreak_round)
    if st.phase is Phase.OVER:
        return _("Game over")
    done = st.seats[st.current].turns_taken
    return _("Round {number} of {rounds}").format(number=min(done + 1, game.rules.turns), rounds=game.rules.turns)


def throw_words(game: Game) -> str:
    """``throw 2 of 3``, with carried-over throws and servida."""
    turn, rules = game.state.turn, game.rules
    if turn.throws == 0:
        return _("no throw yet ({count} allowed)").format(count=turn.allowance)
    words = _("throw {number} of {allowed}").format(number=turn.throws, allowed=turn.allowance)
    if turn.allowance > rules.throws and game.state.phase is Phase.PLAY:
        extra = turn.allowance - rules.throws
        words += " " + ngettext("({count} carried over)", "({count} carried over)", extra).format(count=extra)
    if turn.first_throw and servida_matters(rules):
        word = servida_word(rules)  # the game's own word (de boca in Bozó)
        words += " · " + (_("servida!") if word == _("servida") else f"{word}!")
    return words


def tiebreak_lines(game: Game) -> list[str]:
    """Who is in the tie-break and the hands shown so far."""
    st = game.state
    if st.phase is not Phase.TIEBREAK:
        return []
    names = ", ".join(game.players[s] for s in st.contenders)
    lines = [_("Tied: {names}. Each throws one hand; the best hand wins.").format(names=names)]
    if st.turn.throws:
        worth = tiebreak_value(game.rules, st.turn.dice, st.turn.first_throw)
        lines.append(_("This hand is worth {worth}.").format(worth=worth))
    shown = [f"{game.players[s]} {v}" for s, v in st.tiebreak_hands]
    if shown:
        lines.append(_("Hands so far: {hands}").format(hands=", ".join(shown)))
    return lines


def dice_words(dice: Sequence[int]) -> str:
    """``5 5 2 1 3``."""
    return " ".join(map(str, dice))
