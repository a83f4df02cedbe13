"""Simulation: bots play many games, on both cores, and the results come with 95% intervals.

Each game is seeded from the simulation's seed and the game's index alone, so the same
seed gives the same games whatever the number of worker processes. Two modes:

* ``table``: in each game every bot sits at one table; wins are counted (a shared win
  counts for each winner);
* ``solo``: each bot plays the game alone, and every bot gets the same dice seed for
  game ``i`` (common random numbers: differences between bots are measured more sharply);
* ``paired``: two bots; every deal is played twice on the same dice seed with the seats
  swapped (common random numbers, and each bot starts once), and the differences between
  the bots (wins, points) come per deal with 95% intervals.

Where the rules can be solved exactly, every decision of every bot is judged on the solved
table and its loss (expected points given away against optimal play) is added up per game.

>>> from cubilete.engine.rules import find_rules
>>> result = simulate(find_rules("generala"), ["random", "greedy"], games=4, seed=1, workers=1, loss=False)
>>> [b.label for b in result.bots], result.games
(['random', 'greedy'], 4)
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any, Literal

from cubilete.engine.errors import SimulationError
from cubilete.engine.game import Game
from cubilete.engine.notation import numbered
from cubilete.engine.rules.model import Rules
from cubilete.play.bots import action_loss, bot_level, is_bot_spec, is_exact, make_bot, solution_for
from cubilete.play.bots.optimal import saved_for

Mode = Literal["table", "solo", "paired"]
Progress = Callable[[int, int], None]  # (games done, games in all)
Z95 = 1.959963984540054
EXACT_LEVELS = {"optimal", "beginner", "casual", "strong"}


@dataclass(frozen=True)
class Outcome:
    """One bot in one game."""

    score: int
    won: bool
    loss: float | None


@dataclass(frozen=True)
class BotStats:
    """One bot over every game: means with 95% intervals."""

    label: str
    level: str
    games: int
    mean: float
    sd: float
    mean_ci: tuple[float, float]
    wins: int | None
    win_rate: float | None
    win_ci: tuple[float, float] | None
    mean_loss: float | None
    loss_ci: tuple[float, float] | None


@dataclass(frozen=True)
class PairedStats:
    """Two bots over deals played twice with the seats swapped: first bot minus second, per deal."""

    deals: int
    win_diff: float  # (first bot's wins - second bot's wins) / 2 per deal: its edge in win rate
    win_diff_ci: tuple[float, float]
    points_diff: float  # mean points of the first bot minus the second, per game
    points_diff_ci: tuple[float, float]


@dataclass(frozen=True)
class SimResult:
    """Everything a simulation measured."""

    rules: str
    title: str
    mode: Mode
    games: int
    seed: str
    workers: int
    seconds: float
    exact_expected: float | None  # optimal expected score (one player) when the rules are solved exactly
    bots: tuple[BotStats, ...]
    paired: PairedStats | None = None
    compiled: bool = False  # played by the compiled simulation (cubilete.simulate.fastsim: its own counter-based dice)

    def to_dict(self) -> dict[str, object]:
        """The result as plain JSON-ready data."""
        return asdict(self)


def mean_interval(values: Sequence[float]) -> tuple[float, float, tuple[float, float]]:
    """(mean, sample SD, 95% normal interval of the mean).

    >>> mean, sd, (lo, hi) = mean_interval([1.0, 3.0])
    >>> mean, round(sd, 4), round(lo, 2), round(hi, 2)
    (2.0, 1.4142, 0.04, 3.96)
    """
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(values))
    return mean, sd, (mean - half, mean + half)


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> tuple(round(x, 4) for x in wilson(5, 10))
    (0.2366, 0.7634)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p, z2 = successes / trials, Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def parse_bot_specs(specs: Sequence[str]) -> list[str]:
    """Bot levels from ``optimal`` or ``bot:optimal`` specs; an unknown one is refused with the list of levels."""
    levels = [bot_level(s if is_bot_spec(s) else f"bot:{s.strip()}") for s in specs]
    if not levels:
        raise SimulationError("name at least one bot")
    return levels


def labels_for(levels: Sequence[str]) -> list[str]:
    """Names for the bots, numbered when a level repeats.

    >>> labels_for(["optimal", "random", "optimal"])
    ['optimal', 'random', 'optimal-2']
    """
    return numbered(levels)


def play_game(rules: Rules, levels: Sequence[str], seed: str, index: int, mode: Mode, loss: bool) -> list[Outcome]:
    """Game number ``index`` of a simulation: one outcome per bot."""
    labels = labels_for(levels)
    game_seed = f"{seed}:{index}"
    if mode == "paired":  # the same deal twice, seats swapped; outcomes in bot order, game 1 then game 2
        first = _play(Game(rules, labels, seed=game_seed), list(levels), game_seed, loss)
        swapped = _play(Game(rules, labels[::-1], seed=game_seed), list(levels[::-1]), game_seed + ":swapped", loss)
        return first + swapped[::-1]
    if mode == "solo":
        return [
            _play(Game(rules, [label], seed=game_seed), [level], f"{game_seed}:{k}", loss)[0]
            for k, (label, level) in enumerate(zip(labels, levels, strict=True))
        ]
    return _play(Game(rules, labels, seed=game_seed), list(levels), game_seed, loss)


def _play(game: Game, levels: list[str], seed: str, loss: bool) -> list[Outcome]:
    bots = [make_bot(f"bot:{level}", f"{seed}:{k}") for k, level in enumerate(levels)]
    lost: list[float | None] = [0.0 if loss else None] * len(bots)
    while not game.is_over:
        seat = game.state.current
        action = bots[seat].choose(game)
        if loss:
            judged = action_loss(game, action)
            lost[seat] = (lost[seat] or 0.0) + (judged or 0.0)
        game.apply(action)
    totals = game.totals()
    return [Outcome(totals[k], k in game.state.winners, lost[k]) for k in range(len(bots))]


def _warm(rules: Rules, levels: Sequence[str], loss: bool) -> None:
    """Load the solved table once in this process (workers inherit it or load it from the cache)."""
    if is_exact(rules) and (loss or EXACT_LEVELS & set(levels)):
        solution_for(rules)
    elif loss or EXACT_LEVELS & set(levels):
        saved_for(rules)  # Maxi Yatzy with saved throws: its exact table if it is on this machine


def _chunk(
    rules: Rules, levels: list[str], seed: str, indices: list[int], mode: Mode, loss: bool
) -> list[list[Outcome]]:
    _warm(rules, levels, loss)
    return [play_game(rules, levels, seed, i, mode, loss) for i in indices]


def simulate(
    rules: Rules,
    bot_specs: Sequence[str],
    games: int,
    seed: int | str,
    workers: int = 2,
    progress: Progress | None = None,
    mode: Mode = "table",
    loss: bool | None = None,
    dask: object = None,
    engine: bool = False,
) -> SimResult:
    """Play ``games`` games with the bots and summarise them (``loss`` defaults to: if the rules are solved exactly).

    ``dask``: a scheduler address (``tcp://host:8786``) or a ``distributed.Client``; the chunks of games
    run there instead of local processes, with the same results for the same seed.

    When every bot is table-driven and the rules are supported (:func:`cubilete.simulate.fastsim.unsupported`)
    the games are played by the compiled simulation on ``workers`` threads, unless ``engine`` is set
    (or ``dask`` given). Its dice are its own: the same seed gives other games than the engine's.
    """
    levels = parse_bot_specs(bot_specs)
    if games < 1:
        raise SimulationError(f"games must be at least 1, not {games}")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, not {workers}")
    if mode not in ("table", "solo", "paired"):
        raise SimulationError(f"mode is table, solo or paired, not {mode!r}")
    if mode == "paired" and len(levels) != 2:
        raise SimulationError(f"a paired simulation takes two bots, not {len(levels)}")
    if mode != "solo" and not rules.min_players <= len(levels) <= rules.max_players:
        raise SimulationError(
            f"{rules.name} seats {rules.min_players} to {rules.max_players} players, not {len(levels)} bots"
        )
    exact = is_exact(rules) or saved_for(rules) is not None  # or Maxi Yatzy's exact saved-throws table is here
    measure = exact if loss is None else (loss and exact)
    if not engine and dask is None:
        from cubilete.simulate import fastsim

        if fastsim.unsupported(rules, levels, mode) is None:
            return _compiled(rules, levels, str(seed), games, mode, measure, workers, progress)
    start = time.perf_counter()
    _warm(rules, levels, measure)
    outcomes = _run(rules, levels, str(seed), games, mode, measure, workers, progress, dask)
    solution = solution_for(rules) if exact and (measure or EXACT_LEVELS & set(levels)) else None
    return SimResult(
        rules=rules.name,
        title=rules.title,
        mode=mode,
        games=games,
        seed=str(seed),
        workers=workers,
        seconds=time.perf_counter() - start,
        exact_expected=solution.expected_score if solution is not None else _saved_expected(rules),
        bots=tuple(_stats(label, level, [o for g in outcomes for o in g[k::len(levels)]], mode)
                   for k, (label, level) in enumerate(zip(labels_for(levels), levels, strict=True))),
        paired=_paired(outcomes) if mode == "paired" else None,
    )  # fmt: skip


def _saved_expected(rules: Rules) -> float | None:
    """The exact saved-throws table's optimal expected score, when the table is here."""
    saved = saved_for(rules)
    return saved.expected_score if saved is not None else None


def _run(
    rules: Rules, levels: list[str], seed: str, games: int, mode: Mode, loss: bool, workers: int,
    progress: Progress | None, dask: object = None,
) -> list[list[Outcome]]:  # fmt: skip
    size = max(1, min(25, math.ceil(games / (workers * 8))))
    chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
    results: dict[int, list[list[Outcome]]] = {}
    done = 0
    if dask is not None:
        return _run_on_dask(dask, [(rules, levels, seed, chunk, mode, loss) for chunk in chunks], progress, games)
    if workers == 1:
        for n, chunk in enumerate(chunks):
            results[n] = _chunk(rules, levels, seed, chunk, mode, loss)
            done += len(chunk)
            if progress is not None:
                progress(done, games)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_chunk, rules, levels, seed, chunk, mode, loss): n for n, chunk in enumerate(chunks)}
            for future in as_completed(futures):
                n = futures[future]
                results[n] = future.result()
                done += len(chunks[n])
                if progress is not None:
                    progress(done, games)
    return [game for n in range(len(chunks)) for game in results[n]]


def _paired(deals: list[list[Outcome]]) -> PairedStats:
    """Per deal (bot 0 and 1 in game 1, then in game 2): the first bot's edge in wins and points."""
    wins = [(int(d[0].won) + int(d[2].won) - int(d[1].won) - int(d[3].won)) / 2 for d in deals]
    points = [(d[0].score + d[2].score - d[1].score - d[3].score) / 2 for d in deals]
    w, _, w_ci = mean_interval(wins)
    p, _, p_ci = mean_interval(points)
    return PairedStats(len(deals), w, w_ci, p, p_ci)


def _run_on_dask(
    dask: object, tasks: list[tuple[Rules, list[str], str, list[int], Mode, bool]], progress: Progress | None,
    games: int,
) -> list[list[Outcome]]:  # fmt: skip
    """The chunks on a Dask cluster (extra ``[dask]``), gathered in game order."""
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--dask needs the dask extra: pip install 'cubilete[dask]'") from None
    own = isinstance(dask, str)
    client: Any = Client(dask) if own else dask  # type: ignore[no-untyped-call]
    try:
        futures = [client.submit(_chunk, *task, pure=False) for task in tasks]
        results = client.gather(futures)
    finally:
        if own:
            client.close()
    if progress is not None:
        progress(games, games)
    return [game for chunk in results for game in chunk]


def _stats(label: str, level: str, outcomes: list[Outcome], mode: Mode) -> BotStats:
    n = len(outcomes)
    mean, sd, ci = mean_interval([float(o.score) for o in outcomes])
    wins = sum(o.won for o in outcomes) if mode != "solo" else None
    losses = [o.loss for o in outcomes if o.loss is not None]
    loss_mean, loss_ci = None, None
    if losses:
        loss_mean, _, loss_ci = mean_interval(losses)
    return BotStats(
        label=label,
        level=level,
        games=n,
        mean=mean,
        sd=sd,
        mean_ci=ci,
        wins=wins,
        win_rate=wins / n if wins is not None else None,
        win_ci=wilson(wins, n) if wins is not None else None,
        mean_loss=loss_mean,
        loss_ci=loss_ci,
    )


def _compiled(
    rules: Rules, levels: list[str], seed: str, games: int, mode: Mode, loss: bool, workers: int,
    progress: Progress | None,
) -> SimResult:  # fmt: skip
    """The simulation played by :mod:`cubilete.simulate.fastsim`: the optimal bot loses 0 points a game; the exact
    bot's loss in points is not measured here (None: ``engine=True`` measures it)."""
    import numpy as np

    from cubilete.simulate import fastsim

    start = time.perf_counter()
    batch = fastsim.play(rules, levels, seed, games, mode, progress=progress, threads=workers)
    solution = solution_for(rules)
    stats = []
    for k, (label, level) in enumerate(zip(labels_for(levels), levels, strict=True)):
        scores, won = fastsim.bot_columns(batch, k)
        n = len(scores)
        mean = float(scores.mean())
        sd = float(scores.std(ddof=1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        wins = int(won.sum()) if mode != "solo" else None
        stats.append(BotStats(
            label=label, level=level, games=n, mean=mean, sd=sd, mean_ci=(mean - half, mean + half), wins=wins,
            win_rate=wins / n if wins is not None else None, win_ci=wilson(wins, n) if wins is not None else None,
            mean_loss=0.0 if loss and level == "optimal" else None,
            loss_ci=(0.0, 0.0) if loss and level == "optimal" else None,
        ))  # fmt: skip
    paired = None
    if mode == "paired":
        s, w = batch.scores.astype(np.float64), batch.won.astype(np.float64)
        # bot 0 sits in seat 0 of run 0 and seat 1 of run 1
        paired = PairedStats(
            games, *_mean_ci((w[:, 0, 0] + w[:, 1, 1] - w[:, 0, 1] - w[:, 1, 0]) / 2),
            *_mean_ci((s[:, 0, 0] + s[:, 1, 1] - s[:, 0, 1] - s[:, 1, 0]) / 2),
        )  # fmt: skip
    return SimResult(
        rules=rules.name, title=rules.title, mode=mode, games=games, seed=seed, workers=workers,
        seconds=time.perf_counter() - start,
        exact_expected=solution.expected_score if solution is not None else None,
        bots=tuple(stats), paired=paired, compiled=True,
    )  # fmt: skip


def _mean_ci(values: Any) -> tuple[float, tuple[float, float]]:
    """Mean and 95% normal interval of a numpy vector."""
    n = len(values)
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return mean, (mean - half, mean + half)
