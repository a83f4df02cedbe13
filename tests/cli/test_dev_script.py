"""The ``dev`` script's installs keep the command's own output clean (issue 25, item 14): whatever pip
prints goes to stderr, quietly, after a one-line notice, so ``./dev cubilete replay x > out`` holds
only the replay."""

from __future__ import annotations

import re
from pathlib import Path

DEV = Path(__file__).resolve().parents[2] / "dev"


def pip_calls() -> list[str]:
    return [line.strip() for line in DEV.read_text(encoding="utf-8").splitlines()
            if line.strip().startswith("pip_quiet install")]


def test_the_dev_script_installs_with_pip() -> None:
    assert pip_calls(), "no pip install found in ./dev: update this test"


def test_every_install_is_quiet_and_goes_to_stderr() -> None:
    for call in pip_calls():
        assert re.search(r"\s-q\b", call), call
        assert call.endswith(">&2"), call
        assert "--progress-bar on" not in call, call


def test_serve_prepares_the_solver_as_play_does() -> None:
    # the first hint after `./dev serve` took 30 s: the web game warms the solver up like the terminal game
    text = DEV.read_text(encoding="utf-8")
    for command in ("play", "serve"):
        branch = re.search(rf"^  {command}\)\n(.*?);;", text, re.M | re.S)
        assert branch is not None, command
        assert re.search(r"^\s+warm\b", branch.group(1), re.M), f"./dev {command} does not warm the solver"
