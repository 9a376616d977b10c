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
    if stat.S_ISLNK(mode):
        return "a link"
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


def real_folder(path: str | os.PathLike[str], *, create: bool = True) -> tuple[Path, Path | None]:
    """``path`` as a real folder of its own, created when missing (with ``create``): a link
    (even to a folder), a file or a special file standing there is set aside first (see
    :func:`set_aside`), so nothing written into it lands elsewhere. Returns the folder and
    where anything in its way went (None when nothing was)."""
    folder = Path(path)
    moved = None
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISDIR(mode):
        moved = set_aside(folder)
    if not create:
        return folder, moved
    folder.parent.mkdir(parents=True, exist_ok=True)  # the results folder itself, as named
    try:
        os.mkdir(folder, 0o755)
    except FileExistsError:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):  # planted between the two steps
            raise FileRefusedError(
                f"'{folder}' keeps being replaced by something that is not a folder; "
                "stop what replaces it and rerun"
            ) from None
    return folder, moved


def append_only_file(path: str | os.PathLike[str]) -> int:
    """A descriptor appending to the regular file at ``path`` (created when missing): a link
    is never followed and a FIFO, device, socket or folder is refused, never opened for
    writing (a :class:`FileRefusedError` naming it)."""
    shown = Path(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(shown, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileRefusedError(
                f"'{shown}' is a link; cogarch writes only to a file of its own there "
                "(remove the link)"
            ) from None
        if exc.errno in (errno.ENXIO, errno.EISDIR):
            raise FileRefusedError(
                f"'{shown}' is not a regular file; remove it so a file can be written there"
            ) from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise FileRefusedError(
            f"'{shown}' is {kind_of(info.st_mode)}, not a regular file; remove it so a file "
            "can be written there"
        )
    return fd
