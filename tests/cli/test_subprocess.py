"""A few runs of the real ``python -m cubilete`` with piped stdin (the rest goes through ``main(argv)``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def cubilete(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cubilete", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        cwd=cwd,
        check=False,
    )


def test_play_over_a_pipe_finishes_and_replays(tmp_path: Path) -> None:
    # the human scores lines 1..11 right after each automatic first throw
    lines = "".join(f"s {n}\n" for n in range(1, 12)) + "stand\n" * 20
    done = cubilete("play", "--rules", "generala", "--players", "Ana,bot", "--seed", "7", "--save", "g.json",
                    stdin=lines, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert "=== Final result: Generala (Argentina) ===" in done.stdout
    assert "Ana> s 1" in done.stdout  # commands read from a pipe are echoed into the transcript
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert record["finished"] is True
    replay = cubilete("replay", "g.json", cwd=tmp_path)
    assert replay.returncode == 0
    assert replay.stdout.splitlines()[-1] == done.stdout.splitlines()[-1]


def test_input_ending_mid_game_exits_1_without_traceback(tmp_path: Path) -> None:
    done = cubilete("play", "--players", "Ana,bot", "--seed", "7", "--save", "g.json", stdin="s 1\n", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "input ended before the game was over" in done.stderr
    resumed = cubilete("play", "--resume", "g.json", stdin="q\n", cwd=tmp_path)
    assert resumed.returncode == 0 and "Resuming g.json" in resumed.stdout


def test_bad_arguments_one_line_exit_2() -> None:
    for argv in (["score", "--dice", "1", "2", "3", "4", "7"], ["score", "--rules", "nope", "--dice", "12345"],
                 ["play", "--players", "a,bot:genius"], ["nope"]):
        done = cubilete(*argv)
        assert done.returncode == 2, argv
        assert done.stdout == ""
        assert done.stderr.startswith("cubilete: error: ") and done.stderr.count("\n") == 1
        assert "Traceback" not in done.stderr


def test_score_through_the_module() -> None:
    done = cubilete("score", "--dice", "3", "4", "5", "6", "1", "--throw", "1", "escalera")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "escalera (Escalera): 25  (servida)"
