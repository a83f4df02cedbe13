"""``cubilete advise``: every option in a situation with its expected final score under optimal play."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, filled_arg, hand_arg, paragraph, rules_arg
from cubilete.cli.progress import progress_bar
from cubilete.engine.errors import CubileteError, NotationError, SolverUnsupportedError
from cubilete.engine.notation import format_dice, format_filled, parse_dice, parse_filled
from cubilete.engine.rules import Rules, scoring
from cubilete.i18n import N_, _, servida_word, translate_error
from cubilete.present.render import instant_win_name, servida_matters
from cubilete.solver import check_solvable
from cubilete.solver.advisor import Option, advise
from cubilete.solver.cache import load_or_solve

EXAMPLES = N_("""\
examples:
  cubilete advise --dice 1 1 3 4 5 --throw 1                      Generala, empty sheet, first throw
  cubilete advise --dice 11345 --throw 2 --filled escalera=20,full=0
  cubilete advise --rules yahtzee --dice 6 6 6 6 6 --throw 3 --filled yahtzee=50 --bonuses 1
  cubilete advise --rules generala-apartada --dice 6 6 2 3 6 --throw 2 --held 6 6
  cubilete advise --rules yatzy --dice 2 2 5 5 6 --throw 1 --top 5 --json
  cubilete advise --dice 66612 --throw 2 --filled 6=24 --target 200
      P(final score >= 200) per option
  cubilete advise --dice 66612 --throw 2 --vs full=30,poker=40 --vs 1=3
      P(winning) against two opponents
  cubilete advise --rules maxi-yatzy --dice 112356 --throw 4 --saved 2 --filled 1=3
      Maxi Yatzy with 2 throws saved (exact with its table: docs/generated/OPTIMAL.md)

The state is written as for 'cubilete score': --dice the faces on the table, --throw
which throw made them (1 = servida), --filled the boxes already written (0 = scratched).
Each option is a box to score now or the dice to keep before throwing the rest; its value
is the expected FINAL score (points so far included) if you take it and then play optimally,
and its loss is what it costs against the best option. Instant wins are not modelled:
a servida Generala counts as its points and play goes on. The first query for a rule set
solves it (seconds) and caches the tables; later queries take milliseconds. Rules without
an exact table here (Maxi Yatzy before its solve, the 4-column sheet) get the bots'
approximate one-turn search, labelled so, with the command that builds the table.

--target T adds each option's probability of a final score of at least T when the rest of
the game is played to reach T (and ranks by it). --vs FILLED, once per opponent in the order
they play after you, adds each option's probability of winning: every opponent plays for
expected points from the start of their next turn with that sheet, dice are independent,
ties are split evenly, instant wins count by their chance (and it ranks by it).
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``advise`` command."""
    p = subparsers.add_parser(
        "advise",
        help=_("every option in a situation, ranked by expected final score"),
        description=paragraph(
            _("List every distinct option after a throw (each keep, each box to score) with its expected final "
            "score under optimal play and its loss against the best, best first.")
        ),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", default="generala", metavar="R",
        help=_("preset, alias or .toml (default generala)"))
    p.add_argument("--dice", "-d", nargs="+", required=True, metavar="D", help=_("the faces: 1 1 3 4 5 or 11345"))
    p.add_argument(
        "--throw", "-t", type=int, required=True, metavar="N",
            help=_("which throw of the turn made the dice; 1 = servida")
    )
    p.add_argument(
        "--filled",
        "-f",
        action="append",
        default=[],
        metavar=_("BOXES"),
        help=_("boxes already written: escalera=20,full=0 (may be repeated)"),
    )
    p.add_argument("--bonuses", type=int, default=0, metavar="N",
        help=_("extra bonuses already earned (Yahtzee +100s)"))
    p.add_argument("--saved", type=int, default=0, metavar="N",
        help=_("throws saved from earlier turns that this turn started with (Maxi Yatzy)"))
    p.add_argument("--held", nargs="+", default=[], metavar="D",
        help=_("faces that must stay kept (locked holds only)"))
    p.add_argument("--top", type=int, default=None, metavar="K", help=_("show only the K best options"))
    p.add_argument("--target", type=int, default=None, metavar="T", help=_("add P(final score >= T) for each option"))
    p.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar=_("FILLED"),
        help=_("an opponent's sheet (may be repeated, in playing order): add P(win) for each option"),
    )
    p.add_argument("--json", action="store_true", help=_("print a JSON object"))
    p.set_defaults(func=run)


def _held(rules: Rules, words: Sequence[str], hand: Sequence[int], throw: int) -> tuple[int, ...]:
    """The faces that must stay kept: checked against the rules and the dice on the table."""
    if not words:
        return ()
    if not rules.locked_holds:
        raise CliError(
            _("--held: {rules} lets any die be thrown again; --held is for locked holds only").format(rules=rules.name)
        )
    if throw == 1:
        raise CliError(_("--held: nothing can be held before the first throw of a turn"))
    try:
        held = tuple(sorted(parse_dice(words)))
    except NotationError as exc:
        raise CliError(f"--held: {translate_error(str(exc))}") from None
    if Counter(held) - Counter(hand):
        raise CliError(
            _("--held {held}: not among the dice on the table ({dice})").format(
                held=format_dice(held), dice=format_dice(hand)
            )
        )
    return held


def _check_numbers(rules: Rules, args: argparse.Namespace) -> None:
    if args.saved < 0:
        raise CliError(_("{option}: must be 0 or more, not {value}").format(option="--saved", value=args.saved))
    if args.saved and not rules.carry_over_throws:
        raise CliError(_("--saved: {rules} does not carry unused throws over").format(rules=rules.name))
    if not 1 <= args.throw <= rules.throws + args.saved:
        raise CliError(
            _("--throw: {rules} has throws 1 to {throws}, not {throw}").format(
                rules=rules.name, throws=rules.throws + args.saved, throw=args.throw
            )
        )
    if args.bonuses < 0:
        raise CliError(_("{option}: must be 0 or more, not {value}").format(option="--bonuses", value=args.bonuses))
    if args.bonuses and not rules.extra_bonus:
        raise CliError(_("--bonuses: {rules} pays no extra bonuses").format(rules=rules.name))
    if args.top is not None and args.top < 1:
        raise CliError(_("{option}: must be 1 or more, not {value}").format(option="--top", value=args.top))


def _check_bonuses(rules: Rules, card: Sequence[int | None], bonuses: int) -> None:
    """Extra bonuses need their box holding points, and a game has fewer extra turns than its rounds."""
    if not bonuses or rules.extra_bonus_box is None:
        return
    own = [i for i in range(len(rules.slots)) if rules.slot_box(i).id == rules.extra_bonus_box]
    if not any(card[i] for i in own):
        box = rules.slots[own[0]]
        message = _("--bonuses: they are paid only once {box} holds points; add --filled {box}=...")
        raise CliError(message.format(box=box))
    if bonuses >= rules.turns:
        raise CliError(
            _("--bonuses: at most {most} in a game of {rounds} rounds, not {bonuses}").format(
                most=rules.turns - 1, rounds=rules.turns, bonuses=bonuses
            )
        )


def _check_saved(rules: Rules, card: Sequence[int | None], saved: int) -> None:
    """A turn starts with at most (throws - 1) saved per turn already played."""
    filled = sum(v is not None for v in card)
    most = (rules.throws - 1) * filled
    if saved > most:
        raise CliError(
            _("--saved: with {filled} boxes written a turn starts with at most {most} throws saved, not {saved}")
            .format(filled=filled, most=most, saved=saved)
        )  # fmt: skip


def _exact_command(rules: Rules) -> str | None:
    """The command that builds the exact table of ``rules`` here (None: too large for any)."""
    from cubilete.solver.maxi.layered import needs_layered
    from cubilete.solver.maxi.saved import useful_cap

    if needs_layered(rules):
        return f"cubilete solve --rules {rules.name}"
    if rules.carry_over_throws and needs_layered(rules.replace(carry_over_throws=False)):
        return f"cubilete solve --rules {rules.name} --cap {useful_cap(rules)} --bound lower"
    return None


def _approx_note(rules: Rules) -> str:
    """Why the values are approximate, and how to get exact ones where that is possible (translated)."""
    from cubilete.solver.approx.columns import column_values

    command = _exact_command(rules)
    if command is not None:
        return _(
            "Approximate values: a one-turn search with an estimated future. {rules} has no exact table on this "
            "machine; to build it (about an hour on 2 cores): {command}"
        ).format(rules=rules.name, command=command)
    if column_values(rules):
        return _(
            "Approximate values: {rules} is too large to solve exactly; a one-turn search with the rest of the "
            "sheet valued column by column."
        ).format(rules=rules.name)
    return _(
        "Approximate values: {rules} is too large to solve exactly; a one-turn search with an estimated future."
    ).format(rules=rules.name)


def option_words(option: Option) -> str:
    """``score full (35)`` or ``keep 3 3 3`` (in the current language: ``anotar full (35)``, ``guardar 3 3 3``)."""
    if option.kind == "score":
        return _("score {box} ({points})").format(box=option.slot, points=option.points)
    return _("keep {dice}").format(dice=format_dice(option.keep)) if option.keep else _("keep nothing")


def _option_json(option: Option) -> dict[str, object]:
    data: dict[str, object] = {"kind": option.kind, "expected": option.expected, "loss": option.loss}
    if option.kind == "score":
        data.update(slot=option.slot, points=option.points)
    else:
        data["keep"] = list(option.keep)
    return data


def run(args: argparse.Namespace) -> int:
    """Print the ranked options; bad arguments exit 2, rules too large to solve exit 1."""
    rules = rules_arg(args.rules)
    layered = None  # Maxi Yatzy without saved throws: the layered solver's table on disk
    saved = None  # Maxi Yatzy WITH saved throws: the exact saved-throws table on disk
    approximate = False  # no exact table here (or none can exist): the bots' one-turn search, said so
    try:
        check_solvable(rules)
    except SolverUnsupportedError as exc:
        from cubilete.solver.maxi.layered import load_layered, needs_layered
        from cubilete.solver.maxi.saved_advice import exact_saved

        saved = exact_saved(rules)
        layered = load_layered(rules) if needs_layered(rules) else None
        approximate = layered is None and saved is None
        if approximate and (args.vs or args.target is not None):
            raise CliError(translate_error(str(exc)), DATA_ERROR) from None
    hand = hand_arg(args.dice, rules)
    _check_numbers(rules, args)
    card = filled_arg(args.filled, rules)
    if sum(v is not None for v in card) >= rules.turns:
        raise CliError(_("--filled: the sheet is complete; nothing is left to decide"))
    _check_bonuses(rules, card, args.bonuses)
    _check_saved(rules, card, args.saved)
    held = _held(rules, args.held, hand, args.throw)
    if args.vs:  # --target alone works everywhere the solver does (one target at a time where the tables do not fit)
        from cubilete.win.tables import check_tables

        try:
            check_tables(rules)  # before solving: Yatzy's solve is long and its win tables too large anyway
        except SolverUnsupportedError as exc:
            raise CliError(translate_error(str(exc)), DATA_ERROR) from None
    label = _("solving {rules}").format(rules=rules.name)
    with progress_bar(label, enabled=not args.json) as show:
        exact = layered is None and saved is None and not approximate
        solution = load_or_solve(rules, show, moments=False) if exact else None
    try:
        if approximate:
            from cubilete.play.bots.approx import approx_situation

            allowance = rules.throws + args.saved
            options = list(approx_situation(rules, card, hand, args.throw, allowance, args.bonuses, held))
        elif saved is not None:
            from cubilete.solver.maxi.saved_advice import saved_options

            options = saved_options(saved, card, hand, args.throw, args.saved)
        elif layered is not None:
            from cubilete.solver.maxi.layered import layered_options

            options = layered_options(layered, card, hand, args.throw)
        else:
            assert solution is not None
            options = list(advise(solution, card, hand, args.throw, args.bonuses, held))  # sorted below
        extra = _win_columns(rules, card, hand, args, held)
    except SolverUnsupportedError as exc:
        raise CliError(str(exc), DATA_ERROR) from None
    except CubileteError as exc:
        raise CliError(translate_error(str(exc))) from None
    if extra:
        key = "win" if "win" in extra else "reach"
        options.sort(key=lambda o: (-round(extra[key][_key(o)], 12), -o.expected))
    so_far = scoring.total(rules, card, args.bonuses)
    shown = options[: args.top] if args.top else options
    if args.json:
        data = {
            "rules": rules.name,
            "dice": list(hand),
            "throw": args.throw,
            "filled": format_filled(rules, card),
            "bonuses": args.bonuses,
            "saved": args.saved,
            "held": list(held),
            "points_so_far": so_far,
            "options": [_option_json(o) | {k: v[_key(o)] for k, v in extra.items()} for o in shown],
            "count": len(options),
            "exact": not approximate,
        }
        if approximate:
            from cubilete.play.bots.approx import approx_note

            data["note"] = approx_note(rules)  # English, stable; the text output translates its own
            command = _exact_command(rules)
            if command is not None:
                data["exact_table"] = command
        if args.target is not None:
            data["target"] = args.target
        if args.vs:
            data["vs"] = [format_filled(rules, c) for c in _vs_cards(rules, args.vs)]
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    throws = rules.throws + args.saved
    if servida_matters(rules):  # servida and armada are Generala's words: only where the first throw pays more
        kind = servida_word(rules) if args.throw == 1 else _("armada")
        where = _("throw {throw} of {throws} ({kind})").format(throw=args.throw, throws=throws, kind=kind)
    else:
        where = _("throw {throw} of {throws}").format(throw=args.throw, throws=throws)
    print(
        _("{rules}: dice {dice}, {where}, {points} points so far").format(
            rules=rules.name, dice=format_dice(hand), where=where, points=so_far
        )
    )
    count = (
        _("{count} options, best first").format(count=len(options)) if len(options) > 1 else _("1 option")
    )
    if approximate:
        print(_("{count}: approximate value of each option (to rank them, not a forecast of the final score), and loss "
                "against the best").format(count=count))
    else:
        print(_("{count}: expected final score under optimal play, and loss against the best").format(count=count))
    head_option, head_expected, head_loss = _("option"), _("expected"), _("loss")
    width = max(len(head_option), *(len(option_words(o)) for o in shown))
    heads = {"reach": f"P(>={args.target})", "win": _("P(win)")}
    cols = "".join(f"  {heads[k]:>9}" for k in extra)
    if extra:
        ranked = " + ".join(heads[k] for k in ("win", "reach") if k in extra)
        print(_("ranked by {columns} (then points)").format(columns=ranked))
    print(f"{'':>4} {head_option:<{width}}  {head_expected:>9}  {head_loss:>8}{cols}")
    for rank, option in enumerate(shown, 1):
        more = "".join(f"  {v[_key(option)]:9.4f}" for v in extra.values())
        line = f"{rank:>3}. {option_words(option):<{width}}  {option.expected:9.3f}  {abs(option.loss):8.3f}{more}"
        print(line)
    if len(shown) < len(options):
        print("     " + _("... and {count} more (drop --top to see them)").format(count=len(options) - len(shown)))
    if approximate:
        print(_approx_note(rules))
    if any(b.instant_win for b in rules.boxes) and not args.vs:
        print(
            _("Instant wins are not modelled: a {box} {servida} counts as its points and play goes on.").format(
                box=instant_win_name(rules), servida=servida_word(rules)
            )
        )
    return 0


OptionKey = tuple[str, str | None, tuple[int, ...]]


def _key(option: Option) -> OptionKey:
    return option.kind, option.slot, option.keep


def _vs_cards(rules: Rules, words: Sequence[str]) -> list[tuple[int | None, ...]]:
    cards = []
    for n, text in enumerate(words, 1):
        try:
            cards.append(tuple(parse_filled(text, rules)))
        except NotationError as exc:
            raise CliError(_("--vs (opponent {n}): {error}").format(n=n, error=translate_error(str(exc)))) from None
    if len(cards) + 1 > rules.max_players:
        raise CliError(_("--vs: {rules} is for at most {most} players, not {count}").format(
            rules=rules.name, most=rules.max_players, count=len(cards) + 1))
    return cards


def _win_columns(
    rules: Rules, card: Sequence[int | None], hand: Sequence[int], args: argparse.Namespace, held: Sequence[int]
) -> dict[str, dict[OptionKey, float]]:
    """P(reach --target) and P(win against --vs) for each option (only the columns asked for)."""
    extra: dict[str, dict[OptionKey, float]] = {}
    if args.target is None and not args.vs:
        return extra
    from cubilete.win.distribution import distribution
    from cubilete.win.odds import instant_split
    from cubilete.win.play import target_options, win_options

    if args.target is not None:
        found = target_options(rules, card, hand, args.throw, args.target, args.bonuses, held)
        extra["reach"] = {_key(w.option): w.win for w in found}
    if args.vs:
        cards = _vs_cards(rules, args.vs)
        opponents = [distribution(rules, c) for c in cards]
        left = [min(rules.turns, sum(v is None for v in c)) for c in (*cards, card)]
        left[-1] -= 1  # this turn's servida has been thrown
        won, alive = instant_split(rules, [*cards, card], left)
        found = win_options(rules, card, hand, args.throw, opponents, args.bonuses, held, won[-1], alive)
        extra["win"] = {_key(w.option): w.win for w in found}
    return extra
