"""Write the section "Exact two-player solution" of docs/WINNING.md (between its markers).

    python tools/winning_duel.py                      # reduced Generalas solved, every preset sized
    python tools/winning_duel.py --solve-presets      # also solve the presets within the CLI's limit (long)

Reduced Generalas (the lower boxes of Generala and a few upper ones, 5 dice, 3 throws, servida
values, instant win, tie-break rounds) are solved exactly (or loaded from the cache); presets are
listed if their table is in the cache ($CUBILETE_CACHE_DIR; solve Generala first with
`cubilete solve --rules generala --players 2`) or, for the smaller ones, with --solve-presets;
every preset's joint table is sized. The solved games' own sections (Generala, Bozó, Brazilian General:
their values, times and hashes written by hand from their solves) follow the end marker and are kept.
The numbers of a solve (P, positions, SHA-256) are the same on every run; seconds and memory
are this machine's.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from cubilete.duel import cache
from cubilete.duel.space import (
    F64_CELLS,
    MAX_CELLS,
    MAX_STREAM_BYTES,
    MAX_WORK_BYTES,
    build_joint,
    table_bytes,
    too_large,
)
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import all_presets, find_rules, load_rules
from cubilete.engine.rules.model import Rules
from cubilete.simulate.pool import simulate

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- duel:begin -->", "<!-- duel:end -->"


def reduced() -> list[tuple[str, Rules]]:
    """Generala cut down to its lower boxes plus a few upper ones (everything else as in Generala)."""
    g = find_rules("generala")
    out = []
    for first, words in ((6, "Escalera, Full, Póker, Generala, Doble"), (5, "Seises + the five lower boxes"),
                         (4, "Cincos, Seises + the five lower boxes")):  # fmt: skip
        boxes = g.boxes[first:]
        out.append((words, g.replace(name=f"generala-{len(boxes)}-boxes", title=words, boxes=boxes)))
    return out


def section(solve_presets: bool, games: int, preset_games: int, seed: str) -> str:
    """The markdown of the section."""
    lines = [BEGIN, "## Exact two-player solution", ""]
    lines += [
        "`cubilete solve --rules R --players 2 [--json]` solves the two-player game exactly: the probability that",
        "each player wins from every joint position (both sheets, the score difference, who moves, the dice inside",
        "the turn), both playing optimally **to win**. A servida Generala wins at once; a tie at the end goes to",
        "tie-break rounds (one hand each, the first player first, the best hand by its best box on an empty sheet,",
        "again while tied; a servida Generala wins there at once too, unless that player scratched the Generala,",
        "as the engine plays it) or is shared (counted 1/2) as the rules say. The `exact` bot (`bot:exact`) plays",
        "heads-up from the table and its `analyse()` gives P(win) for every option.",
        "",
        "**How.** Backward induction over joint positions grouped by the closed boxes of both sheets (every move",
        "closes at least one). A position is (mover's sheet, other's sheet, who moves); each holds P(mover wins)",
        "for every lead in a window `-(R_mover + 1) .. R_other + 1`, where `R` bounds the points a sheet can",
        "still make: outside it the result is settled by points (only instant wins still matter), so a lead",
        "outside reads the edge. The window is cut to the leads the two sheets can show: a sheet's total so far",
        "lies between `Q` (the least its boxes known to hold points hold) and `P` (the most its closed boxes can",
        "hold: a scratched Generala held 0, so did a Doble written before it), and every move maps the interval",
        "`Q_m - P_o .. P_m - Q_o` into the next position's, so no position reads a lead it does not hold (for",
        "Generala: 60% of the window's values). The mover's turn is the solitaire widget (252 hands, 462 keeps,",
        "one-die recursion, downward closure) run over blocks of up to 128 leads at once in 8-lane f64 vectors",
        "(numba intrinsics on one scratch array, `duel/kernels.py`, `duel/simd.py`; the boxes each hand can take,",
        "with their points and next sheet, listed once per sheet, and each distinct (next sheet, points) pair of",
        "a position read once per block: a Full is worth the same whichever Full it is), a box worth the next",
        "position's P(win) at the lead shifted by its points. The tie-break rounds",
        "are a small fixed point solved first, once for each pair of final sheets' instant wins (whether each",
        "player's Generala can still win at once: four pairs for Generala). Pairs of sheets whose turn counts",
        "cannot fit the turn order are",
        "left out.",
        "",
        "**Memory.** A level reads only the two levels after it (a move closes one box, or two when a scratched",
        "Generala closes the Doble), so only those three are held, in f64, in a buffer that slides level by",
        "level; every value is computed in f64 from f64 values. Finished levels go to the table: f64 up to",
        "200,000,000 values, f32 above (written to the cache file level by level and mapped when read; the",
        "first player's value is kept in f64 beside it), and with a checkpoint in f64, so a solve that is",
        "stopped continues from its last finished level (`cubilete solve --players 2` again).",
        "",
        "**Checked.** `tests/duel/oracle.py` is an independent expectimax in exact fractions over the joint game",
        "(ordered dice, positional holds, real scorecards, the engine's flow; the tie-break's fixed point solved",
        "exactly): the solver agrees with it on every position it reaches, to 1e-12, on reduced games with an",
        "instant-win box, a Doble that closes when its Generala is scratched, shared ties and an upper bonus.",
        "Its tie-break reads the instant win from the engine's own test (`scoring.instant_win` on each player's",
        "final card), and agrees with the solver's to 1e-12 for every pair of final sheets, the pocket Generala's",
        "too (`tests/duel/test_tiebreak_instant.py`).",
        "The bot's self-play reproduces the first player's chance. The blocked kernel gives the same table as",
        "the row-at-a-time one bit for bit (the same sums in the same order); an f32 table agrees with the",
        "exact game to 1e-6 and has the same f64 first-player value; a stopped solve resumed gives the same table.",
        "",
        "### Solved",
        "",
        "| rules | boxes | P(first player wins) | tie-break: first wins | positions | values | seconds | table GB "
        "| peak GB (large tables) | SHA-256 of the table |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    firsts = []
    todo = reduced()
    for rules in all_presets():
        with contextlib.suppress(SolverUnsupportedError):
            n = build_joint(rules, count_only=True, check=True).n_cells
            if cache.load(rules) is not None or (solve_presets and n <= F64_CELLS):
                todo.append((f"preset ({len(rules.boxes)} boxes)", rules))
    for words, rules in todo:
        sol, _ = cache.load_or_solve(rules)
        secs = sol.seconds
        peak = cache.peak_gb(rules)
        lines.append(
            f"| {rules.name} | {words} | {sol.first_player_wins:.6f} | {sol.tiebreak:.6f} | {sol.joint.n_rows:,} "
            f"| {sol.joint.n_cells:,} | {secs:.1f} | {table_bytes(sol.joint.n_cells) / 1e9:.2f} "
            f"| {'' if peak is None else f'{peak:.1f}'} | `{sol.digest}` |"
        )
        print(f"{rules.name}: {sol.first_player_wins:.6f} in {secs:.1f} s", file=sys.stderr)
        firsts.append(sol.first_player_wins)
    if all(f < 0.5 for f in firsts):
        lines += [
            "",
            "In every one of them the **second** player is ahead: moving last, the second player knows the first",
            "player's final total before the last turn and plays for exactly what is needed.",
        ]
    elif all(f > 0.5 for f in firsts):
        lines += ["", "In every one of them the **first** player is ahead."]
    lines += [
        "",
        "### The exact bot against the optimal bot",
        "",
        "`cubilete simulate --bots exact,optimal --paired`: every deal is played twice on the same dice seed with",
        "the seats swapped; the edge is the exact bot's win rate minus the optimal (expected points) bot's, per",
        "deal, with a 95% interval (a shared win counts for both).",
        "",
        "| rules | deals | exact - optimal, wins (percentage points) | 95% CI | points per game | 95% CI |",
        "|---|---:|---:|---|---:|---|",
    ]
    pocket = load_rules(str(ROOT / "examples" / "house-rules" / "generala-mini-duel.toml"))
    small = [r for w, r in todo if w.startswith("preset") and build_joint(r, count_only=True).n_cells <= F64_CELLS]
    for rules, deals in [(pocket, games), *[(r, preset_games) for r in small]]:
        res = simulate(rules, ["exact", "optimal"], deals, seed, workers=1, mode="paired", loss=False)
        pr = res.paired
        assert pr is not None
        lines.append(
            f"| {rules.name} | {pr.deals:,} | {pr.win_diff * 100:+.2f} | [{pr.win_diff_ci[0] * 100:+.2f}, "
            f"{pr.win_diff_ci[1] * 100:+.2f}] | {pr.points_diff:+.2f} | [{pr.points_diff_ci[0]:+.2f}, "
            f"{pr.points_diff_ci[1]:+.2f}] |"
        )
        print(f"{rules.name}: paired {pr.deals} deals in {res.seconds:.0f} s", file=sys.stderr)
    lines += [
        "",
        f"(`seed {seed}`; the pocket Generala is `examples/house-rules/generala-mini-duel.toml`.) The exact bot",
        "gives away expected points to win more often: it plays for what the score needs.",
        "",
        "### Every preset",
        "",
        f"The CLI solves a joint table of up to {MAX_CELLS:,} values: in memory if a level and the levels it reads fit",
        f"in {MAX_WORK_BYTES / 1e9:.0f} GB (f64), else streamed (only the levels read in memory, at most",
        f"{MAX_STREAM_BYTES / 1e9:.0f} GB; the level itself to disk slice by slice: `duel/streamed.py`), and refuses",
        f"larger ones in one line. Table: f64 up to {F64_CELLS:,} values, f32 above.",
        "",
        "| preset | sheets per player | joint positions | values | table GB | memory GB while solving | |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for rules in all_presets():
        try:
            joint = build_joint(rules, count_only=True)
        except SolverUnsupportedError as exc:
            lines.append(f"| {rules.name} | | | | | | refused: {str(exc).split(': ', 1)[1]} |")
            continue
        n = joint.n_cells
        work = (joint.read_cells if joint.streamed else joint.work_cells) * 8
        verdict = "within the CLI's limits" + (" (streamed)" if joint.streamed else "")
        if too_large(n, joint.work_cells, joint.read_cells):
            verdict = "refused: larger than the CLI's limits"
        lines.append(
            f"| {rules.name} | {len(joint.sheet_mask):,} | {joint.n_rows:,} | {n:,} | {table_bytes(n) / 1e9:.1f} "
            f"| {work / 1e9:.1f} | {verdict} |"
        )
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the section into docs/WINNING.md (created if missing; the rest of the file is kept)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "WINNING.md")
    p.add_argument("--solve-presets", action="store_true", help="solve the presets with f64 tables (up to 200M values)")
    p.add_argument("--games", type=int, default=2000, help="paired deals on the pocket Generala (default 2000)")
    p.add_argument("--preset-games", type=int, default=200, help="paired deals on each solved preset (default 200)")
    p.add_argument("--seed", default="winning-duel-1", help="seed of the paired simulations")
    args = p.parse_args(argv)
    text = section(args.solve_presets, args.games, args.preset_games, args.seed)
    old = args.out.read_text(encoding="utf-8") if args.out.is_file() else "# Playing to win\n\n"
    if BEGIN in old and END in old:
        new = old[: old.index(BEGIN)] + text + old[old.index(END) + len(END) + 1 :]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    args.out.write_text(new, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
