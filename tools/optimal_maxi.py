"""The OPTIMAL.md section of the rule sets solved by the layered solver (Maxi Yatzy without saved
throws): value, states, time, memory and the table's SHA-256, read from the finished table on disk
(``tools/optimal_doc.py`` writes it; ``cubilete solve --rules maxi-yatzy-no-saved`` builds the table)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from cubilete.engine.rules.codec import rules_hash
from cubilete.engine.rules.model import Rules
from cubilete.engine.rules.presets import all_presets
from cubilete.solver.maxi.layered import load_layered, needs_layered

METHOD = [
    "Backward induction like every other preset, but the value table (2^20 sheets x 85 upper totals,",
    "57,507,840 of them reachable) lives on disk as float32 and is memory-mapped (`cubilete.solver.maxi.layered`).",
    "Each turn is computed in float64 by numba kernels for 6 dice (462 hands, 924 keeps) over the upper",
    "totals the closed upper boxes can reach, one layer of sheets (same number of boxes closed) at a time;",
    "a checkpoint after every block of 8,192 sheets lets `cubilete solve --rules maxi-yatzy-no-saved",
    "--resume` go on after an interruption. Tests check the kernels against the general solver and the",
    "exact-fraction oracle on reduced 6-dice rule sets (1e-9 in float64, 1e-5 in float32 storage).",
    "The SHA-256 is that of the float32 table (`numpy` `.npy` data, C order, `cubilete.solver.maxi.layered.digest`).",
    "Stored in float32, a value is within about 1e-4 of its float64 computation (1.3e-5 measured on a",
    "16-box Maxi). The time is the wall clock of the runs that built the table, on the machine that built it.",
]

SAVED = [
    "### Maxi Yatzy with saved throws: the bank capped at K, certified bounds",
    "",
    "`cubilete solve --rules maxi-yatzy --cap K [--bound lower|upper|both] [--resume] [--dask ADDRESS]`",
    "(`cubilete.solver.maxi.saved`) solves the game with the throws saved at a turn start capped at K, layer by",
    "layer like the game without saved throws: table V[sheet, bank, upper total], (K + 1) x 356 MB in float32,",
    "memory-mapped, checkpointed. One turn's kernel runs over the throws left r = 0 .. bank + 2 (after a throw",
    "with r left: write a box and start the next turn with r saved, or keep dice and throw with r - 1 left),",
    "so it gives every bank of a sheet at once. At most 2 throws are saved per turn, so a bank above",
    "2 x (boxes closed) never occurs and K = 38 is the exact game (13 GB of float32, under the 16 GB allowed).",
    "",
    "- **Lower bound**: throws saved beyond K are lost. A real player holding at least as many throws can",
    "  play that game's optimal policy move for move (min(r, K) <= r keeps it so at every turn), so its",
    "  optimum is the expected score of a legal policy: at most the true optimum.",
    "- **Upper bound**: the same induction, but a turn start with K + e saved (e = 1, 2) is valued by the",
    "  smallest of these over-estimates of its true value V(s, K + e); the backup (max, mean) is monotone, so",
    "  by induction over the layers every stored value is at least the true one:",
    "  1. every open box at its maximum, plus the bonus if it can still be reached (no play scores more);",
    "  2. U(s, K) + e x d(s), U the upper table (already >= V(s, K)), d(s) = the largest maximum of an open",
    "     box (plus the bonus for an upper box while the bonus is open). Proof that one more throw is worth",
    "     at most d(s), so V(s, K + e) <= V(s, K) + e x d(s): player A holds b + 1 throws,",
    "     B holds b and copies A's moves (B always has one throw less: it saves one less). They part only",
    "     when A throws with its last throw and B has none: B then writes its current hand in the box A",
    "     will use (B draws A's throw itself, so the box has A's distribution), both start the next turn",
    "     with nothing saved and the same boxes closed, and B keeps copying A. Their final scores differ",
    "     by A's points minus B's in that one box (at most its maximum), plus the bonus when it is an upper",
    "     box and the bonus was still open. So V(s, b) >= V(s, b + 1) - d(s).",
    "  3. optional (`prices=` in `solve_saved`): for a price p > 0 per throw, V(s, b) <= W_p(s) + p x",
    "     (b + 3 x turns left), W_p the optimum when throws are unlimited but each costs p (any real play",
    "     makes at most b + 3n throws). W_p is computed by value iteration from above, so every iterate is",
    "     an over-estimate.",
    "- float32 tables are rounded down (lower) or up (upper) when stored, so they stay bounds.",
    "",
    "Tests (`tests/solver/test_maxi_saved.py`): on reduced 6-dice Maxi sets, lower <= exact <= upper for every",
    "cap, both equal to the exact value at the useful cap, and every state's value equal to a float64 oracle",
    "that models saved throws without a cap from the game's rules (`tests/solver/saved_oracle.py`); the",
    "over-estimates 1 and 2 are checked state by state on that oracle.",
    "",
    "Measured (`tools/maxi_saved_gap.py`, float64) on a reduced Maxi of 8 boxes (1, 2, 3, three pairs,",
    "four of a kind, full straight, chance, Maxi Yatzy; bonus 50 at 24; at most 14 throws saved). Without",
    "saved throws its optimum is 110.0524; with them, exactly **149.2924**:",
    "",
    "| cap K | lower bound | upper bound | gap |",
    "|---|---|---|---|",
    "| 0 | 110.0524 | 293.1897 (194.2350 with priced throws) | 183.1 |",
    "| 2 | 131.9731 | 285.0710 | 153.1 |",
    "| 4 | 141.6922 | 272.0085 (191.5937) | 130.3 |",
    "| 8 | 148.3719 | 233.5918 (185.7568) | 85.2 |",
    "| 10 | 149.1743 | 203.2499 | 54.1 |",
    "| 11 | 149.2686 | 192.8484 | 43.6 |",
    "| 12 | 149.2913 | 153.9834 (the same) | 4.69 |",
    "| 13 | 149.2923 | 149.9993 | 0.71 |",
    "| 14 | 149.2924 | 149.2924 | 0 (exact) |",
    "",
    "The lower bound converges fast (within 0.001 at K = 12 of 14): the optimal player rarely saves many",
    "throws. The upper bound does not close before the cap stops binding: the upper solve's own policy",
    "steers into the over-valued states above the cap (saving throws there is worth up to d(s), about 100",
    "points with Maxi Yatzy open, against a few points really), so any per-throw over-estimate that is not",
    "itself near-exact leaves a gap of points, not hundredths. For the full game a certified gap below",
    "0.01 therefore means the exact solve, K = 38.",
    "",
    "Full `maxi-yatzy`: the kernel computes, for a sheet with c boxes closed, only the banks 0 .. min(K, 2c)",
    "(no bank above that can be reached), so a sheet costs less the emptier it is. **Solved exactly on",
    "1 December 2026** on this project's 2-core machine (shared with other work, load average 5 to 10):",
    "`cubilete solve --rules maxi-yatzy --cap 38 --bound lower --resume --json` took 2,936 s of wall clock",
    "(49 min) and 3,648 s of CPU (about one core-hour, against the 1.5 to 2.4 estimated from a sample of",
    "sheets by `tools/maxi_cluster_measure.py`), peak memory 14.2 GB (13.2 GiB), nearly all of it pages of",
    "the mapped 13.9 GB table (under the 16 GB allowed). At cap 38 no bank is ever lost, so this lower bound",
    "IS the game: the optimum of Maxi Yatzy with saved throws is **496.6329** (394.5575 without them: the",
    "saved throws are worth about 102 points a game). The table is float32 with every value rounded down as",
    "it is stored, so 496.6329 is a certified lower bound; each of the 20 layers rounds down by less than one",
    "float32 step below 1,024 (2^-14), and a mean or a maximum of values each at most e too low is at most e",
    "too low, so the exact optimum is at most 20 x 2^-14 = 0.0012 higher: **496.6329 <= optimum <= 496.6341**",
    "(the upper-bound solve at cap 38, the same time again, is not needed for that). The optimal bot reads",
    "the table (next paragraphs): 10,000 games of `cubilete simulate --rules maxi-yatzy --bots optimal",
    "--solo --games 10000 --seed maxi-saved-1` scored 496.6 on average, 95% interval 495.4-497.9 (SD 64.3),",
    "which holds the table's value. The earlier estimate of 14 h was a wall-clock ratio against the no-saved",
    "solve timed at load 10-15. A cap-0 upper solve gave 293.19 against the trivial 297 on the reduced",
    "game (194.23 with priced throws, at about 20x the time): not worth running.",
    "",
    "#### On a Dask cluster or a bigger machine",
    "",
    "`cubilete solve --rules maxi-yatzy --cap K --bound lower --resume --dask ADDRESS`",
    "(`cubilete.solver.maxi.cluster`, extra `pip install 'cubilete[dask]'`) splits every layer into pieces",
    "of at most 256 sheets (at least 4 per worker thread) that the workers solve in any order; ADDRESS is a",
    "scheduler (`tcp://HOST:8786`) or `local:N` (a LocalCluster of N processes on this machine, the cores",
    "shared out as numba threads). The table stays ONE file: each worker opens it by the client's path,",
    "maps it copy-on-write, computes its sheets from the finished layers and writes back only its sheets'",
    "rows (`pwrite`, then `fsync`; never a whole page, so workers never overwrite each other). The client",
    "records a block of 8,192 sheets in `progress.json` once all its pieces are on disk, in block order,",
    "exactly as the single-process solve does. Assumption: the folder is on a filesystem every worker sees",
    "at the same path with coherent caches: one machine's disk, or a POSIX-coherent cluster filesystem",
    "(Lustre, GPFS, CephFS); NFS only mounted with `noac`. Only the one-machine case (`local:2`) was run.",
    "",
    "    export CUBILETE_CACHE_DIR=/shared/cubilete   # for the client; every worker must see this same path",
    "    dask scheduler                               # prints tcp://HOST:8786",
    "    # then on every machine, one worker process per core:",
    "    NUMBA_NUM_THREADS=1 dask worker tcp://HOST:8786 --nworkers CORES --nthreads 1 --memory-limit 0",
    "    cubilete solve --rules maxi-yatzy --cap 38 --bound lower --resume --dask tcp://HOST:8786 --json",
    "",
    "One thread per worker process (numba's workqueue threading layer, its fallback, does not take parallel calls from",
    "two threads of one process); `--memory-limit 0` because the mapped table's pages count in a worker's",
    "resident memory without being a leak. On one bigger machine, `--dask local:N` or no `--dask` at all",
    "(numba's threads use every core) do the same.",
    "",
    "- **Time**: 1.5 to 2.4 core-hours of CPU per bound (above), about 2.4 / c hours on c cores if the",
    "  layers split evenly: the widest layer has 184,756 sheets (722 pieces); the end layers (1, 20, 190",
    "  sheets) take seconds. Measured side by side on the first 14,388 sheets, `local:2` took 0.93x and",
    "  1.03x the wall time of one process in two runs at load 9.5-10 on 2 cores: no gain on the same 2 cores",
    "  (one process already runs 2 numba threads), and 8-15% more CPU (each worker loads the kernels, builds",
    "  the tables and syncs its rows). The gain is more machines.",
    "- **Memory**: a worker process about 0.3-0.4 GB resident (mostly pages of the mapped table), the",
    "  client 0.2 GB; the page cache of each machine holds what its workers read, at most two layers:",
    "  about 4.7 GB at the widest (352,716 sheets x 13,260 bytes).",
    "- **Disk**: one file of 13,904,117,888 bytes (`values.npy`, float32 V[sheet, bank, upper total]),",
    "  about 11.7 GB of it ever allocated: a sheet with c boxes closed fills banks 0 .. min(38, 2c) only",
    "  and the rest of its row stays a hole (one process and the workers alike); plus `progress.json`.",
    "- **Resume**: run the same command again with `--resume`, with or without `--dask` (Ctrl-C, a killed",
    "  client, a lost machine); Dask itself reruns the pieces of a worker that dies. Pieces of a block that",
    "  was not recorded are solved again: the same sheets from the same inputs give the same bytes.",
    "- **Check**: at the end the client hashes the table (SHA-256 of the .npy data, C order,",
    "  `cubilete.solver.maxi.layered.digest`) into `progress.json` and prints it (`--json`: `sha256`). One process",
    "  and a cluster write byte-identical tables (`tests/solver/test_maxi_cluster.py` on reduced games, and",
    "  the first 14,388 sheets of the full game compared byte for byte by the measuring script), so a",
    "  cluster's hash can be checked by anyone who solves the same bound on one machine.",
    "",
    "#### Playing Maxi Yatzy with the exact table",
    "",
    "Once the cap-38 lower-bound run has FINISHED in the solver's cache folder (`progress.json` done, with its",
    "SHA-256), the optimal bot, `cubilete advise --rules maxi-yatzy --saved N` and `cubilete simulate` read it",
    "(`cubilete.solver.maxi.saved_advice`): every option of a decision is valued from the table with the solver's",
    "own passes (writing a box starts the next turn with the throws left; keeping dice spends one), the bot's",
    "analysis is exact and its note names the folder; the simulation prints the table's optimum and judges",
    "every decision's loss on it. Before that they play the approximate search (`advise` too, labelled",
    "approximate, with the command that builds the table). Checked on a reduced 6-dice Maxi solved at",
    "its useful cap in float32: every option equals the",
    "uncapped float64 oracle within 1e-4 and the mean of 1,500 bot games is within its 95% interval of the",
    "table's optimum (`tests/solver/test_saved_advice.py`, `tests/play/test_bots_saved.py`). A move costs under",
    "1 ms once the table's pages are cached (measured on a stand-in table of the full game's shape).",
    "",
    "    export CUBILETE_CACHE_DIR=/srv/maxi    # where the table was solved (default: ~/.cache/cubilete/solver)",
    "    cubilete advise --rules maxi-yatzy --dice 112356 --throw 1",
    "    cubilete advise --rules maxi-yatzy --dice 112356 --throw 4 --saved 2 --filled 1=3",
    "    cubilete simulate --rules maxi-yatzy --bots optimal --solo --games 200 --seed maxi-saved-1",
]


def layered_names(presets: Sequence[Rules]) -> set[str]:
    """The presets :func:`layered_section` reports: the layered ones and their saved-throws twins."""
    layered = [r for r in presets if needs_layered(r)]
    return {r.name for r in layered} | {s.name for r in layered if (s := saved_throws_preset(r)) is not None}


def saved_throws_preset(rules: Rules) -> Rules | None:
    """The preset that is ``rules`` with saved throws (maxi-yatzy for maxi-yatzy-no-saved), if any."""
    if rules.carry_over_throws:
        return None
    want = rules_hash(rules.replace(carry_over_throws=True))
    return next((p for p in all_presets() if rules_hash(p) == want), None)


@dataclasses.dataclass(frozen=True)
class RecordedSolve:
    """What the run that built a saved-throws table measured (the table, 13.9 GB, is not in git)."""

    cap: int
    expected_score: float
    seconds: float
    cpu_seconds: float
    peak_rss: int
    sha256: str
    when: str


@dataclasses.dataclass(frozen=True)
class RecordedLayered:
    """What the run that built a layered table measured, for machines without the table (356 MB)."""

    expected_score: float
    states: int
    seconds: float
    peak_rss: int
    sha256: str


RECORDED_LAYERED = {
    "maxi-yatzy-no-saved": RecordedLayered(
        394.5575, 57_507_840, 3555.0, 577 * 2**20, "0c7e6587922dafa05f909b018fcbaeb1c4f44513a7d06a812eeff59ec7b54b47"
    )
}

# `cubilete solve --rules maxi-yatzy --cap 38 --bound lower --resume --json` on this project's 2-core machine
RECORDED = {
    "maxi-yatzy": RecordedSolve(
        38, 496.63287353515625, 2936.0, 3648.0, 14_180_000_000,
        "776dc183d9a1a26175f02840157184889693507a3cc2429f27beb30194a5bc27", "1 December 2026",
    )
}


def float32_bracket(layers: int, ceiling: float = 1024.0) -> float:
    """How far above a rounded-down float32 table's value the exact optimum can lie, every stored value being
    below ``ceiling`` (Maxi Yatzy: at most 649 points to come). Each layer stores its values rounded down by
    less than one float32 step, and a mean or a maximum of values each at most e too low is at most e too
    low, so the losses add up layer by layer (the float64 arithmetic adds about 1e-13)."""
    return layers * float(np.spacing(np.float32(np.nextafter(np.float32(ceiling), np.float32(0)))))


def saved_lines(saved: Rules, without: float) -> list[str]:
    """The line of the preset with saved throws: its exact optimum (from the finished table in the cache
    folder, else as the run that built it recorded it), or the certified lower bound without them."""
    from cubilete.solver.maxi.saved_advice import exact_saved

    table = exact_saved(saved)
    rec = RECORDED.get(saved.name)
    if table is not None:
        rec = RecordedSolve(
            table.cap, table.expected_score, table.seconds, table.cpu_seconds, table.peak_rss,
            table.sha256, "here",
        )
    if rec is None:
        return [
            f"- `{saved.name}` (the same game with saved throws): its optimum is **at least {without:.4f}**, a "
            "certified lower bound: never throwing a saved throw is a legal way to play it, and then it is this "
            "game. Its upper bound and the capped solver: next section."
        ]
    gap = float32_bracket(len(saved.slots))
    return [
        f"- `{saved.name}` (the same game with saved throws), solved exactly (bank capped at {rec.cap}, which "
        f"no game can pass): optimal expected score **{rec.expected_score:.4f}** (one player; {without:.4f} "
        "without saved throws); rounded down in float32, so the exact optimum lies in "
        f"[{rec.expected_score:.4f}, {rec.expected_score + gap:.4f}];",
        f"  {rec.seconds:,.0f} s of solving (wall clock), {rec.cpu_seconds:,.0f} s of CPU, peak resident "
        f"memory {rec.peak_rss / 1e9:,.1f} GB (mostly the mapped table's pages; solved {rec.when});",
        f"  float32 table SHA-256 `{rec.sha256}`. Method and checks: next section.",
    ]


def layered_section(presets: Sequence[Rules]) -> list[str]:
    """Markdown lines for the presets the layered solver handles (none: no lines)."""
    chosen = [r for r in presets if needs_layered(r)]
    if not chosen:
        return []
    out = ["## Solved layer by layer (float32 tables on disk)", "", *METHOD, ""]
    for rules in chosen:
        s = load_layered(rules)
        rec = RECORDED_LAYERED.get(rules.name)
        if s is not None:
            rec = RecordedLayered(s.expected_score, s.states, s.seconds, s.peak_rss, s.sha256)
        if rec is None:
            out.append(
                f"- `{rules.name}`: not solved on this machine yet (`cubilete solve --rules {rules.name}` prints "
                "a time and memory estimate first, then solves with checkpoints)."
            )
            continue
        out += [
            f"- `{rules.name}` ({rules.title}): optimal expected score **{rec.expected_score:.4f}**",
            f"  (one player; standard deviation not computed); {rec.states:,} reachable states;",
            f"  {rec.seconds:,.0f} s of solving (wall clock), peak memory {rec.peak_rss / 2**20:,.0f} MB;",
            f"  float32 table SHA-256 `{rec.sha256}`.",
        ]
        saved = saved_throws_preset(rules)
        if saved is not None:
            out += saved_lines(saved, rec.expected_score)
            out += ["", *SAVED]
    return [*out, ""]
