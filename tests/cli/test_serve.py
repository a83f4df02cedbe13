"""``cubilete serve`` refuses bad arguments and databases it cannot open with one line, never a traceback.

Only refusals are tested here: a good database would start serving (live servers are tested in tests/web)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cubilete.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        pytest.param(["--port", "0"], ["--port", "'0'", "1-65535"], id="port-0"),
        pytest.param(["--port", "70000"], ["--port", "'70000'", "1-65535"], id="port-70000"),
        pytest.param(["--port", "abc"], ["--port", "'abc'"], id="port-abc"),
        pytest.param(["--port", "-5"], ["--port"], id="port-negative"),
        pytest.param(["--bot-delay", "-1"], ["--bot-delay", "'-1'"], id="delay-negative"),
        pytest.param(["--bot-delay", "x"], ["--bot-delay", "'x'"], id="delay-x"),
        pytest.param(["--bot-delay", "nan"], ["--bot-delay", "'nan'"], id="delay-nan"),
        pytest.param(["--bot-delay", "11"], ["--bot-delay", "'11'"], id="delay-11"),
        pytest.param(["--colour", "red"], ["unrecognized arguments: --colour"], id="unknown-option"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    code = main(["serve", *argv])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith("cubilete: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``cubilete serve --db DB`` in a child; a database that opens would serve, and the timeout ends the test."""
    env = {**os.environ, "CUBILETE_DATA_DIR": str(tmp_path / "data")}
    env.pop("CUBILETE_DB_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "cubilete", "serve", "--port", str(_free_port()), "--db", db],
        capture_output=True, text=True, timeout=60, env=env, check=False,
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("cubilete: error: ")]
    assert len(lines) == 1, done.stderr
    assert "cubilete web game on" not in done.stdout  # refused before listening
    return lines[0]


@pytest.mark.parametrize(
    ("db", "words"),
    [
        pytest.param("nonsense://", ["unsupported database 'nonsense'"], id="unknown-dialect"),
        pytest.param("::::", ["not a database URL"], id="not-a-url"),
        pytest.param("postgresql+psycopg://nobody@127.0.0.1:1/none", ["cannot open the database"], id="no-server"),
    ],
)
def test_a_database_that_cannot_be_used_is_one_line_and_exit_1(tmp_path: Path, db: str, words: list[str]) -> None:
    done = _serve(db, tmp_path)
    line = _one_line(done)
    assert done.returncode == 1
    for word in words:
        assert word in line


def test_a_sqlite_folder_is_one_line(tmp_path: Path) -> None:
    done = _serve(f"sqlite:///{tmp_path}", tmp_path)
    _one_line(done)
    assert done.returncode == 1


def test_a_sqlite_path_under_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder\n", encoding="utf-8")
    done = _serve(f"sqlite:///{tmp_path / 'plain' / 'web.sqlite3'}", tmp_path)
    _one_line(done)
    assert done.returncode == 1


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("these are notes, not a database\n" * 20, encoding="utf-8")
    done = _serve(f"sqlite:///{text}", tmp_path)
    _one_line(done)
    assert done.returncode == 1
