"""The coach's two kinds of advice: the best choice for points and the best choice to win, and why
they differ (built on :func:`cubilete.play.coach.hint` with and without ``win=True``).

Playing for points maximises the expected final score; playing to win maximises the probability
of finishing first against the other seats' positions. Behind, a riskier choice can win more
often at the cost of expected points; ahead, a safer one can.
"""

from __future__ import annotations

from dataclasses import dataclass

from cubilete.engine.game import Game
from cubilete.i18n import _, number
from cubilete.play import coach

SAME = 0.0005  # choices whose chances to win differ by less than this are taken as equally good


@dataclass(frozen=True)
class TwoWays:
    """The best choice for points and the best to win, each with its probability of winning (``.win``)."""

    points: coach.Advice
    win: coach.Advice
    players: int
    exact: bool = True  # False: the chances are estimated (exact only heads-up from the two-player table)

    @property
    def differ(self) -> bool:
        """True when playing to win means another choice than playing for points."""
        assert self.points.win is not None and self.win.win is not None
        return self.points.action != self.win.action and self.win.win - self.points.win >= SAME

    @property
    def behind(self) -> bool:
        """True when the player's chance playing for points is below an even share."""
        assert self.points.win is not None
        return self.points.win < 1.0 / self.players


def two_ways(game: Game) -> TwoWays | None:
    """Both best choices of the decision at hand, or None where there are no exact win chances
    (one player, nothing thrown, a tie-break, rules without win tables)."""
    ranked, exact = coach.hint(game, top=10_000, win=True)
    if not ranked or ranked[0].win is None:
        return None
    for_points, _exact = coach.hint(game, top=1)
    if not for_points:
        return None
    match = next((a for a in ranked if a.action == for_points[0].action), None)
    if match is None:
        return None
    return TwoWays(match, ranked[0], len(game.players), exact)


def two_ways_lines(game: Game, both: TwoWays) -> list[str]:
    """The two choices in words, and why they differ when they do."""
    rules = game.rules
    assert both.points.win is not None and both.win.win is not None
    lines = [
        _("For points: {what} (expected {expected}, {chance}% to win)").format(
            what=both.points.describe(rules), expected=number(both.points.expected),
            chance=number(100 * both.points.win),
        ),
    ]
    if not both.differ:
        lines.append(_("To win: the same choice ({chance}% to win).").format(chance=number(100 * both.win.win)))
        return _labelled(lines, both)
    lines.append(_("To win: {what} (expected {expected}, {chance}% to win)").format(
        what=both.win.describe(rules), expected=number(both.win.expected), chance=number(100 * both.win.win)
    ))
    values = {"points": number(both.points.expected - both.win.expected),
              "gain": number(100 * (both.win.win - both.points.win))}
    if both.behind:
        lines.append(_("Why they differ: you are behind, so the riskier choice wins more often: it gives up "
                       "{points} expected points for {gain} more points of chance to win.").format(**values))
    else:
        lines.append(_("Why they differ: you are ahead, so the safer choice wins more often: it gives up "
                       "{points} expected points for {gain} more points of chance to win.").format(**values))
    return _labelled(lines, both)


def _labelled(lines: list[str], both: TwoWays) -> list[str]:
    """The lines, with a last one saying the chances are estimated when they are."""
    if both.exact:
        return lines
    return [*lines, _("Chances to win estimated: exact only heads-up, from the two-player table.")]
