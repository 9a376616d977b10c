"""Ingested memories kept by the haystack's digest and the memory's spec, so that a rerun, or
another agent with the same memory, loads the ingested agent instead of ingesting again.

The memory's spec is read from the agent itself, through the state it saves when freshly
built (its memory modules, their kinds and the parameters they keep), with the agent's
provider and model: two agents whose fresh states and models are the same ingest the same
way. Entries are JSON files under the run's results (``.trial_state/longmemeval_memory``),
written atomically and read back as untrusted input (a link is not followed, a file that is
not a whole JSON object is set aside, and a state the agent refuses is dropped and the
haystack ingested again); the latest few stay in memory too. An entry holds the whole agent
(its public history and its memory): about 2-4 MB for an S haystack in raw-turn memory.
Trials that need the same entry wait for the first to ingest it (one lock per key).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

from cogarch.files import MAX_STATE_BYTES, FileRefusedError, read_bytes, real_folder, set_aside
from cogarch.io import atomic_write_json, loads_json

RECENT = 4
"""Entries kept in memory as well."""


def _spec(fresh_state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fresh_state.items() if k != "agent"}


class MemoryCache:
    """Saved agent states by key (see the module docstring); ``folder=None`` keeps them in
    memory only."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._locks: dict[str, asyncio.Lock] = {}
        self._recent: OrderedDict[str, dict[str, Any]] = OrderedDict()

    @staticmethod
    def key(digest: str, fresh_state: dict[str, Any], model: str | None) -> str:
        blob = json.dumps([digest, _spec(fresh_state), model], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def lock(self, key: str) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    def _path(self, key: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        if key in self._recent:
            self._recent.move_to_end(key)
            return self._recent[key]
        path = self._path(key)
        if path is None or not path.is_file() or path.is_symlink():
            return None
        try:
            data = loads_json(read_bytes(path, within=self.folder, max_bytes=MAX_STATE_BYTES))
        except (FileRefusedError, ValueError):
            with contextlib.suppress(OSError):
                set_aside(path, ".unusable")
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, state: dict[str, Any]) -> None:
        self._recent[key] = state
        self._recent.move_to_end(key)
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        path = self._path(key)
        if path is not None and self.folder is not None:
            real_folder(
                self.folder
            )  # a link planted in its place is set aside, not written through
            atomic_write_json(path, state, indent=None)

    def forget(self, key: str) -> None:
        """Drop an entry that could not be loaded."""
        self._recent.pop(key, None)
        path = self._path(key)
        if path is not None and path.is_file():
            with contextlib.suppress(OSError):
                set_aside(path, ".unusable")
