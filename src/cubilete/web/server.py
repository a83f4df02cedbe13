"""Run the app with uvicorn (one process)."""

from __future__ import annotations

import logging

import uvicorn

from cubilete.store.webdb import WebStore
from cubilete.web.app import create_app
from cubilete.web.protocol import MAX_FRAME
from cubilete.web.settings import Settings


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve until interrupted; a database that cannot be opened is refused before listening."""
    store = WebStore(settings.db_url)  # fail early, with our message, on a bad URL or database
    try:
        store.migrate()
    except BaseException:
        store.close()
        raise
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    print(f"cubilete web game on http://{host}:{port}  (database: {store.shown_url}; Ctrl+C stops)", flush=True)
    uvicorn.run(
        create_app(settings, store), host=host, port=port, log_level="warning",
        ws_max_size=16 * MAX_FRAME, ws_ping_interval=20, ws_ping_timeout=20,
        ws_per_message_deflate=False,  # frames are small: compressing them costs more CPU than it saves
    )

