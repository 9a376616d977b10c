"""From the first import on, the library modules open no socket beyond 127.0.0.1: a fresh
interpreter refuses every other address before anything is imported, then builds each
library module, writes, searches and forks it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cogarch.memory.retrieval.libs.offline import LIBRARIES

REPO = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import asyncio, json, socket, sys
    attempts = []
    LOOPBACK = {"127.0.0.1", "localhost", "::1"}
    real_connect, real_getaddrinfo = socket.socket.connect, socket.getaddrinfo

    def connect(self, address):
        if isinstance(address, tuple) and str(address[0]) not in LOOPBACK:
            attempts.append(str(address[0]))
            raise OSError("refused")
        return real_connect(self, address)

    def getaddrinfo(host, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and str(name) not in LOOPBACK:
            attempts.append(str(name))
            raise socket.gaierror("refused")
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect, socket.getaddrinfo = connect, getaddrinfo

    from cogarch.core.memory import MemoryContext, TurnRecord
    from cogarch.memory.registry import build_memory
    from cogarch.memory.retrieval.libs.fakes import with_library_memory
    from cogarch.models.fakes import pairs_model
    from cogarch.models.model import Model

    model = Model(pairs_model(with_library_memory(lambda p, s, c: "ok")), provider="f",
                  model="f", fake=True)
    ctx = MemoryContext(model=lambda name: model, seed=1)

    async def main():
        stored = {}
        for kind in sys.argv[1:]:
            params = {"provider": "f"}
            if kind == "memoryos_lib":
                params["short_term_capacity"] = 1
            module = build_memory(kind, params)
            await module.ingest(TurnRecord(1, "I live in Paris.", "Nice."), ctx)
            branch = module.fork()
            await branch.ingest(TurnRecord(2, "I have a cat.", "Cute."), ctx)
            await module.retrieve("Where do I live?", ctx)
            stored[kind] = len(module.private_text())
        return stored

    stored = asyncio.run(main())
    print(json.dumps({"attempts": attempts, "stored": stored}))
    """
)


def test_no_socket_leaves_the_loopback_address(tmp_path: Path) -> None:
    kinds = [kind for kind, library in LIBRARIES.items() if library.version() is not None]
    if not kinds:
        pytest.skip("no memory library is installed (see docs/guides/library-baselines.md)")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    for name in ("MEM0_TELEMETRY", "MEM0_DIR", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        env.pop(name, None)  # the modules must set what they need themselves
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *kinds],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["attempts"] == []
    assert set(report["stored"]) == set(kinds) and all(report["stored"].values())
    assert not (tmp_path / ".mem0").exists()  # Mem0 writes under MEM0_DIR, not the home
