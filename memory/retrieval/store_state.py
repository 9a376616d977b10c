"""A vector store's saved state, read and checked whole before any store changes.

Both kinds of store save the same shape (``embedder``, ``records``, ``vectors`` as one base64
block of float32 rows, and ``lexical`` for a lexical or hybrid store), so either kind loads the
other's state. ``read_saved`` checks every part and gives back the ids, texts, metadata and
vectors; ``restored_lexical`` the lexical index a store gets from it.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from cogarch.core.state import StateError, state_object, state_part, state_value

from .lexical import LexicalIndex
from .records import VectorStoreError
from .search import SearchParams

OWNER = "vector store"


class StoreStateError(StateError, VectorStoreError):
    """A store's saved state that cannot be loaded (the store is unchanged)."""


class _Saved(BaseModel):
    """One record of a saved store (older states give its ``embedding`` with it)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    metadata: dict[str, Any] | None = None
    embedding: list[float] | None = None


Saved = tuple[list[str], list[str], list[dict[str, Any]], list[Any]]
"""The ids, texts, metadata and vectors of a saved state."""


def embedder_version(embedder: Any) -> str | None:
    """What an embedder's vectors depend on besides the text (its ``version``: a model's
    precision), or None for an embedder that gives the same vectors everywhere."""
    version = getattr(embedder, "version", None)
    return str(version) if version is not None else None


def read_saved(
    state: Any,
    embedder_name: str,
    dim: int,
    embed: Callable[[list[str]], Sequence[Any]],
    *,
    version: str | None = None,
) -> Saved:
    """The ids, texts, metadata and vectors of a saved state, every part checked; records
    saved without a vector, or every record when the state's ``embedder_version`` is not
    ``version`` (vectors of another precision), are embedded with ``embed``."""
    owner = OWNER
    state = state_object(state, owner)
    if state.get("embedder") not in (None, embedder_name):
        raise StateError(
            f"the state was saved with the '{state['embedder']}' embedder but this store "
            f"uses '{embedder_name}'; load it into a store with the same embedder"
        )
    records = state_value({"records": state.get("records", [])}, "records", list, owner)
    with state_part(owner, "records"):
        checked = [_Saved.model_validate(r) for r in records]
    vectors: list[Any] = [r.embedding for r in checked]
    block = state.get("vectors")
    if block is not None and not isinstance(block, Mapping):
        raise StateError(f"the {owner} state's 'vectors' is not an object; it is damaged")
    if isinstance(block, Mapping) and records:
        try:
            raw = np.frombuffer(base64.b64decode(str(block["base64"])), dtype="<f4")
        except (KeyError, ValueError) as exc:  # binascii.Error is a ValueError
            raise StateError(
                f"the {owner} state's 'vectors' cannot be read ({exc}); it is damaged"
            ) from None
        if raw.size != len(records) * dim:
            raise StateError(
                f"the {owner} state's 'vectors' hold {raw.size} values for {len(records)} "
                f"records of {dim} dimensions; it is damaged, or from another "
                "embedder"
            )
        vectors = list(raw.reshape(len(records), dim))
    given = [v for v in vectors if v is not None]
    if given:
        with state_part(owner, "vectors"):
            matrix = np.asarray(given, dtype=np.float32)
            if matrix.ndim != 2 or matrix.shape[1] != dim:
                raise ValueError(f"vectors of shape {matrix.shape}, not {dim}-long")
        if not np.isfinite(matrix).all():
            raise StateError(
                f"the {owner} state's 'vectors' hold values that are not finite numbers "
                "(NaN or infinite); it is damaged"
            )
    if state.get("embedder_version") != version:
        vectors = [None] * len(checked)  # another version's vectors: never mixed with ours
    missing = [i for i, v in enumerate(vectors) if v is None]
    if missing:
        computed = embed([checked[i].text for i in missing])
        for i, vector in zip(missing, computed, strict=True):
            vectors[i] = vector
    ids = [r.id for r in checked]
    if len(set(ids)) != len(ids):
        raise StateError(f"the {owner} state's 'records' hold an id twice; it is damaged")
    return ids, [r.text for r in checked], [dict(r.metadata or {}) for r in checked], vectors


def restored_lexical(
    search: SearchParams, state: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> LexicalIndex | None:
    """The lexical index a store with ``search`` gets from a saved ``state`` of ``records``
    (checked before anything is replaced; see ``LexicalIndex.restored``); None for dense."""
    if search.mode == "dense":
        return None
    saved = state.get("lexical")
    return LexicalIndex.restored(
        saved if isinstance(saved, Mapping) else None,
        [(str(r["id"]), str(r["text"])) for r in records],
    )
