"""Whom the local servers answer: their own host names only, and changes only to their own page.

A page on any other site can make the user's browser send requests to 127.0.0.1. :class:`Guard`
wraps the viewer and the play server so that such a request neither reads nor changes
anything:

- the ``Host`` must be one of the server's own names (``127.0.0.1``, ``localhost``, ``[::1]``)
  with the port it listens on, so a page whose foreign name was rebound to 127.0.0.1 (DNS
  rebinding) gets 421 and never a page;
- a read that another site's page makes (``Sec-Fetch-Site`` other than ``same-origin`` or
  ``none``) is refused unless it is a top-level navigation (the user following a link), so no
  other page can embed, fetch or trigger anything here;
- a request that changes state (any method but GET and HEAD) must come from the server's own
  page: an ``Origin``, when sent, that is the server's own; a ``Sec-Fetch-Site``, when sent,
  of ``same-origin``; the server's token in ``X-Cogarch-Token`` (the token is in the server's
  own page, which no other origin can read, and no other origin may send that header without
  a CORS preflight, which the server never grants); and a body of ``application/json`` (the
  only kind a plain form or a no-cors fetch cannot send) of at most :data:`MAX_BODY_BYTES`;
- every response forbids framing, cross-origin embedding and content sniffing.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

OWN_NAMES = ("127.0.0.1", "localhost", "[::1]")
TOKEN_HEADER = "x-cogarch-token"
MAX_BODY_BYTES = 64 * 1024
"""The largest request body read (a played message is a few hundred bytes)."""
SAFE_METHODS = frozenset({"GET", "HEAD"})
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


def new_token() -> str:
    """A fresh per-server token (256 random bits)."""
    return secrets.token_urlsafe(32)


def own_hosts(port: int) -> frozenset[str]:
    """The ``Host`` values a server on ``port`` answers to."""
    hosts = {f"{name}:{port}" for name in OWN_NAMES}
    return frozenset(hosts | set(OWN_NAMES) if port == 80 else hosts)


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class Guard:
    """ASGI middleware enforcing the rules of the module docstring around ``app``."""

    def __init__(self, app: App, token: str, *, max_body: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.token = token
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            host = self._own_host(scope)
            if scope["method"] in SAFE_METHODS:
                self._check_read(Headers(scope=scope))
            else:
                self._check_change(Headers(scope=scope), host)
                receive = await self._bounded_body(scope, receive)
        except Refused as refused:
            response = PlainTextResponse(f"refused: {refused}", status_code=refused.status)
            await response(scope, receive, _with_headers(send))
            return
        await self.app(scope, receive, _with_headers(send))

    def _own_host(self, scope: Scope) -> str:
        server = scope.get("server")
        port = server[1] if server and server[1] is not None else 80
        host = (Headers(scope=scope).get("host") or "").strip().lower()
        if host not in own_hosts(port):
            raise Refused(
                421,
                f"this server answers only to 127.0.0.1:{port} or localhost:{port}, not "
                f"{host or 'a request without a Host'}; open it by that address",
            )
        return host

    def _check_read(self, headers: Headers) -> None:
        site = (headers.get("sec-fetch-site") or "none").lower()
        if site in ("same-origin", "none"):
            return
        mode = (headers.get("sec-fetch-mode") or "").lower()
        dest = (headers.get("sec-fetch-dest") or "").lower()
        if mode != "navigate" or dest not in ("document", ""):
            raise Refused(403, f"a page of another site may not {dest or 'fetch'} this")

    def _check_change(self, headers: Headers, host: str) -> None:
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host}":
            raise Refused(403, f"a page of {origin} may not change anything here")
        site = headers.get("sec-fetch-site")
        if site is not None and site.lower() != "same-origin":
            raise Refused(403, f"a {site} request may not change anything here")
        if not hmac.compare_digest(headers.get(TOKEN_HEADER, "").encode(), self.token.encode()):
            raise Refused(403, "the request lacks this server's token; use the server's own page")
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, f"the body must be application/json, not {kind or 'untyped'}")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            raise Refused(413, f"the body is larger than {self.max_body:,} bytes")

    async def _bounded_body(self, scope: Scope, receive: Receive) -> Receive:
        """Read the whole body (at most ``max_body`` bytes) and hand it on as one message."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return _replay([message], receive)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise Refused(413, f"the body is larger than {self.max_body:,} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        return _replay([whole], receive)


def _replay(messages: list[Message], then: Receive) -> Receive:
    """``messages`` first, then whatever ``then`` receives (a disconnect)."""
    pending = list(messages)

    async def receive() -> Message:
        return pending.pop(0) if pending else await then()

    return receive


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
            message["headers"] = [*message.get("headers", []), *extra]
        await send(message)

    return sending
