"""The win bot against the expected-score optimum, compiled (:mod:`cubilete.simulate.fastsim.win`): writes the block
between ``<!-- winbot:begin -->`` and ``<!-- winbot:end -->`` of docs/WINNING.md.

    PYTHONPATH=src nice -n 10 python tools/win_study.py                           # 200,000 deals a study
    PYTHONPATH=src python tools/win_study.py --deals 2000 --print                 # smaller, to the terminal
    PYTHONPATH=src python tools/win_study.py --only generala:3 --deals 50000      # some studies, the rest kept
    PYTHONPATH=src python tools/win_study.py --only generala:win-exact            # win vs exact head to head
    PYTHONPATH=src python tools/win_study.py --rewrite                            # the block from the JSON
    PYTHONPATH=src python tools/win_study.py --engine --deals 200 --out FILE      # the engine and the Python bot

Paired deals: every deal is played once with the win bot in each seat (seats rotated, the optimal bot in
the others) on the same counter-based dice; a deal's value is the win bot's mean share of the wins over
its runs (a shared win split), so the interval (normal, 95%) is over deals and counts the pairing. Every
row gives its seed and the SHA-256 of every game's scores and winners: a rerun with the same seed and
count must print the same digest on any machine. Each study's result is kept in a JSON file beside the
doc (``docs/generated/win_study.json``) so the block can be rewritten from a part of the studies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from cubilete.engine.rules import find_rules, load_rules
from cubilete.engine.rules.model import Rules
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim.win import play_win

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "WINNING.md"
STORE = ROOT / "docs" / "generated" / "win_study.json"
BEGIN, END = "<!-- winbot:begin -->", "<!-- winbot:end -->"
SEED = "win-study"
Z95 = 1.959963984540054
MINI = ROOT / "examples" / "house-rules" / "generala-mini-duel.toml"
STUDIES = ["generala:2", "generala:3", "generala:4", "mini:exact", "generala:win-exact", "generala:target", "examples"]
TARGETS = (200, 250)


def digest(batch: fastsim.Batch) -> str:
    """SHA-256 of the games' scores and winners (the first 16 hex digits)."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(batch.scores, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(batch.won, dtype=np.int8).tobytes())
    return h.hexdigest()[:16]


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and the 95% normal interval."""
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return m, m - half, m + half


def shares_of(batch: fastsim.Batch, bot: int) -> np.ndarray:
    """Per deal: the bot's mean share of the wins over the runs (a shared win split)."""
    won = batch.won.astype(np.float64)
    share = won / np.maximum(won.sum(axis=2, keepdims=True), 1.0)
    runs, seats = np.nonzero(batch.seating == bot)
    return share[:, runs, seats].mean(axis=1)


def win_vs_optimal(name: str, players: int, deals: int) -> dict[str, Any]:
    """The win bot in every seat of each deal against optimal bots."""
    rules = find_rules(name)
    seed = f"{SEED}:{name}:{players}"
    levels = ["win"] + ["optimal"] * (players - 1)
    dep = np.zeros((rules.turns, len(rules.slots) + 3), dtype=np.int64)
    cpu0 = time.process_time()
    batch = play_win(rules, levels, seed, deals, "paired", departures=dep)
    cpu = time.process_time() - cpu0
    x = shares_of(batch, 0)
    m, lo, hi = mean_ci(x)
    # points: the win bot's score minus the mean of the optimal bots' scores, per deal
    s = batch.scores.astype(np.float64)
    runs = np.arange(players)
    mine = s[:, runs, runs].mean(axis=1)  # rotated seating: the win bot sits in seat r in run r
    others = (s.sum(axis=2) - s[:, runs, runs]).mean(axis=1) / (players - 1)
    pm, plo, phi = mean_ci(mine - others)
    reasons = np.bincount(batch.reason.reshape(-1), minlength=4) / batch.reason.size
    out = {
        "rules": name, "players": players, "deals": deals, "games": deals * players, "seed": seed,
        "sha256": digest(batch), "share": m, "lo": lo, "hi": hi, "points": pm, "points_lo": plo, "points_hi": phi,
        "instant": float(reasons[1]), "tiebreak": float(reasons[2]), "cpu": cpu,
        "departures": dep.tolist(), "slots": list(rules.slots),
    }  # fmt: skip
    print(f"{name} {players}p {deals:,} deals: win bot {100 * m:.2f}% ({100 * lo:.2f} - {100 * hi:.2f}), "
          f"{cpu:.0f} CPU s", flush=True)  # fmt: skip
    return out


def win_against_exact(deals: int) -> dict[str, Any] | None:
    """The pocket Generala: the win bot's and the exact bot's edges over the optimal bot on the same deals
    (the exact study's seed), and their difference deal by deal."""
    rules = load_rules(str(MINI))
    if fastsim.unsupported(rules, ["exact", "optimal"], "paired") is not None:
        return None
    seed = f"{SEED}:{rules.name}:against-exact"
    cpu0 = time.process_time()
    win = play_win(rules, ["win", "optimal"], seed, deals, "paired")
    exact = fastsim.play(rules, ["exact", "optimal"], seed, deals, "paired")
    cpu = time.process_time() - cpu0

    def edge(b: fastsim.Batch) -> np.ndarray:
        w = b.won.astype(np.float64)
        return (w[:, 0, 0] + w[:, 1, 1] - w[:, 0, 1] - w[:, 1, 0]) / 2

    def rate(b: fastsim.Batch) -> np.ndarray:
        w = b.won.astype(np.float64)
        share = w / np.maximum(w.sum(axis=2, keepdims=True), 1.0)
        return (share[:, 0, 0] + share[:, 1, 1]) / 2

    ew, ee = edge(win), edge(exact)
    rw, re = rate(win), rate(exact)
    out: dict[str, Any] = {"rules": rules.name, "deals": deals, "seed": seed, "cpu": cpu,
                           "sha_win": digest(win), "sha_exact": digest(exact)}  # fmt: skip
    for label, x in (("win", ew), ("exact", ee), ("diff", ew - ee), ("win_rate", rw), ("exact_rate", re),
                     ("rate_diff", rw - re)):  # fmt: skip
        m, lo, hi = mean_ci(x)
        out[label] = [m, lo, hi]
    print(f"mini: win edge {100 * out['win'][0]:+.2f} pp, exact {100 * out['exact'][0]:+.2f} pp, "
          f"win - exact {100 * out['diff'][0]:+.2f} pp", flush=True)  # fmt: skip
    return out


def win_head_to_head(deals: int) -> dict[str, Any] | None:
    """Full Generala heads-up, the win bot against the exact bot at one table: each deal played twice with
    the seats swapped on the same dice. The win bot's share of the wins per deal (a shared win split), its
    points minus the exact bot's, and the speed (games per wall second and per CPU second, load average)."""
    rules = find_rules("generala")
    levels = ["win", "exact"]
    why = fastsim.unsupported(rules, levels, "paired")  # loads (or solves: minutes, 4 GB) the two-player table
    if why is not None:
        print(f"generala:win-exact not run: {why}", flush=True)
        return None
    seed = f"{SEED}:generala:win-exact"
    fastsim.play(rules, levels, seed, 1, "paired")  # the tables loaded and the kernels compiled, not timed
    load = os.getloadavg()[0]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    batch = fastsim.play(rules, levels, seed, deals, "paired")
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    m, lo, hi = mean_ci(shares_of(batch, 0))
    s = batch.scores.astype(np.float64)
    pm, plo, phi = mean_ci((s[:, 0, 0] + s[:, 1, 1] - s[:, 0, 1] - s[:, 1, 0]) / 2)  # win bot minus exact bot
    reasons = np.bincount(batch.reason.reshape(-1), minlength=4) / batch.reason.size
    out = {
        "rules": rules.name, "deals": deals, "games": 2 * deals, "seed": seed, "sha256": digest(batch),
        "share": m, "lo": lo, "hi": hi, "points": pm, "points_lo": plo, "points_hi": phi,
        "instant": float(reasons[1]), "tiebreak": float(reasons[2]), "cpu": cpu, "wall": wall,
        "load": [load, os.getloadavg()[0]],
    }  # fmt: skip
    print(f"generala win vs exact {deals:,} deals: win bot {100 * m:.2f}% ({100 * lo:.2f} - {100 * hi:.2f}), "
          f"{2 * deals / wall:,.0f} games/s wall, {2 * deals / max(cpu, 1e-9):,.0f} per CPU s, "
          f"load {load:.1f}", flush=True)  # fmt: skip
    return out


def head_to_head_lines(r: dict[str, Any]) -> list[str]:
    short = " (fewer than 200,000 games: the time ran out)" if r["games"] < 200_000 else ""
    return [
        "",
        "#### Head to head: the win bot against the exact bot (full Generala)",
        "",
        f"The win bot and the exact bot (full Generala's two-player table) at one table, {r['deals']:,} paired "
        f"deals{short}, each played twice with the seats swapped on the same dice (seed `{r['seed']}`): the win "
        f"bot wins {100 * r['share']:.2f}% of the games ({100 * r['lo']:.2f}% - {100 * r['hi']:.2f}%, 95%; a "
        f"shared win split; 50% would be even with the exact player), {r['points']:+.2f} points a game against the "
        f"exact bot ({r['points_lo']:+.2f}, {r['points_hi']:+.2f}). Instant wins end {100 * r['instant']:.2f}% "
        f"of the games, tie-breaks {100 * r['tiebreak']:.2f}%. {r['games'] / max(r['wall'], 1e-9):,.0f} games "
        f"per wall second, {r['games'] / max(r['cpu'], 1e-9):,.0f} per CPU second (load average "
        f"{r['load'][0]:.1f} at the start, {r['load'][1]:.1f} at the end). SHA-256 `{r['sha256']}`.",
    ]


def target_study(deals: int) -> dict[str, Any]:
    """The compiled target bot alone on Generala without its instant win (``generala-sin-gana``: the target
    tables value a sheet as if the game went on after a servida Generala) against the optimal bot alone on the
    same dice: P(final >= T) of each with its 95% interval, beside the tables' exact values (best play, points
    play)."""
    from cubilete.win.distribution import survival_from
    from cubilete.win.play import reach_probability
    from cubilete.win.tables import vector_table

    rules = find_rules("generala-sin-gana")
    empty = [None] * len(rules.slots)
    follow = survival_from(vector_table(rules, "follow"), empty)
    rows = []
    for target in TARGETS:
        seed = f"{SEED}:generala:target:{target}"
        levels = [f"target:{target}", "optimal"]
        fastsim.play(rules, levels, seed, 1, "solo")  # tables loaded and kernels compiled, not timed
        load = os.getloadavg()[0]
        cpu0, wall0 = time.process_time(), time.perf_counter()
        batch = fastsim.play(rules, levels, seed, deals, "solo")
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        hit = (batch.scores[:, :, 0] >= target).astype(np.float64)
        row = {
            "target": target, "deals": deals, "seed": seed, "sha256": digest(batch),
            "best": reach_probability(rules, empty, target), "points_play": float(follow[target]),
            "bot": list(mean_ci(hit[:, 0])), "optimal": list(mean_ci(hit[:, 1])),
            "gain": list(mean_ci(hit[:, 0] - hit[:, 1])), "mean": float(batch.scores[:, 0, 0].mean()),
            "cpu": cpu, "wall": wall, "load": [load, os.getloadavg()[0]],
        }  # fmt: skip
        rows.append(row)
        b, o = row["bot"], row["optimal"]
        print(f"target {target}: bot {b[0]:.4f} ({b[1]:.4f} - {b[2]:.4f}) exact {row['best']:.4f}; optimal "
              f"{o[0]:.4f} ({o[1]:.4f} - {o[2]:.4f}) exact {row['points_play']:.4f}; "
              f"{deals / wall:,.0f} target games/s wall, load {load:.1f}", flush=True)  # fmt: skip
    return {"rules": rules.name, "rows": rows}


def target_lines(study: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "#### The target bot over many games (compiled)",
        "",
        "The compiled target bot (`bot:target:T`, the same moves as the Python bot: "
        "`tests/simulate/test_fastsim_target.py`) "
        "alone on Generala, and the optimal bot alone on the same dice. The rules are Generala without its "
        f"instant win (`{study['rules']}`, otherwise the same): the target tables value a sheet as if the game "
        "went on after a servida Generala, so that is the game whose exact values they give (with the instant win "
        "about 0.8% of the games stop early). 95% normal intervals over deals; the gain is per deal on the same dice.",
        "",
        "| T | deals | target bot: P(final >= T) | 95% interval | exact best | optimal bot | 95% interval "
        "| exact points play | gain | target bot's mean score | target games per wall s | seed | SHA-256 |",
        "|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---|---|",
    ]
    for r in study["rows"]:
        b, o, g = r["bot"], r["optimal"], r["gain"]
        lines.append(
            f"| {r['target']} | {r['deals']:,} | {b[0]:.4f} | {b[1]:.4f} - {b[2]:.4f} | {r['best']:.4f} | {o[0]:.4f} "
            f"| {o[1]:.4f} - {o[2]:.4f} | {r['points_play']:.4f} | {g[0]:+.4f} ({g[1]:+.4f}, {g[2]:+.4f}) "
            f"| {r['mean']:.2f} | {r['deals'] / max(r['wall'], 1e-9):,.0f} (load {r['load'][0]:.1f}) | `{r['seed']}` "
            f"| `{r['sha256']}` |"
        )
    return lines


def option_words(o: Any, rules: Rules) -> str:
    if o.kind == "keep":
        kept = " ".join(str(f) for f in o.keep)
        return f"keep {kept} and throw again" if kept else "throw all the dice again"
    return f"write {o.points} in {o.slot}"


def card_words(rules: Rules, card: Any, total: int) -> str:
    open_ = [s for s, v in zip(rules.slots, card, strict=True) if v is None]
    return f"{total} points, open: {', '.join(open_) if open_ else 'none (finished)'}"


def examples(seed: str, deals: int, wanted: int = 2, budget: float = 60.0) -> list[dict[str, Any]]:
    """Departures from the points choice in the last turns (the clearest to follow), found by replaying the
    study's first deals through the engine with the Python win bot (the compiled bot's moves): the ``wanted``
    that gain the most probability of winning among those found within ``budget`` CPU seconds."""
    from cubilete.engine.game import Game
    from cubilete.engine.rules import scoring
    from cubilete.play.bots import make_bot
    from cubilete.play.bots.base import in_play
    from cubilete.play.bots.optimal import optimal_options
    from cubilete.simulate.fastsim.dice import CounterDice, seed_key

    rules = find_rules("generala")
    key = seed_key(seed)
    found: list[dict[str, Any]] = []
    start = time.process_time()
    for deal in range(deals):
        if time.process_time() - start > budget:
            break
        for run in range(2):
            game = Game(rules, ["win", "optimal"] if run == 0 else ["optimal", "win"], dice=CounterDice(key, deal))
            bots = [make_bot("bot:win" if game.players[i] == "win" else "bot:optimal", 0) for i in range(2)]
            me = game.players.index("win")
            while not game.is_over:
                st = game.state
                bot = bots[st.current]
                if st.current == me and st.turn.throws > 0 and in_play(game):
                    ranked = bot.analyse(game)  # type: ignore[attr-defined]
                    points = optimal_options(game)[0]
                    best = ranked[0]
                    same = (best.kind, best.slot, best.keep) == (points.kind, points.slot, points.keep)
                    turn = st.seats[me].turns_taken + 1
                    if not same and best.kind == "score" and turn >= rules.turns - 2:
                        target = (points.kind, points.slot, points.keep)
                        p_points = next(o.expected for o in ranked if (o.kind, o.slot, o.keep) == target)
                        other = st.seats[1 - me]
                        found.append({
                            "deal": deal, "run": run, "turn": turn, "throw": st.turn.throws,
                            "dice": " ".join(str(f) for f in sorted(st.turn.dice)),
                            "me": card_words(rules, st.seats[me].card,
                                             scoring.total(rules, st.seats[me].card, st.seats[me].extra_bonuses)),
                            "opponent": card_words(rules, other.card,
                                                   scoring.total(rules, other.card, other.extra_bonuses)),
                            "opponent_moves_after": st.order.index(1 - me) > st.order.index(me),
                            "points_choice": option_words(points, rules), "points_expected": points.expected,
                            "points_win": p_points, "win_choice": option_words(best, rules), "win_win": best.expected,
                        })  # fmt: skip
                        break
                game.apply(bot.choose(game))
    found.sort(key=lambda e: e["points_win"] - e["win_win"])
    return found[:wanted]


def departure_lines(study: dict[str, Any]) -> list[str]:
    dep = np.array(study["departures"])
    slots = study["slots"]
    total, departs = int(dep[:, 0].sum()), int(dep[:, 1].sum())
    lines = [
        f"Heads-up, the win bot's {total:,} decisions of the {study['deals']:,} deals (both seats): it departs from "
        f"the points choice in {departs:,} ({100 * departs / max(total, 1):.2f}%). By turn (its own turns, 1 = first):",
        "",
        "| turn | " + " | ".join(str(t + 1) for t in range(dep.shape[0])) + " |",
        "|---|" + "---:|" * dep.shape[0],
        "| decisions | " + " | ".join(f"{int(v):,}" for v in dep[:, 0]) + " |",
        "| departures | " + " | ".join(f"{int(v):,}" for v in dep[:, 1]) + " |",
        "| share | "
        + " | ".join(f"{100 * v / max(d, 1):.1f}%" for v, d in zip(dep[:, 1], dep[:, 0], strict=True))
        + " |",
        "",
        "What the win bot does instead (the box it writes, or throwing again), over all turns:",
        "",
        "| " + " | ".join([*slots, "throws again"]) + " |",
        "|" + "---:|" * (len(slots) + 1),
        "| " + " | ".join(f"{int(v):,}" for v in dep[:, 2:].sum(axis=0)) + " |",
    ]
    return lines


def block(results: dict[str, Any]) -> str:
    lines = [
        "### The win bot over many games (compiled)",
        "",
        "Written by `tools/win_study.py`: the compiled win bot (`cubilete.simulate.fastsim.win`, the same moves as "
        "`bot:win`: `tests/simulate/test_fastsim_win.py` replays compiled deals through `Game` with the Python bot) "
        "against the optimal bot. Paired deals: each deal is played once with the win bot in each seat, the "
        "optimal bot in the others, on the same counter-based dice; a deal's value is the win bot's mean share "
        "of the wins (a shared win split), and the 95% interval is normal over deals.",
        "",
        "| rules | players | deals | games | win bot's share of the wins | 95% interval | fair share "
        "| points vs optimal | instant wins | tie-breaks | games per CPU s | seed | SHA-256 |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for key in STUDIES[:3]:
        r = results.get(key)
        if r is None:
            continue
        lines.append(
            f"| {r['rules']} | {r['players']} | {r['deals']:,} | {r['games']:,} | {100 * r['share']:.2f}% | "
            f"{100 * r['lo']:.2f}% - {100 * r['hi']:.2f}% | {100 / r['players']:.2f}% | "
            f"{r['points']:+.2f} ({r['points_lo']:+.2f}, {r['points_hi']:+.2f}) | {100 * r['instant']:.2f}% | "
            f"{100 * r['tiebreak']:.2f}% | {r['games'] / max(r['cpu'], 1e-9):,.0f} | `{r['seed']}` | `{r['sha256']}` |"
        )
    missing = [k for k in STUDIES[:3] if k not in results]
    if missing:
        lines += ["", f"Not run yet: {', '.join(missing)}."]
    short = [f"{results[k]['players']} players ({results[k]['games']:,} games)" for k in STUDIES[:3]
             if k in results and results[k]["games"] < 200_000]  # fmt: skip
    if short:
        lines += ["", f"Fewer than 200,000 games (the time ran out): {', '.join(short)}."]
    cpu = sum(results[k]["cpu"] for k in STUDIES[:3] if k in results)
    lines += [
        "",
        f"CPU time of these studies: {cpu / 60:.0f} min (numba on the two shared cores, nice 10; the optimal bot "
        "alone plays about 100 times as many games per CPU second: the win bot solves each of its turns for the "
        "share of the win). The points column is the win bot's final score minus the optimal bots' mean, per "
        "deal, with its 95% interval: the win bot gives up points to win more often.",
    ]
    if "generala:2" in results:
        lines += [
            "",
            "#### Where the win bot departs from the points choice",
            "",
            *departure_lines(results["generala:2"]),
        ]
    ex = results.get("examples") or []
    if ex:
        lines += ["", "Examples a player can follow (late turns of the heads-up study, replayed with `bot:win`):", ""]
        for e in ex:
            when = "moves after you" if e["opponent_moves_after"] else "has already played this round"
            lines.append(
                f"* Your turn {e['turn']} of 11, throw {e['throw']}, dice {e['dice']}. You: {e['me']}. Your opponent "
                f"({when}): {e['opponent']}. Playing for points you would {e['points_choice']} (expected final "
                f"score {e['points_expected']:.1f}), winning {100 * e['points_win']:.1f}% of the time; the win bot "
                f"would rather {e['win_choice']}: {100 * e['win_win']:.1f}%. (Deal {e['deal']}, run {e['run']} of "
                "the heads-up study.)"
            )
    mini = results.get("mini:exact")
    if mini:
        w, x, d = mini["win"], mini["exact"], mini["diff"]
        lines += [
            "",
            "#### Against the exact two-player player",
            "",
            f"On the pocket Generala (`{mini['rules']}`, `examples/house-rules/generala-mini-duel.toml`), whose "
            "two-player table is solved, the win bot and the exact bot each play the same "
            f"{mini['deals']:,} paired deals against the optimal bot (seed `{mini['seed']}`): the win bot's edge "
            "over the optimal bot (its wins minus the optimal bot's, per deal) is "
            f"{100 * w[0]:+.2f} percentage points ({100 * w[1]:+.2f}, {100 * w[2]:+.2f}), "
            f"the exact bot's {100 * x[0]:+.2f} ({100 * x[1]:+.2f}, {100 * x[2]:+.2f}); deal by deal the win bot "
            f"is {100 * d[0]:+.2f} pp ({100 * d[1]:+.2f}, {100 * d[2]:+.2f}) from the exact player against the "
            "same opponent. "
            + (
                f"In probability of winning (a shared win split): the win bot wins {100 * mini['win_rate'][0]:.2f}% "
                f"of its games against the optimal bot, the exact bot {100 * mini['exact_rate'][0]:.2f}%; the win "
                f"bot is {100 * mini['rate_diff'][0]:+.2f} pp ({100 * mini['rate_diff'][1]:+.2f}, "
                f"{100 * mini['rate_diff'][2]:+.2f}) from the exact player (the goal: within 0.5). "
                if "rate_diff" in mini
                else ""
            )
            + f"SHA-256: win `{mini['sha_win']}`, exact `{mini['sha_exact']}`. "
            "This compares the two bots through a common opponent; the next study seats them at one table.",
        ]
    head = results.get("generala:win-exact")
    if head:
        lines += head_to_head_lines(head)
    if results.get("generala:target"):
        lines += target_lines(results["generala:target"])
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    body = f"{BEGIN}\n{text}{END}"
    if BEGIN in doc and END in doc:
        doc = doc[: doc.index(BEGIN)] + body + doc[doc.index(END) + len(END) :]
    else:
        doc = doc.rstrip("\n") + "\n\n" + body + "\n"
    DOC.write_text(doc, encoding="utf-8")


def engine_main(args: argparse.Namespace) -> None:
    """The engine study with the Python win bot (seeds ``win-study:N``), one line a deal to ``--out``."""
    from cubilete.engine.game import Game
    from cubilete.play.bots import make_bot

    rules = find_rules(args.rules)
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    per_deal = []
    for deal in range(args.first, args.first + args.deals):
        shares = []
        for seat in range(args.players):
            game = Game(rules, [f"p{i}" for i in range(args.players)], seed=f"win-study:{deal}")
            bots = {i: make_bot("bot:win" if i == seat else "bot:optimal", seed=deal) for i in range(args.players)}
            while not game.is_over:
                game.apply(bots[game.state.current].choose(game))
            shares.append(1.0 / len(game.state.winners) if seat in game.state.winners else 0.0)
        per_deal.append(sum(shares) / args.players)
        if out is not None:
            out.write(f"{deal} {per_deal[-1]!r}\n")
            out.flush()
    m, lo, hi = mean_ci(np.array(per_deal))
    print(f"{args.rules} {args.players}p {len(per_deal)} deals: win bot share {m:.4f} ({lo:.4f} - {hi:.4f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200_000, help="paired deals a study (default 200,000)")
    parser.add_argument("--only", action="append", choices=STUDIES, help="run these studies, keep the others")
    parser.add_argument("--print", action="store_true", help="print the block instead of writing the doc")
    parser.add_argument("--rewrite", action="store_true", help="rewrite the doc's block from the stored results")
    parser.add_argument("--engine", action="store_true", help="the engine and the Python bot (--out FILE)")
    parser.add_argument("--rules", default="generala")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out", help="(--engine) append each deal's share to this file")
    args = parser.parse_args()
    if args.engine:
        engine_main(args)
        return
    results: dict[str, Any] = json.loads(STORE.read_text(encoding="utf-8")) if STORE.exists() else {}
    if args.rewrite:
        write(block(results))
        print(f"wrote {DOC.relative_to(ROOT)} from {STORE.relative_to(ROOT)}")
        return
    started, load = time.perf_counter(), os.getloadavg()[0]
    for key in args.only or STUDIES:
        if key in ("mini:exact", "generala:win-exact"):
            got = win_against_exact(args.deals) if key == "mini:exact" else win_head_to_head(args.deals)
            if got is not None:
                results[key] = got
        else:
            if key == "examples":
                results[key] = examples(f"{SEED}:generala:2", args.deals)
                continue
            if key == "generala:target":
                results[key] = target_study(args.deals)
                continue
            name, players = key.split(":")
            results[key] = win_vs_optimal(name, int(players), args.deals)
    results["run"] = {"wall": time.perf_counter() - started, "load": load}
    if args.print:
        sys.stdout.write(block(results))
        return
    STORE.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write(block(results))
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
