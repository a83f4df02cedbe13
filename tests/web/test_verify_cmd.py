"""``cubilete verify``: a web game's record verifies; any altered die, order, commitment or seed is caught and
named; a terminal game's record (no commitment) verifies its seed only; bad files get one line, never a
traceback. Also :mod:`cubilete.engine.fairness` against the commitment scheme docs/WEB.md publishes."""

from __future__ import annotations

import copy
import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import create, next_frame, running_app, table_socket

from cubilete.cli import main
from cubilete.engine import fairness
from cubilete.engine.dice import SeededDice
from cubilete.engine.errors import RecordError

BOTS = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "heuristic"}]


@pytest.fixture(scope="module")
def web_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of a whole generala game two bots played on the server, as GET .../record gives it."""
    client: TestClient
    with running_app(f"sqlite:///{tmp_path_factory.mktemp('verify') / 'w.sqlite3'}") as client:
        table = create(client, BOTS)
        with table_socket(client, table) as watcher:
            state = next_frame(watcher, "state")
            while state["status"] != "finished":
                state = next_frame(watcher, "state")
        r = client.get(f"/api/tables/{table}/record")
        assert r.status_code == 200, r.text
        record: dict[str, Any] = r.json()
    assert record["table"] == table and record["seed"] == state["seed"]
    return record


def _write(tmp_path: Path, data: object, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def verify(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err: str) -> str:
    assert err.startswith("cubilete: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def _mismatched_throws(out: str) -> list[int]:
    """The (1-based) throws the MISMATCH lines name."""
    return [int(n) for n in re.findall(r"^MISMATCH: throw (\d+) is recorded as", out, flags=re.M)]


def _other_face(face: int) -> int:
    return face % 6 + 1


# --- the command -------------------------------------------------------------------------


def test_a_web_record_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]) -> None:
    code, out, err = verify(capsys, _write(tmp_path, web_record))
    n = len(web_record["throws"])
    assert (code, err) == (0, "")
    assert f"all {n} throws" in out and "commitment" in out and "MISMATCH" not in out


def test_one_altered_die_is_caught_and_its_throw_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    forged = copy.deepcopy(web_record)
    k = len(forged["throws"]) // 2
    forged["throws"][k][-1] = _other_face(forged["throws"][k][-1])
    code, out, err = verify(capsys, _write(tmp_path, forged))
    assert code == 1
    assert _mismatched_throws(out) == [k + 1]
    assert "do not verify" in _one_line_error(err)


def test_swapped_throws_are_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    forged = copy.deepcopy(web_record)
    throws = forged["throws"]
    i = 0
    j = next(j for j in range(1, len(throws)) if throws[j] != throws[i])
    throws[i], throws[j] = throws[j], throws[i]
    code, out, err = verify(capsys, _write(tmp_path, forged))
    assert code == 1
    assert _mismatched_throws(out) == [i + 1, j + 1]
    _one_line_error(err)


def test_an_altered_commitment_is_caught_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    forged = copy.deepcopy(web_record)
    c = forged["commitment"]
    forged["commitment"] = ("1" if c[0] == "0" else "0") + c[1:]
    code, out, err = verify(capsys, _write(tmp_path, forged))
    assert code == 1
    assert "commitment" in out and forged["commitment"] in out
    assert _mismatched_throws(out) == []  # the dice themselves are the seed's
    _one_line_error(err)


def test_an_altered_seed_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    forged = copy.deepcopy(web_record)
    s = forged["seed"]
    forged["seed"] = ("1" if s[0] == "0" else "0") + s[1:]
    code, out, err = verify(capsys, _write(tmp_path, forged))
    assert code == 1
    assert "commitment" in out  # the new seed's hash is not the published one
    assert _mismatched_throws(out)  # and its dice are not the recorded ones
    _one_line_error(err)


def test_a_terminal_game_record_verifies_its_seed_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "f.json"
    # Ana scores line 1, 2, 3 ... right after each automatic first throw; "stand" settles any tie-break
    script = "".join(f"s {n}\n" for n in range(1, 12)) + "stand\n" * 20
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", "--rules", "generala", "--players", "Ana,bot", "--seed", "7", "--save", str(save)]) == 0
    capsys.readouterr()
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert "commitment" not in saved and saved["seed"] == "7"
    code, out, err = verify(capsys, save)
    assert (code, err) == (0, "")
    assert f"all {len(saved['throws'])} throws" in out and "only the seed was checked" in out


@pytest.mark.parametrize(
    ("text", "words"),
    [
        pytest.param("this is not json {", ["not", "JSON"], id="not-json"),
        pytest.param("", ["empty"], id="empty"),
        pytest.param('{"hello": "world"}', ["not a cubilete game record"], id="foreign-object"),
        pytest.param("[1, 2, 3]", ["not a cubilete game record"], id="array"),
    ],
)
def test_a_file_that_is_not_a_record_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: list[str]
) -> None:
    path = _write(tmp_path, text)
    code, out, err = verify(capsys, path)
    assert (code, out) == (1, "")
    line = _one_line_error(err)
    assert str(path) in line
    for word in words:
        assert word in line


@pytest.mark.parametrize("seed", [None, "", 7], ids=["missing", "empty", "number"])
def test_a_record_without_a_usable_seed_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any], seed: object
) -> None:
    broken = copy.deepcopy(web_record)
    if seed is None:
        del broken["seed"]
    else:
        broken["seed"] = seed
    code, out, err = verify(capsys, _write(tmp_path, broken))
    assert (code, out) == (1, "")
    assert "seed" in _one_line_error(err)


def test_a_binary_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, _out, err = verify(capsys, path)
    assert code == 1
    _one_line_error(err)


def test_a_missing_file_or_a_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = verify(capsys, tmp_path / "none.json")
    assert (code, out) == (2, "")
    assert "no such file" in _one_line_error(err)
    code, out, err = verify(capsys, tmp_path)
    assert (code, out) == (2, "")
    assert "folder" in _one_line_error(err)


def test_the_installed_command_verifies_a_web_record(tmp_path: Path, web_record: dict[str, Any]) -> None:
    path = _write(tmp_path, web_record)
    done = subprocess.run([sys.executable, "-m", "cubilete", "verify", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith(f"verified: all {len(web_record['throws'])} throws")


# --- cubilete.engine.fairness -------------------------------------------------------------------


def test_the_commitment_is_the_sha256_hex_of_the_seed() -> None:
    # FIPS 180-2's test vector: SHA-256("abc")
    assert fairness.commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert fairness.commitment("dado ñ") == hashlib.sha256("dado ñ".encode()).hexdigest()  # UTF-8 text


def test_new_seeds_are_256_random_bits_in_hex() -> None:
    seeds = {fairness.new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)


def _documented_throw(seed: str, index: int, count: int) -> tuple[int, ...]:
    """docs/WEB.md: bytes of sha256(f"{seed}:{i}:{block}") below 252, each byte % 6 + 1, blocks 0, 1, ..."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        faces += [b % 6 + 1 for b in hashlib.sha256(f"{seed}:{index}:{block}".encode()).digest() if b < 252]
        block += 1
    return tuple(faces[:count])


@pytest.mark.parametrize(("index", "count"), [(0, 5), (1, 1), (17, 3), (3, 6), (9, 70)])
def test_throws_are_derived_as_documented(index: int, count: int) -> None:
    seed = "e3b0c44298fc1c149afbf4c8996fb924"
    assert SeededDice(seed).throw(index, count) == _documented_throw(seed, index, count)


def _throws(seed: str, sizes: list[int]) -> list[list[int]]:
    return [list(_documented_throw(seed, i, n)) for i, n in enumerate(sizes)]


def test_verify_throws_accepts_the_seeds_throws() -> None:
    seed = "semilla"
    throws = _throws(seed, [5, 3, 1, 5, 2])
    report = fairness.verify_throws(seed, throws, fairness.commitment(seed))
    assert report.ok and report.throws == 5 and report.commitment_checked
    plain = fairness.verify_throws(seed, throws)
    assert plain.ok and not plain.commitment_checked


def test_verify_throws_names_the_first_bad_throw_first() -> None:
    seed = "semilla"
    throws = _throws(seed, [5, 3, 1, 5, 2, 4])
    throws[2][0] = _other_face(throws[2][0])
    throws[4][1] = _other_face(throws[4][1])
    report = fairness.verify_throws(seed, throws, fairness.commitment(seed))
    assert not report.ok
    assert [p.split(" is recorded")[0] for p in report.problems] == ["throw 3", "throw 5"]


def test_verify_throws_catches_a_wrong_commitment_alone() -> None:
    seed = "semilla"
    report = fairness.verify_throws(seed, _throws(seed, [5, 5]), fairness.commitment("otra"))
    assert not report.ok and len(report.problems) == 1 and "commitment" in report.problems[0]


def test_verify_record_refuses_a_record_without_a_seed(web_record: dict[str, Any]) -> None:
    assert fairness.verify_record(web_record).ok
    with pytest.raises(RecordError, match="seed"):
        fairness.verify_record({**web_record, "seed": ""})


# --- issue 10, break 7: verify against what was published, not against the record itself ----------


def _forged(web_record: dict[str, Any]) -> dict[str, Any]:
    """The attack: a whole other game, with its own seed and its own matching commitment, passed off as the
    web table's (same table id, same players)."""
    from cubilete.engine.game import Game
    from cubilete.engine.record import to_record
    from cubilete.engine.rules import find_rules
    from cubilete.play.bots import make_bot

    game = Game(find_rules("generala"), web_record["players"], seed="forger's own seed")
    bots = [make_bot("bot:random", seed=i) for i in range(len(web_record["players"]))]
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    forged = to_record(game)
    forged["commitment"] = fairness.commitment(game.seed)
    forged["table"] = web_record["table"]
    return forged


def verify_args(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_forged_record_passes_alone_but_says_it_was_checked_only_against_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    code, out, _err = verify_args(capsys, str(_write(tmp_path, _forged(web_record))))
    assert code == 0  # it is consistent with itself ...
    assert "checked only against the record" in out and "--commitment" in out  # ... and says that is all


def test_a_forged_record_fails_against_the_commitment_the_player_saw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    seen = web_record["commitment"]
    path = _write(tmp_path, _forged(web_record))
    code, out, err = verify_args(capsys, str(path), "--commitment", seen, "--table", web_record["table"])
    assert code == 1
    assert f"MISMATCH: the record's seed does not match the commitment you were shown ({seen})" in out
    assert "do not verify" in _one_line_error(err)


def test_the_real_record_verifies_against_the_commitment_the_player_saw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any]
) -> None:
    seen = web_record["commitment"].upper()  # as copied from the page, in either case
    path = _write(tmp_path, web_record)
    code, out, err = verify_args(capsys, str(path), "--commitment", seen, "--table", web_record["table"])
    assert (code, err) == (0, "")
    assert "matches the commitment you were shown before the game" in out and web_record["table"] in out
    code, out, _err = verify_args(capsys, str(path), "--commitment", seen, "--table", "another1")
    assert code == 1 and f"the record is of table {web_record['table']!r}, not 'another1'" in out


@pytest.mark.parametrize("bad", ["xyz", "12" * 31, "g" * 64, ""])
def test_a_commitment_that_is_not_64_hex_digits_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], web_record: dict[str, Any], bad: str
) -> None:
    code, out, err = verify_args(capsys, str(_write(tmp_path, web_record)), "--commitment", bad)
    assert (code, out) == (2, "")
    assert "--commitment must be the 64 hex digits" in _one_line_error(err)


def test_the_finished_table_offers_its_record_as_a_file(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = create(client, BOTS)
        with table_socket(client, table) as watcher:
            while next_frame(watcher, "state")["status"] != "finished":
                pass
        plain = client.get(f"/api/tables/{table}/record")
        saved = client.get(f"/api/tables/{table}/record", params={"download": "1"})
    assert saved.status_code == 200
    assert saved.headers["content-disposition"] == f'attachment; filename="cubilete-{table}.json"'
    assert saved.json() == plain.json()
    path = _write(tmp_path, saved.text)
    assert main(["verify", str(path), "--commitment", plain.json()["commitment"], "--table", table]) == 0
