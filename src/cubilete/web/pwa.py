"""Installable site: the web app manifest and the service worker, both at the root of the site (a worker
controls only the addresses under its own, so ``/sw.js``, not ``/static/sw.js``).

The worker's text starts with the shell's version (a hash of every static file) and addresses, so each
release's worker differs by a byte and browsers install it; the list is read once, at start."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

STATIC = Path(__file__).parent / "static"
SHELL_KINDS = (".js", ".css", ".png", ".webmanifest")
NO_CACHE = {"Cache-Control": "no-cache"}


def shell_files(static: Path = STATIC) -> list[Path]:
    """The files a phone keeps to open the site offline (the worker itself excluded)."""
    return sorted(p for p in static.rglob("*") if p.is_file() and p.suffix in SHELL_KINDS and p.name != "sw.js")


def worker_text(static: Path = STATIC) -> str:
    files = shell_files(static)
    digest = hashlib.sha256()
    for path in [*files, static / "index.html", static / "sw.js"]:
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes())
    addresses = ["/", *(f"/static/{p.relative_to(static).as_posix()}" for p in files)]
    head = f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\nconst SHELL = {json.dumps(addresses)};\n"
    return head + (static / "sw.js").read_text(encoding="utf-8")


def router() -> APIRouter:
    routes = APIRouter(include_in_schema=False)
    text = worker_text()

    @routes.get("/sw.js")
    async def service_worker() -> Response:
        return Response(text, media_type="text/javascript", headers=NO_CACHE)

    @routes.get("/manifest.webmanifest")
    async def manifest() -> FileResponse:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json",
                            headers=NO_CACHE)

    return routes
