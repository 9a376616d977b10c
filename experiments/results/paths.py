"""The folders and ports a user names on the command line or in a run config, checked once.

Each check raises one :class:`~cogarch.errors.ConfigError` that names the option, what stands
in the way and what to do, before anything is read or written, so a wrong path never ends in
a traceback or in files written half-way.
"""

from __future__ import annotations

import os
from pathlib import Path

from cogarch.errors import ConfigError
from cogarch.files import kind_of

MAX_PORT = 65_535


def check_port(port: int, what: str = "--port") -> int:
    """``port`` if it is a TCP port (0 asks for any free one)."""
    if not 0 <= port <= MAX_PORT:
        raise ConfigError(
            f"{what} {port} is not a port; use 1-{MAX_PORT}, or 0 (the default) for a free one"
        )
    return port


def _named(value: str | os.PathLike[str], what: str) -> Path:
    text = os.fspath(value)
    if not text.strip():
        raise ConfigError(f"{what} is empty; name a folder")
    if "\x00" in text:
        raise ConfigError(f"{what} holds a NUL character; retype it")
    return Path(text)


def folder_to_write(value: str | os.PathLike[str], what: str) -> Path:
    """The folder ``value`` names, fit to be created or written into: it is a folder (or a
    link to one), or it does not exist yet and its nearest existing ancestor is a folder."""
    path = _named(value, what)
    try:
        info = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise ConfigError(
                f"{what} '{path}' is a link to nothing; remove the link or name another folder"
            ) from None
        _check_ancestors(path, what)
        return path
    except NotADirectoryError:
        _check_ancestors(path, what)
        raise ConfigError(
            f"{what} '{path}' lies under a file, not a folder; name a folder elsewhere"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{what} '{path}': {exc.strerror or exc}") from None
    if not path.is_dir():
        raise ConfigError(
            f"{what} '{path}' is {kind_of(info.st_mode)}, not a folder; name a folder "
            "(it is created if missing)"
        )
    return path


def _check_ancestors(path: Path, what: str) -> None:
    """The nearest existing ancestor of the missing ``path`` must be a folder."""
    for parent in path.parents:
        try:
            found = parent.stat()
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            raise ConfigError(f"{what} '{path}': {exc.strerror or exc}") from None
        if not parent.is_dir():
            raise ConfigError(
                f"{what} '{path}' lies under '{parent}', which is {kind_of(found.st_mode)}, "
                "not a folder; name a folder elsewhere"
            )
        return


def folder_to_read(value: str | os.PathLike[str], what: str, hint: str = "check the path") -> Path:
    """The existing folder ``value`` names (``hint`` says what to give when it is missing)."""
    path = _named(value, what)
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise ConfigError(f"{what} '{path}' does not exist; {hint}") from None
    except OSError as exc:
        raise ConfigError(f"{what} '{path}': {exc.strerror or exc}") from None
    if not path.is_dir():
        raise ConfigError(
            f"{what} '{path}' is {kind_of(info.st_mode)}, not a folder; name a folder"
        )
    return path
