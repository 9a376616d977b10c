"""Any interleaving of writes over a vector store (or a lexical index) and its forks, with a
plain dict per store of what it must hold: the writes it made and those made before its fork."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from cogarch.memory.retrieval.chroma_store import ChromaVectorStore
from cogarch.memory.retrieval.lexical import LexicalIndex
from cogarch.memory.retrieval.vector_store import VectorStore

Store = VectorStore | ChromaVectorStore
Forking = Store | LexicalIndex
"""What ``play_forks`` writes to: ``add``, ``update``, ``delete``, ``clear`` and ``fork``."""
Op = tuple[int, str, int]
Expected = dict[str, tuple[str, dict[str, Any] | None]]
"""By entry id, its text and metadata (None when written without)."""


def fork_ops(ids: int, actions: Sequence[str], max_size: int) -> st.SearchStrategy[list[Op]]:
    """Lists of (which store acts, modulo how many exist; the action; which entry id)."""
    return st.lists(
        st.tuples(st.integers(0, ids - 1), st.sampled_from(list(actions)), st.integers(0, ids - 1)),
        max_size=max_size,
    )


def play_forks(
    first: Forking,
    ops: list[Op],
    words: Sequence[str],
    changed: Callable[[int], str],
    *,
    metadata: bool = False,
    after_each: Callable[[list[Any], list[Expected]], None] | None = None,
) -> tuple[list[Any], list[Expected]]:
    """Apply ``ops`` to ``first`` and the forks they make: ``add`` writes a word (with the
    step as metadata when ``metadata``), ``update`` writes ``changed(step)``, ``meta`` changes
    the metadata alone; ``after_each`` checks every store after every op. Returns each store
    with what it must hold."""
    stores: list[Forking] = [first]
    expected: list[Expected] = [{}]
    for step, (who, op, n) in enumerate(ops):
        i = who % len(stores)
        store, model = stores[i], expected[i]
        entry = f"e{n}"
        if op == "fork":
            stores.append(store.fork())
            expected.append(dict(model))
        elif op == "add" and entry not in model:
            text = words[(n + step) % len(words)]
            if metadata:
                assert not isinstance(store, LexicalIndex), "a lexical index keeps no metadata"
                store.add([entry], [text], [{"step": step}])
                model[entry] = (text, {"step": step})
            else:
                store.add([entry], [text])
                model[entry] = (text, None)
        elif op == "update" and entry in model:
            store.update([entry], [changed(step)])
            model[entry] = (changed(step), model[entry][1])
        elif op == "meta" and entry in model:
            assert not isinstance(store, LexicalIndex), "a lexical index keeps no metadata"
            store.update([entry], metadatas=[{"meta": step}])
            model[entry] = (model[entry][0], {"meta": step})
        elif op == "delete":
            store.delete([entry])
            model.pop(entry, None)
        elif op == "clear":
            store.clear()
            model.clear()
        if after_each is not None:
            after_each(stores, expected)
    return stores, expected
