"""``cubilete rules list|show|check``: the presets, one rule set in plain words, a house-rule check."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, one_line, paragraph, rules_arg
from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import Rules, all_presets, find_rules, load_profile, rules_to_dict
from cubilete.engine.rules.describe import box_rule, rules_summary
from cubilete.i18n import N_, _, box_name, rules_description, rules_title, translate_error

EXAMPLES = N_("""\
examples:
  cubilete rules list                 every preset with its aliases
  cubilete rules show generala        the parameters and every box in plain words
  cubilete rules show kniffel --json  machine-readable (aliases work too)
  cubilete rules check mesa.toml      validate a house-rule profile (exit 1 if invalid)

A house-rule profile is a TOML file that starts from a preset and changes it, e.g.
  base = "generala"
  name = "mesa"
  remove = ["doble"]
  [box.generala]
  value = 60
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``rules`` command and its three actions."""
    p = subparsers.add_parser(
        "rules",
        help=_("list, show and check rule sets"),
        description=_("The rule sets: presets, their boxes in plain words, and house-rule profiles."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=None, parser=p)
    actions = p.add_subparsers(title=_("actions"), metavar=_("ACTION"))
    lst = actions.add_parser("list", help=_("every preset with its aliases and title"), epilog=_(EXAMPLES),
                             description=paragraph(_("Print every preset rule set: its name, title and aliases.")),
                             formatter_class=argparse.RawDescriptionHelpFormatter)
    lst.add_argument("--json", action="store_true", help=_("print JSON"))
    lst.set_defaults(func=run_list)
    show = actions.add_parser("show", help=_("the parameters and every box in plain words"), epilog=_(EXAMPLES),
                              description=paragraph(_("Print one rule set (a preset or a house-rule profile): "
                                                    "its parameters and every box in plain words.")),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    show.add_argument("rules", metavar="NAME|FILE", help=_("a preset name or alias, or a .toml profile"))
    show.add_argument("--json", action="store_true", help=_("print JSON (boxes and the full rules data)"))
    show.set_defaults(func=run_show)
    check = actions.add_parser("check", help=_("validate a house-rule profile (.toml)"), epilog=_(EXAMPLES),
                               description=paragraph(_("Check a house-rule profile: 'ok: ...' and exit 0, or its "
                                                     "first mistake with the line and exit 1 (2 if there is "
                                                     "no such file).")),
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("file", metavar=_("FILE"), help=_("the TOML profile"))
    check.set_defaults(func=run_check)


def run_list(args: argparse.Namespace) -> int:
    """Print every preset."""
    presets = all_presets()
    if args.json:
        data = [{"name": r.name, "aliases": list(r.aliases), "title": r.title, "description": r.description}
                for r in presets]
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    width = max(len(r.name) for r in presets)
    for r in presets:
        aliases = "  " + _("(also: {aliases})").format(aliases=", ".join(r.aliases)) if r.aliases else ""
        print(f"{r.name:<{width}}  {rules_title(r)}{aliases}")
    return 0


def _box_rows(rules: Rules) -> list[dict[str, object]]:
    return [
        {"line": i + 1, "id": b.id, "name": box_name(rules, b.id), "rule": box_rule(b)}
        for i, b in enumerate(rules.boxes)
    ]


def run_show(args: argparse.Namespace) -> int:
    """Print one rule set in plain words."""
    rules = rules_arg(args.rules)
    if args.json:
        data = {
            "name": rules.name,
            "title": rules.title,
            "aliases": list(rules.aliases),
            "summary": rules_summary(rules),
            "boxes": _box_rows(rules),
            "slots": list(rules.slots),
            "rules": rules_to_dict(rules),
        }
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    aliases = " " + _("(also: {aliases})").format(aliases=", ".join(rules.aliases)) if rules.aliases else ""
    print(f"{rules_title(rules)} [{rules.name}]{aliases}")
    if rules.description and rules.description != rules.title:
        print(rules_description(rules))
    for line in rules_summary(rules):
        print(f"  {line}")
    if len(rules.columns) > 1:
        n = len(rules.boxes)
        print("  " + _("the sheet repeats the boxes in {columns} columns: a place is box@column (full@2); "
                       "column 2 starts at line {line}").format(columns=len(rules.columns), line=n + 1))
    print(_("Boxes:"))
    rows = _box_rows(rules)
    id_w = max(len(str(r["id"])) for r in rows)
    name_w = max(len(str(r["name"])) for r in rows)
    for r in rows:
        print(f"  {r['line']:>2}  {r['id']!s:<{id_w}}  {r['name']!s:<{name_w}}  {r['rule']}")
    return 0


def _preset_hint(name: str) -> str:
    try:
        find_rules(name)
    except CubileteError:
        return ""
    return " " + _("('{name}' is a preset: see cubilete rules show {name})").format(name=name)


def run_check(args: argparse.Namespace) -> int:
    """Validate a profile: ``ok: ...`` and 0, or the profile's error and 1 (2 if there is no such file)."""
    if Path(args.file).is_dir():
        raise CliError(_("{path} is a folder, not a .toml profile").format(path=args.file))
    if not Path(args.file).is_file():
        raise CliError(_("no such file: {path}").format(path=args.file) + _preset_hint(args.file))
    try:
        rules = load_profile(args.file)
    except CubileteError as exc:
        raise CliError(one_line(translate_error(str(exc))), DATA_ERROR) from None
    print(
        _("ok: {name} — {boxes} boxes, {dice} dice, {throws} throws, {turns} turns ({title})").format(
            name=rules.name, boxes=len(rules.slots), dice=rules.dice, throws=rules.throws, turns=rules.turns,
            title=rules_title(rules),
        )
    )
    return 0
