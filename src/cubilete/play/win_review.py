"""A finished (or saved) game seen through everyone's chance to win: the chances turn by turn
(for a chart), and each decision judged by the probability of winning it gave up.

Built on :mod:`cubilete.win.chance`, the chance every surface shows (exact heads-up from the two-player
table, else estimated; decisions are judged only where there are win tables). The chart is drawn with matplotlib,
imported only when a chart is written.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.engine.record import steps, to_record
from cubilete.engine.state import GameState, Phase
from cubilete.i18n import _, number
from cubilete.play.coach import describe_option

SMALL = 0.0005  # a choice that gives up less than this probability of winning is not listed


@dataclass(frozen=True)
class Timeline:
    """Each seat's chance to win at the start and after every finished turn."""

    players: tuple[str, ...]
    turns: tuple[int, ...]  # turns finished so far (0 = the start)
    chances: tuple[tuple[float, ...], ...]  # one row per moment, seat order, each row summing to 1
    exact: bool


@dataclass(frozen=True)
class WinDecision:
    """A decision judged by the probability of winning it gave up."""

    player: str
    turn: int  # the player's turn, 1-based
    throw: int
    dice: tuple[int, ...]
    action: str  # what was done, in words
    best: str  # what won most often, in words
    win_loss: float  # probability of winning given up (0..1)


@dataclass(frozen=True)
class WinReview:
    """Every judged decision and the total probability of winning each player gave up."""

    decisions: list[WinDecision]
    total: dict[str, float]
    exact: bool = True  # False: judged by estimated chances (exact only heads-up, from the two-player table)


def chance_timeline(game: Game) -> Timeline:
    """Everyone's chance to win at the start and after every turn of the game's record."""
    from cubilete.win.chance import chance as chances

    record = to_record(game)
    first = Game(game.rules, list(game.players), game.seed)
    start = chances(first)
    rows = [start.probabilities]
    turns = [0]
    exact = start.exact
    done = 0
    for replay, action, before in steps(record):
        if isinstance(action, (Score, Stand)) or (replay.is_over and before.phase is not Phase.OVER):
            done += 1
            now = chances(replay)
            exact = exact and now.exact
            rows.append(now.probabilities)
            turns.append(done)
    return Timeline(tuple(game.players), tuple(turns), tuple(rows), exact)


def _is_decision(before: GameState) -> bool:
    return before.phase is Phase.PLAY and before.turn.throws > 0


def _chosen(options: Sequence[object], action: Action, dice: Sequence[int]) -> object | None:
    kept = tuple(sorted(dice[p] for p in action.keep)) if isinstance(action, Roll) else None
    for w in options:
        o = w.option  # type: ignore[attr-defined]
        if isinstance(action, Score) and o.kind == "score" and o.slot == action.slot:
            return w
        if kept is not None and o.kind == "keep" and tuple(sorted(o.keep)) == kept:
            return w
    return None


def win_review(game: Game, players: Collection[str]) -> WinReview | None:
    """Judge the decisions of ``players`` by the probability of winning they gave up; None where the
    rules have no exact win tables or the game has one player."""
    from cubilete.engine.errors import SolverUnsupportedError
    from cubilete.win.chance import option_chances

    if len(game.players) < 2:
        return None
    decisions: list[WinDecision] = []
    turns = dict.fromkeys(game.players, 0)
    exact = True
    try:
        for replay, action, before in steps(to_record(game)):
            seat = before.seats[before.current]
            if before.turn.throws == 0:
                turns[seat.name] = seat.turns_taken + 1
            if not _is_decision(before) or seat.name not in players:
                continue
            replay.undo()
            try:
                ranked, judged_exactly = option_chances(replay)
                exact = exact and judged_exactly
            finally:
                replay.apply(action)
            chosen = _chosen(ranked, action, before.turn.dice)
            if chosen is None or not ranked:
                continue
            best = ranked[0]
            lost = max(0.0, best.win - chosen.win)  # type: ignore[attr-defined]
            o, b = chosen.option, best.option  # type: ignore[attr-defined]
            decisions.append(WinDecision(
                seat.name, turns[seat.name], before.turn.throws, tuple(before.turn.dice),
                describe_option(game.rules, o.kind, o.slot, o.points, o.keep),
                describe_option(game.rules, b.kind, b.slot, b.points, b.keep), lost,
            ))
    except SolverUnsupportedError:
        return None
    total = {p: sum(d.win_loss for d in decisions if d.player == p) for p in game.players if p in players}
    return WinReview(decisions, total, exact)


def win_review_lines(review: WinReview) -> list[str]:
    """The review in words: what each player gave up in chance to win, and the worst decisions."""
    lines = [_("Chance to win given up (playing to win, against the others' positions):") if review.exact else
             _("Chance to win given up (estimated; playing to win, against the others' positions):")]
    for player, lost in review.total.items():
        lines.append(_("  {player}: {lost} points of percentage in all").format(player=player, lost=number(100 * lost)))
        worst = sorted((d for d in review.decisions if d.player == player and d.win_loss > SMALL),
                       key=lambda d: -d.win_loss)[:3]
        for d in worst:
            text = _("    turn {turn}, throw {throw}: {action} gave up {lost}% to win; best was {best}")
            lines.append(text.format(turn=d.turn, throw=d.throw, action=d.action, lost=number(100 * d.win_loss),
                                     best=d.best))
    return lines


def write_chart(timeline: Timeline, path: Path) -> None:
    """Write the chart of everyone's chance over the game (PNG or SVG by the file's extension)."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise CubileteError(_("the chart file must end in .png or .svg: {file}").format(file=path))
    try:
        import matplotlib
    except ImportError:
        raise CubileteError(_("charts need matplotlib: pip install 'cubilete[plot]' (or ./dev installs it)")) from None
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4), layout="constrained")
    ax = fig.subplots()
    for seat, name in enumerate(timeline.players):
        ax.plot(timeline.turns, [100 * row[seat] for row in timeline.chances], marker=".", label=name)
    ax.set_ylim(0, 100)
    ax.set_xlabel(_("turns played"))
    ax.set_ylabel(_("chance to win (%)") if timeline.exact else _("chance to win (%, estimated)"))
    ax.legend()
    try:
        fig.savefig(path, format=fmt)
    except OSError as exc:
        raise CubileteError(_("cannot write {file}: {error}").format(file=path, error=exc.strerror or exc)) from None
