"""The optimal-play report (docs/generated/OPTIMAL.md): exact values per preset, and how often optimal play
uses each box, measured by playing the advisor's best option in seeded solitaire games.

The command is ``python tools/optimal_doc.py``; the same seed gives the same document.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

from optimal_maxi import layered_names, layered_section

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import Rules, scoring
from cubilete.solver.advisor import advise
from cubilete.solver.cache import load_or_solve, values_digest
from cubilete.solver.solve import Solution
from cubilete.solver.space import check_solvable

Z95 = 1.959964  # two-sided 95% normal quantile
COMMAND = "python tools/optimal_doc.py"


@dataclass(frozen=True)
class GameResult:
    """One simulated solitaire game: the final card and the extra bonuses earned."""

    card: tuple[int | None, ...]
    extra_bonuses: int
    score: int


@dataclass(frozen=True)
class BoxStats:
    """How one slot ended over the simulated games."""

    slot: str
    name: str
    with_points: int  # games in which the slot holds points
    scratched: int  # games in which it holds 0 (scratched, or closed by a scratch elsewhere)
    points_sum: int  # its points summed over the games

    def unused(self, games: int) -> int:
        """Games in which the slot was never written (fewer rounds than boxes)."""
        return games - self.with_points - self.scratched


@dataclass(frozen=True)
class PresetReport:
    """The exact values of one rule set and the statistics of its simulated optimal games."""

    rules: Rules
    expected: float
    std_dev: float
    digest: str
    states: int
    games: int
    seed: str
    scores: tuple[int, ...]
    boxes: tuple[BoxStats, ...]
    upper_bonus_games: int
    extra_bonuses: int

    @property
    def mean(self) -> float:
        """The mean simulated final score."""
        return sum(self.scores) / len(self.scores)

    @property
    def sample_sd(self) -> float:
        """The sample standard deviation of the simulated final scores."""
        m = self.mean
        return math.sqrt(sum((s - m) ** 2 for s in self.scores) / max(1, len(self.scores) - 1))

    @property
    def mean_interval(self) -> tuple[float, float]:
        """A 95% interval for the mean final score under optimal play (normal approximation)."""
        half = Z95 * self.sample_sd / math.sqrt(len(self.scores))
        return self.mean - half, self.mean + half


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion ``hits / n``."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_optimal(solution: Solution, rng: random.Random) -> GameResult:
    """One solitaire game in which every choice is the advisor's best option (instant wins don't end it)."""
    rules = solution.rules
    card: tuple[int | None, ...] = (None,) * len(rules.slots)
    bonuses = 0
    while sum(v is not None for v in card) < rules.turns:  # a scratch may close two boxes (Doble)
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(rules.dice)))
        held: tuple[int, ...] = ()
        for throw in range(1, rules.throws + 1):
            best = advise(solution, card, dice, throw, bonuses, held)[0]
            if best.kind == "score":
                assert best.slot is not None
                slot = rules.slots.index(best.slot)
                bonuses += int(scoring.extra_bonus_due(rules, card, slot, dice))
                card = scoring.write(rules, card, slot, best.points)
                break
            thrown = tuple(rng.randint(1, 6) for _ in range(rules.dice - len(best.keep)))
            dice = tuple(sorted(best.keep + thrown))
            held = best.keep if rules.locked_holds else ()
        else:  # pragma: no cover - the last throw always offers a box
            raise AssertionError("the advisor offered no box on the last throw")
    return GameResult(card, bonuses, scoring.total(rules, card, bonuses))


def simulate(solution: Solution, games: int, seed: str) -> list[GameResult]:
    """``games`` optimal solitaire games from one seed (the rules' name is mixed in)."""
    rng = random.Random(f"{seed}:{solution.rules.name}")
    return [play_optimal(solution, rng) for _ in range(games)]


def preset_report(rules: Rules, games: int, seed: str) -> PresetReport:
    """Solve (or load) ``rules`` with moments and simulate ``games`` optimal games."""
    solution = load_or_solve(rules, moments=True)
    results = simulate(solution, games, seed)
    boxes = []
    for j, slot in enumerate(rules.slots):
        ends = [r.card[j] for r in results]
        boxes.append(
            BoxStats(
                slot=slot,
                name=rules.slot_box(j).name,
                with_points=sum(1 for v in ends if v),
                scratched=sum(1 for v in ends if v == 0),
                points_sum=sum(v or 0 for v in ends),
            )
        )
    std = solution.std_dev
    return PresetReport(
        rules=rules,
        expected=solution.expected_score,
        std_dev=std if std is not None else float("nan"),
        digest=values_digest(solution),
        states=solution.space.n_states,
        games=games,
        seed=seed,
        scores=tuple(r.score for r in results),
        boxes=tuple(boxes),
        upper_bonus_games=sum(1 for r in results if scoring.upper_bonus(rules, r.card) > 0),
        extra_bonuses=sum(r.extra_bonuses for r in results),
    )


def _job(args: tuple[Rules, int, str]) -> PresetReport:
    return preset_report(*args)


def build_reports(presets: Sequence[Rules], games: int, seed: str, workers: int = 2) -> list[PresetReport]:
    """A report per rule set: tables solved here first (the solver uses every core), games in ``workers`` processes."""
    for rules in presets:
        load_or_solve(rules, moments=True)
    jobs = [(rules, games, seed) for rules in presets]
    if workers <= 1 or len(jobs) <= 1:
        return [_job(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        return list(pool.map(_job, jobs))


def unsolved_reasons(presets: Sequence[Rules]) -> list[tuple[str, str]]:
    """(name, reason) for each rule set the solver does not handle exactly."""
    out = []
    listed = layered_names(presets)  # in the layered solver's own section
    for rules in presets:
        if rules.name in listed:
            continue
        try:
            check_solvable(rules)
        except SolverUnsupportedError as exc:
            out.append((rules.name, str(exc)))
    return out


def _pct(hits: int, n: int) -> str:
    lo, hi = wilson(hits, n)
    return f"{100 * hits / n:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def render_preset(report: PresetReport) -> list[str]:
    """The Markdown section of one rule set."""
    rules, n = report.rules, report.games
    lo, hi = report.mean_interval
    inside = "holds" if lo <= report.expected <= hi else "does NOT hold"
    lines = [
        f"### {rules.name}: {rules.title}",
        "",
        f"- optimal expected score **{report.expected:.4f}**, standard deviation {report.std_dev:.4f}",
        f"- value table: {report.states:,} states, SHA-256 `{report.digest}`",
        f"- {n} simulated games (seed `{report.seed}:{rules.name}`): mean {report.mean:.2f}, 95% interval "
        f"{lo:.2f}–{hi:.2f} (which {inside} the exact value), sample SD {report.sample_sd:.2f}",
    ]
    if rules.upper_bonus > 0 and rules.upper_bonus_threshold > 0:
        lines.append(
            f"- upper bonus ({rules.upper_bonus} at {rules.upper_bonus_threshold}) earned in "
            f"{_pct(report.upper_bonus_games, n)} of games"
        )
    if rules.extra_bonus_box and rules.extra_bonus > 0:
        lines.append(
            f"- extra {rules.extra_bonus_box} bonuses (+{rules.extra_bonus}): {report.extra_bonuses / n:.3f} per game"
        )
    unused = any(b.unused(n) for b in report.boxes)
    head = "| box | name | scored with points (95% interval) | scratched (0) | mean points when scored |"
    rule = "|---|---|---|---|---|"
    if unused:
        head, rule = head + " left unused |", rule + "---|"
    lines += ["", head, rule]
    for b in report.boxes:
        mean = f"{b.points_sum / b.with_points:.2f}" if b.with_points else "–"
        row = f"| `{b.slot}` | {b.name} | {_pct(b.with_points, n)} | {100 * b.scratched / n:.1f}% | {mean} |"
        if unused:
            row += f" {100 * b.unused(n) / n:.1f}% |"
        lines.append(row)
    return [*lines, ""]


def render(
    reports: Sequence[PresetReport],
    unsolved: Sequence[tuple[str, str]],
    games: int,
    seed: str,
    layered: Sequence[str] = (),
) -> str:
    """The whole Markdown document."""
    out = [
        "# Optimal play: exact values for every preset",
        "",
        f"Generated by `{COMMAND}` (options: `--games {games} --seed {seed}`); do not edit by hand.",
        "The same seed and the same solver give the same file. It is not run by the test suite",
        "(a quick test runs the generator on a tiny rule set).",
        "",
        '## What "optimal" means here',
        "",
        "- **Objective: the expected final score of one player playing alone** (solitaire), computed exactly",
        "  by backward induction over every sheet state (`cubilete solve --rules R` prints it).",
        "- **Instant wins are not modelled.** Under rules where a servida Generala wins the game at once, the",
        "  solver scores it as an ordinary servida Generala (its points) and play goes on; the simulated games",
        "  below do the same. Play aimed at winning against opponents is a different objective.",
        "- The standard deviation is that of the final score under the optimal policy, computed exactly",
        "  (second moments), not estimated.",
        '- "Scored with points" / "scratched" come from simulating the optimal policy: every decision is the',
        "  best option of the advisor (`cubilete advise`, `cubilete.solver.advisor.advise`), ties broken by the",
        "  advisor's order. Percentages are of games; the 95% interval is Wilson's. A box closed because its",
        "  prerequisite was scratched (Doble Generala after a scratched Generala) counts as scratched.",
        "- The SHA-256 is that of the value table (`float64`, C order; `cubilete.solver.cache.values_digest`):",
        "  expected points still to come at the start of each turn, indexed by (closed boxes, flags, upper total).",
        "",
        "## Published values the golden tests check",
        "",
        "`tests/solver/test_optimal.py` reproduces these to the digits given:",
        "",
        "| rules | published | source | here |",
        "|---|---|---|---|",
    ]
    here = {r.rules.name: r for r in reports}

    def got(name: str, sd: bool = False) -> str:
        r = here.get(name)
        if r is None:
            return "(not in this run)"
        return f"{r.expected:.4f}" + (f", SD {r.std_dev:.2f}" if sd else "")

    out += [
        "| `yahtzee-free-joker` (solitaire Yahtzee: bonus 35 at 63, +100 per extra Yahtzee, joker in the lower "
        "section once the matching upper box is used, not forced into it) | 254.5896, SD 59.61 | Verhoeff 1999; "
        f"Glenn 2006 | {got('yahtzee-free-joker', sd=True)} |",
        "| `yatzy` (Scandinavian, two pairs of different faces) | 248.4400 | independent solvers agree (not "
        f"KTH 2012's 248.63, whose two pairs allowed four equal dice) | {got('yatzy')} |",
        f"| `yahtzee` (official forced joker) | 254.5877 | an independent solver | {got('yahtzee')} |",
        "",
        "## Summary",
        "",
        "| preset | expected score | SD | simulated mean (95% interval) | states |",
        "|---|---|---|---|---|",
    ]
    for r in reports:
        lo, hi = r.mean_interval
        out.append(
            f"| [`{r.rules.name}`](#{_anchor(r)}) | {r.expected:.4f} | {r.std_dev:.2f} | "
            f"{r.mean:.2f} ({lo:.2f}–{hi:.2f}) | {r.states:,} |"
        )
    out += ["", "## Not solved exactly", ""]
    if unsolved:
        out += [f"- `{name}`: {reason.removeprefix(name + ': ')}." for name, reason in unsolved]
    else:
        out.append("- (none in this run)")
    out += ["", *layered, "## Each preset", ""]
    for r in reports:
        out += render_preset(r)
    return "\n".join(out).rstrip() + "\n"


def _anchor(report: PresetReport) -> str:
    """GitHub's anchor of a preset's section heading."""
    text = f"{report.rules.name}: {report.rules.title}".lower()
    kept = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def write_report(presets: Sequence[Rules], games: int, seed: str, workers: int = 2) -> str:
    """The document for ``presets``: the solvable ones are reported, the others listed with the reason."""
    unsolved = unsolved_reasons(presets)
    skip = {name for name, _ in unsolved} | layered_names(presets)
    reports = build_reports([r for r in presets if r.name not in skip], games, seed, workers)
    return render(reports, unsolved, games, seed, layered_section(presets))
