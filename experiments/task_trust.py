"""Which task code a reader of results may load.

A trial file names its task: a registered short name, an import path or a Python file. Reading
the record into the task's own classes, or showing the task's own tables and page sections,
imports that code, and importing runs it. A results folder can come from anywhere, so readers
(``cogarch report``, ``cogarch view``, resume) load task code that is not a registered task only
when this user has run that task here: ``cogarch run`` adds what it loads to a list in the user
cache directory (``$COGARCH_CACHE_DIR``, else ``~/.cache/cogarch``), and readers load nothing
else. A task not on the list leaves its records as generic data, which every report and page
still shows.
"""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.files import FileRefusedError, read_json
from cogarch.io import atomic_write_json
from cogarch.models.weights import model_cache_dir

from ..tasks.registry import TASKS

TRUST_FILE = "trusted_tasks.json"


def trust_file() -> Path:
    return model_cache_dir() / TRUST_FILE


def _trusted() -> list[str]:
    try:
        data = read_json(trust_file())
    except (FileRefusedError, OSError, ValueError):
        return []
    found = data.get("tasks") if isinstance(data, dict) else None
    return [s for s in found if isinstance(s, str)] if isinstance(found, list) else []


def needs_trust(source: str) -> bool:
    """Whether loading ``source`` runs code that is not a registered task."""
    return source not in TASKS


def trust(source: str) -> None:
    """Let readers load ``source`` (a run is about to load it). A list that cannot be written
    only costs readers the task's own tables: the run goes on."""
    if not needs_trust(source):
        return
    known = _trusted()
    if source in known:
        return
    try:
        atomic_write_json(trust_file(), {"tasks": sorted({*known, source})})
    except (OSError, TypeError, ValueError, json.JSONDecodeError):
        return


def trusted(source: str) -> bool:
    """Whether readers may load ``source``: a registered task, or code this user ran here."""
    return not needs_trust(source) or source in _trusted()


__all__ = ["TRUST_FILE", "needs_trust", "trust", "trust_file", "trusted"]
