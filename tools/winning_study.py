"""Write the section "Who wins: measured over many games" of docs/WINNING.md (between its markers).

    PYTHONPATH=src python tools/winning_study.py                          # 200,000 games a study (~5 CPU min)
    PYTHONPATH=src python tools/winning_study.py --games 20000 --print    # smaller, to the terminal only
    PYTHONPATH=src python tools/winning_study.py --win-deals FILE         # add the win bot's paired deals
    PYTHONPATH=src python tools/winning_study.py --exact-only --exact-check 50000   # only exact vs optimal

Compiled studies (:mod:`cubilete.simulate.fastsim`, the optimal bot in every seat): the advantage of the seat
that starts, heads-up and at 3 and 4 players, in Generala and a few other presets. The win bot is
Python (about 2.5 ms a decision): its paired deals are played by ``tools/win_study.py --out FILE``
(the engine, seeds ``win-study:N``) and read from that file here. Exact against optimal uses the
``exact`` bot's two-player table: :func:`duel_study` plays it on the rule sets that have one.
Every figure comes with its seed, its count and a SHA-256 of the games' scores and winners, so a
rerun can be checked: the same seed gives the same games on any machine.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from cubilete.engine.rules import find_rules
from cubilete.simulate import fastsim
from cubilete.simulate.pool import Z95, wilson

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "WINNING.md"
BEGIN, END = "<!-- fastsim:begin -->", "<!-- fastsim:end -->"
EXACT_BEGIN, EXACT_END = "<!-- exact-study:begin -->", "<!-- exact-study:end -->"
SEED = "winning-study"
ORDINALS = ["1st", "2nd", "3rd", "4th"]


def digest(batch: fastsim.Batch) -> str:
    """SHA-256 of the games' scores and winners (the first 16 hex digits)."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(batch.scores, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(batch.won, dtype=np.int8).tobytes())
    return h.hexdigest()[:16]


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def ci(lo_hi: tuple[float, float]) -> str:
    return f"{100 * lo_hi[0]:.2f}% - {100 * lo_hi[1]:.2f}%"


def by_position(batch: fastsim.Batch, players: int) -> list[tuple[float, tuple[float, float]]]:
    """Share of the wins (a shared win split) of the seat playing k-th, with a 95% interval."""
    n = batch.scores.shape[0]
    won = batch.won[:, 0, :players].astype(np.float64)
    share = won / np.maximum(won.sum(axis=1, keepdims=True), 1.0)
    step = 1 if batch.rules.direction.value == "clockwise" else -1
    rows = np.arange(n)
    out = []
    for k in range(players):
        seat = (batch.starter[:, 0] + step * k) % players
        x = share[rows, seat]
        half = Z95 * float(x.std(ddof=1)) / math.sqrt(n)
        out.append((float(x.mean()), (float(x.mean()) - half, float(x.mean()) + half)))
    return out


def position_study(name: str, players: int, games: int) -> tuple[list[str], dict[str, float]]:
    """Rows of the table of one preset and number of players."""
    rules = find_rules(name)
    start = time.process_time()
    batch = fastsim.play(rules, ["optimal"] * players, f"{SEED}:{name}:{players}", games, "table")
    cpu = time.process_time() - start
    shares = by_position(batch, players)
    reasons = np.bincount(batch.reason[:, 0], minlength=4) / games
    cells = [f"{pct(m)} ({ci(c)})" for m, c in shares] + ["-"] * (4 - players)
    row = (
        f"| {name} | {players} | {games:,} | " + " | ".join(cells) + f" | {pct(reasons[1])} | {pct(reasons[2])} | "
        f"{games / max(cpu, 1e-9):,.0f} | `{SEED}:{name}:{players}` | `{digest(batch)}` |"
    )
    print(f"{name} {players}p {games:,} games, {cpu:.1f} CPU s: " + ", ".join(pct(m) for m, _ in shares), flush=True)
    return [row], {"first": shares[0][0], "lo": shares[0][1][0], "hi": shares[0][1][1]}


def heads_up_detail(games: int) -> list[str]:
    """Heads-up Generala: how the starter's and the second player's wins come about."""
    rules = find_rules("generala")
    batch = fastsim.play(rules, ["optimal", "optimal"], f"{SEED}:generala:2", games, "table")
    rows = np.arange(games)
    starter = batch.starter[:, 0]
    second = 1 - starter
    w1 = batch.won[rows, 0, starter].astype(bool)
    w2 = batch.won[rows, 0, second].astype(bool)
    reason = batch.reason[:, 0]
    s1 = batch.scores[rows, 0, starter]
    s2 = batch.scores[rows, 0, second]
    lines = ["| how the game ends | share of games | starter wins | second wins |", "|---|---:|---:|---:|"]
    for code, words in [(0, "on points"), (1, "instant win (servida Generala)"), (2, "tie-break rounds")]:
        sel = reason == code
        lines.append(f"| {words} | {pct(sel.mean())} | {pct((sel & w1).mean())} | {pct((sel & w2).mean())} |")
    lines.append(f"| all | 100% | {pct(w1.mean())} | {pct(w2.mean())} |")
    lines.append("")
    lines.append(
        f"Mean final score: starter {s1.mean():.2f}, second {s2.mean():.2f} (a game ended by an instant win "
        "stops both sheets where they are). Wilson 95% interval of the starter's share: "
        f"{ci(wilson(int(w1.sum()), games))}."
    )
    return lines


def win_bot_lines(path: Path | None) -> list[str]:
    """The win bot's paired deals (tools/win_study.py --out FILE), as a table row."""
    if path is None or not path.exists():
        return ["Win bot: no paired deals given to this run (`--win-deals FILE`)."]
    deals, shares = [], []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            d, s = line.split()
            deals.append(int(d))
            shares.append(float(s))
    x = np.array(shares)
    n = len(x)
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    body = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return [
        "| players | deals | games | win bot's share of the wins | 95% interval | seeds | SHA-256 of the deals |",
        "|---|---:|---:|---:|---|---|---|",
        f"| 2 | {n:,} | {2 * n:,} | {pct(x.mean())} | {pct(x.mean() - half)} - {pct(x.mean() + half)} | "
        f"`win-study:{min(deals)}` .. `win-study:{max(deals)}` | `{body}` |",
    ]


def duel_rules() -> list[object]:
    """The rule sets of the exact-bot study: the pocket Generala, and full Generala once its table is cached."""
    from cubilete.engine.rules import load_rules

    return [load_rules(str(ROOT / "examples" / "house-rules" / "generala-mini-duel.toml")), find_rules("generala")]


def duel_study(games: int, check_games: int = 0) -> list[str]:
    """Exact against optimal, compiled and paired, on the rule sets with a two-player table; with
    ``check_games``, exact against exact too (the first player's share against the table's value)."""
    from cubilete.engine.rules.model import Rules
    from cubilete.play.bots.exact import duel_for

    lines = [
        EXACT_BEGIN,
        "| rules | deals | games | exact - optimal, wins (percentage points) | 95% interval | points per game "
        "| 95% interval | seed | SHA-256 |",
        "|---|---:|---:|---:|---|---:|---|---|---|",
    ]
    checks: list[str] = []
    tables: list[str] = []
    played: list[str] = []
    for rules in duel_rules():
        assert isinstance(rules, Rules)
        why = fastsim.unsupported(rules, ["exact", "optimal"], "paired")
        if why is not None:
            print(f"exact vs optimal {rules.name}: skipped ({why})", flush=True)
            continue
        solution = duel_for(rules)
        assert solution is not None
        played.append(rules.name)
        seed = f"{SEED}:{rules.name}:exact"
        cpu = time.process_time()
        batch = fastsim.play(rules, ["exact", "optimal"], seed, games, "paired")
        cpu = time.process_time() - cpu
        s, w = batch.scores.astype(np.float64), batch.won.astype(np.float64)
        wins = (w[:, 0, 0] + w[:, 1, 1] - w[:, 0, 1] - w[:, 1, 0]) / 2
        points = (s[:, 0, 0] + s[:, 1, 1] - s[:, 0, 1] - s[:, 1, 0]) / 2
        cells = []
        for x, scale in ((wins, 100.0), (points, 1.0)):
            half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x))
            m = float(x.mean())
            cells.append(f"{scale * m:+.2f} | [{scale * (m - half):+.2f}, {scale * (m + half):+.2f}]")
        lines.append(f"| {rules.name} | {games:,} | {2 * games:,} | {cells[0]} | {cells[1]} | `{seed}` | "
                     f"`{digest(batch)}` |")  # fmt: skip
        print(f"exact vs optimal {rules.name}: {cells} ({cpu:.0f} CPU s)", flush=True)
        table = solution.first_player_wins
        if check_games:
            cseed = f"{SEED}:{rules.name}:exact-self"
            cb = fastsim.play(rules, ["exact", "exact"], cseed, check_games, "table")
            rows = np.arange(check_games)
            won = cb.won[rows, 0, cb.starter[:, 0]].astype(np.float64)
            both = cb.won[:, 0, :2].sum(axis=1) == 2  # a shared win (rare): half to each
            x = np.where(both, 0.5, won)
            half = Z95 * float(x.std(ddof=1)) / math.sqrt(check_games)
            inside = abs(float(x.mean()) - table) <= half
            checks.append(
                f"| {rules.name} | {table:.6f} | {check_games:,} | {pct(float(x.mean()))} | "
                f"{pct(float(x.mean()) - half)} - {pct(float(x.mean()) + half)} | {'yes' if inside else 'NO'} | "
                f"`{cseed}` | `{digest(cb)}` |"
            )
            print(f"exact vs exact {rules.name}: first player {x.mean():.5f} (table {table:.5f})", flush=True)
        else:
            checks.append(f"| {rules.name} | {table:.6f} | - | - | - | - | - | - |")
        tables.append(f"{rules.name} `{solution.digest[:16]}` ({solution.joint.n_cells:,} values)")
    lines += [
        "",
        "What the two-player tables predict (the first player's chance when **both** play the exact bot; "
        "the compiled exact bot against itself over the games shown, the first player's share of the wins with "
        "its 95% interval):",
        "",
        "| rules | table: first player wins | games | measured | 95% interval | table inside | seed | SHA-256 |",
        "|---|---:|---:|---:|---|---|---|---|",
        *checks,
        "",
        "The two-player tables read (SHA-256 of their values, first 16 hex digits): " + "; ".join(tables) + ".",
        "",
        "The table does not predict the exact bot's result against the optimal bot: the table assumes an "
        "opponent who also plays to win, and the optimal bot plays for expected points instead (a weaker "
        "opponent for the purpose of winning, but not the one the table's values describe); that edge is only "
        "measured, above.",
        "",
        "The pocket Generala is `examples/house-rules/generala-mini-duel.toml`. The reduced Generalas of the "
        "two-player section are not measured here (their tables are solved by `tools/winning_duel.py` and not "
        "kept in the repository)"
        + (
            "."
            if "generala" in played
            else ", nor full Generala, whose two-player table (3.2 GB) was not in the cache of this run "
            "(`cubilete solve --rules generala --players 2`, then run this script again)."
        )
        + " Full Generala's exact bot is compiled like the optimal bot: each turn it values only the lead on the "
        "table (the successors' values read at that lead plus the points), not the whole window of leads.",
        EXACT_END,
    ]
    return lines


def write_exact(text: str) -> None:
    """Replace only the exact-bot block of the doc (``--exact-only``)."""
    doc = DOC.read_text(encoding="utf-8")
    if EXACT_BEGIN not in doc or EXACT_END not in doc:
        raise SystemExit(f"{DOC}: no {EXACT_BEGIN} ... {EXACT_END} block; run the whole study once")
    doc = doc[: doc.index(EXACT_BEGIN)] + text.rstrip("\n") + doc[doc.index(EXACT_END) + len(EXACT_END) :]
    DOC.write_text(doc, encoding="utf-8")


def section(games: int, win_deals: Path | None, check_games: int = 0) -> str:
    started = time.perf_counter()
    cpu0 = os.times()
    load = os.getloadavg()[0]
    lines = [
        "## Who wins: measured over many games",
        "",
        f"Written by `tools/winning_study.py` (compiled simulation, `cubilete.simulate.fastsim`; "
        f"{games:,} games a row). "
        "Every seat plays the **optimal** (expected-points) bot. The dice are the compiled simulation's "
        "counter-based dice, so a seed replays the same games anywhere (the SHA-256 covers every game's scores "
        "and winners); a shared win is split between the winners.",
        "",
        "### The compiled simulation",
        "",
        "`cubilete.simulate.fastsim` plays whole games of the table-driven bots in numba, many deals at once "
        "over every "
        "core: the `optimal` bot (the solver's table; its choice is the advisor's first option, same values, same "
        "order of ties) and the `exact` bot heads-up where a two-player table exists. The flow is the engine's: "
        "start throws, turn order, the instant win on a first throw (tie-break turns too), tie-break rounds or a "
        "shared win, the Doble and every scoring rule through the solver's tables. The tests replay compiled "
        "deals through `Game` with the same dice (`CounterDice`) and the Python bots and get the same moves, "
        "scores and winners (`tests/simulate/test_fastsim.py`). `cubilete simulate` takes this path by itself "
        "when every "
        "bot is compiled and the rules are supported (`--engine` forces the engine; JSON says `\"compiled\"`). "
        "Not compiled, so played by the engine: the other bots (win, levels with slips, heuristic, ...), locked "
        "holds (`generala-apartada`), a start throw that ranks every seat, and what the solver does not solve "
        "(several columns, carried throws). Dice: die `j` of throw `i` of deal `d` is a SplitMix64 hash of "
        "(SHA-256 of the seed, d, i, j) modulo 6, not the engine's SHA-256 dice: the same seed gives the same "
        "games, but not those of `--engine`.",
        "",
        "### The seat that starts",
        "",
        "| preset | players | games | 1st to play | 2nd | 3rd | 4th | instant wins | tie-breaks | games per CPU s "
        "| seed | SHA-256 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    summary: dict[str, dict[str, float]] = {}
    for name, players in [("generala", 2), ("generala", 3), ("generala", 4), ("generala-sin-gana", 2),
                          ("generala-sin-doble", 2), ("general", 2), ("bozo", 2), ("yahtzee", 2)]:  # fmt: skip
        rows, info = position_study(name, players, games)
        lines += rows
        summary[f"{name}:{players}"] = info
    g2 = summary["generala:2"]
    verdict = "the second" if g2["hi"] < 0.5 else ("the first" if g2["lo"] > 0.5 else "neither")
    lines += [
        "",
        f"Heads-up Generala under expected-points play: the player who starts wins {pct(g2['first'])} "
        f"({pct(g2['lo'])} - {pct(g2['hi'])}), so **{verdict}** seat has the edge. "
        "(The exact two-player solutions of the reduced Generalas below favour the second player, "
        "who knows the total to beat before the last turn; expected-points bots do not use that knowledge.)",
        "",
        "Heads-up Generala, how the games end:",
        "",
        *heads_up_detail(games),
        "",
        "### Bots that play to win",
        "",
        "The win bot against the optimal bot, heads-up Generala, paired deals on the engine "
        "(`tools/win_study.py --out FILE`; each deal played with the win bot in each seat on the same seeded dice):",
        "",
        *win_bot_lines(win_deals),
        "",
        "The exact bot against the optimal bot, compiled, paired deals (the edge is the exact bot's win rate "
        "minus the optimal bot's, per deal; a shared win counts for both):",
        "",
        *duel_study(games, check_games),
        "",
    ]
    cpu1 = os.times()
    cpu = cpu1.user + cpu1.system - cpu0.user - cpu0.system
    lines.append(
        f"This run: {time.perf_counter() - started:.0f} s wall, {cpu:.0f} CPU s on the shared 2-core machine "
        f"(load average {load:.1f} at the start)."
    )
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{text}{END}"
    if BEGIN in doc and END in doc:
        doc = doc[: doc.index(BEGIN)] + block + doc[doc.index(END) + len(END) :]
    elif "<!-- duel:begin -->" in doc:
        at = doc.index("<!-- duel:begin -->")
        doc = doc[:at] + block + "\n\n" + doc[at:]
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(doc, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200_000, help="games per study (default 200,000)")
    parser.add_argument("--win-deals", type=Path, help="the win bot's deals, as written by win_study.py --out")
    parser.add_argument("--print", action="store_true", help="print the section instead of writing the doc")
    parser.add_argument("--exact-check", type=int, default=0, metavar="N",
                        help="also play N games of the exact bot against itself (the table's prediction)")
    parser.add_argument("--exact-only", action="store_true",
                        help="only the exact-bot block (exact vs optimal, the tables' predictions)")
    args = parser.parse_args()
    if args.exact_only:
        started, load = time.perf_counter(), os.getloadavg()[0]
        block = "\n".join(duel_study(args.games, args.exact_check)) + "\n"
        note = (f"(This block: `tools/winning_study.py --exact-only --exact-check {args.exact_check}`, "
                f"{time.perf_counter() - started:.0f} s wall, load average {load:.1f} at the start.)")
        block = block.replace(EXACT_END, note + "\n" + EXACT_END)
        if args.print:
            sys.stdout.write(block)
        else:
            write_exact(block)
            print(f"wrote the exact-bot block of {DOC.relative_to(ROOT)}")
        return
    text = section(args.games, args.win_deals, args.exact_check)
    if args.print:
        sys.stdout.write(text)
    else:
        write(text)
        print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
