"""Atomic writes: the old file or the new one, never half of one, and no leftovers."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cogarch.io import atomic_write_json, atomic_write_text


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_writes_and_replaces_creating_parents(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "trial.json"
    assert atomic_write_json(target, {"x": 1}) == target
    assert json.loads(target.read_text(encoding="utf-8")) == {"x": 1}
    atomic_write_json(target, {"x": 2, "word": "naïve"}, indent=None)
    assert target.read_text(encoding="utf-8") == '{"x": 2, "word": "naïve"}\n'
    assert leftovers(target.parent) == []


def test_a_failed_serialisation_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "trial.json"
    atomic_write_json(target, {"ok": True})
    with pytest.raises(TypeError):
        atomic_write_json(target, {"ok": False, "bad": object()})
    assert json.loads(target.read_text(encoding="utf-8")) == {"ok": True}
    assert leftovers(tmp_path) == []


class HalfWriter:
    """A file handle that writes half of what it is given, then fails like a full disk."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def write(self, text: str) -> int:
        self.handle.write(text[: len(text) // 2])
        self.handle.flush()
        raise OSError(28, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.handle, name)

    def __enter__(self) -> HalfWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


@pytest.mark.parametrize("existing", [True, False])
def test_a_failure_midway_through_the_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool
) -> None:
    target = tmp_path / "trial.json"
    if existing:
        atomic_write_json(target, {"ok": True})
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k)))
    with pytest.raises(OSError, match="No space left"):
        atomic_write_json(target, {"ok": False, "payload": "x" * 10_000})
    monkeypatch.undo()
    if existing:
        assert json.loads(target.read_text(encoding="utf-8")) == {"ok": True}
    else:
        assert not target.exists()
    assert leftovers(tmp_path) == []


def test_a_failed_fsync_removes_the_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "notes.txt"
    atomic_write_text(target, "old")

    def failing_fsync(fd: int) -> None:
        raise OSError("I/O error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="I/O error"):
        atomic_write_text(target, "new " * 1000)
    assert target.read_text(encoding="utf-8") == "old"
    assert leftovers(tmp_path) == []
