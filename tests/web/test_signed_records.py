"""Signed records (issue 26): the site signs every finished record over all of it (Ed25519); ``cubilete verify
--site-key/--site`` and ``POST /api/verify`` fail on any changed field, including the coherent forgery that keeps
the real seed, commitment and table and replays other decisions. Key rotation keeps old records verifiable; a
bad key file stops the server with one line and is never replaced."""

from __future__ import annotations

import copy
import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import ServerFactory
from tests.web.inproc import create, next_frame, running_app, table_socket

from cubilete.cli import main
from cubilete.engine import fairness, signature
from cubilete.web.signing import FILE_NAME, SiteKeyError, load_or_create, read_site_keys, rotate

BOTS = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "heuristic"}]
TAMPERED = "does not match the record: something in it was changed after the site signed it"


def _play(client: TestClient) -> dict[str, Any]:
    """A whole game two bots play on the server, and its record as GET .../record gives it."""
    table = create(client, BOTS)
    with table_socket(client, table) as watcher:
        state = next_frame(watcher, "state")
        while state["status"] != "finished":
            state = next_frame(watcher, "state")
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    return record


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished game's signed record and the site's key listing, from one app on a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("signed")
    with running_app(f"sqlite:///{folder / 'w.sqlite3'}") as client:
        record = _play(client)
        listing = client.get("/api/site-key").json()
    return {"record": record, "listing": listing, "folder": folder}


def _write(tmp_path: Path, data: object, name: str) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


# --- what the site publishes ------------------------------------------------------------------------


def test_the_record_carries_a_signature_by_the_listed_current_key(site: dict[str, Any]) -> None:
    record, listing = site["record"], site["listing"]
    assert record["signature"]["algorithm"] == "Ed25519"
    assert record["signature"]["key"] == listing["current"]["id"]
    assert listing["former"] == []
    assert signature.signature_problems(record, signature.public_keys(listing)) == []


def test_a_signed_record_holds_no_float(site: dict[str, Any]) -> None:
    # the replay page re-serialises the record in JavaScript, which writes 1.0 as 1 and 1e-07 as 1e-7: a float
    # anywhere in a record made every signature "bad" in the browser (the stand-ins' share was one)
    def floats(value: object, where: str) -> list[str]:
        if isinstance(value, float):
            return [where]
        if isinstance(value, dict):
            return [f for k, v in value.items() for f in floats(v, f"{where}.{k}")]
        if isinstance(value, list):
            return [f for i, v in enumerate(value) for f in floats(v, f"{where}[{i}]")]
        return []

    assert "stand_in" in site["record"] and floats(site["record"], "record") == []


def test_the_key_file_is_beside_the_database_and_private(site: dict[str, Any]) -> None:
    path = site["folder"] / FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_site_keys(path).current_id == site["listing"]["current"]["id"]
    assert "private" not in json.dumps(site["listing"])


# --- cubilete verify --site-key ------------------------------------------------------------------------


def test_the_signed_record_round_trips_through_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any]
) -> None:
    record = _write(tmp_path, site["record"], "game.json")
    keys = _write(tmp_path, site["listing"], "keys.json")
    rec = site["record"]
    code, out, err = _verify(capsys, str(record), "--site-key", str(keys), "--commitment", rec["commitment"],
                             "--table", rec["table"])
    assert (code, err) == (0, ""), out
    assert "signed: the site's signature covers the whole record" in out
    # one bare base64 key works as well as the listing
    code, out, _ = _verify(capsys, str(record), "--site-key", site["listing"]["current"]["public"])
    assert code == 0 and "signed:" in out


def _first_score(record: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in record["actions"] if "score" in a)


def _other_box(record: dict[str, Any]) -> None:
    action = _first_score(record)
    action["score"] = next(s for s in ("1", "2", "3", "4", "5", "6", "full", "poker") if s != action["score"])


def _swap_winner(record: dict[str, Any]) -> None:
    record["winners"] = [p for p in record["players"] if p not in record["winners"]] or record["players"][:1]


ALTERATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "an action": lambda r: r["actions"].__setitem__(0, {"roll": [0]} if r["actions"][0] != {"roll": [0]}
                                                    else {"roll": [1]}),
    "a box value": _other_box,
    "a player name": lambda r: r["players"].__setitem__(0, r["players"][0] + "x"),
    "the rules": lambda r: r["rules"].__setitem__("title", str(r["rules"].get("title")) + " (house)"),
    "the result": _swap_winner,
    "the totals": lambda r: r["totals"].__setitem__(0, r["totals"][0] + 5),
    "the seed": lambda r: r.__setitem__("seed", ("1" if r["seed"][0] == "0" else "0") + r["seed"][1:]),
    "the table id": lambda r: r.__setitem__("table", "zz" + r["table"][2:]),
    "the commitment": lambda r: r.__setitem__("commitment", "0" * 64),
    "a new field": lambda r: r.__setitem__("note", "the player won"),
}


@pytest.mark.parametrize("what", list(ALTERATIONS))
def test_any_altered_field_fails_the_signature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any], what: str
) -> None:
    forged = copy.deepcopy(site["record"])
    ALTERATIONS[what](forged)
    assert forged != site["record"]
    keys = _write(tmp_path, site["listing"], "keys.json")
    code, out, err = _verify(capsys, str(_write(tmp_path, forged, "forged.json")), "--site-key", str(keys))
    assert code == 1
    assert f"MISMATCH: the site signature (key {site['listing']['current']['id']}) {TAMPERED}" in out
    assert err.startswith("cubilete: error: ") and err.count("\n") == 1 and "Traceback" not in err


def _coherent_forgery(record: dict[str, Any]) -> dict[str, Any]:
    """The attacker's finding: the real seed, commitment and table, other decisions (a whole other replay of
    the same dice), so everything but the signature agrees with itself and with what was published."""
    from cubilete.engine.game import Game
    from cubilete.engine.record import to_record
    from cubilete.engine.rules.codec import rules_from_dict
    from cubilete.play.bots import make_bot

    game = Game(rules_from_dict(record["rules"], "record"), record["players"], seed=record["seed"])
    bots = [make_bot("bot:random", seed=i) for i in range(len(record["players"]))]
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    forged = to_record(game)
    forged.update(commitment=record["commitment"], table=record["table"], signature=record["signature"])
    return forged


def test_the_coherent_forgery_passes_the_dice_but_not_the_signature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any]
) -> None:
    rec = site["record"]
    forged = _coherent_forgery(rec)
    assert forged["actions"] != rec["actions"]
    path = str(_write(tmp_path, forged, "forged.json"))
    published = ("--commitment", rec["commitment"], "--table", rec["table"])
    code, out, _ = _verify(capsys, path, *published)
    assert code == 0 and "not checked: the site's signature" in out  # what the attacker found, without a key
    code, out, _ = _verify(capsys, path, *published, "--site-key", str(_write(tmp_path, site["listing"], "k.json")))
    assert code == 1 and TAMPERED in out


def test_an_unsigned_record_fails_when_a_key_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any]
) -> None:
    unsigned = {k: v for k, v in site["record"].items() if k != "signature"}
    code, out, _ = _verify(capsys, str(_write(tmp_path, unsigned, "u.json")),
                           "--site-key", site["listing"]["current"]["public"])
    assert code == 1 and "MISMATCH: the record holds no site signature" in out


@pytest.mark.parametrize("bad", ["not-a-key", "AAAA", "{}"])
def test_a_bad_site_key_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any], bad: str
) -> None:
    record = str(_write(tmp_path, site["record"], "game.json"))
    key_file = tmp_path / "bad.json"
    key_file.write_text(bad, encoding="utf-8")
    code, out, err = _verify(capsys, record, "--site-key", str(key_file))
    assert code == 1 and out == ""
    assert err.startswith("cubilete: error: ") and err.count("\n") == 1 and ("site-key" in err or "site key" in err)
    code, _, err = _verify(capsys, record, "--site-key", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read" in err


def test_verify_site_key_without_the_package_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cryptography" else real(name))
    code, _, err = _verify(capsys, str(_write(tmp_path, site["record"], "g.json")),
                           "--site-key", site["listing"]["current"]["public"])
    assert code == 1 and "pip install 'cubilete[web]'" in err and "cryptography" in err


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/", "127.0.0.1:8000"])
def test_site_must_be_http(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any], url: str
) -> None:
    code, out, err = _verify(capsys, str(_write(tmp_path, site["record"], "g.json")), "--site", url)
    assert code == 2 and out == "" and "--site must be an http:// or https:// address" in err


# --- POST /api/verify (the replay page's fallback) ----------------------------------------------------


def test_the_server_verify_endpoint(tmp_path: Path, site: dict[str, Any]) -> None:
    # a second app on the same folder reads the same key file: the first app's record verifies there
    with running_app(f"sqlite:///{site['folder'] / 'w.sqlite3'}") as client:
        good = client.post("/api/verify", json=site["record"]).json()
        assert good == {"ok": True, "problems": [], "signature": True}
        forged = copy.deepcopy(site["record"])
        forged["players"][0] += "x"
        bad = client.post("/api/verify", json=forged).json()
        assert bad["ok"] is False and any(TAMPERED in p for p in bad["problems"])
        r = client.post("/api/verify", content=b"{not json", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "JSON of a game record" in r.json()["error"]
        assert client.post("/api/verify", json=[1, 2]).json()["ok"] is False
        deep = b'{"x": ' + b"[" * 30000 + b"]" * 30000 + b"}"  # under 64 KB, deeper than Python's JSON reads
        r = client.post("/api/verify", content=deep, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        nested: Any = []
        for _ in range(900):  # deep but readable: an answer (a broken signature), never a 500
            nested = [nested]
        r = client.post("/api/verify", json={**site["record"], "extra": nested})
        assert r.status_code == 200 and r.json()["ok"] is False
        huge = copy.deepcopy(site["record"])
        huge["rules"]["dice"] = 8  # more than this server gives a table (max_dice 6)
        r = client.post("/api/verify", json=huge)
        assert r.status_code == 422 and "8 dice; at most 6 (max_dice)" in r.json()["error"]


# --- rotation --------------------------------------------------------------------------------------


def test_rotation_keeps_old_records_verifiable_and_signs_new_ones_with_the_new_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with running_app(url) as client:
        old_record = _play(client)
        old_id = client.get("/api/site-key").json()["current"]["id"]
    assert main(["site-key", "rotate", "--db", url]) == 0
    assert "new signing key" in capsys.readouterr().out
    with running_app(url) as client:
        listing = client.get("/api/site-key").json()
        new_record = _play(client)
        again = client.get(f"/api/tables/{old_record['table']}/record").json()
    new_id = listing["current"]["id"]
    assert new_id != old_id and [k["id"] for k in listing["former"]] == [old_id]
    assert new_record["signature"]["key"] == new_id and again["signature"]["key"] == new_id
    keys = str(_write(tmp_path, listing, "keys.json"))
    for rec in (old_record, new_record, again):
        code, out, _ = _verify(capsys, str(_write(tmp_path, rec, "r.json")), "--site-key", keys)
        assert code == 0 and "signed:" in out, out
    # against the new key alone, the old record names its key as not the site's
    code, out, _ = _verify(capsys, str(_write(tmp_path, old_record, "r.json")),
                           "--site-key", listing["current"]["public"])
    assert code == 1 and f"signed with key '{old_id}', which is not one of the site's keys ({new_id})" in out


# --- a bad key file ----------------------------------------------------------------------------------


def _serve_must_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_a: object, **_k: object) -> None:
        raise AssertionError("the server started with a bad key file")

    monkeypatch.setattr("cubilete.web.server.serve", never)


@pytest.mark.parametrize("content", [b"{not json", b'{"format": "cubilete-site-key", "version": 1}', b"\xff\xfe",
                                     b'{"format": "cubilete-site-key", "version": 1, "current": {"private": "AAAA"}}'])
def test_a_corrupt_key_file_stops_serve_with_one_line_and_stays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    _serve_must_not_start(monkeypatch)
    key_file = tmp_path / FILE_NAME
    key_file.write_bytes(content)
    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'w.sqlite3'}"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.startswith(f"cubilete: error: site key file {key_file}: ") and err.count("\n") == 1, err
    assert "unverifiable" in err and "Traceback" not in err
    assert key_file.read_bytes() == content  # never replaced by a new key


def test_an_unreadable_key_file_stops_serve_and_the_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _serve_must_not_start(monkeypatch)
    (tmp_path / FILE_NAME).mkdir()  # a folder where the file should be: cannot be read, even by root
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    assert main(["serve", "--db", url]) == 1
    err = capsys.readouterr().err
    assert "cannot be read" in err and err.count("\n") == 1
    with pytest.raises(SiteKeyError, match="cannot be read"), running_app(url):
        pass
    assert (tmp_path / FILE_NAME).is_dir()


def test_rotate_without_a_key_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["site-key", "rotate", "--db", f"sqlite:///{tmp_path / 'w.sqlite3'}"]) == 1
    assert "cannot be read" in capsys.readouterr().err
    assert not (tmp_path / FILE_NAME).exists()


def test_the_key_store_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "k" / FILE_NAME
    first = load_or_create(path)
    assert load_or_create(path) == first and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    second = rotate(path)
    assert second.former[0]["id"] == first.current_id and read_site_keys(path) == second
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    record = {"format": "x", "b": [1, "ñ"]}
    signed = first.sign(record)
    keys = signature.public_keys(second.listing())
    assert signature.signature_problems(signed, keys) == []
    assert fairness.FairnessReport(0, False).signature_checked is False


# --- --site against a live server --------------------------------------------------------------------


def test_verify_site_fetches_the_keys_of_a_live_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], server_factory: ServerFactory
) -> None:
    import urllib.request

    server = server_factory()
    with urllib.request.urlopen(f"{server.url}/api/site-key", timeout=10) as answer:
        listing = json.loads(answer.read())
    key_file = Path(server.db_url.removeprefix("sqlite:///")).parent / FILE_NAME
    keys = read_site_keys(key_file)
    rec = keys.sign({k: v for k, v in _offline_record().items()})
    assert rec["signature"]["key"] == listing["current"]["id"]
    path = str(_write(tmp_path, rec, "g.json"))
    code, out, err = _verify(capsys, path, "--site", server.url + "/")
    assert (code, err) == (0, ""), out
    assert "signed:" in out
    forged = copy.deepcopy(rec)
    forged["players"][0] += "x"
    code, out, _ = _verify(capsys, str(_write(tmp_path, forged, "f.json")), "--site", server.url)
    assert code == 1 and TAMPERED in out
    code, _, err = _verify(capsys, path, "--site", f"{server.url}/nothing-here")
    assert code == 1 and "answered 404" in err


def _offline_record() -> dict[str, Any]:
    """A finished game's record as the web writes it (commitment, table), played here without a server."""
    from cubilete.engine.game import Game
    from cubilete.engine.record import to_record
    from cubilete.engine.rules import find_rules
    from cubilete.play.bots import make_bot

    game = Game(find_rules("generala"), ["Ana", "bot"], seed=fairness.new_seed())
    bots = [make_bot("bot:greedy", seed=i) for i in range(2)]
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    record = to_record(game)
    record.update(commitment=fairness.commitment(game.seed), table="k7mq2xpa")
    return record


class _Hostile:
    """A tiny HTTP server on 127.0.0.1 whose /api/site-key answer is too large, or drips forever."""

    def __init__(self, mode: str) -> None:
        import http.server
        import threading

        mode_of_server = mode

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                if mode_of_server == "large":
                    self.wfile.write(b'{"current": {"public": "' + b"A" * 100_000 + b'"}}')
                    return
                stop = threading.Event()
                while not stop.wait(0.05):  # one byte now and then, until the client hangs up
                    try:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                    except OSError:
                        return

            def log_message(self, *_args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize(("mode", "said"), [("large", "larger than 65536 bytes"), ("drip", "cannot fetch")])
def test_site_answers_are_bounded_in_size_and_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], site: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    mode: str, said: str,
) -> None:
    monkeypatch.setattr("cubilete.cli.verify_cmd.SITE_DEADLINE", 0.3)  # the drip never ends: the deadline must
    hostile = _Hostile(mode)
    try:
        code, out, err = _verify(capsys, str(_write(tmp_path, site["record"], "g.json")), "--site", hostile.url)
    finally:
        hostile.close()
    assert code == 1 and out == "" and said in err and err.count("\n") == 1, err


# --- two processes on one PostgreSQL: one key file, the same signature --------------------------------


def test_two_processes_of_a_site_sign_alike(
    fresh_pg_url: str, server_factory: ServerFactory, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {"CUBILETE_SITE_POLL": "0.2", "CUBILETE_SITE_KEY_FILE": str(tmp_path / "shared-key.json")}
    a = server_factory(fresh_pg_url, env=env)
    b = server_factory(fresh_pg_url, env=env)
    made = httpx.post(f"{a.url}/api/tables", json={"rules": "generala", "seats": BOTS}, timeout=10)
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    deadline = time.monotonic() + 120
    while httpx.get(f"{a.url}/api/tables/{table}", timeout=10).json()["state"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    records = [httpx.get(f"{s.url}/api/tables/{table}/record", timeout=10).json() for s in (a, b)]
    assert records[0] == records[1] and "signature" in records[0]
    listings = [httpx.get(f"{s.url}/api/site-key", timeout=10).json() for s in (a, b)]
    assert listings[0] == listings[1] and records[0]["signature"]["key"] == listings[0]["current"]["id"]
    code, out, _ = _verify(capsys, str(_write(tmp_path, records[0], "g.json")), "--site", b.url)
    assert code == 0 and "signed:" in out
