"""Serving an app on 127.0.0.1: on the port asked for, or on a free one."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cogarch.errors import ConfigError


def bind(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on 127.0.0.1:{port} ({exc}); pick another --port"
        ) from None
    sock.listen(64)
    return sock


def _server(app: Any) -> Any:
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))


def serve(app: Any, port: int = 0, *, what: str = "viewer") -> None:
    """Serve ``app`` until interrupted, printing its address first."""
    sock = bind(port)
    print(f"{what} at http://127.0.0.1:{sock.getsockname()[1]}/ (Ctrl-C to stop)", flush=True)
    _server(app).run(sockets=[sock])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free port in a background thread; yields its base URL."""
    sock = bind(0)
    server = _server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started and thread.is_alive():
            threading.Event().wait(0.02)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
