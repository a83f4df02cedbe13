"""Imitation of the exact solver (DAgger) on the numba vector env: a small MLP that plays from the observation.

    pip install 'cubilete[rl,train]'                       # torch, for training only
    nice -n 19 python examples/rl/dagger_yahtzee.py --minutes 30 --seed 0      # writes dagger_yahtzee.npz
    PYTHONPATH=examples/rl cubilete evaluate --policy dagger_yahtzee:act --rules yahtzee --games 10000

The expert is the solver: ``SolitaireVectorEnv.action_regrets()`` gives, in one numba call, the exact
regret of every legal action in every env of the batch. Each round plays the batch with a mix of the
expert (probability ``beta``, halved every round) and the current network, stores what it saw, and fits the
network on the stored states with a loss that weights mistakes by what they cost:
``-log P(an optimal action) + lam * sum_a P(a) * regret(a)`` (softmax over the legal actions).

The network sees the dice sorted (a keep is then a mask over sorted positions, mapped back to the
table's positions when played), so the 120 orders of the same hand are one input. Its features come
from the observation alone (closed boxes, points, dice, counts, throws left, upper and total score,
turns left, the legal boxes) plus the points each box would give for the dice on the table, read from a
table of the rules' scoring stored in the weights file. Playing needs only numpy (:func:`act`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

WEIGHTS = Path(__file__).with_name("dagger_yahtzee.npz")
HIDDEN = (256, 256)


class Featurizer:
    """Observation (``SheetLayout``) -> network input, for one rule set without locked holds or face-down calls."""

    def __init__(self, meta: dict[str, Any]) -> None:
        self.S, self.n, self.throws = int(meta["S"]), int(meta["n"]), int(meta["throws"])
        self.slot_base, self.A = int(meta["slot_base"]), int(meta["A"])
        self.rounds, self.threshold = int(meta["rounds"]), int(meta["threshold"])
        self.slot_high = np.asarray(meta["slot_high"], dtype=np.float32)
        self.total_high = float(meta["total_high"])
        self.hand_codes = np.asarray(meta["hand_codes"], dtype=np.int64)  # sorted base-7 codes of every hand
        self.hand_points = np.asarray(meta["hand_points"], dtype=np.float32)  # (hands, S) base points
        n = self.n
        self.sorted_bits = ((np.arange(1 << n)[:, None] >> np.arange(n)[None, :]) & 1).astype(np.int64)
        self.size = 2 * self.S + 6 * n + 6 * (n + 1) + (self.throws + 1) + 4 + self.S + self.S

    def __call__(self, obs: np.ndarray, amask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Features (B, F) float32 and the sorting permutation (B, n): sorted position i is table position perm[i]."""
        S, n, B = self.S, self.n, obs.shape[0]
        dice = obs[:, 2 * S : 2 * S + n].astype(np.int64)
        perm = np.argsort(dice, axis=1, kind="stable")
        sd = np.take_along_axis(dice, perm, axis=1)
        counts = obs[:, 2 * S + n : 2 * S + n + 6].astype(np.int64)
        tail = 2 * S + 2 * n + 6
        left = obs[:, tail + 1].astype(np.int64)
        upper, total, turns_left = obs[:, tail + 2], obs[:, tail + 3], obs[:, tail + 4]
        code = np.zeros(B, dtype=np.int64)
        for p in range(n):
            code = code * 7 + sd[:, p]
        where = np.clip(np.searchsorted(self.hand_codes, code), 0, len(self.hand_codes) - 1)
        known = self.hand_codes[where] == code  # no dice (game over) reads no points
        closed = obs[:, :S]
        points = self.hand_points[where] * known[:, None] * (1.0 - closed)
        parts = [
            closed,
            obs[:, S : 2 * S] / self.slot_high,
            np.eye(7, dtype=np.float32)[sd][:, :, 1:].reshape(B, 6 * n),
            np.eye(n + 1, dtype=np.float32)[np.clip(counts, 0, n)].reshape(B, 6 * (n + 1)),
            np.eye(self.throws + 1, dtype=np.float32)[np.clip(left, 0, self.throws)],
            (np.minimum(upper, self.threshold) / max(1, self.threshold))[:, None],
            (upper >= self.threshold).astype(np.float32)[:, None],
            (total / self.total_high)[:, None],
            (turns_left / self.rounds)[:, None],
            points / self.slot_high,
            amask[:, self.slot_base : self.slot_base + S].astype(np.float32),
        ]
        return np.concatenate(parts, axis=1).astype(np.float32), perm

    def to_sorted_index(self, perm: np.ndarray) -> np.ndarray:
        """(B, A) int: column a of the sorted frame is column out[b, a] of the table's frame."""
        keeps = (self.sorted_bits[None, :, :] << perm[:, None, :]).sum(axis=2)  # (B, 2^n)
        boxes = np.broadcast_to(np.arange(self.slot_base, self.A), (perm.shape[0], self.A - self.slot_base))
        return np.concatenate([keeps, boxes], axis=1)


def rules_meta(rules: str) -> dict[str, Any]:
    """What the featurizer needs to know of the rules (stored with the weights)."""
    from itertools import combinations_with_replacement

    from cubilete.engine.rules.scoring import base_points
    from cubilete.envs.vector import SolitaireVectorEnv

    env = SolitaireVectorEnv(1, rules, regret=False)
    r = env.rules
    if r.face_down_call or env._T.locked:
        raise SystemExit("this example handles rules without locked holds or face-down calls")
    S, n = len(r.slots), r.dice
    hands = list(combinations_with_replacement(range(1, 7), n))
    codes = [int(sum(f * 7 ** (n - 1 - p) for p, f in enumerate(h))) for h in hands]
    order = np.argsort(codes)
    pts = np.array([[base_points(r.slot_box(j), h) for j in range(S)] for h in hands], dtype=np.float32)
    tail = 2 * S + 2 * n + 6
    return {
        "rules": r.name, "S": S, "n": n, "throws": r.throws, "slot_base": env.codec.slot_base, "A": env.codec.n,
        "rounds": env._T.rounds, "threshold": max(1, env._T.threshold),
        "slot_high": np.maximum(1.0, env.layout.high[S : 2 * S]).astype(np.float32),
        "total_high": float(env.layout.high[tail + 3]),
        "hand_codes": np.asarray(codes, dtype=np.int64)[order], "hand_points": pts[order],
    }  # fmt: skip


# ---- numpy inference (what `cubilete evaluate` runs) ----

_LOADED: dict[str, Any] = {}


def load(path: str | Path | None = None) -> dict[str, Any]:
    """The weights and rules tables of a saved agent (``$CUBILETE_DAGGER_WEIGHTS`` or the shipped file)."""
    where = Path(path or os.environ.get("CUBILETE_DAGGER_WEIGHTS") or WEIGHTS)
    key = str(where.resolve())
    if key not in _LOADED:
        with np.load(where, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
        meta = {k[5:]: v for k, v in data.items() if k.startswith("meta_")}
        layers = [(data[f"W{i}"], data[f"b{i}"]) for i in range(len(HIDDEN) + 1)]
        _LOADED[key] = {"feat": Featurizer(meta), "layers": layers, "rules": str(meta["rules"])}
    return _LOADED[key]


def logits_np(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    for i, (W, b) in enumerate(layers):
        x = x @ W + b
        if i < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


def choose(model: dict[str, Any], obs: np.ndarray, amask: np.ndarray) -> np.ndarray:
    """Greedy legal actions (table frame) for a batch of observations and masks."""
    feat: Featurizer = model["feat"]
    x, perm = feat(obs, amask)
    index = feat.to_sorted_index(perm)
    legal = np.take_along_axis(amask.astype(bool), index, axis=1)
    z = np.where(legal, logits_np(model["layers"], x), -np.inf)
    best = z.argmax(axis=1)
    return index[np.arange(len(best)), best]


def act(observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
    """The shipped agent as a ``cubilete evaluate --policy dagger_yahtzee:act`` policy (numpy only)."""
    return int(choose(load(), observation[None, :], action_mask[None, :])[0])


def evaluate_vector(
    games: int, seed: int = 10**6, envs: int = 1000, path: str | Path | None = None, expert: str | None = None
) -> dict[str, float]:
    """Play ``games`` (rounded up to a multiple of ``envs``) whole games on the vector env (numpy inference,
    exact regret): mean with its 95% interval, median, regret per game and per decision. Its dice are not
    ``cubilete evaluate``'s (another stream), but it is far faster: 100,000 games take minutes here.
    ``expert="yahtzee"`` plays the solver's best action instead (on those rules), for comparison."""
    from cubilete.envs.vector import SolitaireVectorEnv

    model = None if expert else load(path)
    env = SolitaireVectorEnv(envs, expert or model["rules"], regret=True)  # type: ignore[index]
    obs, info = env.reset(seed=seed)
    score, lost = np.zeros(envs), np.zeros(envs)
    scores: list[float] = []
    regrets: list[float] = []
    decisions = 0
    quota = -(-games // envs)  # each env plays the same number of whole games: no bias to short games
    played = np.zeros(envs, dtype=np.int64)
    while (played < quota).any():
        amask = info["action_mask"]
        live = amask.any(axis=1)
        actions = np.zeros(envs, dtype=np.int64)
        if model is None:
            every = env.action_regrets()
            actions[live] = np.where(np.isnan(every), np.inf, every).argmin(axis=1)[live]
        else:
            actions[live] = choose(model, obs[live], amask[live])
        decisions += int((live & (played < quota)).sum())
        obs, reward, term, _, info = env.step(actions)
        score += reward
        lost += info["regret"]
        for i in np.flatnonzero(term):
            if played[i] < quota:
                scores.append(score[i])
                regrets.append(lost[i])
            played[i] += 1
            score[i] = lost[i] = 0.0
    s = np.asarray(scores)
    half = 1.959964 * s.std(ddof=1) / np.sqrt(len(s))
    return {
        "games": len(s), "mean": float(s.mean()), "ci_low": float(s.mean() - half), "ci_high": float(s.mean() + half),
        "median": float(np.median(s)), "regret_per_game": float(np.mean(regrets)),
        "regret_per_decision": float(np.sum(regrets) / max(1, decisions)),
    }  # fmt: skip


# ---- training (torch) ----


def train(
    rules: str = "yahtzee", minutes: float = 30.0, seed: int = 0, envs: int = 512, steps: int = 64,
    updates: int = 64, batch: int = 2048, buffer: int = 400_000, lam: float = 0.2, lr: float = 1e-3,
    out: str | Path = WEIGHTS, max_rounds: int | None = None, log_every: float = 30.0,
    wall_minutes: float | None = None,
) -> dict[str, Any]:  # fmt: skip
    """DAgger rounds until ``minutes`` of CPU time (or ``wall_minutes`` of wall time, or ``max_rounds``) are
    spent; writes the weights to ``out``."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    print(f"seeds: numpy {seed}, torch {seed}, env reset {seed}; rules {rules}", flush=True)
    from cubilete.envs.vector import SolitaireVectorEnv

    meta = rules_meta(rules)
    feat = Featurizer(meta)
    env = SolitaireVectorEnv(envs, rules, regret=True)
    sizes = [feat.size, *HIDDEN, feat.A]
    mods: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        mods.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    X = np.zeros((buffer, feat.size), dtype=np.float32)
    R = np.zeros((buffer, feat.A), dtype=np.float32)  # regrets in the sorted frame, NaN where illegal
    filled = head = 0
    obs, info = env.reset(seed=seed)
    amask = info["action_mask"]
    cpu0, wall0 = time.process_time(), time.monotonic()
    wall = (wall_minutes or minutes * 1e6) * 60

    def spent() -> float:  # the fraction of the budget used
        return max((time.process_time() - cpu0) / (minutes * 60), (time.monotonic() - wall0) / wall)

    last_log = -1e9
    rnd = 0
    stats = {"regret": 0.0, "decisions": 0, "games": 0}
    while spent() < 1.0 and (max_rounds is None or rnd < max_rounds):
        beta = 0.5**rnd
        pol_regret, pol_n, games = 0.0, 0, 0
        for _ in range(steps):
            regrets = env.action_regrets()
            live = ~np.isnan(regrets).all(axis=1)
            x, perm = feat(obs, amask)
            index = feat.to_sorted_index(perm)
            rs = np.take_along_axis(regrets, index, axis=1)
            with torch.no_grad():
                z = net(torch.from_numpy(x)).numpy()
            z = np.where(np.isnan(rs), -np.inf, z)
            mine = z.argmax(axis=1)
            expert = np.where(np.isnan(rs), np.inf, rs).argmin(axis=1)
            pick = np.where(rng.random(envs) < beta, expert, mine)
            k = int(live.sum())
            if k:
                pol_regret += float(rs[live, mine[live]].sum())
                pol_n += k
                rows = (head + np.arange(k)) % buffer
                X[rows], R[rows] = x[live], rs[live]
                head = (head + k) % buffer
                filled = min(buffer, filled + k)
            actions = index[np.arange(envs), pick]
            obs, _, term, _, info = env.step(np.where(live, actions, 0))
            amask = info["action_mask"]
            games += int(term.sum())
        frac = min(1.0, spent())
        for g in opt.param_groups:
            g["lr"] = lr * (0.05**frac)  # decays 20-fold over the budget
        for _ in range(updates):
            rows = rng.integers(0, filled, size=min(batch, filled))
            xb, rb = torch.from_numpy(X[rows]), torch.from_numpy(R[rows])
            legal = ~torch.isnan(rb)
            rc = torch.where(legal, rb, torch.zeros_like(rb))
            logp = torch.log_softmax(torch.where(legal, net(xb), torch.full_like(rb, -1e9)), dim=1)
            best = torch.where(legal, rb, torch.full_like(rb, 1e9)).min(dim=1, keepdim=True).values
            optimal = legal & (rb <= best + 1e-6)
            ce = -torch.logsumexp(torch.where(optimal, logp, torch.full_like(logp, -1e9)), dim=1)
            expected = (logp.exp() * rc).sum(dim=1)
            loss = (ce + lam * expected).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        stats["regret"] += pol_regret
        stats["decisions"] += pol_n
        stats["games"] += games
        rnd += 1
        now = time.process_time() - cpu0
        if now - last_log >= log_every or (max_rounds is not None and rnd >= max_rounds):
            last_log = now
            per = pol_regret / max(1, pol_n)
            per_game = per * stats["decisions"] / max(1, stats["games"])
            print(
                f"round {rnd:4d}  cpu {now:6.0f} s  beta {beta:.3f}  buffer {filled:,}  loss {loss.item():.3f}  "
                f"network's regret per decision {per:.3f} (about {per_game:.1f} per game)",
                flush=True,
            )
    cpu = time.process_time() - cpu0
    save(net, meta, out, {"seed": seed, "rounds": rnd, "cpu_seconds": cpu})
    digest = hashlib.sha256(Path(out).read_bytes()).hexdigest()
    print(f"wrote {out} ({Path(out).stat().st_size:,} bytes, sha256 {digest}) after {rnd} rounds, {cpu:.0f} s CPU")
    return {"rounds": rnd, "cpu_seconds": cpu, "sha256": digest}


def save(net: Any, meta: dict[str, Any], out: str | Path, extra: dict[str, Any]) -> None:
    linears = [m for m in net if hasattr(m, "weight")]
    arrays: dict[str, np.ndarray] = {}
    for i, m in enumerate(linears):
        arrays[f"W{i}"] = m.weight.detach().numpy().T.astype(np.float32).copy()
        arrays[f"b{i}"] = m.bias.detach().numpy().astype(np.float32).copy()
    for k, v in {**meta, **extra}.items():
        arrays[f"meta_{k}"] = np.asarray(v)
    with open(out, "wb") as f:  # np.savez_compressed would append .npz to a name without it
        np.savez_compressed(f, **arrays)
    _LOADED.pop(str(Path(out).resolve()), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--minutes", type=float, default=30.0, help="CPU minutes of training")
    parser.add_argument("--wall-minutes", type=float, help="stop after this much wall time too")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=512)
    parser.add_argument("--lam", type=float, default=0.2, help="weight of the expected regret in the loss")
    parser.add_argument("--out", default=str(WEIGHTS))
    parser.add_argument("--evaluate-vector", type=int, metavar="GAMES", help="no training: play the saved agent")
    parser.add_argument("--expert", action="store_true", help="with --evaluate-vector: play the solver instead")
    args = parser.parse_args()
    if args.evaluate_vector:
        print(evaluate_vector(args.evaluate_vector, path=args.out, expert=args.rules if args.expert else None))
        return
    train(
        args.rules, args.minutes, args.seed, envs=args.envs, lam=args.lam, out=args.out, wall_minutes=args.wall_minutes
    )


if __name__ == "__main__":
    main()
