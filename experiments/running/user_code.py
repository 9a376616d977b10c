"""Which code of the user's own a run config makes a command import.

A run config may name Python code that is not cogarch's: a task, a provider kind, an agent
factory or a metric by import path or file (``my_task.py:MyTask``), and its agent specs may
name memory modules and specialists so. Importing that code runs it. ``cogarch run`` and its dry run
import all of it (the dry run to check it: a class's ``Params``, a factory's signature);
:func:`user_code` lists it, so the plan says what it ran, and ``cogarch models --no-check``
lists providers without importing any.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cogarch.memory.registry import MEMORY_MODULES
from cogarch.metrics.registry import METRICS
from cogarch.models.providers import PROVIDER_KINDS
from cogarch.registry import Registry, is_file_path
from cogarch.tasks.registry import TASKS
from cogarch.workspace.registry import SPECIALISTS
from cogarch.workspace.spec import AgentSpec

from .run_config import RunConfig


def is_own(registry: Registry[Any], kind: str) -> bool:
    """Whether ``kind`` names code outside ``registry``'s own entries (an import path or a
    Python file's path), which importing runs."""
    return kind not in registry


def user_code(
    config: RunConfig, specs: Mapping[str, Any], digests: Mapping[str, str] | None = None
) -> list[str]:
    """One line per piece of the user's own code the config names (``specs``: the agents'
    resolved specs by name; ``digests``: the SHA-256 of files, by reference)."""
    found: dict[str, str] = {}

    def add(what: str, ref: str) -> None:
        digest = (digests or {}).get(ref)
        shown = _resolved(ref)
        found.setdefault(
            f"{what} {shown}", f"{what} {shown}" + (f" (sha256 {digest[:12]})" if digest else "")
        )

    if is_own(TASKS, config.task.kind):
        add("task", config.task.kind)
    for name in config.metrics:
        if is_own(METRICS, name):
            add("metric", name)
    for name, entry in sorted(config.providers.items()):
        if is_own(PROVIDER_KINDS, entry.kind):
            add(f"provider '{name}' kind", entry.kind)
    for label, spec in specs.items():
        factory = getattr(spec, "factory", None)
        if isinstance(factory, str):
            add(f"agent '{label}' factory", factory)
        if isinstance(spec, AgentSpec):
            for node, part in sorted(spec.memory.items()):
                if is_own(MEMORY_MODULES, part.kind):
                    add(f"agent '{label}' memory '{node}'", part.kind)
            for node, part in sorted(spec.specialists.items()):
                if is_own(SPECIALISTS, part.kind):
                    add(f"agent '{label}' specialist '{node}'", part.kind)
    return list(found.values())


def _resolved(ref: str) -> str:
    """A file reference (``file.py:name``) with the file's absolute path; others as given."""
    if not is_file_path(ref):
        return ref
    file, _, name = ref.rpartition(":")
    return f"{Path(file).expanduser().resolve()}:{name}"
