"""Tests of the cogarch package itself: the model layer, config, registry, I/O and tokens.

Helpers shared by the tests that drive the REAL ``OpenAIChatCompletionClient`` against the
local :class:`~cogarch.testing.FaultServer` live here (fixtures stay in the test modules).
"""

from __future__ import annotations

import socket
from collections.abc import Iterable
from types import TracebackType
from typing import Any, Self

from cogarch.errors import CogarchError
from cogarch.models import Model, ProviderConfig, ResponseCache, RetryPolicy
from cogarch.models.providers import build_model
from cogarch.testing import FaultServer, Step

FAST_RETRY = RetryPolicy(max_attempts=4, base_delay_s=0.01, max_delay_s=0.05)
"""Four attempts with millisecond backoff, so retry tests take a fraction of a second."""

TIMEOUT_S = 2.0
"""Client timeout for fault-server tests; ``delay:3`` is past it. Two seconds, so that an
ordinary answer arrives in time on a loaded machine too."""


def openai_config(base_url: str, **changes: Any) -> ProviderConfig:
    """An ``openai`` provider for ``test-model`` at ``base_url`` with fast retries."""
    fields: dict[str, Any] = {
        "kind": "openai",
        "model": "test-model",
        "base_url": base_url,
        "retry": FAST_RETRY,
        "timeout": TIMEOUT_S,
    }
    fields.update(changes)
    return ProviderConfig(**fields)


def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (the port was just released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class LiveModels:
    """Starts fault servers and builds real-client models; ``aclose`` shuts all of them.

    The OpenAI clients hold HTTP connection pools, which must be closed inside the test's
    event loop (an unclosed transport warns, and warnings are errors in this suite).
    """

    def __init__(self) -> None:
        self.servers: list[FaultServer] = []
        self.models: list[Model] = []

    def serve(self, script: Iterable[str | Step] = (), **options: Any) -> FaultServer:
        server = FaultServer(script, **options).start()
        self.servers.append(server)
        return server

    def model(
        self,
        target: FaultServer | str,
        *,
        name: str = "faulty",
        cache: ResponseCache | None = None,
        **changes: Any,
    ) -> Model:
        url = target.base_url if isinstance(target, FaultServer) else target
        model = build_model(name, openai_config(url, **changes), cache)
        self.models.append(model)
        return model

    async def aclose(self) -> None:
        for model in self.models:
            try:
                client = await model.client()
            except CogarchError:
                continue  # the client was never built (for example a missing API key)
            await client.close()
        for server in self.servers:
            server.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
