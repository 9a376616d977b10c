"""YAML loading and validation with one clear line per problem, naming the key.

Every YAML file a user gives (run configs, agent specs, provider files, suites) is read by
:func:`read_yaml`, through one bounded loader (:func:`bounded_load`): UTF-8 text of at most
``MAX_CONFIG_BYTES``, no duplicate keys, no recursive alias (``&x [*x]``), and a bounded
nesting, alias count, expanded size and expanded depth, so no document can hang, recurse
without end or exhaust memory; each refusal is one line naming the file, line and problem.
"""

from __future__ import annotations

import math
import os
import reprlib
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from cogarch.errors import ConfigError
from cogarch.files import FileRefusedError, read_bytes
from cogarch.registry import is_file_path

M = TypeVar("M", bound=BaseModel)

MAX_CONFIG_BYTES = 1_000_000
"""The largest config or agent spec file read."""
MAX_DEPTH = 50
"""The deepest nesting of mappings and lists in a document."""
MAX_ALIASES = 100
"""The most aliases (``*name``) in a document."""
MAX_NODES = 100_000
"""The most values a document may hold once its aliases are expanded."""
MAX_FLOAT = 1e12
"""The largest magnitude of a float any setting takes (a validated config holding a larger
one, or one that is infinite or not a number, is refused, whatever text it was read from)."""

_MERGE = "tag:yaml.org,2002:merge"


class LimitExceeded(yaml.MarkedYAMLError):
    """A document goes past one of the loader's limits (or repeats a key)."""


class _BoundedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` with the limits above and duplicate keys refused."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise LimitExceeded(None, None, f"more than {MAX_ALIASES} aliases", mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise LimitExceeded(None, None, f"nested deeper than {MAX_DEPTH} levels", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
                seen.add(key)
            except TypeError:
                continue  # an unhashable key; the base class explains it
            if repeated:
                raise LimitExceeded(
                    None, None, f"key {shown(key)} appears twice; keep one", key_node.start_mark
                )
        return super().construct_mapping(node, deep=deep)


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _measure(root: Any) -> tuple[int, int]:
    """How many values ``root`` holds and how deep it nests with its aliases expanded (each
    shared node measured once), walked without recursion; an alias to a value that holds it
    (``&x [*x]``) is refused, since no finite document expands from it."""
    measured: dict[int, tuple[int, int]] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        key = id(node)
        if closing:
            kids = [measured[id(c)] for c in _children(node)]
            size = 1 + sum(s for s, _ in kids)
            depth = 1 + max((d for _, d in kids), default=0)
            measured[key] = (size, depth)
            open_nodes.discard(key)
            continue
        if key in measured:
            continue
        if key in open_nodes:
            raise LimitExceeded(
                None,
                None,
                "an alias refers to a value that holds it (a recursive alias); "
                "repeat the value instead",
                node.start_mark,
            )
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(_children(node)))
    return measured[id(root)]


def bounded_load(text: str) -> Any:
    """One YAML document, loaded within the limits above (``LimitExceeded`` otherwise)."""
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        size, depth = _measure(node)
        if size > MAX_NODES:
            raise LimitExceeded(
                None,
                None,
                f"holds {size} values once aliases are expanded (most {MAX_NODES})",
                node.start_mark,
            )
        if depth > MAX_DEPTH:
            raise LimitExceeded(
                None,
                None,
                f"nested deeper than {MAX_DEPTH} levels once aliases are expanded",
                node.start_mark,
            )
        return loader.construct_document(node)
    finally:
        loader.dispose()


def shown(value: Any) -> str:
    """A short repr of ``value`` for an error message, however large or deep the value."""
    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxother, short.maxlong = 2, 80, 80, 40
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 4
    return short.repr(value)


def format_validation_error(exc: ValidationError, where: str = "") -> str:
    lines = []
    for err in exc.errors():
        key = ".".join(str(p) for p in (where, *err["loc"]) if p != "")
        kind = err["type"]
        if kind == "extra_forbidden":
            message = "unknown key (remove it or check its spelling)"
            if names := (err.get("ctx") or {}).get("names"):
                message += f"; {names}"
        elif kind == "missing":
            message = "required key is missing"
        else:
            message = err["msg"]
            if "input" in err and kind not in ("model_type", "dict_type"):
                message += f" (got {shown(err['input'])})"
            if kind == "string_type" and isinstance(err.get("input"), bool):
                message += (
                    "; YAML reads an unquoted yes, no, on, off, true or false as a boolean: "
                    "quote the text ('off')"
                )
        lines.append(f"  {key or '(top level)'}: {message}")
    return "\n".join(lines)


def non_finite(data: Any) -> tuple[str, float] | None:
    """Where ``data`` (mappings and lists, walked without recursion, each shared one once)
    holds a float that is infinite or not a number, and that float; None when it holds none."""
    stack: list[tuple[tuple[str, ...], Any]] = [((), data)]
    seen: set[int] = set()
    while stack:
        path, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return ".".join(path), value
        if isinstance(value, dict | list | tuple):
            if id(value) in seen:
                continue
            seen.add(id(value))
        if isinstance(value, dict):
            stack.extend(((*path, str(k)), v) for k, v in value.items())
        elif isinstance(value, list | tuple):
            stack.extend(((*path, str(i)), v) for i, v in enumerate(value))
    return None


def _pairs(given: Any, value: Any) -> list[tuple[str, Any, Any]]:
    """The children of a validated ``value``, each with what the input ``given`` held there
    (None where it cannot tell)."""
    source = given if isinstance(given, dict) else {}
    if isinstance(value, BaseModel):
        fields = type(value).model_fields
        out = [
            (name, source.get(field.alias or name), getattr(value, name))
            for name, field in fields.items()
        ]
        return out + [(k, source.get(k), v) for k, v in (value.model_extra or {}).items()]
    if isinstance(value, dict):
        return [(str(k), source.get(k), v) for k, v in value.items()]
    if isinstance(value, list | tuple):
        items = given if isinstance(given, list | tuple) and len(given) == len(value) else None
        return [(str(i), None if items is None else items[i], v) for i, v in enumerate(value)]
    return []


def value_problem(given: Any, value: Any) -> tuple[tuple[str, ...], Any, str] | None:
    """Where validating ``given`` gave ``value`` something no setting means: a float that is
    not finite or whose magnitude exceeds :data:`MAX_FLOAT` (the text ``Infinity`` or
    ``1e400`` reads as one), or a number read from a YAML boolean (``true`` as 1); that key,
    the input and the problem. Walked without recursion, each shared value once."""
    stack: list[tuple[tuple[str, ...], Any, Any]] = [((), given, value)]
    seen: set[int] = set()
    while stack:
        path, raw, found = stack.pop()
        if isinstance(found, float) and not (math.isfinite(found) and abs(found) <= MAX_FLOAT):
            return path, raw, f"must be a finite number between -{MAX_FLOAT:g} and {MAX_FLOAT:g}"
        if isinstance(raw, bool) and isinstance(found, int | float) and not isinstance(found, bool):
            return path, raw, "must be a number, not true or false"
        if isinstance(found, BaseModel | dict | list | tuple):
            if id(found) in seen:
                continue
            seen.add(id(found))
            stack.extend(((*path, k), r, v) for k, r, v in _pairs(raw, found))
    return None


def _bounded(model: M, data: Any) -> M:
    """``model`` (validated from ``data``) when :func:`value_problem` finds nothing; else a
    ``ValidationError`` naming the key."""
    found = value_problem(data, model)
    if found is None:
        return model
    path, raw, problem = found
    error = PydanticCustomError("bounded_number", problem)
    details = InitErrorDetails(type=error, loc=path, input=raw)
    raise ValidationError.from_exception_data(type(model).__name__, [details])


def validated(model: type[M], data: Any, *, owner: str = "") -> M:
    """``data`` validated by ``model`` (``ValidationError`` otherwise), every float it takes
    finite and at most :data:`MAX_FLOAT` in magnitude. With ``owner``, whose keys they are
    ("memory module 'mem0'"), an unknown key's error names it and the keys ``model`` takes."""
    try:
        return _bounded(model.model_validate(data), data)
    except ValidationError as exc:
        if not owner:
            raise
        keys = ", ".join(sorted(f.alias or name for name, f in model.model_fields.items()))
        names = f"valid keys of {owner}: {keys}"
        errors = [
            InitErrorDetails(
                type=PydanticCustomError("extra_forbidden", "unknown key", {"names": names})
                if err["type"] == "extra_forbidden" and len(err["loc"]) == 1
                else PydanticCustomError(err["type"], err["msg"]),
                loc=err["loc"],
                input=err["input"],
            )
            for err in exc.errors()
        ]
        raise ValidationError.from_exception_data(exc.title, errors) from None


def validate_mapping(
    model: type[M], data: Any, *, where: str = "", source: str = "", owner: str = ""
) -> M:
    """``data`` validated by ``model``, or a ``ConfigError`` with one line per problem, each
    named by its key under ``where`` (see :func:`validated` for ``owner``)."""
    try:
        return validated(model, data, owner=owner)
    except ValidationError as exc:
        head = f"invalid configuration{f' in {source}' if source else ''}:"
        raise ConfigError(f"{head}\n{format_validation_error(exc, where)}") from None


def _read_text(file: Path) -> str:
    if file.is_dir():
        raise ConfigError(f"'{file}' is a directory, not a config file; name a YAML file")
    if not os.path.lexists(file):
        raise ConfigError(f"config file '{file}' does not exist; check the path")
    try:
        raw = read_bytes(file, max_bytes=MAX_CONFIG_BYTES)
    except FileRefusedError as exc:
        raise ConfigError(str(exc)) from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw[:4]:
        raise ConfigError(f"'{file}' is UTF-16 or UTF-32 text; save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"'{file}' is not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start}); "
            "save it as UTF-8"
        ) from None


def read_yaml(path: str | os.PathLike[str]) -> Any:
    """The YAML document in the file a user gave, loaded by :func:`bounded_load`; a float in
    it that is infinite or not a number (``.inf``, ``.nan``) is refused, naming its key: no
    setting of cogarch's, or of a plug-in's, means anything with one."""
    file = Path(path)
    text = _read_text(file)
    try:
        data = bounded_load(text)
        found = non_finite(data)
        if found is not None:
            key = found[0] or "(top level)"
            raise ConfigError(
                f"'{file}' is refused: {key} must be a finite number (got {found[1]})"
            )
        return data
    except LimitExceeded as exc:
        mark = exc.problem_mark
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise ConfigError(f"'{file}' is refused{at}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"'{file}' is not valid YAML{at}: {problem}") from None


def located(reference: str, config: str | os.PathLike[str], where: str) -> str:
    """A file a config file names (a Python file's object, ``file.py:name``, or a plain path
    such as an agent spec's), looked for relative to the config file's folder and given
    relative to the current directory when it can be (else absolute), as trial files record
    it; a file that is not there is refused, naming ``where``."""
    file, name = reference, ""
    if is_file_path(reference):
        file, _, name = reference.rpartition(":")
    found = Path(file).expanduser()
    if not found.is_absolute():
        found = Path(config).parent / found
    if not found.is_file():
        raise ConfigError(
            f"{where} in '{config}' names the file '{file}', which is not there ('{found}'); "
            "give the file's path relative to the folder of the file that names it"
        )
    try:
        shown_path = os.path.relpath(found)
    except ValueError:  # another drive
        shown_path = str(found.resolve())
    return f"{shown_path}:{name}" if name else shown_path
