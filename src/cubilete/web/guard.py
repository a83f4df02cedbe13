"""The server's front door: client addresses, request limits, Origin checks, security headers and
per-address rate limits (docs/WEB.md, "Limits").

:class:`Guard` is a pure ASGI middleware (it sees the body as it streams in, so a large body is
refused after at most ``max_body`` bytes were read, never buffered whole). :class:`Gate` holds the
counters the endpoints consult: table creations and WebSocket connections per address.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from cubilete.web.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The pages load scripts, styles and images from the server only; no inline script, no framing.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]

# pages and scripts are revalidated on each load, so an upgrade never mixes old and new code
REVALIDATE = [(b"cache-control", b"no-cache")]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _trusted(address: str, proxies: tuple[str, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for proxy in proxies:
        try:
            if ip in ipaddress.ip_network(proxy, strict=False):
                return True
        except ValueError:
            continue
    return False


def network_key(addr: str, v4_prefix: int = 32, v6_prefix: int = 64) -> str:
    """The network a client address belongs to, the key of every per-address limit: an IPv4 address
    by its first ``v4_prefix`` bits, an IPv6 one by its first ``v6_prefix`` (one household or server gets
    a whole /64, so counting full IPv6 addresses would let it make 2^64 clients). IPv4-mapped IPv6
    (``::ffff:1.2.3.4``) counts as IPv4; anything that is not an address is its own key."""
    try:
        ip = ipaddress.ip_address(addr.strip("[]").split("%", 1)[0])
    except ValueError:
        return addr
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = v4_prefix if ip.version == 4 else v6_prefix
    return str(ipaddress.ip_network((ip, max(0, min(prefix, ip.max_prefixlen))), strict=False))


def client_address(scope: Scope, settings: Settings) -> str:
    """Who is asking: the TCP peer, or, when the peer is a trusted proxy, the last address of
    ``X-Forwarded-For`` that is not itself a trusted proxy (addresses further left are the
    client's own claims and could be anything)."""
    client = scope.get("client")
    peer = str(client[0]) if client else "unknown"
    if not settings.trusted_proxies or not _trusted(peer, settings.trusted_proxies):
        return peer
    forwarded = _header(scope, b"x-forwarded-for")
    if not forwarded:
        return peer
    hops = [h.strip() for h in forwarded.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, settings.trusted_proxies):
            return hop
    return hops[0] if hops else peer


def origin_allowed(scope: Scope, settings: Settings) -> bool:
    """True without an Origin header (not a browser), for the server's own origin (same host and
    port as the Host header) and for the configured allow-list; ``null`` and other sites are refused."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    if origin.rstrip("/") in settings.allowed_origins:
        return True
    host = _header(scope, b"host")
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc.lower() == (host or "").lower()


def host_allowed(scope: Scope, settings: Settings) -> bool:
    """True when ``allowed_hosts`` is empty (any Host), else when the Host header, with or without its port,
    is one of them (a public site answers only for its own names: no cache or link poisoned by another)."""
    if not settings.allowed_hosts:
        return True
    host = (_header(scope, b"host") or "").strip().lower()
    bare = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    allowed = {h.lower() for h in settings.allowed_hosts}
    return bool(host) and (host in allowed or bare in allowed)


def relative_location(location: bytes) -> bytes:
    """A redirect's target as a path on this server: never the Host header the client sent (starlette builds
    absolute ones from it), never ``//elsewhere`` (a path that a browser reads as another site)."""
    parts = urlsplit(location.decode("latin-1"))
    path = "/" + (parts.path or "/").lstrip("/")
    return (path + (f"?{parts.query}" if parts.query else "")).encode("latin-1")


class BodyTooLarge(Exception):
    """The body went past the limit while streaming in."""


async def _answer(send: Send, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close"), *SECURITY_HEADERS, *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """Limits every request before the app sees it (pure ASGI, wraps the whole app)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not host_allowed(scope, self.settings):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": "unknown host"})
            else:
                await _answer(send, 400, "this server does not answer for that host name (Host header)")
            return
        if scope["type"] == "websocket":
            if not origin_allowed(scope, self.settings):
                await send({"type": "websocket.close", "code": 1008, "reason": "origin not allowed"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        head = sum(len(k) + len(v) + 4 for k, v in scope.get("headers", ())) + len(scope.get("raw_path") or b"")
        if head > self.settings.max_header_bytes:  # a head that came whole (slow or endless ones: server.py)
            await _answer(send, 431, f"the request head may hold at most {self.settings.max_header_bytes} bytes")
            return
        limit = self.settings.max_body
        method = scope["method"]
        if method not in SAFE_METHODS:
            if not origin_allowed(scope, self.settings):
                await _answer(send, 403, "requests from other sites are not allowed (Origin)")
                return
            kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            has_body = _header(scope, b"transfer-encoding") is not None or _header(scope, b"content-length") not in (
                None, "0")
            if scope["path"].startswith("/api/") and has_body and kind != "application/json":
                await _answer(send, 415, "the body must be JSON, sent as Content-Type: application/json")
                return
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdecimal():
                await _answer(send, 400, "Content-Length is not a number")
                return
            if int(length) > limit:
                await _answer(send, 413, f"the body may hold at most {limit} bytes")
                return
        received = 0
        started = False
        static = scope["path"].startswith("/static/")

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def secured_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                ours = {name for name, _ in SECURITY_HEADERS}
                if static:
                    ours.add(b"cache-control")
                headers = [(k, relative_location(v) if k.lower() == b"location" else v)
                           for k, v in message.get("headers", []) if k.lower() not in ours]
                message = {**message, "headers": headers + SECURITY_HEADERS + (REVALIDATE if static else [])}
            await send(message)

        try:
            await self.app(scope, counted_receive, secured_send)
        except Exception as exc:
            if not _too_large(exc):
                raise
            if not started:
                await _answer(send, 413, f"the body may hold at most {limit} bytes")


def _too_large(exc: BaseException) -> bool:
    """True for :class:`BodyTooLarge`, also inside a task group's exception group."""
    if isinstance(exc, BaseExceptionGroup):
        return any(_too_large(inner) for inner in exc.exceptions)
    return isinstance(exc, BodyTooLarge)


class Gate:
    """Per-network counters (see :func:`network_key`): table creations, profile checks, WebSocket
    connections opened and open at once. Every method takes the client's address."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._tables: list[RateLimitItem] = parse_many(settings.tables_per_address)
        self._connects: list[RateLimitItem] = parse_many(settings.connects_per_address)
        self._checks: list[RateLimitItem] = parse_many(settings.profile_checks_per_address)
        self.sockets: Counter[str] = Counter()  # by network

    def network(self, address: str) -> str:
        """The key ``address`` is counted under."""
        return network_key(address, self.settings.v4_prefix, self.settings.v6_prefix)

    def _hit(self, items: list[RateLimitItem], kind: str, address: str) -> float | None:
        """None if allowed (and counted), else seconds until the next one would be."""
        address = self.network(address)
        for item in items:
            if not self._limiter.test(item, kind, address):
                reset = self._limiter.get_window_stats(item, kind, address).reset_time
                return max(1.0, reset - time.time())
        for item in items:
            self._limiter.hit(item, kind, address)
        return None

    def table_created(self, address: str) -> float | None:
        """Count a table creation by ``address``; seconds to wait if it is one too many."""
        return self._hit(self._tables, "table", address)

    def profile_checked(self, address: str) -> float | None:
        """Count a profile check by ``address``; seconds to wait if it is one too many."""
        return self._hit(self._checks, "check", address)

    def socket_opened(self, address: str) -> str | None:
        """Count a new WebSocket of ``address``; the reason to refuse it, if any (then nothing is counted)."""
        if self.sockets[self.network(address)] >= self.settings.sockets_per_address:
            return f"at most {self.settings.sockets_per_address} connections at once from one address"
        if self._hit(self._connects, "connect", address) is not None:
            return "too many connections opened from this address: wait a little"
        self.sockets[self.network(address)] += 1
        return None

    def socket_closed(self, address: str) -> None:
        """A WebSocket counted by :meth:`socket_opened` is gone."""
        address = self.network(address)
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]
