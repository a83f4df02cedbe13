"""Evaluate any policy against the optimum: mean score with its interval, exact regret of every
decision, and where the points go (by box and by kind of decision).

A policy is a function ``policy(observation, action_mask, rng) -> action`` over the encodings of
:class:`~cubilete.envs.solitaire.SolitaireEnv` (``rng`` is a ``numpy.random.Generator`` seeded per
game, for policies that draw). It is named ``module:function`` so that Dask workers can import it.

Game ``i`` of a run is seeded from ``(seed, i)`` alone, so a run gives the same numbers in one
process or spread over a Dask cluster (``dask="tcp://host:8786"``, extra ``[dask]``).

>>> r = evaluate("cubilete.envs.evaluate:first_legal", "generala", games=2, seed=1, regret=False)
>>> r.games, r.mean_regret is None
(2, True)
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from cubilete.engine.errors import EnvError
from cubilete.engine.rules.model import Rules
from cubilete.envs._common import resolve_rules
from cubilete.envs.solitaire import SolitaireEnv
from cubilete.simulate.pool import Z95

Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]
CHUNK = 25  # games per task


def random_policy(observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
    """A legal action drawn uniformly."""
    return int(rng.choice(np.flatnonzero(action_mask)))


def first_legal(observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
    """The legal action with the lowest number (keep nothing and throw, else the first usable box)."""
    return int(np.flatnonzero(action_mask)[0])


def load_policy(spec: str) -> Policy:
    """The function named ``module:function``; EnvError with the reason otherwise."""
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise EnvError(f"a policy is named module:function, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EnvError(f"policy {spec}: cannot import {module_name} ({exc})") from None
    policy = getattr(module, name, None)
    if not callable(policy):
        raise EnvError(f"policy {spec}: {module_name} has no function {name}")
    return policy  # type: ignore[no-any-return]


@dataclass
class ChunkResult:
    """Raw sums of some games (added up in game order)."""

    scores: list[float] = field(default_factory=list)
    regrets: list[float] = field(default_factory=list)  # per game
    decisions: int = 0
    by_box: dict[str, list[float]] = field(default_factory=dict)  # box -> [regret, decisions]
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # kind -> [regret, decisions]


def game_seed(seed: int, index: int) -> int:
    """The dice seed of game ``index`` of a run."""
    return int(np.random.SeedSequence([seed, index]).generate_state(2, dtype=np.uint32).astype(np.uint64) @ [1, 2**32])


def run_chunk(policy_spec: str, rules: Rules, seed: int, start: int, stop: int, regret: bool) -> ChunkResult:
    """Play games ``start .. stop - 1`` (a Dask task, or a local loop)."""
    policy = load_policy(policy_spec)
    env = SolitaireEnv(rules, regret=regret)
    codec = env.codec
    out = ChunkResult()
    for i in range(start, stop):
        s = game_seed(seed, i)
        obs, info = env.reset(seed=s)
        rng = np.random.default_rng(s)
        score, lost, done = 0.0, 0.0, False
        while not done:
            game = env.game
            assert game is not None
            throw = game.state.turn.throws
            mask = info["action_mask"]
            a = int(policy(obs, mask, rng))
            if not 0 <= a < codec.n or not mask[a]:
                raise EnvError(f"policy {policy_spec} chose action {a}, which is not legal (game {i})")
            obs, reward, done, _, info = env.step(a)
            score += reward
            if regret:
                r = float(info["regret"])
                lost += r
                out.decisions += 1
                if a >= codec.slot_base:
                    box = env.rules.slots[a - codec.slot_base]
                    kind = f"score after throw {throw}"
                    cell = out.by_box.setdefault(box, [0.0, 0.0])
                    cell[0] += r
                    cell[1] += 1
                else:
                    kind = f"keep after throw {throw}"
                cell = out.by_kind.setdefault(kind, [0.0, 0.0])
                cell[0] += r
                cell[1] += 1
        out.scores.append(score)
        out.regrets.append(lost)
    return out


@dataclass(frozen=True)
class Evaluation:
    """A policy measured on many games."""

    policy: str
    rules: str
    games: int
    seed: int
    mean: float
    sd: float
    mean_ci: tuple[float, float]
    optimum: float | None  # the optimal expected score (solved exactly), where solvable
    mean_regret: float | None  # expected points lost per game against optimal play
    regret_ci: tuple[float, float] | None
    regret_per_decision: float | None
    estimate_of_optimum: float | None  # mean of score + regret: agrees with the optimum for any policy
    estimate_ci: tuple[float, float] | None
    by_box: dict[str, dict[str, float]]  # box -> {"regret_per_game", "per_decision", "decisions"}
    by_kind: dict[str, dict[str, float]]
    seconds: float
    median: float | None = None  # the median score (the published learned agents report it)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON)."""
        return asdict(self)


def _interval(values: Sequence[float]) -> tuple[float, float, tuple[float, float]]:
    mean = float(np.mean(values))
    sd = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(values))
    return mean, sd, (mean - half, mean + half)


def evaluate(
    policy: str,
    rules: str | Rules = "yahtzee",
    games: int = 1000,
    seed: int = 0,
    regret: bool = True,
    dask: str | Any | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Evaluation:
    """Play ``games`` games of ``policy`` (``module:function``) and measure it.

    ``dask`` is a scheduler address or a ``distributed.Client``: the chunks of games run there, with
    the same results as a local run. ``progress(games played, games)`` after each chunk played here.
    """
    if games < 1:
        raise EnvError(f"games must be at least 1, not {games}")
    load_policy(policy)  # a bad name fails here, not in a worker
    r = resolve_rules(rules)
    probe = SolitaireEnv(r, regret=regret)
    exact = regret and probe.solvable
    started = time.perf_counter()
    bounds = [(a, min(a + CHUNK, games)) for a in range(0, games, CHUNK)]
    if dask is None:
        chunks = []
        for a, b in bounds:
            chunks.append(run_chunk(policy, r, seed, a, b, exact))
            if progress is not None:
                progress(b, games)
    else:
        chunks = _on_dask(dask, policy, r, seed, bounds, exact)
    scores = [s for c in chunks for s in c.scores]
    mean, sd, ci = _interval(scores)
    by_box: dict[str, dict[str, float]] = {}
    by_kind: dict[str, dict[str, float]] = {}
    for target, attr in ((by_box, "by_box"), (by_kind, "by_kind")):
        sums: dict[str, list[float]] = {}
        for c in chunks:
            for key, (lost, n) in getattr(c, attr).items():
                cell = sums.setdefault(key, [0.0, 0.0])
                cell[0] += lost
                cell[1] += n
        for key in sorted(sums, key=lambda k: -sums[k][0]):
            lost, n = sums[key]
            target[key] = {"regret_per_game": lost / games, "per_decision": lost / n, "decisions": n}
    optimum = mean_regret = regret_ci = per_decision = estimate = estimate_ci = None
    if exact:
        optimum = probe.solution().expected_score
        regrets = [g for c in chunks for g in c.regrets]
        mean_regret, _, regret_ci = _interval(regrets)
        per_decision = sum(regrets) / max(1, sum(c.decisions for c in chunks))
        estimate, _, estimate_ci = _interval([s + g for s, g in zip(scores, regrets, strict=True)])
    return Evaluation(
        policy, r.name, games, seed, mean, sd, ci, optimum, mean_regret, regret_ci, per_decision, estimate,
        estimate_ci, by_box, by_kind, time.perf_counter() - started, float(np.median(scores)),
    )  # fmt: skip


def _on_dask(
    dask: str | Any, policy: str, rules: Rules, seed: int, bounds: list[tuple[int, int]], regret: bool
) -> list[ChunkResult]:
    try:
        from distributed import Client
    except ImportError:
        raise EnvError("--dask needs the dask extra: pip install 'cubilete[dask]'") from None
    own = isinstance(dask, str)
    client: Any = Client(dask) if own else dask  # type: ignore[no-untyped-call]
    try:
        futures = [client.submit(run_chunk, policy, rules, seed, a, b, regret, pure=False) for a, b in bounds]
        return list(client.gather(futures))
    finally:
        if own:
            client.close()
