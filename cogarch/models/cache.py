"""On-disk response cache keyed by model, settings, messages and a per-sample seed."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from cogarch.io import atomic_write_json, loads_json


def cache_key(payload: dict[str, Any]) -> str:
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """One JSON file per key under ``root/ab/abcdef....json``; safe across processes.

    A file that cannot be read back (truncated by a crash of an older version, or hostile, such
    as nested too deeply) is treated as a miss and overwritten, never trusted. Temp files of
    writes cut short by a kill are removed by the next run (it holds the results directory).
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            data = loads_json(path.read_bytes())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        atomic_write_json(self._path(key), value, indent=None)
