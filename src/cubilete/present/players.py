"""Who sits at the table: names from ``--players``, which seats are bots (``bot``, ``bot:optimal``, any level of
:data:`cubilete.play.bots.BOT_LEVELS`), and their names on resume."""

from __future__ import annotations

import re
import unicodedata

from cubilete.engine.errors import UnknownBotError
from cubilete.engine.game import Game
from cubilete.engine.notation import numbered
from cubilete.i18n import _, translate_error
from cubilete.play.bots import DEFAULT_LEVEL, Strategy, bot_level, is_bot_spec, make_bot
from cubilete.present.errors import CliError, text_arg

_BOT_NAME = re.compile(r"^bot(:[a-z]+)?(-\d+)?$")


def level_label(level: str) -> str:
    """A bot level for people, in the current language (``strong`` -> ``fuerte``)."""
    words = {
        "random": _("random"),
        "greedy": _("greedy"),
        "heuristic": _("heuristic"),
        "beginner": _("beginner"),
        "casual": _("casual"),
        "strong": _("strong"),
        "optimal": _("optimal"),
        "lookahead": _("lookahead"),
    }
    return words.get(level, level)


def bot_label(label: str) -> str:
    """A bot's label with its level in the current language: ``optimal-2`` -> ``óptimo-2``."""
    level, dash, number = label.partition("-")
    return level_label(level) + dash + number if number.isdigit() or not dash else label


def shown_name(name: str) -> str:
    """A seat's name for people: a bot's in the current language (``bot:strong-2`` -> ``bot fuerte 2`` in
    Spanish, ``strong bot 2`` in English; ``bot`` is the random bot), a person's as they typed it."""
    m = _BOT_NAME.match(name.lower())
    if not m:
        return name
    level = (m.group(1) or f":{DEFAULT_LEVEL}")[1:]
    number = (m.group(2) or "")[1:]
    words = _("{level} bot").format(level=level_label(level))
    return f"{words} {number}" if number else words


def bot_name(spec: str) -> str:
    """The name a bot plays under: ``bot`` for the default level, ``bot:LEVEL`` otherwise."""
    level = bot_level(spec)
    return "bot" if level == DEFAULT_LEVEL else f"bot:{level}"




def parse_players(text: str) -> list[str]:
    """Seat names from ``"Ana,bot"``; ``bot`` and ``bot:LEVEL`` become bot names."""
    raw = [p.strip() for p in text_arg("--players", text).split(",")]
    if any(not p for p in raw):
        raise CliError(_("--players: every player needs a name (got {text}); e.g. --players \"Ana,bot\"").format(
            text=repr(text)))
    odd = [p for p in raw if any(unicodedata.category(c) == "Cc" for c in p)]
    if odd:
        raise CliError(_("--players: {name}: a name cannot hold control characters (new lines, tabs, escapes)").format(
            name=repr(odd[0])))
    names: list[str] = []
    for p in raw:
        if is_bot_spec(p):
            try:
                names.append(bot_name(p))
            except UnknownBotError as exc:
                raise CliError(f"--players: {translate_error(str(exc))}") from None
        elif _BOT_NAME.match(p.lower()):
            raise CliError(_("--players: the name {name} is kept for bots; choose another name").format(name=repr(p)))
        else:
            names.append(p)
    return numbered(names)


def bot_spec_of(name: str) -> str | None:
    """The bot spec behind a seat name (``bot-2`` -> ``bot``), or None for a person."""
    m = _BOT_NAME.match(name.lower())
    if not m:
        return None
    return "bot" + (m.group(1) or "")


def seat_bots(game: Game) -> dict[int, Strategy]:
    """A bot for every bot seat, seeded from the game's seed and the seat (so a seed replays them).

    Bots that play from a solved table load it (or solve it, once) here, before the game starts.
    """
    bots: dict[int, Strategy] = {}
    for seat, name in enumerate(game.players):
        spec = bot_spec_of(name)
        if spec is not None:
            try:
                bots[seat] = make_bot(spec, f"{game.seed}:seat{seat}")
            except UnknownBotError as exc:
                reason = translate_error(str(exc))
                raise CliError(_("player {name}: {reason}").format(name=repr(name), reason=reason)) from None
            prepare = getattr(bots[seat], "prepare", None)
            if callable(prepare):
                prepare(game.rules)
    return bots
