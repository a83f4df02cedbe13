"""What a person types in line mode, turned into a game action or a command of the session."""

from __future__ import annotations

from enum import StrEnum

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.errors import NotationError
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules
from cubilete.i18n import _, pgettext
from cubilete.present.boxes import slot_from_word


class Meta(StrEnum):
    """Commands that do not change the game."""

    HELP = "help"
    QUIT = "quit"
    UNDO = "undo"
    SHEET = "sheet"
    EMPTY = "empty"
    HINT = "hint"
    COACH = "coach"
    SAVE = "save"


Command = Action | Meta

# The same keys as the terminal game (r throw, b em baixo, t stand, u undo, h hint, c coach mode,
# s save, q quit, ? help), with the words in English, Spanish and Portuguese.
_WORDS = {
    "?": Meta.HELP, "help": Meta.HELP, "ayuda": Meta.HELP, "ajuda": Meta.HELP,
    "q": Meta.QUIT, "quit": Meta.QUIT, "exit": Meta.QUIT, "salir": Meta.QUIT, "sair": Meta.QUIT,
    "u": Meta.UNDO, "undo": Meta.UNDO, "deshacer": Meta.UNDO, "desfazer": Meta.UNDO,
    "card": Meta.SHEET, "sheet": Meta.SHEET, "planilla": Meta.SHEET, "cartela": Meta.SHEET,
    "h": Meta.HINT, "hint": Meta.HINT, "pista": Meta.HINT, "dica": Meta.HINT,
    "c": Meta.COACH, "coach": Meta.COACH, "entrenador": Meta.COACH, "treinador": Meta.COACH,
    "s": Meta.SAVE, "save": Meta.SAVE, "guardar": Meta.SAVE, "salvar": Meta.SAVE,
}  # fmt: skip
_ROLL = {"r", "roll", "throw", "tirar", "lanzar", "lançar", "lancar", "jogar"}
_KEEP = {"k", "keep", "apartar", "separar", "guardar"}  # "guardar" alone saves (es); with dice it keeps (pt)
_BAIXO = {"b", "baixo", "em-baixo"}
_SCORE = {"s", "score", "a", "anotar", "marcar"}
_STAND = {"t", "stand", "st", "plantarse", "parar"}
_NOTHING = {"all", "none", "-", "todos", "nada"}


def help_text(rules: Rules) -> list[str]:
    """The commands of line mode, for ``?``, in the player's language."""
    rows = [
        ("r", _("throw every die that is not kept (kept dice are shown [in brackets])")),
        ("k 1 3", _("keep dice 1 and 3, throw the others (also: r 1 3, k 13)")),
        ("r all", _("throw every die again (k none: the same)")),
        ("s full", _("score a box by its id or name (also just: full)")),
        ("s 8", _("score the box on line 8 of the sheet (the number shown before it)")),
    ]
    if rules.face_down_call:
        rows.append(("b, b 1 3", _("call 'em baixo' and throw: the faces resting on the table count")))
    rows += [
        ("t, stand", _("in a tie-break round: keep this hand")),
        ("h", _("the coach: the best options now, with what each one loses")),
        ("c", _("coach mode on or off: a warning after each decision that loses points")),
        (pgettext("command", "sheet"), _("show the score sheet")),
        ("u", _("undo your last move (a die thrown again shows the same faces)")),
        ("s", _("save the game (then it is saved after every move)")),
        ("q", _("quit (the game is saved first if you gave --save)")),
        ("?", _("this help")),
    ]
    lines = [_("Commands:"), *(f"  {command:<12} {words}" for command, words in rows)]
    lines.append(_("Words in Spanish and Portuguese work too: tirar, apartar, anotar, ayuda, ajuda, salir, sair."))
    if rules.face_down_call:
        lines.append(_("Each turn starts with r (a normal throw) or b (em baixo)."))
    else:
        lines.append(_("The first throw of each turn is made for you."))
    return lines


def parse_positions(words: list[str], dice: int) -> tuple[int, ...]:
    """Dice positions as typed (``1 3``, ``13``, ``1,3``), 1-based, as 0-based sorted positions.

    >>> parse_positions(["1", "3"], 5), parse_positions(["135"], 5)
    ((0, 2), (0, 2, 4))
    """
    text = " ".join(words).replace(",", " ").split()
    if len(text) == 1 and text[0].isdecimal() and len(text[0]) > 1 and dice <= 9:
        text = list(text[0])
    positions: set[int] = set()
    for word in text:
        if not word.isdecimal() or not 1 <= int(word) <= dice:  # not isdigit: int('²') fails
            raise NotationError(
                _("{word} is not a die position: positions are 1 to {dice}").format(word=repr(word), dice=dice)
            )
        positions.add(int(word) - 1)
    return tuple(sorted(positions))


def _keep(words: list[str], game: Game, default_held: bool) -> tuple[int, ...]:
    if not words:
        return game.state.turn.held if default_held and game.state.turn.throws else ()
    if len(words) == 1 and words[0].lower() in _NOTHING:
        return ()
    return parse_positions(words, game.rules.dice)


def parse_command(text: str, game: Game) -> Command:
    """A typed line as an action or a :class:`Meta` command; anything unclear is a :class:`NotationError`."""
    words = text.split()
    if not words:
        return Meta.EMPTY
    head, rest = words[0].lower(), words[1:]
    if head in _WORDS and not rest:
        return _WORDS[head]
    if head in _ROLL:
        return Roll(_keep(rest, game, default_held=True))
    if head in _KEEP:
        if not rest:
            raise NotationError(_("k needs dice positions, e.g. k 1 3 (r throws every die not kept)"))
        return Roll(_keep(rest, game, default_held=False))
    if head in _BAIXO:
        if not game.rules.face_down_call:
            raise NotationError(_("{rules} has no 'em baixo' call").format(rules=game.rules.name))
        return Roll(_keep(rest, game, default_held=True), face_down=True)
    if head in _STAND and not rest:
        return Stand()
    if head in _SCORE:
        if not rest:
            raise NotationError(_("s needs a box, e.g. s full or s 8 (the line number shown)"))
        return Score(game.rules.slots[slot_from_word(game.rules, " ".join(rest))])
    if text.strip().isdigit():
        raise NotationError(
            _("to score line {line} type 's {line}'; to keep dice type 'k 1 3'").format(line=text.strip())
        )
    try:
        return Score(game.rules.slots[slot_from_word(game.rules, text)])
    except NotationError:
        unknown = _("unknown command {command}; type ? for help").format(command=repr(text.strip()))
        raise NotationError(unknown) from None
