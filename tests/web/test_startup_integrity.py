"""Issue 10, break 10: a SQLite database damaged inside its pages started anyway and answered
plain-text 500s. Now ``PRAGMA quick_check`` refuses it at start in one line, and every error
answer, whatever its cause, is JSON."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cubilete.cli import main
from cubilete.engine.errors import StoreError
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.codec import rules_to_dict
from cubilete.store.webdb import SeatRow, TableRow, WebStore
from cubilete.web.app import create_app
from cubilete.web.settings import Settings

GENERALA = json.dumps(rules_to_dict(find_rules("generala")))


def _database_with_tables(path: Path, n: int = 300) -> str:
    url = f"sqlite:///{path}"
    store = WebStore(url)
    store.migrate()
    for i in range(n):
        store.create_table(TableRow(
            id=f"t{i:07d}", created_at=time.time(), preset="generala", rules_json=GENERALA, seed="s" * 32,
            commitment="c" * 64, timer=None, coach=True, status="finished", version=0, finished_at=time.time(),
            seats=(SeatRow(0, "human", None, None, None, None),)))
    store.checkpoint()
    store.close()
    return url


def _damage(path: Path) -> None:
    """Overwrite 1 KB in the middle of the file: the header is fine, some b-tree pages are not."""
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(size // 2)
        f.write(b"\xde\xad\xbe\xef" * 256)


def _wreck(path: Path) -> None:
    """Every page but the first (the schema) overwritten: any read of a table fails."""
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(4096)
        f.write(b"\xde\xad\xbe\xef" * ((size - 4096) // 4))


def test_a_damaged_database_is_refused_at_start_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "web.sqlite3"
    url = _database_with_tables(path)
    _damage(path)
    before = path.read_bytes()
    code = main(["serve", "--db", url, "--port", "1"])  # refused before it listens
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.startswith("cubilete: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert "is damaged" in err and "quick_check" in err and "restore a backup" in err
    assert path.read_bytes() == before  # never replaced or "repaired"


def test_the_app_refuses_a_damaged_database_too(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite3"
    url = _database_with_tables(path)
    _damage(path)
    with pytest.raises(StoreError, match="is damaged"), TestClient(create_app(Settings(db_url=url))):
        pass


def test_a_sound_database_passes_the_check(tmp_path: Path) -> None:
    url = _database_with_tables(tmp_path / "web.sqlite3", n=3)
    WebStore(url).check_integrity()


def test_every_error_answer_is_json(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite3"
    url = _database_with_tables(path)
    with TestClient(create_app(Settings(db_url=url)), raise_server_exceptions=False) as client:
        answers = {
            "no route": client.get("/api/nothing-here"),
            "no static file": client.get("/static/nothing.js"),
            "wrong method": client.delete("/api/presets"),
            "bad parameter": client.get("/api/games", params={"limit": "many"}),
            "no table": client.get("/api/tables/abcdefgh"),
        }
        _wreck(path)  # damaged while serving: the next connection's read fails inside the database driver
        client.app.state.hub.store.engine.dispose()  # type: ignore[attr-defined]  # (no page cached from before)
        answers["server error"] = client.get("/api/games")
    expected = {"no route": 404, "no static file": 404, "wrong method": 405, "bad parameter": 422,
                "no table": 404, "server error": 500}
    for what, r in answers.items():
        assert r.status_code == expected[what], (what, r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/json"), (what, r.headers)
        assert isinstance(r.json()["error"], str) and r.json()["error"], what
    assert "Traceback" not in answers["server error"].text
