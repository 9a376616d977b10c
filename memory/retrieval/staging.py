"""A retrieval module's saved state, read into new values before any of them replaces the old.

``RetrievalModule.load_state`` reads the module's own part of a state (``_load_own_state``)
through a :class:`Staging`: each store is loaded into a new store (the old one is dropped only
once the whole state has been read), and each value is checked for its type, so a malformed
part raises :class:`~cogarch.core.state.StateError` naming it and the module stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from cogarch.core.state import StateError, state_part, state_value

from .store_base import BaseStore

M = TypeVar("M", bound=BaseModel)


class Staging:
    """Reads a module's own part (``data``) of a state, keeping the stores it made so they
    are dropped if the state turns out unusable."""

    def __init__(self, owner: str, data: Any, new_store: Callable[[str], BaseStore]) -> None:
        if not isinstance(data, Mapping):
            raise StateError(
                f"the {owner} state's 'data' is a {type(data).__name__}, not an object"
            )
        self.owner, self.data = owner, data
        self._new_store = new_store
        self.stores: list[BaseStore] = []

    def _part(self, key: str) -> str:
        return f"data.{key}"

    def store(self, key: str, name: str) -> BaseStore:
        """A new store holding the saved store ``key`` (a missing one is empty)."""
        state = self.data.get(key, {})
        store = self._new_store(name)
        self.stores.append(store)
        try:
            with state_part(self.owner, self._part(key)):
                state_value({key: state}, key, dict, f"{self.owner} {self._part(key)}")
                store.load_state(state)
        except StateError as exc:
            raise StateError(f"the {self.owner} state's '{self._part(key)}': {exc}") from None
        return store

    def integer(self, key: str, default: int) -> int:
        if key not in self.data:
            return default
        return int(state_value(self.data, key, int, f"{self.owner} data"))

    def text(self, key: str, default: str | None) -> str | None:
        if self.data.get(key) is None:
            return default
        return str(state_value(self.data, key, str, f"{self.owner} data"))

    def items(self, key: str, model: type[M]) -> list[M]:
        """The saved list ``key`` (a missing one is empty), each entry checked by ``model``."""
        if key not in self.data:
            return []
        with state_part(self.owner, self._part(key)):
            return [
                model.model_validate(v)
                for v in state_value(self.data, key, list, f"{self.owner} data")
            ]

    def integers(self, key: str) -> list[int]:
        if key not in self.data:
            return []
        values = state_value(self.data, key, list, f"{self.owner} data")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise StateError(f"the {self.owner} state's '{self._part(key)}' holds non-integers")
        return list(values)

    def floats(self, key: str) -> list[float] | None:
        value = self.data.get(key)
        if value is None:
            return None
        values = state_value(self.data, key, list, f"{self.owner} data")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise StateError(f"the {self.owner} state's '{self._part(key)}' holds non-numbers")
        return [float(v) for v in values]

    def counters(self, key: str, defaults: Mapping[str, int]) -> dict[str, int]:
        value = self.data.get(key, {})
        found = state_value({key: value}, key, dict, f"{self.owner} data")
        if not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in found.items()
        ):
            raise StateError(f"the {self.owner} state's '{self._part(key)}' holds non-counts")
        return {**defaults, **found}

    def drop(self) -> None:
        """Let go of the stores made (the state was not used)."""
        for store in self.stores:
            store.drop()
