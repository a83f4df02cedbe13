"""web/pwa.py: the service worker's shell lists every script a page imports (offline, a missing module
would blank the page), never the worker itself, and a changed file gives the worker a new version (the
browser installs a release only if the worker's text changed)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from cubilete.web.pwa import STATIC, worker_text

IMPORT = re.compile(r"""(?:from|import)\s*["']\./([\w./-]+)["']""")


def _head(text: str) -> tuple[str, list[str]]:
    version = re.search(r'^const VERSION = (".*");$', text, re.M)
    shell = re.search(r"^const SHELL = (\[.*\]);$", text, re.M)
    assert version and shell
    return json.loads(version.group(1)), json.loads(shell.group(1))


def test_the_shell_holds_every_imported_script_the_page_and_its_style() -> None:
    _version, shell = _head(worker_text())
    imported = {m for js in STATIC.glob("*.js") for m in IMPORT.findall(js.read_text(encoding="utf-8"))}
    linked = set(re.findall(r'(?:href|src)="/static/([^"]+)"', (STATIC / "index.html").read_text(encoding="utf-8")))
    assert imported and "app.js" in linked
    missing = {f"/static/{name}" for name in imported | linked} - set(shell)
    assert not missing, f"offline, these would not load: {sorted(missing)}"
    assert "/" in shell and "/static/sw.js" not in shell


def test_a_changed_file_makes_a_new_worker(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    before, _ = _head(worker_text(copy))
    assert _head(worker_text(copy))[0] == before  # the same files: the same worker, nothing reinstalled
    (copy / "table.js").write_text((copy / "table.js").read_text(encoding="utf-8") + "\n// next release\n")
    assert _head(worker_text(copy))[0] != before
