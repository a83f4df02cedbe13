"""``cubilete score``: what a hand would get in each box now."""

from __future__ import annotations

import argparse
import json

from cubilete.cli.common import CliError, Subcommands, box_words_after_dice, filled_arg, hand_arg, rules_arg, throw_arg
from cubilete.engine.errors import NotationError
from cubilete.engine.notation import format_dice, format_filled
from cubilete.engine.rules import Rules, scoring
from cubilete.i18n import N_, _, box_name, rules_title, servida_word, translate_error
from cubilete.present.boxes import BoxLine, box_lines, describe_notes, slot_from_word
from cubilete.present.render import box_table, closed_summary, instant_win_box

EXAMPLES = N_("""\
examples:
  cubilete score --dice 3 4 5 6 1                       every open box, armada (throw 3), Generala
  cubilete score --dice 34561 --throw 1 escalera        25: an Escalera servida
  cubilete score --dice 4 4 4 4 4 --filled generala=50 doble
  cubilete score --rules yahtzee --dice 66666 --filled yahtzee=50 --json
  cubilete score --rules mesa.toml --dice 1 1 2 2 2     a house-rule profile

BOX is a box id (full), a box name (Póker), box@column on the 4-column sheet, or
the box's line number on the sheet (put a number before --dice). --filled lists
the boxes already written with their points (0 is a scratch), so prerequisites
(Doble Generala), jokers and bonuses are judged as in a game.
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``score`` command."""
    p = subparsers.add_parser(
        "score",
        help=_("points a hand would get in each box"),
        description=_("Print the points the dice would get in a box now (or in every open box)."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("box", nargs="?", metavar=_("BOX"), help=_("one box (default: every open box)"))
    p.add_argument("--rules", "-r", default="generala", metavar="R",
        help=_("preset, alias or .toml (default generala)"))
    p.add_argument("--dice", "-d", nargs="+", required=True, metavar="D", help=_("the faces: 3 4 5 6 1 or 34561"))
    p.add_argument(
        "--throw",
        "-t",
        type=int,
        default=3,
        metavar="N",
        help=_("which throw of the turn made the hand; 1 = servida (default 3: armada, made after the first throw)"),
    )
    p.add_argument(
        "--filled",
        "-f",
        action="append",
        default=[],
        metavar=_("BOXES"),
        help=_("boxes already written: generala=50,full=0 (may be repeated)"),
    )
    p.add_argument("--json", action="store_true", help=_("print a JSON object"))
    p.set_defaults(func=run)


def _line_json(line: BoxLine, rules: Rules) -> dict[str, object]:
    return {
        "line": line.line,
        "slot": line.slot,
        "box": line.box.id,
        "name": line.box.name,
        "usable": line.usable,
        "points": line.points,
        "extra_bonus": line.extra_bonus,
        "upper_bonus": line.upper_bonus,
        "notes": list(line.notes),
        "reason": line.reason,
    }


def run(args: argparse.Namespace) -> int:
    """Print the points; bad dice, boxes or ``--filled`` text end with one line and exit 2."""
    rules = rules_arg(args.rules)
    words = box_words_after_dice(args.dice)
    if words and args.box is not None:
        raise CliError(
            _("one BOX at a time: got {box} and {words}").format(box=repr(args.box), words=repr(" ".join(words)))
        )
    if words:
        args.box = " ".join(words)
    hand = hand_arg(args.dice, rules)
    throw_arg(rules, args.throw)
    card = filled_arg(args.filled, rules)
    if all(v is not None for v in card):
        raise CliError(_("--filled writes every box: nothing is left to score"))
    first = args.throw == 1
    lines = box_lines(rules, card, hand, first)
    if args.box is not None:
        try:
            slot = slot_from_word(rules, args.box)
        except NotationError as exc:
            raise CliError(translate_error(str(exc))) from None
        if lines[slot].written is not None:
            raise CliError(
                _("box {slot} is already written ({points}) in --filled").format(
                    slot=rules.slots[slot], points=lines[slot].written
                )
            )
        selected = [lines[slot]]
    else:
        selected = [b for b in lines if b.written is None]
    wins = first and scoring.instant_win(rules, card, hand)
    if args.json:
        data = {
            "rules": rules.name,
            "dice": list(hand),
            "throw": args.throw,
            "first_throw": first,
            "instant_win": wins,
            "filled": format_filled(rules, card),
            "boxes": [_line_json(b, rules) for b in selected],
        }
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    if first:
        kind = _("{servida}, the first throw").format(servida=servida_word(rules))
    else:
        kind = _("armada, after the first throw")
    print(
        _("{rules}: dice {dice}, throw {throw} ({kind})").format(
            rules=rules_title(rules), dice=format_dice(hand), throw=args.throw, kind=kind
        )
    )
    if wins:
        print(
            _("{box} {servida}: this hand wins the game at once").format(
                box=instant_win_box(rules, hand), servida=servida_word(rules)
            )
        )
    if args.box is not None:
        b = selected[0]
        name = box_name(rules, b.slot)
        if b.usable:
            notes = describe_notes(b, rules)
            print(f"{b.slot} ({name}): {b.points}" + (f"  ({notes})" if notes else ""))
        else:
            print(_("{slot} ({name}): cannot be used now: {reason}").format(slot=b.slot, name=name, reason=b.reason))
        return 0
    print(*box_table(selected, rules), sep="\n")
    closed = closed_summary(lines)
    if closed:
        print(closed)
    return 0
