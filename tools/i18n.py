#!/usr/bin/env python3
"""The message catalogs of cubilete: extract, update, compile, check (standard library + babel).

    python tools/i18n.py extract   # _(), ngettext, pgettext, N_ in src/cubilete + preset box names and titles -> .pot
    python tools/i18n.py update    # merge the .pot into every .po, keeping the translations
    python tools/i18n.py compile   # write the .mo beside every .po
    python tools/i18n.py check     # es and pt_BR: everything translated, nothing fuzzy, same {placeholders}
    python tools/i18n.py all       # the four in a row

Files are rewritten only when their messages change, so running it twice changes nothing.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "cubilete"
LOCALE = PACKAGE / "locale"
POT = LOCALE / "cubilete.pot"
LANGUAGES = ("es", "pt_BR", "en")
TRANSLATED = ("es", "pt_BR")  # en is the source language: its catalog may stay empty
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
F_STRING_CALL = re.compile(r"""\b(?:_|ngettext|pgettext|N_)\(\s*[rR]?[fF]["']""")

sys.path.insert(0, str(ROOT / "src"))


def po_path(lang: str) -> Path:
    """The .po file of a language."""
    return LOCALE / lang / "LC_MESSAGES" / "cubilete.po"


def mo_path(lang: str) -> Path:
    """The .mo file of a language."""
    return po_path(lang).with_suffix(".mo")


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "locale" not in p.parts)


def _new_catalog(locale: str | None = None) -> Catalog:
    return Catalog(
        locale=locale,
        project="cubilete",
        version="0.1",
        copyright_holder="cubilete developers",
        msgid_bugs_address="",
        charset="utf-8",
    )


def _preset_messages() -> Iterator[tuple[str, str]]:
    """(context, message) for every preset's box names, title, description and word for a first-throw hand."""
    from cubilete.engine.rules import all_presets
    from cubilete.i18n import BOX_CONTEXT, DESCRIPTION_CONTEXT, FIRST_THROW_CONTEXT, RULES_CONTEXT

    for rules in all_presets():
        yield RULES_CONTEXT, rules.title
        yield f"{FIRST_THROW_CONTEXT}:{rules.name}", "servida"
        if rules.description:
            yield DESCRIPTION_CONTEXT, rules.description
        for box in rules.boxes:
            yield BOX_CONTEXT, box.name


def _marked() -> Iterator[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    """(file, line, message, comments, context) for every marked message of the package."""
    for path in _sources():
        where = path.relative_to(ROOT / "src").as_posix()
        for lineno, message, comments, context in extract_from_file(
            "python", path, keywords=DEFAULT_KEYWORDS, comment_tags=("Translators:",)
        ):
            yield where, lineno, message, comments, context


def extract_catalog() -> Catalog:
    """The template: every marked message of the package, then the presets' data."""
    catalog = _new_catalog()
    for where, _line, message, comments, context in _marked():
        # file names only: line numbers would churn the catalogs at every edit
        catalog.add(message, locations=[(where, 0)], auto_comments=comments, context=context)
    for context, message in _preset_messages():
        catalog.add(message, locations=[("cubilete/engine/rules/presets.py", 0)], context=context)
    return catalog


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    """A .po or .pot file."""
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _keyed(catalog: Catalog) -> dict[tuple[object, str | None], tuple[tuple[str, ...], bool]]:
    """Message id and context -> (translation, fuzzy), without the header."""
    return {(m.id, m.context): (_strings(m.string), m.fuzzy) for m in catalog if m.id}


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=120, include_lineno=False, ignore_obsolete=True, sort_by_file=True)
    return out.getvalue()


def _write_if_changed(path: Path, old: Catalog | None, new: Catalog) -> bool:
    if (
        old is not None
        and _keyed(old) == _keyed(new)
        and _locations(old) == _locations(new)
        and _header(old) == _header(new)
    ):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_po_bytes(new))
    return True


def _header(catalog: Catalog) -> tuple[object, ...]:
    return catalog.fuzzy, catalog.last_translator, catalog.language_team


def _locations(catalog: Catalog) -> dict[tuple[object, str | None], list[str]]:
    return {(m.id, m.context): sorted({str(f) for f, _ in m.locations}) for m in catalog if m.id}


def extract() -> bool:
    """Write the .pot (only if its messages changed); True if written."""
    old = read_catalog(POT) if POT.exists() else None
    return _write_if_changed(POT, old, extract_catalog())


def update_catalog(po: Catalog | None, template: Catalog, lang: str) -> Catalog:
    """The .po merged with the template: translations kept, new messages added, stale ones dropped."""
    catalog = po if po is not None else _new_catalog(lang)
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.fuzzy = False  # the header is complete
    catalog.last_translator = "cubilete developers"
    catalog.language_team = f"{lang} (cubilete)"
    return catalog


def update() -> list[str]:
    """Merge the .pot into every language's .po; the languages whose file changed."""
    template = read_catalog(POT)
    changed = []
    for lang in LANGUAGES:
        path = po_path(lang)
        old = read_catalog(path, lang) if path.exists() else None
        new = update_catalog(read_catalog(path, lang) if path.exists() else None, template, lang)
        if _write_if_changed(path, old, new):
            changed.append(lang)
    return changed


def mo_bytes(catalog: Catalog) -> bytes:
    """The compiled .mo of a catalog (fuzzy and empty translations left out)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_all() -> list[str]:
    """Write every .mo from its .po; the languages whose .mo changed."""
    changed = []
    for lang in LANGUAGES:
        data = mo_bytes(read_catalog(po_path(lang), lang))
        path = mo_path(lang)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            changed.append(lang)
    return changed


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders of a message, sorted (``{{`` and ``}}`` are literal braces)."""
    return sorted(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def _strings(value: object) -> tuple[str, ...]:
    """A message id or translation as a tuple of texts (one per plural form; None counts as empty)."""
    if isinstance(value, tuple | list):
        return tuple(str(v or "") for v in value)
    return (str(value or ""),)


def catalog_problems(template: Catalog, po: Catalog, lang: str) -> list[str]:
    """Every way a language's catalog falls short of the template."""
    problems = []
    entries = {(m.id, m.context): m for m in po if m.id}
    for m in template:
        if not m.id:
            continue
        key = (m.id, m.context)
        where = f"{lang}: {m.context + ' | ' if m.context else ''}{_strings(m.id)[0]!r}"
        found: Message | None = entries.pop(key, None)
        if found is None:
            problems.append(f"{where}: missing (run update)")
            continue
        strings = _strings(found.string)
        if not all(s.strip() for s in strings):
            problems.append(f"{where}: not translated")
            continue
        if found.fuzzy:
            problems.append(f"{where}: fuzzy (review it and remove the fuzzy flag)")
        allowed = [set(placeholders(i)) for i in _strings(m.id)]  # singular (and plural) of the source
        for s in strings:
            if set(placeholders(s)) not in allowed:
                problems.append(f"{where}: placeholders {placeholders(s)} differ from {sorted(allowed[-1])}")
    problems += [f"{lang}: {k[0]!r} is not in the template (run update)" for k in entries]
    return problems


def f_string_calls(paths: Iterable[Path]) -> list[str]:
    """Calls like ``_(f"...")``: gettext cannot look up a text built before the call."""
    found = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if F_STRING_CALL.search(line):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{n}: f-string inside a gettext call")
    return found


def mixed_plurals() -> list[str]:
    """Texts marked both with ``_`` and as the singular of ``ngettext``: one catalog entry cannot serve both."""
    seen: dict[tuple[str, str | None], set[bool]] = {}
    where: dict[tuple[str, str | None], list[str]] = {}
    for file, line, message, _comments, context in _marked():
        key = (message[0] if isinstance(message, tuple) else message, context)
        seen.setdefault(key, set()).add(isinstance(message, tuple))
        where.setdefault(key, []).append(f"{file}:{line}")
    return [
        f"{key[0]!r} is used both with _() and ngettext() ({', '.join(where[key])}): use one of them"
        for key, kinds in seen.items()
        if len(kinds) > 1
    ]


def check() -> list[str]:
    """Everything wrong with the catalogs now (empty when all is well)."""
    problems = f_string_calls(_sources()) + mixed_plurals()
    fresh = extract_catalog()
    template = read_catalog(POT)
    if _keyed(fresh).keys() != _keyed(template).keys():
        problems.append("the .pot is out of date with the sources (run extract and update)")
    for lang in TRANSLATED:
        problems += catalog_problems(fresh, read_catalog(po_path(lang), lang), lang)
    for lang in LANGUAGES:
        if not mo_path(lang).exists() or mo_path(lang).read_bytes() != mo_bytes(read_catalog(po_path(lang), lang)):
            problems.append(f"{lang}: the .mo is out of date (run compile)")
    return problems


def main(argv: list[str]) -> int:
    """Run the commands named on the command line, in order."""
    commands = argv or ["all"]
    if commands == ["all"]:
        commands = ["extract", "update", "compile", "check"]
    for command in commands:
        if command == "extract":
            print("extract:", "cubilete.pot written" if extract() else "no change")
        elif command == "update":
            print("update:", ", ".join(update()) or "no change")
        elif command == "compile":
            print("compile:", ", ".join(compile_all()) or "no change")
        elif command == "check":
            problems = check()
            print(*problems, sep="\n") if problems else print("check: ok")
            if problems:
                print(f"check: {len(problems)} problems", file=sys.stderr)
                return 1
        else:
            print(f"unknown command {command!r}: use extract, update, compile, check or all", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
