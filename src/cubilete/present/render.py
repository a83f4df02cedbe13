"""Plain-text pictures of a game: the dice, the boxes, the score sheet, the ranking, the end."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.game import Game
from cubilete.engine.rules import Order, Rules, Start, scoring
from cubilete.engine.state import EndReason, GameState, Phase
from cubilete.i18n import _, box_name, ngettext, rules_title, servida_word
from cubilete.present.boxes import BoxLine, describe_notes


def dice_rows(dice: Sequence[int], held: Sequence[int]) -> list[str]:
    """Two lines: the positions 1..n and the faces, kept dice in brackets.

    >>> dice_rows((4, 2, 4), (0, 2))
    ['  die   1  2  3 ', '       [4] 2 [4]']
    """
    positions = "".join(f" {p + 1} " for p in range(len(dice)))
    faces = "".join(f"[{f}]" if p in held else f" {f} " for p, f in enumerate(dice))
    label = _("die")
    return [f"  {label}  {positions}", " " * (len(label) + 4) + faces]


def box_table(lines: Sequence[BoxLine], rules: Rules, show_unusable: bool = True) -> list[str]:
    """The usable boxes with their points now (and, if asked, the open boxes that cannot be used)."""
    shown = [b for b in lines if b.usable or (show_unusable and b.written is None)]
    if not shown:
        return []
    names = {b.slot: box_name(rules, b.slot) for b in shown}
    id_w = max(len(b.slot) for b in shown)
    name_w = max(len(n) for n in names.values())
    out = []
    for b in shown:
        head = f"  {b.line:>3}  {b.slot:<{id_w}}  {names[b.slot]:<{name_w}}"
        if b.usable:
            notes = describe_notes(b, rules)
            out.append(f"{head}  {b.points:>4}" + (f"  {notes}" if notes else ""))
        else:
            out.append(f"{head}     -  " + _("cannot be used now: {reason}").format(reason=b.reason))
    return out


def closed_summary(lines: Sequence[BoxLine]) -> str:
    """The slots already written, e.g. ``closed: generala 50, full 0``."""
    closed = [f"{b.slot} {b.written}" for b in lines if b.written is not None]
    return _("closed: {boxes}").format(boxes=", ".join(closed)) if closed else ""


def score_sheet(game: Game) -> list[str]:
    """Every slot for every player, bonuses and totals."""
    rules, st = game.rules, game.state
    names = list(game.players)
    widths = [max(len(n), 5) for n in names]
    id_w = max(len(s) for s in rules.slots)
    box_names = [box_name(rules, b.id) for b in rules.boxes]
    name_w = max(len(n) for n in box_names)
    upper, extra, total = _("upper bonus"), _("extra bonuses"), _("total")
    label_w = max(4 + id_w + 1 + name_w, len(upper), len(extra), len(total))

    def row(label: str, cells: Sequence[str]) -> str:
        return f"  {label:<{label_w}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True))

    out = [row("", names)]
    for i, slot in enumerate(rules.slots):
        cells = ["." if s.card[i] is None else str(s.card[i]) for s in st.seats]
        out.append(row(f"{i + 1:>3} {slot:<{id_w}} {box_names[i % len(box_names)]}", cells))
    if rules.upper_bonus:
        out.append(row(upper, [str(scoring.upper_bonus(rules, s.card)) for s in st.seats]))
    if rules.extra_bonus:
        out.append(row(extra, [str(s.extra_bonuses * rules.extra_bonus) for s in st.seats]))
    out.append(row(total, [str(t) for t in game.totals()]))
    return out


def ranking(game: Game) -> list[str]:
    """Players from first to last with their totals; equal results share a place."""
    st, totals = game.state, game.totals()
    key = {i: (i not in st.winners, -totals[i]) for i in range(len(game.players))}
    ordered = sorted(range(len(game.players)), key=lambda i: (*key[i], st.order.index(i)))
    name_w = max(len(n) for n in game.players)
    out, place = [], 0
    winner = _("winner")
    for n, i in enumerate(ordered):
        if n == 0 or key[i] != key[ordered[n - 1]]:
            place = n + 1
        mark = f"  {winner}" if i in st.winners else ""
        out.append(f"  {place}. {game.players[i]:<{name_w}}  {totals[i]:>4}{mark}")
    return out


def servida_matters(rules: Rules) -> bool:
    """True if a first-throw hand can pay differently (servida values, bonuses, instant wins, a column)."""
    return Order.FIRST_THROW in rules.columns or any(
        b.first_throw_value is not None or b.first_throw_bonus or b.instant_win for b in rules.boxes
    )


def instant_win_box(rules: Rules, dice: Sequence[int]) -> str:
    """The name of the box whose servida won at once (in the player's language)."""
    names = [box_name(rules, b.id) for b in rules.boxes if b.instant_win and scoring.makes(b, dice)]
    return names[0] if names else _("a winning hand")


def instant_win_name(rules: Rules) -> str:
    """The name of the (first) box whose servida wins at once, in the player's language ('' if none does)."""
    names = [box_name(rules, b.id) for b in rules.boxes if b.instant_win]
    return names[0] if names else ""


def end_line(game: Game) -> str:
    """How the game ended, in one sentence."""
    st, totals = game.state, game.totals()
    winners = [game.players[i] for i in st.winners]
    if st.reason is EndReason.INSTANT_WIN:
        box = instant_win_box(game.rules, st.turn.dice)
        said = _("{name} made {box} {servida} and wins at once.")
        return said.format(name=winners[0], box=box, servida=servida_word(game.rules))
    if st.reason is EndReason.TIE_BREAK:
        return ngettext(
            "{name} wins the tie-break after {rounds} round (tied at {points} points).",
            "{name} wins the tie-break after {rounds} rounds (tied at {points} points).",
            st.tiebreak_round,
        ).format(name=winners[0], rounds=st.tiebreak_round, points=totals[st.winners[0]])
    if st.reason is EndReason.SHARED:
        names = _(" and ").join(winners)
        return _("The win is shared by {names} with {points} points.").format(names=names, points=totals[st.winners[0]])
    if len(game.players) == 1:
        return _("Game over: {name} scored {points} points.").format(name=winners[0], points=totals[0])
    return _("{name} wins on points with {points}.").format(name=winners[0], points=totals[st.winners[0]])


def final_table(game: Game) -> list[str]:
    """The end of a game: sheet, ranking and how it ended."""
    return [
        _("=== Final result: {title} ===").format(title=rules_title(game.rules)),
        *score_sheet(game),
        _("Ranking:"),
        *ranking(game),
        end_line(game),
    ]


def start_lines(game: Game, shown: Sequence[str] | None = None) -> list[str]:
    """Who starts and why (the start throws), and the playing order."""
    names, st = shown or game.players, game.state  # ``shown``: the seats as a screen names them
    if len(names) == 1:
        return []
    playing = ", ".join(names[i] for i in st.order)
    if game.rules.order_by_start:
        order = _("Playing order, by the start throw: {names}").format(names=playing)
    else:
        order = _("Playing order: {names}").format(names=playing)
    first = names[st.order[0]]
    if not game.start_throws:
        return [_("{name} starts (seat order). {order}").format(name=first, order=order)]
    how = _("highest die") if game.rules.start is Start.HIGHEST_DIE else _("lowest sum")
    rounds: list[list[str]] = [[]]
    seen: set[int] = set()
    for seat, faces in game.start_throws:
        if seat in seen:
            rounds.append([])
            seen = set()
        seen.add(seat)
        shown = " ".join(map(str, faces)) + (f" (= {sum(faces)})" if len(faces) > 1 else "")
        rounds[-1].append(f"{names[seat]} {shown}")
    throws = _("; then ").join(", ".join(r) for r in rounds)
    return [
        _("Who starts ({how}): {throws} -> {name} starts. {order}").format(
            how=how, throws=throws, name=first, order=order
        )
    ]


def turn_header(game: Game, st: GameState) -> str:
    """``Round 3 of 11: Ana`` (or the tie-break round) for the turn that starts in ``st``."""
    name = game.players[st.current]
    if st.phase is Phase.TIEBREAK:
        return _("--- Tie-break round {round}: {name} ---").format(round=st.tiebreak_round, name=name)
    return _("--- Round {round} of {rounds}: {name} ---").format(
        round=st.seats[st.current].turns_taken + 1, rounds=game.rules.turns, name=name
    )
