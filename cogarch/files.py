"""Reading a file that anyone could have put there: regular files only, bounded, never blocking.

Every file cogarch reads back from a results folder (trial files, ``run.json``, response-cache
entries, trial-state sidecars), and the data and config files a user names, go through
:func:`read_bytes` or :func:`read_json`. A FIFO, a device, a socket or a folder is refused
before a byte is read (it is opened with ``O_NONBLOCK | O_NOFOLLOW`` and checked with
``fstat``, so a FIFO never blocks), a link is judged by what it points to and, with
``within``, must stay inside that folder, and the size and the JSON nesting are bounded.
Every refusal is a :class:`FileRefusedError` naming the file, what it is and what to do.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from cogarch.errors import CogarchError
from cogarch.io import MAX_JSON_DEPTH, loads_json

MAX_FILE_BYTES = 64 * 2**20
"""The largest file of a results folder read back (a trial file is at most a few MB)."""
MAX_STATE_BYTES = 2**30
"""The largest saved agent state or data file read (a memory store with its embeddings)."""


class FileRefusedError(CogarchError, ValueError):
    """A file that is missing, not a regular file, outside its folder, too large, unreadable
    or (for JSON) not valid JSON; the message names it and says what to do."""


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words ("a folder", "a FIFO (named pipe)")."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def read_bytes(
    path: str | os.PathLike[str],
    *,
    within: str | os.PathLike[str] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> bytes:
    """The bytes of the regular file at ``path`` (a link counts as what it points to, and with
    ``within`` only when that lies inside the folder ``within``), at most ``max_bytes``."""
    shown = Path(path)
    try:
        real = os.path.realpath(path, strict=True)
    except FileNotFoundError:
        gone = "is a link to nothing" if shown.is_symlink() else "does not exist"
        raise FileRefusedError(f"'{shown}' {gone}; check the path") from None
    except OSError as exc:
        raise FileRefusedError(f"'{shown}' is unreadable ({exc.strerror or exc})") from None
    if within is not None and not _inside(real, os.path.realpath(within)):
        raise FileRefusedError(
            f"'{shown}' links to '{real}', outside '{within}'; only files inside it are read "
            "(copy the file in instead of linking it)"
        )
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket, or a device with nothing behind it
            raise FileRefusedError(
                f"'{shown}' is not a regular file (a socket or a device); remove it or name a file"
            ) from None
        raise FileRefusedError(f"'{shown}' is unreadable ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(
                f"'{shown}' is {kind_of(info.st_mode)}, not a regular file; "
                "remove it or name a file"
            )
        if info.st_size > max_bytes:
            raise FileRefusedError(
                f"'{shown}' is {info.st_size:,} bytes, larger than the {max_bytes:,} bytes "
                "cogarch reads from a file of its kind"
            )
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, max_bytes + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise FileRefusedError(
                    f"'{shown}' grew past the {max_bytes:,} bytes read while being read"
                )
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefusedError(f"'{shown}' is unreadable ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def read_json(
    path: str | os.PathLike[str],
    *,
    within: str | os.PathLike[str] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """The JSON value in the file at ``path``, read as :func:`read_bytes` does; nesting deeper
    than ``max_depth`` is refused (never a ``RecursionError``)."""
    raw = read_bytes(path, within=within, max_bytes=max_bytes)
    try:
        return loads_json(raw, max_depth=max_depth)
    except ValueError as exc:
        raise FileRefusedError(f"'{path}' is unreadable as JSON ({str(exc)[:200]})") from None


def set_aside(path: str | os.PathLike[str], suffix: str = ".unusable") -> Path:
    """Rename ``path`` (a file, folder or link, never what a link points to) to the first free
    ``<name><suffix>``, ``<name><suffix>.1``, ... beside it, and return the new path."""
    source = Path(path)
    n = 0
    while True:
        target = source.with_name(source.name + suffix + (f".{n}" if n else ""))
        if not os.path.lexists(target):
            os.rename(source, target)
            return target
        n += 1


__all__ = [
    "MAX_FILE_BYTES",
    "MAX_STATE_BYTES",
    "FileRefusedError",
    "kind_of",
    "read_bytes",
    "read_json",
    "set_aside",
]
