"""Fixtures of the real-library memory modules: a scripted OpenAI-compatible server started by
the test, a provider that reaches it through cogarch's model layer, and a guard that fails the
test if any socket goes beyond 127.0.0.1."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from cogarch.core.memory import MemoryContext
from cogarch.memory.retrieval.libs.fakes import library_memory_reply
from cogarch.models.model import Model
from cogarch.models.providers import ProviderConfig, Providers
from cogarch.testing.fault_server import allowing_model_requests
from cogarch.testing.scripted_server import ScriptedServer

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def answer(body: dict[str, Any]) -> str:
    """The scripted server's answer: what the libraries parse, from the prompt's own text."""
    pairs = [
        (str(m.get("role")), str(m.get("content") or ""))
        for m in body.get("messages", [])
        if isinstance(m, dict)
    ]
    return library_memory_reply(pairs)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Refuse (and record) every connection or name lookup beyond the loopback address."""
    attempts: list[str] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def host_of(address: Any) -> str | None:
        if isinstance(address, tuple) and address:
            return str(address[0])
        return None  # a unix socket

    def check(address: Any) -> None:
        host = host_of(address)
        if host is not None and host not in LOOPBACK:
            attempts.append(host)
            raise OSError(f"network access to {host} refused by the test")

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and str(name) not in LOOPBACK:
            attempts.append(str(name))
            raise socket.gaierror(f"name lookup of {name} refused by the test")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    assert attempts == [], f"sockets tried to leave 127.0.0.1: {attempts}"


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer(answer) as running, allowing_model_requests():
        yield running


@pytest.fixture
def model(server: ScriptedServer) -> Model:
    config = ProviderConfig(kind="openai", model="scripted", base_url=server.base_url)
    return Providers({"scripted": config}).get("scripted")


@pytest.fixture
def ctx(model: Model) -> MemoryContext:
    return MemoryContext(model=lambda _name: model, seed=7)
