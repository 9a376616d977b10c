"""Copy-on-write containers, and the rule every forkable part of an agent follows.

A fork of an agent must cost the same whatever the size of its memory and dialogue, yet share
nothing that either side can change. The containers here give that: ``CowList`` and
``CowDict`` behave like ``list`` and ``dict``, and their ``fork()`` is O(1). Two forks share
their storage until one of them writes; a write never changes what the other sees.

- ``CowList``: forks share one backing list. Appending past the end of a shared list is done in
  place (the other forks only see the items they had), so the common case of a branch that
  keeps appending copies nothing; any other change, or an append by a second fork, copies the
  items once and the fork owns its copy from then on.
- ``CowDict``: forks share one dict; the first change on either side copies it once.

Items are shared, not copied: put only values you never change in place (``str``, numbers,
tuples, frozen dataclasses, pydantic models you replace rather than edit), or, in a
``CowDict``, change a value only through ``mutable(key)``, which hands out a private copy of it
the first time after a fork. ``fork_value`` states the rule for any attribute, and
``fork_fields`` applies it to a whole object.
"""

from __future__ import annotations

import copy
import enum
import functools
import itertools
import types
from collections.abc import (
    Callable,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    MutableSequence,
)
from typing import Any, Generic, Protocol, Self, SupportsIndex, TypeVar, overload, runtime_checkable

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


@runtime_checkable
class Forkable(Protocol):
    """Anything with an O(1) ``fork()`` that returns an independent twin."""

    def fork(self) -> Self: ...


class CowList(MutableSequence[T], Generic[T]):
    """A list whose ``fork()`` is O(1); forks never see each other's writes.

    Args:
        items: The list's first items (default: none).
    """

    __slots__ = ("_items", "_owned", "_size")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._size = len(self._items)
        self._owned = True
        """False while the backing list may be shared with another fork."""

    def fork(self) -> CowList[T]:
        """An independent twin, in O(1)."""
        twin: CowList[T] = CowList.__new__(type(self))
        twin._items, twin._size, twin._owned = self._items, self._size, False
        self._owned = False
        return twin

    copy = fork

    # -- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[T]:
        if self._owned and len(self._items) == self._size:
            return iter(self._items)
        # a shared list may grow past this fork's end while the iterator runs
        return itertools.islice(self._items, self._size)

    def __reversed__(self) -> Iterator[T]:
        return (self._items[i] for i in range(self._size - 1, -1, -1))

    @overload
    def __getitem__(self, index: SupportsIndex) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> T | list[T]:
        """An item, or a slice as a plain ``list``."""
        if isinstance(index, slice):
            return self._visible()[index]
        return self._items[self._position(index)]

    def _position(self, index: SupportsIndex) -> int:
        i = index.__index__()
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError("CowList index out of range")
        return i

    def _visible(self) -> list[T]:
        """This fork's items as a list (the backing list itself when it holds no more)."""
        items = self._items
        return items if len(items) == self._size else items[: self._size]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CowList):
            if other._items is self._items and other._size == self._size:
                return True
            return self._visible() == other._visible()
        if isinstance(other, list):
            return self._visible() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CowList({self._visible()!r})"

    def __add__(self, other: Iterable[T]) -> list[T]:
        return [*self, *other]

    def __radd__(self, other: Iterable[T]) -> list[T]:
        return [*other, *self]

    # -- writing ---------------------------------------------------------------------
    def _own(self) -> list[T]:
        """The backing list, copied first unless this fork alone holds it."""
        if not self._owned or len(self._items) != self._size:
            self._items = self._items[: self._size]
            self._owned = True
        return self._items

    def append(self, value: T) -> None:
        if len(self._items) != self._size:  # another fork appended past our end
            self._items = self._items[: self._size]
            self._owned = True
        self._items.append(value)  # past every other fork's end: they never see it
        self._size += 1

    def extend(self, values: Iterable[T]) -> None:
        new = list(values)
        if len(self._items) != self._size:
            self._items = self._items[: self._size]
            self._owned = True
        self._items.extend(new)
        self._size += len(new)

    def __iadd__(self, values: Iterable[T]) -> Self:
        self.extend(values)
        return self

    @overload
    def __setitem__(self, index: SupportsIndex, value: T) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[T]) -> None: ...
    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        items = self._own()
        items[index] = value
        self._size = len(items)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        items = self._own()
        del items[index]
        self._size = len(items)

    def insert(self, index: SupportsIndex, value: T) -> None:
        items = self._own()
        items.insert(index, value)
        self._size = len(items)

    def pop(self, index: SupportsIndex = -1) -> T:
        items = self._own()
        value = items.pop(index)
        self._size = len(items)
        return value

    def clear(self) -> None:
        self._items, self._size, self._owned = [], 0, True

    def sort(self, *, key: Callable[[T], Any] | None = None, reverse: bool = False) -> None:
        self._own().sort(key=key, reverse=reverse)

    def reverse(self) -> None:
        self._own().reverse()

    # -- copying and pickling ----------------------------------------------------------
    def __copy__(self) -> CowList[T]:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> CowList[T]:
        return CowList(copy.deepcopy(self._visible(), memo))

    def __reduce__(self) -> tuple[Any, ...]:
        return (CowList, (self._visible(),))


class CowDict(MutableMapping[K, V], Generic[K, V]):
    """A dict whose ``fork()`` is O(1); the first change after a fork copies it once.

    Values are shared between forks; change one in place only through ``mutable``.

    Args:
        data: The first entries, as a mapping or ``(key, value)`` pairs (default: none).
    """

    __slots__ = ("_data", "_mine", "_owned")

    def __init__(self, data: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._data: dict[K, V] = dict(data)
        self._owned = True
        self._mine: set[K] | None = None
        """Keys whose values this fork alone holds (None: all of them, it was never forked)."""

    def fork(self) -> CowDict[K, V]:
        """An independent twin, in O(1)."""
        twin: CowDict[K, V] = CowDict.__new__(type(self))
        twin._data, twin._owned, twin._mine = self._data, False, set()
        self._owned, self._mine = False, set()
        return twin

    def mutable(self, key: K) -> V:
        """The value under ``key``, safe to change in place: on the first call after a fork
        it is replaced by a deep copy that this fork alone holds."""
        value = self._data[key]
        if self._mine is None or key in self._mine:
            return value
        value = copy.deepcopy(value)
        self[key] = value
        return value

    copy = fork

    def _own(self) -> dict[K, V]:
        if not self._owned:
            self._data = dict(self._data)
            self._owned = True
        return self._data

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: K, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __setitem__(self, key: K, value: V) -> None:
        self._own()[key] = value
        if self._mine is not None:
            self._mine.add(key)

    def __delitem__(self, key: K) -> None:
        self._own().__delitem__(key)

    def clear(self) -> None:
        self._data, self._owned, self._mine = {}, True, None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CowDict):
            return other._data is self._data or self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CowDict({self._data!r})"

    def __copy__(self) -> CowDict[K, V]:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> CowDict[K, V]:
        return CowDict(copy.deepcopy(self._data, memo))

    def __reduce__(self) -> tuple[Any, ...]:
        return (CowDict, (dict(self._data),))


_ATOMS = (
    type(None),
    bool,
    int,
    float,
    complex,
    str,
    bytes,
    range,
    frozenset,
    enum.Enum,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
    functools.partial,
)


def is_immutable(value: object) -> bool:
    """Whether ``value`` is shared safely as it is: atoms (numbers, strings, ``None``, enums),
    functions and classes, tuples of such values, and instances of frozen dataclasses or
    frozen pydantic models (by convention: their fields are never changed in place)."""
    if isinstance(value, _ATOMS):
        return True
    if isinstance(value, tuple):
        return all(is_immutable(item) for item in value)
    params = getattr(type(value), "__dataclass_params__", None)
    if params is not None:
        return bool(params.frozen)
    config = getattr(type(value), "model_config", None)
    return isinstance(config, dict) and bool(config.get("frozen"))


def fork_value(value: T) -> T:
    """One attribute's share of a fork: a ``Forkable`` forks itself (O(1) for the containers
    here and for vector stores), an immutable value is shared, anything else is deep-copied
    (independent, but at a cost that grows with its size)."""
    if isinstance(value, Forkable) and not isinstance(value, type):
        return value.fork()
    if is_immutable(value):
        return value
    return copy.deepcopy(value)


def fork_fields(obj: T, *, share: Iterable[str] = ()) -> T:
    """A twin of ``obj`` whose attributes are forks of the original's.

    Args:
        obj: The object to fork (a memory module, say).
        share: Attributes passed on as they are: configuration and resources that never
            change, such as an embedder.

    Returns:
        An object of the same class, its ``__init__`` not called, each attribute the
        ``fork_value`` of the original's (a copy-on-write fork, a shared immutable value, or a
        deep copy).
    """
    shared = set(share)
    twin = object.__new__(type(obj))
    twin.__dict__.update(
        {name: v if name in shared else fork_value(v) for name, v in vars(obj).items()}
    )
    return twin
