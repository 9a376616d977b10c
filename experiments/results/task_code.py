"""Finding a task's code without running any, and loading exactly the bytes that were checked.

A task named by a Python file is that file (its real path: a link counts as what it points
to). A task named by an import path is the file its module resolves to, found through the
import system's finders without importing anything; while a reader looks for it and loads
it, no entry of ``sys.path`` that lies inside the results folder being read is searched
(``python -m`` puts the working directory first, and a report may run inside the folder it
reads), so a folder cannot bring a module of the same name. What is loaded is the bytes whose
hash was checked (:mod:`.task_trust`), compiled and run as the module: a file changed between
the check and the load is not what runs.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from cogarch.core.task import Task
from cogarch.errors import UnknownNameError
from cogarch.files import FileRefusedError, read_bytes
from cogarch.registry import LOADED_FILES, MAX_CODE_BYTES, is_file_path, load_file_code

_LOCK = threading.RLock()
"""Held while ``sys.path`` is narrowed for a load (a viewer serves pages on threads)."""


@dataclass(frozen=True)
class CodeFile:
    """A task's file as found now: its real path, its bytes (None: not read, the run's own
    record of what it ran) and their SHA-256."""

    path: Path
    sha256: str
    code: bytes | None = None


def _inside(path: str | os.PathLike[str], folder: str | os.PathLike[str] | None) -> bool:
    if folder is None:
        return False
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, root]) == root


def module_of(source: str) -> str:
    """The module an import path names (``pkg.mod:Name`` or ``pkg.mod.Name``)."""
    module, sep, _ = source.partition(":")
    return module if sep else source.rpartition(".")[0]


def attribute_of(source: str) -> str:
    """The object a task source names in its module or file."""
    if is_file_path(source):
        return source.rpartition(":")[2]
    _, sep, attr = source.partition(":")
    return attr if sep else source.rpartition(".")[2]


@contextmanager
def search_path_outside(within: str | os.PathLike[str] | None) -> Iterator[None]:
    """``sys.path`` without its entries inside ``within`` (the working directory counts for
    an empty entry) while inside; restored after."""
    with _LOCK:
        saved = list(sys.path)
        if within is not None:
            sys.path[:] = [p for p in saved if not _inside(p or os.getcwd(), within)]
        try:
            yield
        finally:
            sys.path[:] = saved


def _find_spec(name: str, path: Sequence[str] | None) -> importlib.machinery.ModuleSpec | None:
    """The spec the import system's finders give ``name`` (``path``: its parent package's
    folders; None for a top-level module), found without running any module's code."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec = find(name, path)
        except Exception:  # a finder that cannot answer for this name
            continue
        if spec is not None:
            return spec
    return None


def module_file(name: str, within: str | os.PathLike[str] | None = None) -> Path | None:
    """The real path of the file module ``name`` would load from (None: not found, not a
    file, or it or a package above it lies inside ``within``). Runs no code."""
    parts = name.split(".")
    if not all(parts):
        return None
    path: Sequence[str] | None = None
    origin: str | None = None
    with search_path_outside(within):
        for i in range(len(parts)):
            full = ".".join(parts[: i + 1])
            loaded = sys.modules.get(full)
            if loaded is not None:
                origin = getattr(loaded, "__file__", None)
                path = getattr(loaded, "__path__", None)
            else:
                spec = _find_spec(full, path)
                if spec is None:
                    return None
                origin = spec.origin if spec.has_location else None
                path = spec.submodule_search_locations
            if origin is not None and _inside(origin, within):
                return None
    if not isinstance(origin, str) or not origin.endswith(".py"):
        return None
    return Path(os.path.realpath(origin))


def code_of(
    source: str, *, within: str | os.PathLike[str] | None = None, ran: bool = False
) -> CodeFile | None:
    """The file ``source`` names now, outside ``within``, with its bytes and their hash; with
    ``ran``, the file this process loaded for it (the run's own record). None when there is
    no such file or it cannot be read as a regular file."""
    if is_file_path(source):
        named = Path(source.rpartition(":")[0]).expanduser()
        try:
            real = Path(os.path.realpath(named, strict=True))
        except OSError:
            return None
        if ran and str(real) in LOADED_FILES:
            return CodeFile(real, LOADED_FILES[str(real)])
    else:
        module = module_of(source)
        if ran:
            loaded = sys.modules.get(module)
            origin = getattr(loaded, "__file__", None)
            if not isinstance(origin, str):
                return None
            real = Path(os.path.realpath(origin))
        else:
            found = module_file(module, within)
            if found is None:
                return None
            real = found
    if _inside(real, within):
        return None
    try:
        code = read_bytes(real, max_bytes=MAX_CODE_BYTES)
    except FileRefusedError:
        return None
    return CodeFile(real, hashlib.sha256(code).hexdigest(), code)


def _checked_task(found: object, source: str) -> type[Task]:
    if not (isinstance(found, type) and issubclass(found, Task)):
        raise UnknownNameError(f"'{source}' is not a Task subclass")
    return found


def load_checked(
    source: str, found: CodeFile, within: str | os.PathLike[str] | None = None
) -> type[Task]:
    """The task class ``source`` names, from the checked bytes of ``found`` (its module's
    packages, and what the module imports, never from inside ``within``)."""
    return _checked_task(load_object(source, found, within), source)


def load_object(
    source: str, found: CodeFile, within: str | os.PathLike[str] | None = None
) -> object:
    """The object ``source`` names (a task class, a metric), loaded as :func:`load_checked`
    loads a task: from the checked bytes of ``found``, nothing from inside ``within``."""
    if found.code is None:
        raise UnknownNameError(f"'{source}': its code was not read")
    attr = attribute_of(source)
    with search_path_outside(within):
        if is_file_path(source):
            module = load_file_code(found.path, found.code, source)
        else:
            module = _load_module(module_of(source), found)
        try:
            return getattr(module, attr)
        except AttributeError:
            raise UnknownNameError(f"module of '{source}' has no attribute '{attr}'") from None


def _load_module(name: str, found: CodeFile) -> ModuleType:
    """Module ``name``, its own code run from ``found``'s bytes (its packages imported as
    usual, through the narrowed search path)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        origin = getattr(loaded, "__file__", None)
        if isinstance(origin, str) and Path(os.path.realpath(origin)) == found.path:
            return loaded
        raise UnknownNameError(f"module '{name}' is already loaded here from another file")
    parent, _, leaf = name.rpartition(".")
    package = importlib.import_module(parent) if parent else None
    spec = _find_spec(name, getattr(package, "__path__", None) if package else None)
    origin = spec.origin if spec is not None and spec.has_location else None
    if spec is None or origin is None or Path(os.path.realpath(origin)) != found.path:
        raise UnknownNameError(f"module '{name}' no longer resolves to '{found.path}'")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        assert found.code is not None
        exec(compile(found.code, origin, "exec"), module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    if package is not None:
        setattr(package, leaf, module)
    return module
