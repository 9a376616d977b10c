"""What a trial ran, whatever directory the command was started in.

A run config may name Python files (a task ``kind: my_task.py:MyTask``, a provider kind, an
agent factory); the config records them by path, which says where the command found them,
not what ran. A run's identity (its digest, which names its trial state) and the check that a
trial file belongs to the run compare those references by what they hold: the SHA-256 of the
file's bytes and the name in it (``sha256:<hex>:MyTask``). So the same config resumes its
trials from any directory, a copied project resumes too, and an edited file plays its trials
again.

Every trial file and ``run.json`` records the digests under ``metadata.code_sha256`` (the
reference as recorded -> the SHA-256), those of the files an agent spec names (a memory module
or specialist ``kind: notes.py:NotesMemory``) among them, so an edited module replays the
trials of the agents that use it. Files written before it was recorded are compared by
the file's name and the name in it (``my_task.py:MyTask``), since the path they recorded was
relative to a directory nobody wrote down.

A trial drawn from a data file (a LongMemEval question) records the item under
``metadata.data_item``: its name and the SHA-256 of its content (``Task.data_item``). A
resume compares it with the item the trial draws now: a changed item (its question, gold
answer or haystack edited, or another question now at that trial) is played again, saying
which and why. A file written before items were recorded is judged by the item's name its
payload records (``question_id``, ``sample_id``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from cogarch.files import FileRefusedError, read_bytes
from cogarch.registry import MAX_CODE_BYTES, is_file_path


class RunConfig(Protocol):
    """What this module reads of a run config (``run_config.RunConfig``, which imports this
    module to name its runs)."""

    @property
    def task(self) -> Any: ...

    @property
    def providers(self) -> Mapping[str, Any]: ...

    @property
    def agents(self) -> Sequence[Any]: ...

    def model_dump(self, *, mode: str, exclude: set[str]) -> dict[str, Any]: ...


CODE_KEY = "code_sha256"
"""The metadata key of the digests of the Python files a config names."""
ITEM_KEY = "data_item"
"""The metadata key of the data item a trial was drawn from (``{"name", "sha256"}``)."""


class DataTask(Protocol):
    def data_item(self, trial: int) -> tuple[str, str] | None: ...


def item_metadata(task: DataTask, trial: int) -> dict[str, Any]:
    """What a trial file records of the data item trial ``trial`` is drawn from (nothing
    for a task that draws from no data)."""
    item = task.data_item(trial)
    return {} if item is None else {ITEM_KEY: {"name": item[0], "sha256": item[1]}}


def item_change(record: Any, task: DataTask, trial: int) -> str | None:
    """Why a trial file's ``record`` no longer belongs to trial ``trial`` of ``task``'s data,
    or None when its item is the same (or the task draws from no data). A file written
    before items were recorded is judged by the item's name in its payload (a field ending
    in ``_id``, such as ``question_id``), and kept when it holds none."""
    item = task.data_item(trial)
    if item is None:
        return None
    found = record.metadata.model_dump().get(ITEM_KEY)
    if not isinstance(found, Mapping):
        payload = record.payload.model_dump(mode="json")
        names = [v for k, v in payload.items() if k.endswith("_id") and isinstance(v, str)]
        if not names or item[0] in names:
            return None
        found = {"name": names[0], "sha256": None}
    name, digest = found.get("name"), found.get("sha256")
    if name != item[0]:
        return (
            f"was drawn from the data item '{str(name)[:80]}', but trial {trial} now draws "
            f"'{item[0]}' (the data file was reordered, or items were added or removed)"
        )
    if digest != item[1]:
        return (
            f"was drawn from the data item '{item[0]}', which has changed in the data file "
            f"since (sha256 {str(digest)[:12]}, now {item[1][:12]})"
        )
    return None


def file_refs(config: RunConfig) -> list[str]:
    """Every Python file reference (``file.py:name``) the config names: its task, provider
    kinds and agent factories."""
    refs = [config.task.kind]
    refs += [entry.kind for entry in config.providers.values()]
    for entry in config.agents:
        factory = getattr(entry.agent, "factory", None)
        if isinstance(factory, str):
            refs.append(factory)
    return [ref for ref in refs if is_file_path(ref)]


def code_digests(config: RunConfig) -> dict[str, str]:
    """The SHA-256 of each Python file the config names, by its reference (a file that cannot
    be read here is left out: it is refused, by name, when the run loads it)."""
    return digests_of(file_refs(config))


def spec_refs(value: Any) -> list[str]:
    """Every Python file reference in an agent spec's JSON (a memory module or specialist
    named by file, ``kind: notes.py:NotesMemory``)."""
    if isinstance(value, dict):
        return [ref for v in value.values() for ref in spec_refs(v)]
    if isinstance(value, list):
        return [ref for v in value for ref in spec_refs(v)]
    return [value] if isinstance(value, str) and is_file_path(value) else []


def digests_of(refs: Sequence[str]) -> dict[str, str]:
    """The SHA-256 of each referenced Python file that can be read here, by its reference."""
    digests: dict[str, str] = {}
    for ref in refs:
        file = Path(ref.rpartition(":")[0]).expanduser()
        try:
            digests[ref] = hashlib.sha256(read_bytes(file, max_bytes=MAX_CODE_BYTES)).hexdigest()
        except FileRefusedError:
            continue
    return digests


def canonical(value: Any, digests: Mapping[str, str] | None) -> Any:
    """``value`` (JSON data) with each Python file reference in ``digests`` written as
    ``sha256:<hex>:<name>``; without digests (a file written before they were recorded), each
    file reference is written as the file's name and the name in it."""
    if isinstance(value, dict):
        return {k: canonical(v, digests) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v, digests) for v in value]
    if not isinstance(value, str) or not is_file_path(value):
        return value
    file, _, name = value.rpartition(":")
    if digests is None:
        return f"{Path(file).name}:{name}"
    found = digests.get(value)
    return value if found is None else f"sha256:{found}:{name}"


def recorded_digests(metadata: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The code digests a trial file's or ``run.json``'s metadata records (None: none, a file
    written before they were)."""
    found = (metadata or {}).get(CODE_KEY)
    if not isinstance(found, Mapping) or not found:
        return None
    return {str(k): str(v) for k, v in found.items()}


def same_code(
    recorded: Any,
    recorded_with: Mapping[str, str] | None,
    current: Any,
    current_with: Mapping[str, str],
) -> bool:
    """Whether ``recorded`` (with the digests its file records) and ``current`` (with this
    run's) name the same code: by digest when the file records digests, else by file name."""
    if recorded_with is None:
        return canonical(recorded, None) == canonical(current, None)
    return canonical(recorded, recorded_with) == canonical(current, current_with)


def identity(config: RunConfig, digests: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What a run plays: its whole config but where its results go (and how it executes)
    and the metrics it reports (they change no trial), with each Python file it names by
    content (see :func:`canonical`)."""
    data = config.model_dump(mode="json", exclude={"results_dir", "metrics"})
    return canonical(data, code_digests(config) if digests is None else digests)
