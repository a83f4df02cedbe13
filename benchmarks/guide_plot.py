"""Draw the guide's loss curve from the outputs of benchmarks/guide_curve.py (needs matplotlib).

    python benchmarks/guide_plot.py docs/generated/guide_curve.png Yatzy=yatzy.txt Yahtzee=yahtzee.txt ...

Each output's table rows are "rules, mean, s.e., points lost"; the plot shows points lost against the
number of rules, with two standard errors as bars.
"""

from __future__ import annotations

import sys
from pathlib import Path


def rows(path: Path) -> list[tuple[int, float, float, float]]:
    found = []
    for line in path.read_text().splitlines():
        cells = line.split("\t")
        if len(cells) >= 4 and cells[0].isdigit():
            found.append((int(cells[0]), float(cells[1]), float(cells[2]), float(cells[3])))
    return found


def main(argv: list[str]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out, named = Path(argv[0]), [arg.split("=", 1) for arg in argv[1:]]
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, path in named:
        data = rows(Path(path))
        ax.errorbar(
            [r[0] for r in data], [r[3] for r in data], yerr=[2 * r[2] for r in data], marker="o", capsize=3, label=name
        )
    ax.set_xlabel("rules in the guide")
    ax.set_ylabel("points lost per game against optimal play")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
