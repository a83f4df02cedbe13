"""The OPTIMAL.md section of the rule sets solved by the layered solver (Maxi Yatzy without saved
throws): value, states, time, memory and the table's SHA-256, read from the finished table on disk
(``scripts/optimal_doc.py`` writes it; ``cubilete solve --rules maxi-yatzy-no-saved`` builds the table)."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.rules.codec import rules_hash
from cubilete.rules.model import Rules
from cubilete.rules.presets import all_presets
from cubilete.solver.layered import load_layered, needs_layered

METHOD = [
    "Backward induction like every other preset, but the value table (2^20 sheets x 85 upper totals,",
    "57,507,840 of them reachable) lives on disk as float32 and is memory-mapped (`cubilete.solver.layered`).",
    "Each turn is computed in float64 by numba kernels for 6 dice (462 hands, 924 keeps) over the upper",
    "totals the closed upper boxes can reach, one layer of sheets (same number of boxes closed) at a time;",
    "a checkpoint after every block of 8,192 sheets lets `cubilete solve --rules maxi-yatzy-no-saved",
    "--resume` go on after an interruption. Tests check the kernels against the general solver and the",
    "exact-fraction oracle on reduced 6-dice rule sets (1e-9 in float64, 1e-5 in float32 storage).",
    "The SHA-256 is that of the float32 table (`numpy` `.npy` data, C order, `cubilete.solver.layered.digest`).",
    "Stored in float32, a value is within about 1e-4 of its float64 computation (1.3e-5 measured on a",
    "16-box Maxi). The time is the wall clock of the runs that built the table, on the machine that built it.",
]


def saved_throws_preset(rules: Rules) -> Rules | None:
    """The preset that is ``rules`` with saved throws (maxi-yatzy for maxi-yatzy-no-saved), if any."""
    if rules.carry_over_throws:
        return None
    want = rules_hash(rules.replace(carry_over_throws=True))
    return next((p for p in all_presets() if rules_hash(p) == want), None)


def layered_section(presets: Sequence[Rules]) -> list[str]:
    """Markdown lines for the presets the layered solver handles (none: no lines)."""
    chosen = [r for r in presets if needs_layered(r)]
    if not chosen:
        return []
    out = ["## Solved layer by layer (float32 tables on disk)", "", *METHOD, ""]
    for rules in chosen:
        s = load_layered(rules)
        if s is None:
            out.append(
                f"- `{rules.name}`: not solved on this machine yet (`cubilete solve --rules {rules.name}` prints "
                "a time and memory estimate first, then solves with checkpoints)."
            )
            continue
        out += [
            f"- `{rules.name}` ({rules.title}): optimal expected score **{s.expected_score:.4f}**",
            f"  (one player; standard deviation not computed); {s.states:,} reachable states;",
            f"  {s.seconds:,.0f} s of solving (wall clock), peak memory {s.peak_rss / 2**20:,.0f} MB;",
            f"  float32 table SHA-256 `{s.sha256}`.",
        ]
        saved = saved_throws_preset(rules)
        if saved is not None:
            out.append(
                f"- `{saved.name}` (the same game with saved throws): its optimum is **at least "
                f"{s.expected_score:.4f}**, a certified lower bound: never throwing a saved throw is a legal way "
                "to play it, and then it is this game. No upper bound is computed yet."
            )
    return [*out, ""]
