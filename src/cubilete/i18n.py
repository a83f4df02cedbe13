"""Messages in the player's language: gettext catalogs for es (rioplatense), pt_BR and en.

Core layer: the standard library's :mod:`gettext` only. The English texts are the
message ids; the catalogs live in ``cubilete/locale/<lang>/LC_MESSAGES/cubilete.mo``
(``tools/i18n.py`` extracts, merges and compiles them).

The language is one module-level choice: :func:`set_language` (``--lang``, or the
environment: LANGUAGE, LC_ALL, LC_MESSAGES, LANG); until it is called, the first
message reads the environment.

Box names and rule titles are data of the presets: their native names (``Escalera``,
``Jogada de 1``, ``Large Straight``) are the message ids, with the contexts ``box`` and
``rules``, so a house-rule box with a name of its own keeps it in every language.

>>> set_language("es")
'es'
>>> from cubilete.engine.rules import find_rules
>>> box_name(find_rules("yahtzee"), "four-kind")
'Póker'
>>> set_language("pt_BR")
'pt_BR'
>>> box_name(find_rules("generala"), "escalera")
'Sequência'
>>> set_language("en")
'en'
"""

from __future__ import annotations

import errno
import gettext
import os
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from cubilete.engine.errors import I18nError

if TYPE_CHECKING:
    from cubilete.engine.actions import Action
    from cubilete.engine.game import Game
    from cubilete.engine.rules.model import Rules

LANGUAGES = ("es", "pt_BR", "en")
DOMAIN = "cubilete"
LOCALE_DIR = Path(__file__).parent / "locale"
ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
BOX_CONTEXT = "box"
RULES_CONTEXT = "rules"
DESCRIPTION_CONTEXT = "rules-description"
FIRST_THROW_CONTEXT = "servida"  # + ":<preset name>": the word players of that game use for a first-throw hand


_language: str | None = None
_translation: gettext.NullTranslations = gettext.NullTranslations()
# A language for one thread or task only (a web request), over the process-wide choice above.
_scoped: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar("cubilete_language", default=None)


# --- choosing the language ---------------------------------------------------------


def normalize_language(code: str) -> str | None:
    """The catalog for a language code (``es_AR.UTF-8`` -> ``es``, ``pt`` -> ``pt_BR``), or None.

    >>> [normalize_language(code) for code in ("es_AR.UTF-8", "pt-br", "C", "fr")]
    ['es', 'pt_BR', 'en', None]
    """
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_")
    if base.upper() in ("C", "POSIX"):
        return "en"
    lang = base.partition("_")[0].lower()
    return {"es": "es", "pt": "pt_BR", "en": "en"}.get(lang)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for; the first variable set decides; unknown ones mean English.

    LANGUAGE may list several languages (``fr:es``): the first one with a catalog wins.

    >>> language_from_environment({"LANG": "es_AR.UTF-8"}), language_from_environment({"LANGUAGE": "fr:pt"})
    ('es', 'pt_BR')
    """
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT_VARIABLES:
        value = env.get(name, "").strip()
        if not value:
            continue
        for part in value.split(":") if name == "LANGUAGE" else [value]:
            found = normalize_language(part) if part else None
            if found is not None:
                return found
        return "en"
    return "en"


def _load(code: str) -> gettext.NullTranslations:
    if code == "en":
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=["en"], fallback=True)
    try:
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
    except OSError:
        where = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        raise I18nError(f"the {code} catalog is missing ({where}); run: python tools/i18n.py compile") from None


def set_language(lang: str | None) -> str:
    """Use a language from now on (None: from the environment); returns the code used (one of LANGUAGES)."""
    global _language, _translation
    code = language_from_environment() if lang is None else _code(lang)
    _translation = _load(code)
    _language = code
    return code


def reset_language() -> None:
    """Forget the choice: the next message reads the environment again."""
    global _language, _translation
    _language = None
    _translation = gettext.NullTranslations()


def _code(lang: str) -> str:
    """The catalog code of a language the caller names, or I18nError."""
    found = normalize_language(lang) if lang.strip() else None
    if found is None:
        raise I18nError(f"unknown language {lang!r}; languages: {', '.join(LANGUAGES)}")
    return found


@contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Messages in ``lang`` inside the block, for this thread or task only (others keep theirs); yields the code.

    >>> with speaking("es"):
    ...     _("random")
    'al azar'
    """
    code = _code(lang)
    token = _scoped.set((code, _load(code)))
    try:
        yield code
    finally:
        _scoped.reset(token)


def _choose_from_environment() -> str:
    """The environment's language; English if its catalog is missing (a message never fails)."""
    try:
        return set_language(None)
    except I18nError:
        return set_language("en")


def current_language() -> str:
    """The language messages are shown in now (read from the environment if none was chosen)."""
    scoped = _scoped.get()
    if scoped is not None:
        return scoped[0]
    if _language is None:
        return _choose_from_environment()
    return _language


def _current() -> gettext.NullTranslations:
    scoped = _scoped.get()
    if scoped is not None:
        return scoped[1]
    if _language is None:
        _choose_from_environment()
    return _translation


# --- translating -------------------------------------------------------------------


def _(message: str) -> str:
    """The message in the current language."""
    return _current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural message for ``n``, in the current language."""
    return _current().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The message with a context (``box``, ``rules``, ...) in the current language."""
    return _current().pgettext(context, message)


DECIMAL_COMMA = ("es", "pt")  # languages that write 160,6 where English writes 160.6


def number(value: float, digits: int = 1, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals and the current language's decimal mark (``sign``: a + before
    positive values).

    >>> with speaking("es"):
    ...     number(160.56), number(-0.04)
    ('160,6', '-0,0')
    >>> with speaking("en"):
    ...     number(160.56, 2)
    '160.56'
    """
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace(".", ",") if current_language().startswith(DECIMAL_COMMA) else text


def count(value: int) -> str:
    """A whole number with the current language's thousands mark: ``1,234,567`` in English, ``1.234.567`` in
    es and pt_BR (where a comma is the decimal mark, so "1,234" would read as one and a bit).

    >>> with speaking("es"):
    ...     count(5669825378)
    '5.669.825.378'
    >>> with speaking("en"):
    ...     count(1234)
    '1,234'
    """
    text = f"{value:,}"
    return text.replace(",", ".") if current_language().startswith(DECIMAL_COMMA) else text


def interval(low: float, high: float, digits: int = 1) -> str:
    """A confidence interval, ``[low, high]``; with the decimal comma its ends are split by a semicolon so
    ``[1,5; 2,5]`` reads as two numbers.

    >>> with speaking("pt_BR"):
    ...     interval(1.46, 2.5)
    '[1,5; 2,5]'
    >>> interval(1.46, 2.5, 2)
    '[1.46, 2.50]'
    """
    comma = current_language().startswith(DECIMAL_COMMA)
    return f"[{number(low, digits)}{'; ' if comma else ', '}{number(high, digits)}]"


def N_(message: str) -> str:
    """Mark a message for extraction without translating it yet (translate it with ``_`` where it is shown)."""
    return message


def _data_name(context: str, name: str) -> str:
    key = unicodedata.normalize("NFC", name)
    shown = pgettext(context, key)
    return name if shown == key else shown


def box_name(rules: Rules, box_id: str) -> str:
    """A box's display name in the current language (a slot id ``full@2`` names its box).

    A name the catalogs do not know (a house-rule box of its own) is shown as it is.
    """
    return _data_name(BOX_CONTEXT, rules.box(box_id.partition("@")[0]).name)


def rules_title(rules: Rules) -> str:
    """The title of a rule set in the current language (a house-rule title of its own stays)."""
    base, house, _rest = rules.title.rpartition(" (house rules)")
    if house and not _rest:  # the title a profile without one gets: "Generala (house rules)"
        return _(HOUSE_RULES_TITLE).format(title=_data_name(RULES_CONTEXT, base))
    return _data_name(RULES_CONTEXT, rules.title)


def rules_description(rules: Rules) -> str:
    """The one-line description of a rule set in the current language."""
    return _data_name(DESCRIPTION_CONTEXT, rules.description) if rules.description else ""


def servida_word(rules: Rules) -> str:
    """The word for a hand made with the first throw, as the players of these rules say it.

    Each preset has its own entry (context ``servida:<name>``): "de mão" in General and
    "de boca" in Bozó for pt_BR; rules without one use the language's general word.
    """
    context = FIRST_THROW_CONTEXT + ":" + rules.name
    own = pgettext(context, "servida")
    return own if own != "servida" else _("servida")


# --- messages made in English elsewhere ----------------------------------------------

# The reasons of IllegalActionError (Game._why_illegal, Game.undo) and of RulesError /
# NotationError a player can meet: each is the English format the core uses, so the
# English text is matched and its parts put into the translation.
ERROR_TEMPLATES: tuple[str, ...] = (
    N_("not an action: {action} (expected Roll, Score or Stand)"),
    N_("the game is over"),
    N_("no throws left this turn ({allowance} used)"),
    N_("{rules} has no 'em baixo' call"),
    N_("the first throw of a turn throws every die"),
    N_("dice positions are 0 to {last}, counted from 0"),
    N_("a die position is listed twice in the dice kept"),
    N_("every die is kept: nothing to throw"),
    N_("held dice cannot be thrown again this turn (locked holds)"),
    N_("stand is only for tie-break rounds"),
    N_("throw first"),
    N_("a tie-break round is scored by standing, not in a box"),
    N_("throw the dice before scoring"),
    N_("no box {slot} in {rules}; boxes: {boxes}"),
    N_("box {slot} is already closed"),
    N_("box {slot} cannot be used now (order or joker rule); usable: {usable}"),
    N_("nothing to undo"),
    N_("unknown box {box} in {rules}; boxes: {boxes}"),
    N_("{rules} has {columns} columns: write {first} to {last}"),
    N_("{box}: columns are 1 to {columns}"),
    N_("{rules} is for {low} to {high} players, not {count}"),
    N_("every player needs a name"),
    N_("player names must be different"),
    # notation, presets and records (cubilete/engine/notation.py, dice.py, rules/presets.py, record.py)
    N_("{face} is not a die face (1 to 6)"),
    N_("no dice given"),
    N_("these rules use {count} dice; got {got}"),
    N_("{rules} uses {dice} dice; got {count} ({hand})"),
    N_("{item}: give the points after '=', e.g. {key}=30 (0 scratches the box)"),
    N_("{item}: points must be a whole number, not {value}"),
    N_("{item}: points cannot be negative"),
    N_("{item} needs points: write {write}=30 (0 scratches the box)"),
    N_("{item}: name a box before '='; boxes: {boxes}"),
    N_("box {slot} is given twice"),
    N_("{item}: {box} ({slot}) can hold {values}, not {points}"),
    N_("unknown rules {name}; presets: {presets}"),
    N_("not a cubilete game record (expected a JSON object)"),
    N_("not a cubilete game record: it is empty"),
    N_("not a cubilete game record: invalid JSON at line {line} ({reason})"),
    N_("record cannot be replayed: {reason}"),
    N_("not a cubilete game record (format is {found}, expected {format})"),
    N_("record version {found} is not supported (this cubilete reads {version})"),
    N_("record field {key} is missing or not a {kind}"),
    N_("the target bot needs a final score to reach, a whole number from 1 to {most}: bot:target:T "
       "(e.g. bot:target:200), not target:{text}"),
    N_("the record holds no seed: the game is not over, or its seed was never revealed"),
    N_("{source}: not valid TOML: {reason}"),
    # the solver's limits (cubilete/solver/space.py) and bot levels (cubilete/play/bots)
    N_("{rules}: a sheet of {columns} columns has 2^{slots} sheet states; "
       "too large to solve exactly (bots use a one-turn search instead)"),
    N_("{rules}: throws that carry over between turns make the state space too large to solve exactly "
       "(bots use a one-turn search instead)"),
    N_("{rules}: {states} states (2^{slots} sheets x {upper} upper totals x {flags} flags) "
       "is more than the {most} this solver handles"),
    N_("{rules}: fewer rounds than boxes together with boxes that close by themselves"),
    # the saved-throws solver's limits (cubilete/solver/maxi/saved.py)
    N_("{rules}: a table of {size} bytes (cap {cap}) is larger than {limit} GB"),
    N_("the cap on saved throws must be 0 or more, not {cap}"),
    N_("{rules}: no saved throws (use the layered solver)"),
    # a policy measured by `cubilete evaluate` (cubilete/envs/evaluate.py); Python's own reason stays as it is
    N_("a policy is named module:function, not {spec}"),
    N_("policy {spec}: cannot import {module} ({reason})"),
    N_("policy {spec}: {module} has no function {name}"),
    N_("policy {spec} chose action {action}, which is not legal (game {game})"),
    # the two-player solver's limits (cubilete/duel) and the win tables' (cubilete/win/tables.py)
    N_("{rules} is not played by two players"),
    N_("{rules}: {sheets} sheet states per player; the joint game is too large to solve exactly"),
    N_("{rules}: the two-player table holds {cells} values ({positions} joint positions, {size} GB, {work} GB in "
       "memory while solving); more than the {most} values and {limit} GB this solver handles (docs/WINNING.md)"),
    N_("{rules}: the two-player table ({cells} values) is not solved yet; solve it once with `cubilete solve "
       "--rules {rules} --players 2`"),
    N_("{rules}: solving the two-player table needs {need} GB free on the disk at {folder}, and {free} GB are free"),
    N_("{rules}: solving the two-player table needs {need} GB of memory, and {free} GB are available"),
    N_("{rules}: {states} states x {targets} targets = {cells} cells is more than the {most} the win tables hold "
       "(distributions and target play work without them; win chances and the win bot need them)"),
    # the Dask cluster of solve --dask (cubilete/solver/maxi/cluster.py)
    N_("--dask needs the dask extra: pip install 'cubilete[dask]'"),
    N_("--dask {address}: local:N needs a number of worker processes N >= 1"),
    N_("--dask {address}: give a scheduler address tcp://HOST:PORT or local:N"),
    N_("--dask {address}: no Dask scheduler answers there ({reason})"),
    N_("--dask: a worker cannot use the table in {folder} ({reason}); every worker must see that folder"),
    N_("unknown bot level {level} in {spec}; levels: {levels}"),
    N_("{spec} is not a bot; write bot or bot:LEVEL (levels: {levels})"),
    N_("name at least one bot"),
)

# The mistakes of a house-rule profile (cubilete/engine/rules/profile.py, codec.py, model.py): the part after
# "file:line: " (and after a key such as "dice: " or "rules 'mesa', box 'full': "). A longer message
# comes before a shorter one it starts with ({allowed} would swallow the rest).
PROFILE_TEMPLATES: tuple[str, ...] = (
    N_("{source}: not valid TOML: values nested too deeply"),
    N_("name must be a slug: lowercase letters a-z, digits, and single '-' or '_' between them, "
       "at most {most} characters; got {name}"),
    N_("base must be a preset name, got {value}"),
    N_("use [box.ID] tables to change boxes, not 'boxes'"),
    N_("use [box.ID] tables to change boxes"),
    N_("unknown rules field {key}; allowed: {allowed}; profile keys also: {keys}"),
    N_("unknown rules field {key}; allowed: {allowed}"),
    N_("{key} must not be empty"),
    N_("remove must be a list of box ids"),
    N_("cannot remove {box}: boxes are {boxes}"),
    N_("a new box needs name and kind; missing {missing} (kinds: {kinds})"),
    N_("order must list every box once: {boxes}"),
    N_("{path} is a folder, not a .toml profile"),
    N_("{path}: not a UTF-8 text file"),
    N_("{name} is a folder, not a preset name or a .toml profile"),
    N_("expected true or false, got {value}"),
    N_("expected an integer, got {value}"),
    N_("{value} is too large (at most {most})"),
    N_("expected a string, got {value}"),
    N_("expected one of {values}, got {value}"),
    N_("expected a list, got {value}"),
    N_('expected a list of patterns such as ["12345", "23456"]'),
    N_('a pattern is a string of faces such as "12345", got {value}'),
    N_("expected a table of face = value, such as {{ 1 = 80 }}"),
    N_("face {face} is not a number 1-6"),
    N_("expected a table of box fields, got {value}"),
    N_("unknown box field; allowed: {fields}"),
    N_("a box needs {fields}"),
    N_("expected an object with the rules' fields"),
    N_("expected a list of boxes"),
    N_("missing {key}"),
    N_("rules need a name"),
    N_("there must be at least one box"),
    N_("dice must be 1 to 8, not {dice}"),
    N_("throws must be 1 to 10, not {throws}"),
    N_("there must be at least one column"),
    N_("box ids must be unique; repeated: {ids}"),
    N_("rounds must be 1 to the number of boxes ({count}), not {rounds}"),
    N_("players must satisfy 1 <= min_players <= max_players <= 8"),
    N_("extra_bonus_box {box} is not a box"),
    N_("a joker rule needs extra_bonus_box (the five-of-a-kind box)"),
    N_("order_by_start needs a start throw (start highest-die or lowest-sum)"),
    N_("boxes {chain} require each other: none could hold points"),
    N_("an id uses only letters, digits, '-' and '_'"),
    N_("an upper box needs a face 1 to 6, not {face}"),
    N_("groups must be a list of sizes of at least 1"),
    N_("groups {groups} need more than {dice} dice"),
    N_("a straight needs at least one pattern"),
    N_("an empty pattern would match every hand"),
    N_("pattern {pattern} must be sorted faces 1-6, at most {dice} dice"),
    N_("face_values faces must be 1 to 6"),
    N_("requires {box}, which is not another box"),
    N_("win_after_scratch goes with instant_win"),
    N_("values must not be negative"),
)
# where a consistency mistake is (cubilete/engine/rules/model.py ``check_rules``): longer first
WHERE_TEMPLATES: tuple[str, ...] = (
    N_("rules {name}, box {box}"),
    N_("rules {name}"),
)
# Python's TOML reader (tomllib) explains a broken profile in English: "{reason} (at {where})"
TOML_TEMPLATES: tuple[str, ...] = (
    N_("Cannot declare {key} twice"),
    N_("Cannot mutate immutable namespace {key}"),
    N_("Cannot overwrite a value"),
    N_("Cannot redefine namespace {key}"),
    N_("Duplicate inline table key {key}"),
    N_("Escaped character is not a Unicode scalar value"),
    N_("Expected '=' after a key in a key/value pair"),
    N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"),
    N_("Expected newline or end of document after a statement"),
    N_("Expected {what}"),
    N_("Found invalid character {char}"),
    N_("Illegal character {char}"),
    N_("Invalid date or datetime"),
    N_("Invalid hex value"),
    N_("Invalid initial character for a key part"),
    N_("Invalid statement"),
    N_("Invalid value"),
    N_("Unclosed array"),
    N_("Unclosed inline table"),
    N_("Unescaped '\\' in a string"),
    N_("Unterminated string"),
)
TOML_WHERE_TEMPLATES: tuple[str, ...] = (N_("line {line}, column {column}"), N_("end of document"))
_TOML_ERROR = re.compile(r"(?P<source>.*): not valid TOML: (?P<reason>.*) \(at (?P<where>[^()]*)\)", re.DOTALL)
HOUSE_RULES_TITLE = N_("{title} (house rules)")  # the title a profile gets when it gives none

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _literal(text: str) -> str:
    """A piece of a template as the formatted text shows it (``{{`` is one brace)."""
    return re.escape(text.replace("{{", "{").replace("}}", "}"))


@lru_cache(maxsize=256)
def _template_pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    at = 0
    for m in _PLACEHOLDER.finditer(template):
        name = m.group(1)
        parts.append(_literal(template[at : m.start()]))
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = m.end()
    parts.append(_literal(template[at:]))
    return re.compile("".join(parts), re.DOTALL)


def translate_formatted(text: str, templates: Sequence[str]) -> str:
    """Translate an English text made from one of ``templates`` (``str.format`` style); others stay as they are.

    >>> set_language("es")
    'es'
    >>> translate_formatted("box full is already closed", ERROR_TEMPLATES)
    'el casillero full ya está cerrado'
    >>> set_language("en")
    'en'
    """
    for template in templates:
        match = _template_pattern(template).fullmatch(text)
        if match is not None:
            found = {key: _GROUPED.sub(_regroup, value) for key, value in match.groupdict().items()}
            if "values" in found:
                found["values"] = _value_list(found["values"])
            return _(template).format(**found)
    return text


# a whole number the engine wrote with English thousands commas ("536,448 sheet states"), not a list ("0, 4")
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")


def _regroup(match: re.Match[str]) -> str:
    """The number with the current language's thousands mark (``536.448`` in es and pt_BR)."""
    return count(int(match[0].replace(",", "")))


_RANGE = re.compile(r"(-?\d+) to (-?\d+)")


def _value_list(text: str) -> str:
    """A list of numbers as ``notation`` writes it in English (``0, 4 or 8``, ``0 or 5 to 30``), in the current
    language; any other text as it is."""
    text = _RANGE.sub(lambda m: _("{low} to {high}").format(low=m[1], high=m[2]), text)
    head, sep, last = text.rpartition(" or ")
    return _("{some} or {last}").format(some=head, last=last) if sep else text


def _translated(text: str) -> str | None:
    """``text`` in the current language if it is one of the known messages, after any number of
    places (``mesa.toml:4: box.full.value: ...``, ``rules 'mesa', box 'full': ...``); None if not known."""
    toml = _TOML_ERROR.fullmatch(text)
    if toml is not None:  # the reader's reason and place, translated one by one
        reason = _("{reason} (at {where})").format(
            reason=translate_formatted(toml["reason"], TOML_TEMPLATES),
            where=translate_formatted(toml["where"], TOML_WHERE_TEMPLATES),
        )
        return _("{source}: not valid TOML: {reason}").format(source=toml["source"], reason=reason)
    for templates in (PROFILE_TEMPLATES, ERROR_TEMPLATES):
        for template in templates:
            if _template_pattern(template).fullmatch(text) is not None:
                return translate_formatted(text, (template,))
    at = text.find(": ")
    while at > 0:
        rest = _translated(text[at + 2 :])
        if rest is not None:
            return translate_formatted(text[:at], WHERE_TEMPLATES) + ": " + rest
        at = text.find(": ", at + 1)
    return None


_FILE_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EROFS: N_("the disk is read-only"),
}


def file_reason(exc: BaseException) -> str:
    """Why a file could not be read or written, in the current language (the system's own words for the rare
    causes); an engine error's message translated."""
    if isinstance(exc, OSError):
        known = _FILE_REASONS.get(exc.errno or 0)
        return _(known) if known else exc.strerror or str(exc)
    return translate_error(str(exc))


def translate_error(message: str) -> str:
    """An error message of the engine (an illegal action, an unknown box, a house-rule profile's
    mistake after its file and line) in the current language; unknown messages stay as they are.

    >>> set_language("es")
    'es'
    >>> translate_error("mesa.toml:2: dice: expected an integer, got 'seis'")
    "mesa.toml:2: dice: se esperaba un número entero, llegó 'seis'"
    >>> translate_error("profile:5: rules 'mesa', box 'full': values must not be negative")
    "profile:5: reglas 'mesa', casillero 'full': los valores no pueden ser negativos"
    >>> set_language("en")
    'en'
    """
    found = _translated(message)
    return message if found is None else found


def explain_illegal(game: Game, action: Action) -> str:
    """Why ``game.apply(action)`` would raise :class:`IllegalActionError`, in the current language ('' if legal).

    The reason is the engine's own (``Game._why_illegal``), so the two never disagree;
    a reason added to the engine later is shown in English until it has a template here.
    """
    if action in game.legal_actions():
        return ""
    return translate_error(game._why_illegal(action))
