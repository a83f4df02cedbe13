"""The docs/generated/OPTIMAL.md generator, run on a tiny rule set (the real document takes minutes)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from tests.tools import TOOLS, tool

from cubilete.engine.rules import Rules, find_rules
from cubilete.solver import solve
from cubilete.solver.cache import values_digest

report = tool("optimal_report")  # the generator lives in tools/, beside its script
preset_report, wilson, write_report = report.preset_report, report.wilson, report.write_report


def tiny() -> Rules:
    """Generala cut down to three boxes (5s, 6s, Full): three turns a game."""
    g = find_rules("generala")
    return g.replace(name="tiny", title="Tiny Generala", boxes=tuple(b for b in g.boxes if b.id in {"5", "6", "full"}))


class TestReport:
    def test_wilson_interval(self) -> None:
        lo, hi = wilson(50, 100)  # the textbook Wilson interval of 50/100
        assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
        assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)

    def test_box_counts_follow_the_rules(self) -> None:
        report = preset_report(tiny(), games=300, seed="t")
        assert len(report.scores) == 300
        boxes = {b.slot: b for b in report.boxes}
        for b in boxes.values():  # three boxes, three turns: every box is written in every game
            assert b.with_points + b.scratched == 300 and b.unused(300) == 0
        # Full pays 30, or 35 servido: its mean when scored lies between.
        full = boxes["full"]
        assert 30 <= full.points_sum / full.with_points <= 35
        # The 5s box holds a multiple of 5 from 5 to 25 whenever it holds points.
        assert boxes["5"].points_sum % 5 == 0
        assert 5 * boxes["5"].with_points <= boxes["5"].points_sum <= 25 * boxes["5"].with_points
        assert sum(report.scores) == sum(b.points_sum for b in report.boxes)
        lo, hi = report.mean_interval
        assert lo <= report.expected <= hi

    def test_document_is_reproducible_and_lists_the_unsolved(self, tmp_path: Path) -> None:
        presets = [tiny(), find_rules("maxi-yatzy")]
        text = write_report(presets, games=60, seed="s", workers=1)
        assert text == write_report(presets, games=60, seed="s", workers=1)
        assert text != write_report(presets, games=60, seed="other", workers=1)
        assert values_digest(solve(tiny())) in text
        assert "### tiny: Tiny Generala" in text
        assert "- `maxi-yatzy`: throws that carry over" in text
        assert "Instant wins are not modelled" in text
        assert "254.5896" in text and "248.4400" in text

    def test_script_writes_the_file(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        script = runpy.run_path(str(TOOLS / "optimal_doc.py"))
        out = tmp_path / "OPTIMAL.md"
        argv = ["--presets", "generala-sin-doble", "--games", "20", "--workers", "1", "--out", str(out)]
        assert script["main"](argv) == 0
        text = out.read_text(encoding="utf-8")
        assert text.startswith("# Optimal play") and "python tools/optimal_doc.py" in text
        assert "### generala-sin-doble" in text
