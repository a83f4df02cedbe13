"""Run the app with uvicorn (one process), with the connection limits of the settings.

uvicorn bounds idle keep-alive connections (``timeout_keep_alive``) and open connections
(``limit_concurrency``, 503 beyond), but not the time or the bytes a new connection may take to
send its request head: a client dripping one header byte a second would hold its connection
forever. :func:`guarded_protocol` adds both (``header_timeout``, ``max_header_bytes``) to uvicorn's
HTTP protocol, for the first request of a connection and for every later one on it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from cubilete.engine.errors import CubileteError
from cubilete.i18n import _
from cubilete.store.webdb import WebStore
from cubilete.web.app import create_app
from cubilete.web.protocol import MAX_FRAME
from cubilete.web.settings import Settings

try:  # uvicorn's fast parser when it is installed (it is a dependency; h11 is the fallback)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Fast
    BASE: type[Any] = _Fast
except ImportError:  # pragma: no cover
    BASE = H11Protocol

TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\ncontent-length: 27\r\n"
             b"connection: close\r\n\r\nrequest head is too large\r\n")


def guarded_protocol(base: type[Any], header_timeout: float, max_header_bytes: int) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` with a deadline and a size cap on every request head."""

    class Guarded(base):  # type: ignore[misc]
        _head_timer: asyncio.TimerHandle | None = None
        _head_cycle: object = None
        _head_bytes = 0

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._head_cycle = self.cycle  # the head is done once a new request cycle exists
            self._head_bytes = 0
            self._head_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._head_timer is None and (self.cycle is None or self.cycle.response_complete):
                self._arm()  # a new request starts on a kept-alive connection
            if self._head_timer is not None:
                self._head_bytes += len(data)
            super().data_received(data)
            if self._head_timer is None:
                return
            if (self.transport.is_closing() or self.transport.get_protocol() is not self  # closed, or a WebSocket
                    or (self.cycle is not None and self.cycle is not self._head_cycle)):  # the head is complete
                self._disarm()
            elif self._head_bytes > max_header_bytes:  # still no complete head, and already this large
                self._disarm()
                self.transport.write(TOO_LARGE)
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    Guarded.__name__ = f"Guarded{base.__name__}"
    return Guarded


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn configuration of ``cubilete serve`` (everything but the app, host and port)."""
    return {
        "http": guarded_protocol(BASE, settings.header_timeout, settings.max_header_bytes),
        "limit_concurrency": settings.limit_concurrency or None,
        "timeout_keep_alive": settings.timeout_keep_alive,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "ws_max_size": 16 * MAX_FRAME, "ws_ping_interval": 20, "ws_ping_timeout": 20,
        "ws_per_message_deflate": False,  # frames are small: compressing them costs more CPU than it saves
        "log_level": "warning",
        "access_log": False,  # nothing secret is in a URL any more, but a busy site needs no line per request
        "server_header": False,
    }


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Serve until interrupted; a database that cannot be opened is refused before listening. ``workers``
    above 1: that many processes on one port, one site on PostgreSQL (web/workers.py, web/site.py)."""
    store = WebStore(settings.db_url)  # fail early, with our message, on a bad URL or database
    try:
        if workers > 1 and (store.local or not settings.site):
            raise CubileteError(
                _("--workers {n} needs PostgreSQL (one writing process per SQLite file, and its tables live in "
                  "that process): use --db postgresql+psycopg://... or one worker").format(n=workers) if store.local
                else _("--workers {n} needs the processes to form a site: unset CUBILETE_SITE=false").format(n=workers))
        store.migrate()
    except BaseException:
        store.close()
        raise
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if workers > 1:
        _serve_workers(settings, store, host, port, workers)
        return
    print(f"cubilete web game on http://{host}:{port}  (database: {store.shown_url}; Ctrl+C stops)", flush=True)
    uvicorn.run(create_app(settings, store), host=host, port=port, **uvicorn_options(settings))


def _serve_workers(settings: Settings, store: WebStore, host: str, port: int, workers: int) -> None:
    """Fork ``workers`` servers on one listening socket; each opens the database itself."""
    from cubilete.web.workers import bind, supervise

    shown = store.shown_url
    store.close()  # no connection may cross the fork
    logging.getLogger("alembic").setLevel(logging.WARNING)  # each worker checks the schema again: quietly
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise CubileteError(f"cannot listen on {host}:{port}: {exc.strerror}") from None

    def run_child(shared: object) -> None:
        config = uvicorn.Config(create_app(settings), **uvicorn_options(settings))
        uvicorn.Server(config).run(sockets=[shared])  # type: ignore[list-item]

    print(f"cubilete web game on http://{host}:{port}  ({workers} workers; database: {shown}; Ctrl+C stops)",
          flush=True)
    code = supervise(workers, run_child, sock)
    if code:
        raise CubileteError("a worker stopped right after its start (its error is above)")
