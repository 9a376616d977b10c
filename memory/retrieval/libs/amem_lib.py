"""A-Mem itself (the ``a-mem`` library, a packaged fork of A-Mem's code) as a memory module,
beside cogarch's ``amem``.

Configured as the Hangman paper ran it, offline: ``agentic_memory.memory_system.
AgenticMemorySystem`` with its ChromaDB collection in a folder the module owns, its embedder
(sentence-transformers through ChromaDB) given the local all-MiniLM-L6-v2 model, and its
``openai`` backend's own OpenAI client pointed at cogarch's model proxy (the library reads its
base URL only from ``OPENAI_BASE_URL``, so the module gives the backend a client of the same
class with the proxy's address), every call metered, seeded and cached by cogarch.

Writing, after each turn: ``add_note(latest user message, time)``: the library annotates the
note (keywords, context, tags: one call) and decides its evolution against its nearest notes
(a second call once notes exist). The library's analysis sees the note's content only: the
paper's window of m = 30 messages is the responder's history here, as in cogarch's ``amem``.
Reading: ``search(query, k)`` for k = 8 notes, each read back with its content, shown for the
``{notes_block}`` placeholder as cogarch's ``amem`` shows its notes. Provenance: the module
keeps the source ids of every note it added, by the note's id.

Fork: a fresh system over a new folder holding a copy of the collection (ids, documents,
metadata, embeddings). State: the collection as JSON values.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import weakref
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.models.proxy import ProxySession

from ..embeddings import MINILM_DIM, minilm_model
from ..messages import LoggedMessage
from ..params import RetrievalParams, Role
from ..provenance import SOURCE_KEY
from .base import LibraryModule, LibraryParams
from .offline import AMEM, load, minilm_path

_SETUP_LOCK = threading.Lock()


class AMemLibParams(LibraryParams):
    window: int = Field(default=30, ge=1)
    top_k: int = Field(default=8, ge=1)
    ingest_roles: tuple[Role, ...] = Field(
        default=("user",),
        description="The paper's A-Mem agent adds one note from the latest user message.",
    )
    evo_threshold: int = Field(default=100, ge=1, description="The library's evolution count.")


class _Collection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ids: list[str]
    documents: list[str]
    metadatas: list[dict[str, Any]]
    embeddings: list[list[float]]


class AMemLibMemory(LibraryModule):
    """``AgenticMemorySystem`` itself, its calls through cogarch's model layer."""

    kind: ClassVar[str] = "amem_lib"
    prompt_key: ClassVar[str] = "notes_block"
    library = AMEM
    Params: ClassVar[type[RetrievalParams]] = AMemLibParams
    params: AMemLibParams

    def _setup(self) -> None:
        self.note_sources: dict[str, list[str]] = {}
        """The source ids of every note the module added, by note id."""
        super()._setup()

    # ------------------------------------------------------------------ library

    def _open(self, session: ProxySession) -> Any:
        module = _prepare(self.kind)
        folder = Path(tempfile.mkdtemp(prefix="cogarch-amem-"))
        try:
            system = module.AgenticMemorySystem(
                model_name=str(minilm_path()),
                llm_backend="openai",
                llm_model=self.model_name,
                evo_threshold=self.params.evo_threshold,
                api_key=session.token,
                storage_path=str(folder),
            )
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        weakref.finalize(system, shutil.rmtree, str(folder), ignore_errors=True)
        from openai import OpenAI

        system.llm_controller.llm.client = OpenAI(api_key=session.token, base_url=session.base_url)
        return system

    def _copy(self, lib: Any, session: ProxySession) -> Any:
        system = self._open(session)
        _fill(system, _collection(lib))
        system.evo_cnt = lib.evo_cnt
        return system

    def _after_fork(self, clone: Self) -> None:
        clone.note_sources = dict(self.note_sources)

    def _dump(self) -> dict[str, Any]:
        return {
            "collection": _collection(self.lib).model_dump(),
            "evo_cnt": int(self.lib.evo_cnt),
            "note_sources": dict(self.note_sources),
        }

    def _restore(self, data: Mapping[str, Any], session: ProxySession) -> Any:
        collection = _Collection.model_validate(data.get("collection"))
        sizes = {len(collection.ids), len(collection.documents), len(collection.metadatas)}
        if len(sizes | {len(collection.embeddings)}) != 1:
            raise ValueError("the collection's ids, documents, metadata and embeddings differ")
        repeated = sorted(i for i, n in Counter(collection.ids).items() if n > 1)
        if repeated:
            raise ValueError(f"the collection holds the note id(s) {repeated[:5]} more than once")
        if any(len(e) != MINILM_DIM for e in collection.embeddings):
            raise ValueError(f"every embedding must have {MINILM_DIM} dimensions")
        sources = data.get("note_sources", {})
        if not isinstance(sources, Mapping):
            raise ValueError("'note_sources' must be an object")
        system = self._open(session)
        _fill(system, collection)
        system.evo_cnt = int(data.get("evo_cnt", 0))
        self._pending_sources = {str(k): [str(i) for i in v] for k, v in sources.items()}
        return system

    def _loaded(self, data: Mapping[str, Any]) -> None:
        self.note_sources = getattr(self, "_pending_sources", {})

    # ------------------------------------------------------------------ writing and reading

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        for message in new:
            stamp = self.message_time(turn, message.role).strftime("%Y%m%d%H%M")
            note_id = await self.call(ctx, self.lib.add_note, message.text, stamp, write=True)
            self.note_sources[str(note_id)] = list(message.source_ids)
            self.revision += 1
            self.count("notes")

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        def search() -> list[tuple[dict[str, Any], Any]]:
            hits = self.lib.search(query, self.params.top_k)
            return [(hit, self.lib.read(hit["id"])) for hit in hits]

        found = await self.call(ctx, search)
        return [self._item(note, float(hit.get("score") or 0.0)) for hit, note in found if note]

    def _item(self, note: Any, score: float) -> MemoryItem:
        fields = {
            "content": note.content,
            "keywords": list(note.keywords or []),
            "tags": list(note.tags or []),
            "context": note.context,
            "timestamp": note.timestamp,
            "links": list(note.links or []),
            SOURCE_KEY: self.note_sources.get(str(note.id), []),
        }
        return MemoryItem(str(note.id), str(note.content), round(score, 6), fields)

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n\n".join(_render(item.fields) for item in items)

    def notes(self) -> list[MemoryItem]:
        """Every note, oldest first."""
        ids = _collection(self.lib).ids
        notes = [self.lib.read(i) for i in ids]
        items = [self._item(n, 0.0) for n in notes if n]
        return sorted(items, key=lambda m: (str(m.fields.get("timestamp")), m.id))

    def memories(self) -> list[MemoryItem]:
        return self.notes()

    def private_text(self) -> str:
        return self._format(self.notes())


def _prepare(kind: str) -> Any:
    """The library's memory system module, its embedder given the local model and its error
    prints silenced (the module counts what failed)."""
    module = load(AMEM, kind, "memory_system")
    with _SETUP_LOCK:
        module.__dict__["print"] = lambda *args, **kwargs: None
        from chromadb.utils.embedding_functions import SentenceTransformerEmbeddingFunction

        SentenceTransformerEmbeddingFunction.models.setdefault(str(minilm_path()), minilm_model())
    return module


def _collection(system: Any) -> _Collection:
    got = system.retriever.collection.get(include=["documents", "metadatas", "embeddings"])
    embeddings = got.get("embeddings")
    return _Collection(
        ids=[str(i) for i in got.get("ids") or []],
        documents=[str(d) for d in got.get("documents") or []],
        metadatas=[dict(m or {}) for m in got.get("metadatas") or []],
        embeddings=[[float(x) for x in e] for e in (embeddings if embeddings is not None else [])],
    )


def _fill(system: Any, collection: _Collection) -> None:
    if collection.ids:
        system.retriever.collection.add(
            ids=collection.ids,
            documents=collection.documents,
            metadatas=collection.metadatas,
            embeddings=collection.embeddings,
        )


def _render(fields: Mapping[str, Any]) -> str:
    keywords = ", ".join(str(k) for k in fields.get("keywords", [])) or "-"
    tags = ", ".join(str(t) for t in fields.get("tags", [])) or "-"
    return (  # as cogarch's amem shows a note
        f"- Content: {fields.get('content', '')}\nKeywords: {keywords}\nTags: {tags}\n"
        f"Context: {fields.get('context', '')}"
    )
