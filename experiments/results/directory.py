"""A results directory as a place on disk: one run at a time, leftovers, and disk errors.

A run holds an exclusive lock on ``<results_dir>/.lock`` while it works, so a second run on the
same directory stops at once, naming the first; the lock dies with its process (even on
``kill -9``). Only the lock holder removes temp files, so none is ever taken from a live writer.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

from cogarch.errors import CogarchError
from cogarch.files import set_aside

LEFTOVERS = ("*/.trial_*.json.*.tmp", ".run.json.*.tmp", ".cache/*/.*.json.*.tmp")
"""Temp files of writes cut short by a kill (never a result): trials, run.json, the cache."""


class ResultsDirError(CogarchError):
    """The results directory cannot be used: taken by another run, read-only, or full."""


def disk_problem(exc: OSError, where: Path | str) -> ResultsDirError:
    """One clear line for a failed write under ``where``."""
    if exc.errno == errno.ENOSPC or exc.errno == errno.EDQUOT:
        why = "the disk is full; free some space and rerun the same command to resume"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        why = "it is not writable; fix its permissions or pick another --results-dir"
    elif exc.errno in (errno.ENOTDIR, errno.EEXIST):
        why = "a regular file stands where a folder must be; pick another --results-dir"
    else:
        why = f"{exc.strerror or exc}; rerun the same command to resume once it is fixed"
    return ResultsDirError(f"cannot write to results directory '{where}': {why}")


class RunLock:
    """An exclusive, process-bound lock on a results directory (a context manager)."""

    def __init__(self, results_dir: Path) -> None:
        self.results_dir = results_dir
        self.path = results_dir / ".lock"
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        try:
            self.results_dir.mkdir(parents=True, exist_ok=True)
            fd = self._open()
        except OSError as exc:
            raise disk_problem(exc, self.results_dir) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise ResultsDirError(
                f"results directory '{self.results_dir}' is in use by another cogarch run "
                f"(pid {holder}); wait for it to finish or pick another --results-dir"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass  # the lock holds without the pid (a full disk); the message then says unknown
        self._fd = fd
        return self

    def _open(self) -> int:
        """The lock file, created if missing; a link, folder or FIFO standing in its place is
        set aside (as ``.lock.unusable``), so nothing is created where a link points."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
                raise
            fd = -1
        if fd >= 0 and stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
        if fd >= 0:
            os.close(fd)
        set_aside(self.path)
        return os.open(self.path, flags | os.O_EXCL, 0o644)

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases the lock; the file stays, so no one races on it
            self._fd = None

    def clean_leftovers(self) -> int:
        """Remove temp files of interrupted writes; call only while holding the lock."""
        assert self._fd is not None, "clean only while holding the lock"
        removed = 0
        for pattern in LEFTOVERS:
            for leftover in self.results_dir.glob(pattern):
                try:
                    leftover.unlink()
                    removed += 1
                except FileNotFoundError:
                    pass
        return removed
