"""A small HTTP/1.1 client on asyncio streams: POST a body, read the answer, keep the connection.

An endpoint run keeps dozens of chat completions in flight, and each request's own CPU time
on the run's one event loop bounds how many it can keep there. This client does only what a
JSON request to an OpenAI-compatible server needs: one POST on a kept-alive connection
(``http`` or ``https``), a body sized by ``Content-Length`` or sent in chunks, ``gzip`` or
``deflate`` encodings, and a deadline over the whole exchange. Anything else (proxies,
redirects, HTTP/2) is left to a full client: see :func:`proxied`.

A connection that fails or that the server closes is dropped, never reused; a failure is
raised as :class:`ConnectionLost` (the connection broke) or :class:`TimeoutError` (the
deadline passed), so the caller can tell both from an answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
import urllib.request
import zlib
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_IDLE = 256
"""Idle connections kept per pool; more are closed once answered."""


class ConnectionLost(ConnectionError):
    """The connection broke before a whole answer arrived (refused, reset, cut short)."""


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: its status, headers (names lower-cased) and decoded body."""

    status: int
    headers: dict[str, str]
    body: bytes


def proxied(url: str) -> bool:
    """Whether the environment sends requests for ``url`` through a proxy (``HTTP_PROXY``,
    ``HTTPS_PROXY``, ``ALL_PROXY`` unless ``NO_PROXY`` exempts the host)."""
    parts = urlsplit(url)
    proxies = urllib.request.getproxies()
    if not (proxies.get(parts.scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(parts.hostname or "")


def _tls_context() -> ssl.SSLContext:
    """The system's certificates, or certifi's bundle where it is installed (as the OpenAI
    SDK's client uses); ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` still apply."""
    if os.environ.get("SSL_CERT_FILE") or os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context()
    try:
        import certifi
    except ImportError:  # pragma: no cover - certifi comes with the SDK's dependencies
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


_Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class HttpPool:
    """Kept-alive connections to one origin (scheme, host, port), used one request at a time.

    Args:
        base_url: The endpoint's base URL (``http://host:port/v1``); requests name paths below
            it.
        headers: Headers sent with every request.
    """

    def __init__(self, base_url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"expected an http(s) URL, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.host = parts.hostname
        self.tls = parts.scheme == "https"
        self.port = parts.port or (443 if self.tls else 80)
        self.prefix = parts.path.rstrip("/")
        default_port = self.port == (443 if self.tls else 80)
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.authority = host if default_port else f"{host}:{self.port}"
        fixed = {"Host": self.authority, **headers}
        self._head = "".join(f"{k}: {v}\r\n" for k, v in fixed.items())
        self._idle: list[_Connection] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ssl: ssl.SSLContext | None = None

    def url(self, path: str) -> str:
        """The full URL of ``path`` (for messages)."""
        return f"{self.base_url}{path}"

    async def post(self, path: str, body: bytes, timeout: float) -> Answer:
        """POST ``body`` (JSON) to ``path`` below the base URL and return the answer.

        Raises:
            ConnectionLost: When the connection could not be opened or broke mid-answer.
            TimeoutError: When the whole exchange took longer than ``timeout`` seconds.
        """
        head = (
            f"POST {self.prefix}{path} HTTP/1.1\r\n{self._head}Content-Length: {len(body)}\r\n\r\n"
        ).encode("latin-1")
        connection: _Connection | None = None
        try:
            async with asyncio.timeout(timeout):
                connection = await self._connection()
                reader, writer = connection
                writer.write(head + body)
                answer, reusable = await _read_answer(reader)
        except TimeoutError:
            if connection is not None:
                connection[1].close()
            raise
        except (OSError, EOFError, asyncio.IncompleteReadError, ValueError, zlib.error) as exc:
            if connection is not None:
                connection[1].close()
            raise ConnectionLost(f"{type(exc).__name__}: {exc}") from exc
        except BaseException:  # cancelled: the connection is mid-exchange, never reused
            if connection is not None:
                connection[1].close()
            raise
        if reusable and len(self._idle) < MAX_IDLE:
            self._idle.append(connection)
        else:
            connection[1].close()
        return answer

    async def _connection(self) -> _Connection:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # connections belong to the loop that opened them
            self._drop_idle()
            self._loop = loop
        while self._idle:
            reader, writer = self._idle.pop()
            if not reader.at_eof() and not writer.is_closing():
                return reader, writer
            writer.close()
        if self.tls and self._ssl is None:
            self._ssl = _tls_context()
        return await asyncio.open_connection(
            self.host, self.port, ssl=self._ssl if self.tls else None, limit=2**20
        )

    def _drop_idle(self) -> None:
        for _, writer in self._idle:
            writer.close()
        self._idle.clear()

    async def aclose(self) -> None:
        """Close every idle connection (a later request opens new ones)."""
        idle, self._idle = self._idle, []
        for _, writer in idle:
            writer.close()
        for _, writer in idle:
            with contextlib.suppress(OSError, RuntimeError):  # gone, or its loop is closed
                await writer.wait_closed()


async def _read_answer(reader: asyncio.StreamReader) -> tuple[Answer, bool]:
    """The answer on ``reader`` and whether its connection may carry another request."""
    while True:
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionLost("the server closed the connection without answering")
        version, _, rest = status_line.decode("latin-1").partition(" ")
        status = int(rest[:3])
        headers = await _read_headers(reader)
        if not 100 <= status < 200:
            break  # informational answers (100 Continue) come before the real one
    if headers.get("transfer-encoding", "").lower().endswith("chunked"):
        body = await _read_chunks(reader)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif status in (204, 304):
        body = b""
    else:  # the body runs to the end of the connection
        body = await reader.read()
        headers["connection"] = "close"
    encoding = headers.get("content-encoding", "").lower()
    if encoding in ("gzip", "deflate"):
        body = zlib.decompress(body, wbits=47)  # gzip or zlib, told apart by its header
    connection = headers.get("connection", "").lower()
    reusable = connection != "close" and (version != "HTTP/1.0" or connection == "keep-alive")
    return Answer(status, headers, body), reusable


async def _read_headers(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n"):
            return headers
        if not line:
            raise ConnectionLost("the connection closed inside the answer's headers")
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def _read_chunks(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readline()).split(b";")[0].strip(), 16)
        if size == 0:
            await _read_headers(reader)  # trailers, then the blank line
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)  # the CRLF after each chunk
