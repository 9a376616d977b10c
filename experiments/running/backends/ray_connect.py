"""Reaching Ray: starting a local instance, or joining a cluster within a deadline.

Joining a cluster that does not answer blocks inside Ray's native client, where neither Ctrl-C
nor SIGTERM reaches it, for minutes. So nothing listening at the address fails at once
(:func:`probe`), and the join itself runs in a thread of its own (:class:`Joining`) that the
run awaits without blocking its event loop: Ctrl-C cancels the wait, SIGTERM ends the process,
and a cluster that has not answered after ``connect_timeout_s`` seconds is one error line.
A local instance is started in the calling thread (Ray ties its processes' lives to the thread
that starts them); a failure to start is one error line too.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import threading
import time
import uuid
from types import ModuleType
from typing import Any

from cogarch.errors import ConfigError

_COLOUR = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_HOST_PORT = re.compile(r"^(?:ray://)?(?P<host>[^\s/:]+)(?::(?P<port>\d+))?$")
CLIENT_PORT = 10001
"""The Ray Client port a ``ray://host`` address without a port means."""


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``exc`` as ``Type: message`` on one line, without terminal colour codes."""
    text = " ".join(_COLOUR.sub("", str(exc)).split())
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def ray_options() -> dict[str, Any]:
    """What every ``ray.init`` of a run passes: its own namespace, Ray's logs kept quiet."""
    return {
        "namespace": f"cogarch-{uuid.uuid4().hex[:12]}",
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }


def start_local(ray: ModuleType) -> None:
    """Start a local Ray instance sized for this machine."""
    options = {**ray_options(), "num_cpus": os.cpu_count() or 1, "include_dashboard": False}
    try:
        ray.init(address=None, **options)
    except Exception as exc:  # Ray fails to start in many ways; say which, in one line
        raise ConfigError(
            f"could not start a local Ray instance ({one_line(exc)}); check that the "
            "temporary folder ($RAY_TMPDIR, else /tmp) is writable and has room, or join a "
            "running cluster with --address"
        ) from None


def probe(address: str, timeout_s: float = 5.0) -> None:
    """Fail at once when nothing listens at ``address`` (``auto`` is left to Ray)."""
    found = _HOST_PORT.match(address)
    if found is None or address == "auto":
        return
    host, port = found["host"], int(found["port"] or CLIENT_PORT)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        raise ConfigError(
            f"nothing answers at {host}:{port} ({exc.strerror or exc}); check --address "
            "(execution.address), or start the cluster there with 'ray start --head'"
        ) from None


class Joining:
    """``ray.init`` on the cluster at ``address``, begun at once in a thread of its own."""

    POLL_S = 0.05

    def __init__(self, ray: ModuleType, address: str, timeout_s: float) -> None:
        self.address = address
        self.timeout_s = timeout_s
        self.deadline = time.monotonic() + timeout_s
        self.failure: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._connect, args=(ray,), name="cogarch-ray-connect", daemon=True
        )
        self._thread.start()

    def _connect(self, ray: ModuleType) -> None:
        try:
            ray.init(address=self.address, **ray_options())
        except BaseException as exc:  # handed to whoever awaits the join
            self.failure = exc
        finally:
            self._done.set()

    @property
    def joined(self) -> bool:
        """Whether the join has ended and succeeded."""
        return self._done.is_set() and self.failure is None

    async def ready(self) -> None:
        """Wait for the join (cancellable); a :class:`ConfigError` if it failed or is late."""
        while not self._done.is_set():
            if time.monotonic() > self.deadline:
                raise ConfigError(
                    f"could not join the Ray cluster at {self.address} within "
                    f"{self.timeout_s:g} s; check --address (execution.address) and that the "
                    "cluster is up, or raise execution.connect_timeout_s"
                )
            await asyncio.sleep(self.POLL_S)
        if self.failure is not None:
            raise ConfigError(
                f"could not join the Ray cluster at {self.address} "
                f"({one_line(self.failure)}); check --address (execution.address); auto "
                "needs a running 'ray start --head' on this machine"
            )
