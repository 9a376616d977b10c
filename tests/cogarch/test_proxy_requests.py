"""The model proxy checks a request's token before it reads a byte of its body, bounds what it
reads, answers 400 to every malformed request (never a dropped connection) and keeps a backlog
that holds the libraries' bursts."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from cogarch.models.fakes import pairs_model
from cogarch.models.model import Model
from cogarch.models.proxy import MAX_BODY_BYTES, ProxySession, get_proxy

MESSAGES = [{"role": "user", "content": "hi"}]


def fake() -> Model:
    return Model(pairs_model(lambda pairs, seed, call: "ok"), provider="fk", model="fk", fake=True)


@pytest.fixture
async def session() -> Iterator[ProxySession]:
    bound = get_proxy().session()
    bound.bind(fake(), caller="memory:test")
    yield bound
    bound.unbind()


def raw_request(
    session: ProxySession, head: str, body: bytes = b"", end: bool = False
) -> tuple[int, bytes]:
    """Send ``head`` (the request line and headers) and ``body`` on a socket; the status and
    what came back, read within a few seconds (a server that waits for more fails the test)."""
    where = urlsplit(session.base_url)
    with socket.create_connection((where.hostname, where.port), timeout=5) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)  # the socket stays open for more
        if end:  # the client sends nothing more
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks) and _complete(b"".join(chunks)):
                break
    reply = b"".join(chunks)
    assert reply, "the connection was dropped without an answer"
    return int(reply.split(b" ", 2)[1]), reply


def _complete(reply: bytes) -> bool:
    head, _, rest = reply.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(rest) >= int(line.split(b":")[1])
    return False


def post(session: ProxySession, payload: bytes, token: str | None = None) -> int:
    where = urlsplit(session.base_url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=10)
    try:
        connection.request(
            "POST",
            "/v1/chat/completions",
            body=payload,
            headers={"Authorization": f"Bearer {token or session.token}"},
        )
        return connection.getresponse().status
    finally:
        connection.close()


def head(session: ProxySession, length: str, token: str | None = None) -> str:
    return (
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {token or session.token}\r\nContent-Length: {length}\r\n"
    )


@pytest.mark.parametrize("length", ["1000000000000", "5", "-5"])
async def test_an_unknown_token_is_refused_before_the_body_is_read(
    session: ProxySession, length: str
) -> None:
    refused = head(session, length, token="cogarch-not-a-session")
    assert (await asyncio.to_thread(raw_request, session, refused))[0] == 401


@pytest.mark.parametrize(
    ("length", "status"),
    [("-5", 400), ("x", 400), ("", 400), ("1e3", 400), (str(MAX_BODY_BYTES + 1), 413)],
)
async def test_a_bad_or_huge_length_is_refused_without_reading(
    session: ProxySession, length: str, status: int
) -> None:
    assert (await asyncio.to_thread(raw_request, session, head(session, length)))[0] == status


async def test_a_body_shorter_than_its_length_is_refused(session: ProxySession) -> None:
    short = head(session, "100")
    assert (await asyncio.to_thread(raw_request, session, short, b"{}", True))[0] == 400


MALFORMED = {
    "not JSON": b"{",
    "deep JSON": b"[" * 100_000 + b"]" * 100_000,
    "deep object in a field": json.dumps({"messages": MESSAGES, "x": []})
    .replace("[]", "[" * 200 + "]" * 200)
    .encode(),
    "a list body": b"[1]",
    "messages not a list": json.dumps({"messages": "hi"}).encode(),
    "no messages": json.dumps({"messages": []}).encode(),
    "a message of another role": json.dumps({"messages": [{"role": "tool"}]}).encode(),
    "max_tokens as a list": json.dumps({"messages": MESSAGES, "max_tokens": [1, 2]}).encode(),
    "max_tokens too large": json.dumps({"messages": MESSAGES, "max_tokens": 10**30}).encode(),
    "max_tokens negative": json.dumps({"messages": MESSAGES, "max_tokens": -1}).encode(),
    "temperature infinite": json.dumps({"messages": MESSAGES, "temperature": 1})
    .replace(": 1}", ": 1e999}")
    .encode(),
    "temperature as text": json.dumps({"messages": MESSAGES, "temperature": "hot"}).encode(),
    "temperature out of range": json.dumps({"messages": MESSAGES, "temperature": 70}).encode(),
    "a schema that is text": json.dumps(
        {
            "messages": MESSAGES,
            "response_format": {"type": "json_schema", "json_schema": {"schema": "x"}},
        }
    ).encode(),
    "a json_schema that is a list": json.dumps(
        {"messages": MESSAGES, "response_format": {"type": "json_schema", "json_schema": [1]}}
    ).encode(),
    "a response_format that is text": json.dumps(
        {"messages": MESSAGES, "response_format": "json"}
    ).encode(),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
async def test_every_malformed_request_is_answered_400(session: ProxySession, case: str) -> None:
    assert await asyncio.to_thread(post, session, MALFORMED[case]) == 400
    good = json.dumps({"messages": MESSAGES}).encode()
    assert await asyncio.to_thread(post, session, good) == 200


def test_the_backlog_holds_a_burst() -> None:
    assert get_proxy()._httpd.request_queue_size >= 128
