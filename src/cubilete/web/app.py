"""``create_app(settings)``: the web game's one factory, used by ``cubilete serve`` and the tests."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cubilete.engine.rules import find_rules
from cubilete.store.webdb import WebStore
from cubilete.web import (
    clubs,
    daily,
    duplicate,
    lobby_api,
    profiles,
    pwa,
    ratings_api,
    sheets,
    signing_api,
    tournaments_api,
    turns_api,
    ws,
)
from cubilete.web.api import ApiError, router
from cubilete.web.expiry import expire_now_and_then, expire_once
from cubilete.web.guard import Gate, Guard
from cubilete.web.hub import Hub
from cubilete.web.lobby import Lobby
from cubilete.web.settings import Settings
from cubilete.web.signing import load_or_create, site_key_path
from cubilete.web.tournaments import TournamentDesk
from cubilete.web.turnbased import TurnDesk

STATIC = Path(__file__).parent / "static"
PAGES = ("/", "/t/{table_id}", "/games", "/leaderboard", "/p/{pid}", "/replay/{table_id}", "/lobby", "/daily",
         "/daily/{day}/{preset}", "/tournaments", "/tournaments/{tid}", "/sheet", "/sheet/{sheet_id}", "/clubs",
         "/clubs/{club_id}")
log = logging.getLogger("cubilete.web")


async def _checkpoint_now_and_then(store: WebStore, settings: Settings, every: float = 2.0) -> None:
    """SQLite's write-ahead log is folded into the database from a worker thread, off the event loop;
    every ``wal_truncate_every`` seconds a log file grown past ``wal_keep_bytes`` is cut back to nothing."""
    last_truncate = time.monotonic()
    while True:
        await asyncio.sleep(every)
        truncate = time.monotonic() - last_truncate >= settings.wal_truncate_every
        try:
            await asyncio.to_thread(store.checkpoint, settings.wal_keep_bytes if truncate else None)
        except Exception:  # a busy database: the next round will do it
            log.warning("checkpoint failed", exc_info=True)
        if truncate:
            last_truncate = time.monotonic()


async def _unload_now_and_then(hub: Hub, every: float) -> None:
    """Idle tables leave memory (they reload on demand)."""
    while True:
        await asyncio.sleep(every)
        try:
            gone = await hub.unload_idle()
        except Exception:
            log.exception("unloading idle tables failed")
            continue
        if gone:
            log.info("%d idle table(s) left memory; %d loaded", gone, len(hub.rooms))


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (it accepts HTML), not a program calling the API or fetching a file."""
    path = request.url.path
    if path.startswith(("/api/", "/static/", "/ws/")) or path == "/api":
        return False
    return "text/html" in request.headers.get("accept", "")


def create_app(settings: Settings, opened: WebStore | None = None) -> FastAPI:
    """The app: resumes unfinished tables at start. It uses ``opened`` (a store already migrated)
    when given, else opens and migrates the database of the settings itself."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        keys_at = site_key_path(settings.db_url, settings.site_key_file)
        app.state.site_keys = await asyncio.to_thread(load_or_create, keys_at)  # before the database: fail early
        store = opened
        if store is None:
            store = WebStore(settings.db_url)
            store.migrate()
        hub = Hub(store, settings)
        hub.lobby = Lobby(hub)
        app.state.hub = hub
        app.state.gate = Gate(settings)
        if settings.site and not store.local:  # PostgreSQL: one site with the other processes on it
            from cubilete.web.site import Site

            hub.site = Site(hub, settings.site_poll)
            await hub.site.start()
        await expire_once(hub)  # before resuming: a restart never brings back an expired table
        resumed = await hub.resume()
        if hub.site is not None:
            hub.site.watch()
        if resumed:
            log.info("resumed %d unfinished table(s)", resumed)
        hub.lobby.start()
        hub.tournaments = TournamentDesk(hub)
        hub.tournaments.start()
        hub.turns = TurnDesk(hub)
        hub.turns.start()
        warming = None
        if settings.win_chances:  # the chances' worker ready before the first game asks (a cold one took a minute)
            warming = asyncio.create_task(hub.chances.warm(find_rules("generala")))
        checkpoints = asyncio.create_task(_checkpoint_now_and_then(store, settings))
        unloads = asyncio.create_task(_unload_now_and_then(hub, max(0.5, min(30.0, settings.idle_unload / 2))))
        expiries = asyncio.create_task(expire_now_and_then(hub, max(0.5, min(30.0, settings.waiting_expiry / 10))))
        gc.freeze()  # what was loaded at start stays: the collector has less to walk during play
        try:
            yield
        finally:
            checkpoints.cancel()
            if warming is not None:
                warming.cancel()
            unloads.cancel()
            expiries.cancel()
            await hub.lobby.close()
            await hub.tournaments.close()
            await hub.turns.close()
            await hub.close()
            try:
                await asyncio.to_thread(store.checkpoint, 0)  # the log file is left empty at shutdown
            except Exception as exc:  # a database damaged while serving: stop anyway, and say so
                log.error("shutdown: the database log was not folded in (%s)", exc)
            store.close()

    app = FastAPI(title="cubilete", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.include_router(router)
    app.include_router(profiles.router)  # POST /api/profiles/check: the create form's house rules
    app.include_router(signing_api.router)  # GET /api/site-key, POST /api/verify: signed records
    app.include_router(lobby_api.router)  # GET /api/lobby
    app.include_router(daily.router)  # /api/daily: the daily duplicate challenge
    app.include_router(ratings_api.router)  # GET /api/ratings: both ratings per official preset
    app.include_router(tournaments_api.router)  # /api/tournaments: tournaments (docs/CLUBS.md)
    app.include_router(turns_api.router)  # /api/my/tables, turn notices: turn-based games
    app.include_router(sheets.router)  # /api/sheets: the score sheet for real dice
    app.include_router(clubs.router)  # /api/clubs: clubs, their members, house rules and standings
    app.include_router(duplicate.router)  # GET /api/tables/<id>/match: a duplicate match of two games
    app.include_router(pwa.router())  # /manifest.webmanifest and /sw.js: the site installs on a phone
    app.add_api_websocket_route("/ws/lobby", ws.lobby_socket)  # before the tables' route: "lobby" is no table id
    app.add_api_websocket_route("/ws/{table_id}", ws.table_socket)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"] if p not in ("query", "path", "body")) or "request"
        return JSONResponse({"error": f"{where}: {first['msg']}"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse | FileResponse:
        if exc.status_code == 404 and _wants_page(request):
            # a person's browser: the page shell, whose router says "no such page" in their language
            return FileResponse(STATIC / "index.html", status_code=404, headers={"Cache-Control": "no-cache"})
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _exc: Exception) -> JSONResponse:
        """Anything unforeseen is still a JSON answer (the traceback goes to the server's log, not the client)."""
        return JSONResponse({"error": "the server failed to answer this request; the details are in its log"},
                            status_code=500)

    app.add_middleware(Guard, settings=settings)  # added last, so outermost: limits, Origin, security headers
    return app
