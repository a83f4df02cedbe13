"""``create_app(settings)``: the web game's one factory, used by ``cubilete serve`` and the tests."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cubilete.store.webdb import WebStore
from cubilete.web import ws
from cubilete.web.api import ApiError, router
from cubilete.web.hub import Hub
from cubilete.web.settings import Settings

STATIC = Path(__file__).parent / "static"
PAGES = ("/", "/t/{table_id}", "/games", "/leaderboard", "/p/{pid}", "/replay/{table_id}")
log = logging.getLogger("cubilete.web")


def create_app(settings: Settings) -> FastAPI:
    """The app: migrates the database and resumes unfinished tables at start."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = WebStore(settings.db_url)
        store.migrate()
        hub = Hub(store, settings)
        app.state.hub = hub
        resumed = await hub.resume()
        if resumed:
            log.info("resumed %d unfinished table(s)", resumed)
        try:
            yield
        finally:
            await hub.close()
            store.close()

    app = FastAPI(title="cubilete", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.include_router(router)
    app.add_api_websocket_route("/ws/{table_id}", ws.table_socket)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    return app
