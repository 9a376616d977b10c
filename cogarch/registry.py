"""Registries that map short names to objects or import paths ("module:attribute")."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, TypeVar

from cogarch.errors import UnknownNameError

T = TypeVar("T")


def is_file_path(path: str) -> bool:
    """Whether ``path`` names an object in a Python file (``dir/file.py:name``) rather than in
    an importable module (``package.module:name``)."""
    module, sep, _ = path.rpartition(":")
    return bool(sep) and module.endswith(".py")


MAX_CODE_BYTES = 16 * 2**20
"""The largest Python file loaded as a task, agent or other plug-in."""

LOADED_FILES: dict[str, str] = {}
"""The SHA-256 of the bytes last executed for each Python file loaded by path (by its real
path): what ran, for a record of consent (``cogarch.experiments.results.task_trust``)."""


def file_module_name(path: Path, digest: str) -> str:
    """The module name a Python file's code of SHA-256 ``digest`` loads under."""
    where = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    return f"cogarch_file_{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{where}_{digest[:12]}"


def load_file_code(path: Path, code: bytes, where: str) -> ModuleType:
    """The module the Python source ``code`` (read from ``path``, a real path) defines, run
    once per file and content: exactly these bytes run, whatever the file holds by now."""
    digest = hashlib.sha256(code).hexdigest()
    name = file_module_name(path, digest)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise UnknownNameError(f"'{where}': '{path}' cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it, as an import does (dataclasses need it)
    try:
        exec(compile(code, str(path), "exec"), module.__dict__)
    except Exception as exc:
        del sys.modules[name]
        raise UnknownNameError(f"'{where}': loading '{path}' failed: {exc}") from exc
    except KeyboardInterrupt:
        del sys.modules[name]
        raise
    except BaseException as exc:  # sys.exit() or worse at import: an error, never an exit
        del sys.modules[name]
        raise UnknownNameError(
            f"'{where}': loading '{path}' stopped with {type(exc).__name__}({exc}); "
            "a task module must not exit or interrupt when imported"
        ) from None
    LOADED_FILES[str(path)] = digest
    return module


def _import_file(file: str, where: str) -> ModuleType:
    """The module a Python file defines (its bytes read once, as a regular file)."""
    from cogarch.files import FileRefusedError, read_bytes

    path = Path(file).expanduser().resolve()
    if not path.is_file():
        raise UnknownNameError(f"'{where}' names the file '{path}', which does not exist")
    try:
        code = read_bytes(path, max_bytes=MAX_CODE_BYTES)
    except FileRefusedError as exc:
        raise UnknownNameError(f"'{where}': {exc}") from None
    return load_file_code(path, code, where)


def import_object(path: str) -> object:
    """Import ``"package.module:attribute"`` (or ``"package.module.attribute"``), or load
    ``"dir/file.py:attribute"`` from a Python file (a relative path is relative to the
    current directory)."""
    module_name, sep, attr = path.partition(":")
    if is_file_path(path):
        module_name, _, attr = path.rpartition(":")
        if not attr:
            raise UnknownNameError(f"'{path}' names no object; write it as 'file.py:name'")
        module: ModuleType = _import_file(module_name, path)
    else:
        if not sep:
            module_name, _, attr = path.rpartition(".")
        if not module_name or not attr:
            raise UnknownNameError(
                f"'{path}' is not an import path; write it as 'package.module:name' or "
                "'file.py:name'"
            )
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise UnknownNameError(
                f"cannot import module '{module_name}' for '{path}': {exc}"
            ) from exc
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise UnknownNameError(
                f"importing module '{module_name}' for '{path}' stopped with "
                f"{type(exc).__name__}({exc}); a module must not exit when imported"
            ) from None
    try:
        return getattr(module, attr)
    except AttributeError as exc:
        if is_file_path(path):
            defined = sorted(
                n
                for n, v in vars(module).items()
                if n[:1] != "_"
                and not isinstance(v, ModuleType)
                and type(v).__module__ != "__future__"
            )
            raise UnknownNameError(
                f"the file '{module_name}' defines no '{attr}' (module has no attribute "
                f"'{attr}'); it defines: {', '.join(defined) or 'nothing'}"
            ) from exc
        raise UnknownNameError(f"module '{module_name}' has no attribute '{attr}'") from exc


ENTRY_POINT_GROUPS = {
    "memory module": "cogarch.memories",
    "specialist": "cogarch.specialists",
    "task": "cogarch.tasks",
    "provider kind": "cogarch.providers",
    "metric": "cogarch.metrics",
}
"""The setuptools entry-point groups an installed package adds components to cogarch's
registries by, by the kind of component."""


class Registry(Generic[T]):
    """Short name -> object, where the object may be given lazily as an import path.

    ``get`` also accepts any import path (or a Python file's path, ``dir/file.py:name``), so
    users can plug in their own classes without registering them; what a path imports must be
    a subclass of ``base`` (when given) and pass ``check`` (when given), or the name is
    refused like an unknown one. An unknown name lists the valid ones.

    A registry with an ``entry_points`` group also holds what installed packages declare
    under it (``[project.entry-points."cogarch.memories"]`` ``notes = "pkg.mod:Notes"``),
    read the first time a name is looked up or listed; such a name that is also a built-in
    one, or that two packages declare, is refused naming both.
    """

    def __init__(
        self,
        kind: str,
        *,
        lazy: bool = True,
        base: type | None = None,
        check: Callable[[Any], str | None] | None = None,
        entry_points: str | None = None,
    ) -> None:
        self.kind = kind
        self.lazy = lazy
        """When true, a string entry is an import path resolved on first use."""
        self.base = base
        self.check = check
        """Why an imported object cannot serve (a short phrase), or None when it can."""
        self.entry_points = entry_points
        """The entry-point group installed packages add to this registry by (None: none)."""
        self._entries: dict[str, T | str] = {}
        self._plugins: dict[str, str] | None = None
        """Entry-point name -> the package that declares it, once read."""

    def register(self, name: str, target: T | str) -> None:
        self._entries[name] = target

    def __contains__(self, name: object) -> bool:
        self._discover()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def names(self) -> list[str]:
        self._discover()
        return sorted(self._entries)

    def plugins(self) -> dict[str, str]:
        """The names installed packages added through the entry-point group, each with the
        distribution that declares it."""
        self._discover()
        return dict(self._plugins or {})

    def _discover(self) -> None:
        if self._plugins is not None or self.entry_points is None:
            return
        from importlib.metadata import entry_points

        found: dict[str, str] = {}
        for point in sorted(entry_points(group=self.entry_points), key=lambda p: p.name):
            package = point.dist.name if point.dist is not None else "an installed package"
            if point.name in found and found[point.name] != package:
                raise UnknownNameError(
                    f"the {self.kind} '{point.name}' is declared by two installed packages, "
                    f"{found[point.name]} and {package} (entry-point group "
                    f"'{self.entry_points}'); uninstall one, or name the {self.kind} by its "
                    f"import path ('{point.value}')"
                )
            if point.name in self._entries and point.name not in found:
                raise UnknownNameError(
                    f"the installed package {package} declares the {self.kind} "
                    f"'{point.name}' (entry-point group '{self.entry_points}'), but cogarch "
                    f"has a built-in {self.kind} of that name; rename its entry point in "
                    f"{package}, or uninstall it"
                )
            found[point.name] = package
            self._entries[point.name] = point.value
        self._plugins = found

    def get(self, name: str) -> T:
        self._discover()
        if name in self._entries:
            target = self._entries[name]
            if self.lazy and isinstance(target, str):
                resolved = self._resolve(name, target)
                self._entries[name] = resolved
                return resolved
            return target  # type: ignore[return-value]
        if self.lazy and ":" in name:
            return self._checked(name, import_object(name))
        valid = ", ".join(self.names()) or "(none registered)"
        raise UnknownNameError(
            f"unknown {self.kind} '{name}'; valid names: {valid} (or an import path "
            "'module:name', or 'file.py:name')"
        )

    def _resolve(self, name: str, target: str) -> T:
        package = (self._plugins or {}).get(name)
        if package is None:
            return import_object(target)  # type: ignore[return-value]
        try:
            return self._checked(name, import_object(target))
        except UnknownNameError as exc:
            raise UnknownNameError(
                f"the {self.kind} '{name}' that the installed package {package} declares "
                f"(entry-point group '{self.entry_points}', '{target}') cannot be used: {exc}"
            ) from None

    def _checked(self, name: str, found: object) -> T:
        problem = None
        if self.base is not None and not (isinstance(found, type) and issubclass(found, self.base)):
            problem = f"is not a subclass of {self.base.__name__}"
        elif self.check is not None:
            problem = self.check(found)
        if problem is not None:
            valid = ", ".join(self.names()) or "(none registered)"
            raise UnknownNameError(
                f"'{name}' cannot be used as a {self.kind}: what it imports "
                f"({type(found).__name__}) {problem}; valid names: {valid}"
            )
        return found  # type: ignore[return-value]


def takes_positional(count: int) -> Callable[[Any], str | None]:
    """A ``check`` for registries of functions: callable with ``count`` positional arguments."""

    def check(found: Any) -> str | None:
        if not callable(found):
            return "is not a function"
        try:
            inspect.signature(found).bind(*range(count))
        except TypeError:
            return f"does not take {count} positional arguments"
        except ValueError:
            return None  # no signature to read (some builtins); it may still work
        return None

    return check
