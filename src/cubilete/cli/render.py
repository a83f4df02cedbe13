"""Plain-text pictures of a game: the dice, the boxes, the score sheet, the ranking, the end."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.cli.boxes import BoxLine, describe_notes
from cubilete.game import Game
from cubilete.rules import Order, Rules, Start, scoring
from cubilete.state import EndReason, GameState, Phase


def dice_rows(dice: Sequence[int], held: Sequence[int]) -> list[str]:
    """Two lines: the positions 1..n and the faces, kept dice in brackets.

    >>> dice_rows((4, 2, 4), (0, 2))
    ['  die   1  2  3 ', '       [4] 2 [4]']
    """
    positions = "".join(f" {p + 1} " for p in range(len(dice)))
    faces = "".join(f"[{f}]" if p in held else f" {f} " for p, f in enumerate(dice))
    return [f"  die  {positions}", f"       {faces}"]


def box_table(lines: Sequence[BoxLine], rules: Rules, show_unusable: bool = True) -> list[str]:
    """The usable boxes with their points now (and, if asked, the open boxes that cannot be used)."""
    shown = [b for b in lines if b.usable or (show_unusable and b.written is None)]
    if not shown:
        return []
    id_w = max(len(b.slot) for b in shown)
    name_w = max(len(b.box.name) for b in shown)
    out = []
    for b in shown:
        head = f"  {b.line:>3}  {b.slot:<{id_w}}  {b.box.name:<{name_w}}"
        if b.usable:
            notes = describe_notes(b, rules)
            out.append(f"{head}  {b.points:>4}" + (f"  {notes}" if notes else ""))
        else:
            out.append(f"{head}     -  cannot be used now: {b.reason}")
    return out


def closed_summary(lines: Sequence[BoxLine]) -> str:
    """The slots already written, e.g. ``closed: generala 50, full 0``."""
    closed = [f"{b.slot} {b.written}" for b in lines if b.written is not None]
    return "closed: " + ", ".join(closed) if closed else ""


def score_sheet(game: Game) -> list[str]:
    """Every slot for every player, bonuses and totals."""
    rules, st = game.rules, game.state
    names = list(game.players)
    widths = [max(len(n), 5) for n in names]
    id_w = max(len(s) for s in rules.slots)
    name_w = max(len(b.name) for b in rules.boxes)
    label_w = max(4 + id_w + 1 + name_w, len("extra bonuses"))

    def row(label: str, cells: Sequence[str]) -> str:
        return f"  {label:<{label_w}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True))

    out = [row("", names)]
    for i, slot in enumerate(rules.slots):
        cells = ["." if s.card[i] is None else str(s.card[i]) for s in st.seats]
        out.append(row(f"{i + 1:>3} {slot:<{id_w}} {rules.slot_box(i).name}", cells))
    if rules.upper_bonus:
        out.append(row("upper bonus", [str(scoring.upper_bonus(rules, s.card)) for s in st.seats]))
    if rules.extra_bonus:
        out.append(row("extra bonuses", [str(s.extra_bonuses * rules.extra_bonus) for s in st.seats]))
    out.append(row("total", [str(t) for t in game.totals()]))
    return out


def ranking(game: Game) -> list[str]:
    """Players from first to last with their totals; equal results share a place."""
    st, totals = game.state, game.totals()
    key = {i: (i not in st.winners, -totals[i]) for i in range(len(game.players))}
    ordered = sorted(range(len(game.players)), key=lambda i: (*key[i], st.order.index(i)))
    name_w = max(len(n) for n in game.players)
    out, place = [], 0
    for n, i in enumerate(ordered):
        if n == 0 or key[i] != key[ordered[n - 1]]:
            place = n + 1
        mark = "  winner" if i in st.winners else ""
        out.append(f"  {place}. {game.players[i]:<{name_w}}  {totals[i]:>4}{mark}")
    return out


def servida_matters(rules: Rules) -> bool:
    """True if a first-throw hand can pay differently (servida values, bonuses, instant wins, a column)."""
    return Order.FIRST_THROW in rules.columns or any(
        b.first_throw_value is not None or b.first_throw_bonus or b.instant_win for b in rules.boxes
    )


def instant_win_box(rules: Rules, dice: Sequence[int]) -> str:
    """The name of the box whose servida won at once."""
    names = [b.name for b in rules.boxes if b.instant_win and scoring.makes(b, dice)]
    return names[0] if names else "a winning hand"


def end_line(game: Game) -> str:
    """How the game ended, in one sentence."""
    st, totals = game.state, game.totals()
    winners = [game.players[i] for i in st.winners]
    if st.reason is EndReason.INSTANT_WIN:
        return f"{winners[0]} made {instant_win_box(game.rules, st.turn.dice)} servida and wins at once."
    if st.reason is EndReason.TIE_BREAK:
        tied = totals[st.winners[0]]
        rounds = "round" if st.tiebreak_round == 1 else "rounds"
        return f"{winners[0]} wins the tie-break after {st.tiebreak_round} {rounds} (tied at {tied} points)."
    if st.reason is EndReason.SHARED:
        return f"The win is shared by {' and '.join(winners)} with {totals[st.winners[0]]} points."
    if len(game.players) == 1:
        return f"Game over: {winners[0]} scored {totals[0]} points."
    return f"{winners[0]} wins on points with {totals[st.winners[0]]}."


def final_table(game: Game) -> list[str]:
    """The end of a game: sheet, ranking and how it ended."""
    return [
        f"=== Final result: {game.rules.title} ===",
        *score_sheet(game),
        "Ranking:",
        *ranking(game),
        end_line(game),
    ]


def start_lines(game: Game) -> list[str]:
    """Who starts and why (the start throws), and the playing order."""
    names, st = game.players, game.state
    if len(names) == 1:
        return []
    order = "Playing order: " + ", ".join(names[i] for i in st.order)
    if not game.start_throws:
        return [f"{names[st.order[0]]} starts (seat order). {order}"]
    how = "highest die" if game.rules.start is Start.HIGHEST_DIE else "lowest sum"
    rounds: list[list[str]] = [[]]
    seen: set[int] = set()
    for seat, faces in game.start_throws:
        if seat in seen:
            rounds.append([])
            seen = set()
        seen.add(seat)
        shown = " ".join(map(str, faces)) + (f" (= {sum(faces)})" if len(faces) > 1 else "")
        rounds[-1].append(f"{names[seat]} {shown}")
    throws = "; then ".join(", ".join(r) for r in rounds)
    return [f"Who starts ({how}): {throws} -> {names[st.order[0]]} starts. {order}"]


def turn_header(game: Game, st: GameState) -> str:
    """``Round 3 of 11: Ana`` (or the tie-break round) for the turn that starts in ``st``."""
    name = game.players[st.current]
    if st.phase is Phase.TIEBREAK:
        return f"--- Tie-break round {st.tiebreak_round}: {name} ---"
    return f"--- Round {st.seats[st.current].turns_taken + 1} of {game.rules.turns}: {name} ---"
