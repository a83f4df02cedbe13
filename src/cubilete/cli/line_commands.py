"""What a person types in line mode, turned into a game action or a command of the session."""

from __future__ import annotations

from enum import StrEnum

from cubilete.actions import Action, Roll, Score, Stand
from cubilete.cli.boxes import slot_from_word
from cubilete.errors import NotationError
from cubilete.game import Game
from cubilete.rules import Rules


class Meta(StrEnum):
    """Commands that do not change the game."""

    HELP = "help"
    QUIT = "quit"
    UNDO = "undo"
    SHEET = "sheet"
    EMPTY = "empty"


Command = Action | Meta

_WORDS = {
    "?": Meta.HELP, "h": Meta.HELP, "help": Meta.HELP,
    "q": Meta.QUIT, "quit": Meta.QUIT, "exit": Meta.QUIT,
    "u": Meta.UNDO, "undo": Meta.UNDO,
    "c": Meta.SHEET, "card": Meta.SHEET, "sheet": Meta.SHEET,
}  # fmt: skip
_ROLL = {"r", "roll"}
_KEEP = {"k", "keep"}
_BAIXO = {"b", "baixo", "em-baixo"}
_SCORE = {"s", "score"}
_STAND = {"stand", "st"}
_NOTHING = {"all", "none", "-"}


def help_text(rules: Rules) -> list[str]:
    """The commands of line mode, for ``?``."""
    lines = [
        "Commands:",
        "  r            throw every die that is not kept (kept dice are shown [in brackets])",
        "  k 1 3        keep dice 1 and 3, throw the others (also: r 1 3, k 13)",
        "  r all        throw every die again (k none: the same)",
        "  s full       score a box by its id or name (also just: full)",
        "  s 8          score the box on line 8 of the sheet (the number shown before it)",
    ]
    if rules.face_down_call:
        lines.append("  b, b 1 3     call 'em baixo' and throw: the faces resting on the table count")
    lines += [
        "  stand        in a tie-break round: keep this hand",
        "  c            show the score sheet",
        "  u            undo your last move (a die thrown again shows the same faces)",
        "  q            quit (the game is saved first if you gave --save)",
        "  ?            this help",
    ]
    if rules.face_down_call:
        lines.append("Each turn starts with r (a normal throw) or b (em baixo).")
    else:
        lines.append("The first throw of each turn is made for you.")
    return lines


def parse_positions(words: list[str], dice: int) -> tuple[int, ...]:
    """Dice positions as typed (``1 3``, ``13``, ``1,3``), 1-based, as 0-based sorted positions.

    >>> parse_positions(["1", "3"], 5), parse_positions(["135"], 5)
    ((0, 2), (0, 2, 4))
    """
    text = " ".join(words).replace(",", " ").split()
    if len(text) == 1 and text[0].isdigit() and len(text[0]) > 1 and dice <= 9:
        text = list(text[0])
    positions: set[int] = set()
    for word in text:
        if not word.isdigit() or not 1 <= int(word) <= dice:
            raise NotationError(f"{word!r} is not a die position: positions are 1 to {dice}")
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
            raise NotationError("k needs dice positions, e.g. k 1 3 (r throws every die not kept)")
        return Roll(_keep(rest, game, default_held=False))
    if head in _BAIXO:
        if not game.rules.face_down_call:
            raise NotationError(f"{game.rules.name} has no 'em baixo' call")
        return Roll(_keep(rest, game, default_held=True), face_down=True)
    if head in _STAND and not rest:
        return Stand()
    if head in _SCORE:
        if not rest:
            raise NotationError("s needs a box, e.g. s full or s 8 (the line number shown)")
        return Score(game.rules.slots[slot_from_word(game.rules, " ".join(rest))])
    if text.strip().isdigit():
        raise NotationError(f"to score line {text.strip()} type 's {text.strip()}'; to keep dice type 'k 1 3'")
    try:
        return Score(game.rules.slots[slot_from_word(game.rules, text)])
    except NotationError:
        raise NotationError(f"unknown command {text.strip()!r}; type ? for help") from None
