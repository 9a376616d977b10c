"""The trials of one or more results directories, as light rows to count, filter and page.

Rows are built once per file and rebuilt only when a file's size or modification time
changes, so a run that is still being written can be refreshed cheaply while it grows.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError

from ..results.trial_files import CorruptTrialError, read_trial


@dataclass(frozen=True, slots=True)
class TrialRow:
    """What the run page shows and filters on, for one trial file."""

    key: str
    """``<results dir index>/<agent folder>/<trial number>``: the trial's address in the app
    (see :func:`key_of`)."""
    run: str
    agent: str
    task: str
    trial: int
    status: str
    """complete, failed, or corrupt (the file could not be read as a trial)."""
    outcome: str | None
    turns: int
    error: str | None
    text: str
    """Every text of the trial, lower-cased, for the text search."""

    @property
    def label(self) -> str:
        """The column this trial counts in: its outcome, else its status."""
        return self.outcome if self.status == "complete" and self.outcome else self.status


@dataclass(frozen=True)
class Query:
    agent: str = ""
    run: str = ""
    """One run's trials only (a suite's cell), by the run's name."""
    outcome: str = ""
    status: str = ""
    q: str = ""
    page: int = 1
    per_page: int = 50

    def matches(self, row: TrialRow) -> bool:
        return (
            (not self.agent or row.agent == self.agent)
            and (not self.run or row.run == self.run)
            and (not self.outcome or row.label == self.outcome)
            and (not self.status or row.status == self.status)
            and (not self.q or self.q.lower() in row.text)
        )


@dataclass
class Page:
    rows: list[TrialRow]
    total: int
    page: int
    pages: int


@dataclass
class Counts:
    """Agents x outcome labels (outcome classes in the tasks' order, then statuses)."""

    agents: list[str]
    labels: list[str]
    cells: dict[tuple[str, str], int] = field(default_factory=dict)


def search_text(record: TrialRecord) -> str:
    parts: list[str] = [record.agent, record.task, record.evaluation.outcome or ""]
    for turn in record.turns:
        parts += [turn.user, turn.reply, turn.private_state or ""]
    for branch in record.branches:
        parts += [branch.prompt, branch.reply, branch.private_state or ""]
    if record.error is not None:
        parts += [record.error.type, record.error.message]
    return "\n".join(parts).lower()


def row_of(key: str, path: Path, found: TrialRecord | CorruptTrialError) -> TrialRow:
    if isinstance(found, CorruptTrialError):
        agent = path.parent.name
        return TrialRow(
            key, "", agent, "", _number(path), "corrupt", None, 0, str(found), str(found).lower()
        )
    return TrialRow(
        key=key,
        run=found.run,
        agent=found.agent,
        task=found.task,
        trial=found.trial,
        status=found.status,
        outcome=found.evaluation.outcome,
        turns=len(found.turns),
        error=f"{found.error.type}: {found.error.message}" if found.error else None,
        text=search_text(found),
    )


def _number(path: Path) -> int:
    digits = path.stem.removeprefix("trial_")
    return int(digits) if _DIGITS.fullmatch(digits) else -1


_DIGITS = re.compile(r"[0-9]{1,9}")
_CANONICAL = re.compile(r"[0-9]{4,9}")


def key_of(index: int, path: Path) -> str:
    """The key of the trial file at ``path`` in results directory ``index``: its folder name
    percent-encoded (so any name is one URL segment), then its trial number; a file named
    otherwise than ``trial_NNNN.json`` gets ``~`` and its encoded name, so no two files of a
    folder share a key."""
    folder = quote(path.parent.name, safe="", errors="surrogateescape")
    stem = path.stem.removeprefix("trial_")
    canonical = _CANONICAL.fullmatch(stem) and f"{int(stem):04d}" == stem
    trial = str(int(stem)) if canonical else "~" + quote(stem, safe="", errors="surrogateescape")
    return f"{index}/{folder}/{trial}"


class TrialIndex:
    """The trial files under ``dirs``, kept current by :meth:`refresh`."""

    def __init__(self, dirs: Sequence[str | os.PathLike[str]], *, min_interval_s: float = 0.5):
        self.dirs = [Path(d) for d in dirs]
        for d in self.dirs:
            if not d.is_dir():
                raise ConfigError(f"results directory '{d}' does not exist; give a run's folder")
        self.version = 0
        """Bumped whenever a trial file appears, changes or disappears."""
        self._rows: dict[str, TrialRow] = {}
        self._stamps: dict[str, tuple[int, int]] = {}
        self._paths: dict[str, Path] = {}
        self._order: list[str] = []
        self._scoring: dict[str, tuple[str, ...]] = {}
        self._min_interval = min_interval_s
        self._checked = float("-inf")
        self.refresh(force=True)

    def path(self, key: str) -> Path | None:
        return self._paths.get(key)

    def read(self, key: str, path: Path) -> TrialRecord:
        """The trial file ``path`` of ``key``, read afresh; a link must stay inside its results
        directory (:class:`CorruptTrialError` otherwise, or when it is no trial)."""
        return read_trial(path, within=self.dirs[int(key.split("/", 1)[0])])

    def refresh(self, *, force: bool = False) -> bool:
        """Read new and changed files; forget removed ones. Returns whether anything changed."""
        now = time.monotonic()
        if not force and now - self._checked < self._min_interval:
            return False
        self._checked = now
        seen: dict[str, Path] = {}
        for i, d in enumerate(self.dirs):
            for path in d.glob("*/trial_*.json"):
                seen[key_of(i, path)] = path
        changed = False
        for key in set(self._rows) - set(seen):
            del self._rows[key], self._stamps[key], self._paths[key]
            changed = True
        for key, path in seen.items():
            try:
                st = path.stat()
            except OSError:
                continue
            stamp = (st.st_mtime_ns, st.st_size)
            if self._stamps.get(key) == stamp:
                continue
            try:
                found: TrialRecord | CorruptTrialError = self.read(key, path)
            except CorruptTrialError as exc:
                found = exc
            if isinstance(found, TrialRecord) and found.scoring.classes:
                self._scoring.setdefault(found.task, found.scoring.classes)
            self._rows[key], self._stamps[key], self._paths[key] = (
                row_of(key, path, found),
                stamp,
                path,
            )
            changed = True
        if changed or force:
            self._order = sorted(self._rows, key=_sort_key)
            self.version += 1
        return changed

    def rows(self) -> list[TrialRow]:
        return [self._rows[k] for k in self._order]

    def select(self, query: Query) -> Page:
        hits = [r for r in self.rows() if query.matches(r)]
        per_page = max(1, query.per_page)
        pages = max(1, -(-len(hits) // per_page))
        page = min(max(1, query.page), pages)
        start = (page - 1) * per_page
        return Page(hits[start : start + per_page], len(hits), page, pages)

    def agents(self) -> list[str]:
        return sorted({r.agent for r in self._rows.values()})

    def counts(self, rows: Iterable[TrialRow] | None = None) -> Counts:
        chosen = list(self._rows.values()) if rows is None else list(rows)
        cells = Counter((r.agent, r.label) for r in chosen)
        present = {label for _, label in cells}
        ordered = [c for classes in self._scoring.values() for c in classes]
        labels = list(dict.fromkeys([*ordered, *sorted(present - set(ordered))]))
        return Counts(sorted({r.agent for r in chosen}), labels, dict(cells))

    def runs(self) -> list[str]:
        return sorted({r.run for r in self._rows.values() if r.run})


def _sort_key(key: str) -> tuple[int, str, int, str]:
    d, agent, n = key.split("/")
    return int(d), agent, int(n) if n.isdigit() else -1, n
