"""Skipping a ready-made agent whose memory needs a library that is not installed."""

from __future__ import annotations

import pytest

from cogarch.memory.retrieval.libs.offline import missing
from cogarch.workspace import load_agent_spec


def skip_without_its_libraries(name: str) -> None:
    """Skip the test (saying which install brings the library) when agent ``name`` has a
    memory module over a library that is absent."""
    for component in load_agent_spec(name).memory.values():
        reason = missing(component.kind)
        if reason is not None:
            pytest.skip(f"agent '{name}' needs its memory library: {reason}")
